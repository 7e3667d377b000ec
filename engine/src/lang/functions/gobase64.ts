// Go's encoding/base64 StdEncoding, including how its decoder reports errors: the byte offset of
// a CorruptInputError, which OpenTofu's textdecodebase64 shows. Go's decoder skips \r and \n,
// requires padding, and accepts non-zero trailing bits.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d;

export function base64Encode(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + "==";
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + "=";
  }
  return out;
}

export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; offset: number };

const isNL = (c: number | undefined) => c === 0x0a || c === 0x0d;

/** Go's StdEncoding.DecodeString; on failure, the offset Go's CorruptInputError carries. */
export function base64Decode(text: string): Base64Result {
  const src = new TextEncoder().encode(text);
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let err: number | undefined;
    let j = 0;
    let end = false;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { ok: true, bytes: Uint8Array.from(out) };
        // Padding is required, so a short final quantum is corrupt.
        return { ok: false, offset: si - j };
      }
      const inp = src[si] as number;
      si++;
      const d = DECODE[inp] as number;
      if (d >= 0) {
        dbuf[j] = d;
        continue;
      }
      if (isNL(inp)) {
        j--;
        continue;
      }
      if (inp !== PAD) return { ok: false, offset: si - 1 };
      if (j < 2) return { ok: false, offset: si - 1 };
      if (j === 2) {
        while (si < src.length && isNL(src[si])) si++;
        if (si === src.length) return { ok: false, offset: src.length };
        if (src[si] !== PAD) return { ok: false, offset: si - 1 };
        si++;
      }
      while (si < src.length && isNL(src[si])) si++;
      if (si < src.length) err = si;
      dlen = j;
      end = true;
      break;
    }
    const val = ((dbuf[0] as number) << 18) | ((dbuf[1] as number) << 12) | ((dbuf[2] as number) << 6) | (dbuf[3] as number);
    const b = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out.push(b[k] as number);
    if (err !== undefined) return { ok: false, offset: err };
    if (end) {
      // Go's DecodeString keeps reading after padding; anything left is trailing garbage.
      if (si < src.length) return { ok: false, offset: si };
      return { ok: true, bytes: Uint8Array.from(out) };
    }
  }
}
