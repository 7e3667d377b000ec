// Source text handling. Parsers take a JavaScript string or UTF-8 bytes. Bytes that are not valid
// UTF-8 are kept, one per character, as the lone surrogates U+DC80..U+DCFF ("surrogate escape"),
// so the scanner can report them as "Invalid character encoding" at their exact byte offsets.

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function isBadByte(src: string, i: number): boolean {
  const c = src.charCodeAt(i);
  // A low surrogate in this range is also the second half of an astral character (U+1F4A9 is
  // D83D DCA9): it is an escaped byte only when no high surrogate precedes it.
  return c >= 0xdc80 && c <= 0xdcff && !(i > 0 && (src.charCodeAt(i - 1) & 0xfc00) === 0xd800);
}

export function decodeSource(src: string | Uint8Array): string {
  if (typeof src === "string") return src;
  try {
    return strictDecoder.decode(src);
  } catch {
    return decodeWithEscapes(src);
  }
}

function decodeWithEscapes(b: Uint8Array): string {
  const out: number[] = [];
  const parts: string[] = [];
  const flush = () => {
    if (out.length > 0) {
      parts.push(String.fromCharCode(...out));
      out.length = 0;
    }
  };
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i] ?? 0;
    let len = 0;
    let cp = 0;
    if (c < 0x80) {
      len = 1;
      cp = c;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07;
    }
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) {
      const d = b[i + k] ?? 0;
      if ((d & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (d & 0x3f);
    }
    if (ok && ((len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)))) ok = false;
    if (!ok) {
      out.push(0xdc00 + c);
      i++;
    } else {
      if (cp > 0xffff) {
        cp -= 0x10000;
        out.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else out.push(cp);
      i += len;
    }
    if (out.length > 8192) flush();
  }
  flush();
  return parts.join("");
}

/** The UTF-8 byte length of a JavaScript string, counting escaped bad bytes as one byte each. */
export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else if (c >= 0xdc80 && c <= 0xdcff) n += 1;
    else n += 3;
  }
  return n;
}
