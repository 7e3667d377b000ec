// Go's string forms, as values, diagnostics, JSON documents and logs print them: strconv.Quote,
// encoding/json's string escaping, time.Duration's String. No imports, so that the smallest
// modules can use it.

/** Go's strconv.Quote (%q): printable Unicode stays, the rest is escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (c) {
      case 0x07:
        out += "\\a";
        continue;
      case 0x08:
        out += "\\b";
        continue;
      case 0x0c:
        out += "\\f";
        continue;
      case 0x0a:
        out += "\\n";
        continue;
      case 0x0d:
        out += "\\r";
        continue;
      case 0x09:
        out += "\\t";
        continue;
      case 0x0b:
        out += "\\v";
        continue;
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += "\\\\";
        continue;
    }
    if (c < 0x20 || c === 0x7f) {
      out += "\\x" + c.toString(16).padStart(2, "0");
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += "\\ufffd";
    } else if (c > 0x7e && !/[\p{L}\p{M}\p{N}\p{P}\p{S}]|\u0020/u.test(ch)) {
      out += c > 0xffff ? "\\U" + c.toString(16).padStart(8, "0") : "\\u" + c.toString(16).padStart(4, "0");
    } else {
      out += ch;
    }
  }
  return out + '"';
}

// What goJSONString must rewrite: quotes, backslashes, controls, HTML characters, U+2028/9, surrogates.
const NEEDS_GO_ESCAPE = /["\\<>&\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** A JSON string literal escaped as Go's encoding/json does (HTML-safe, U+2028/9 escaped). */
export function goJSONString(s: string): string {
  // Most strings need no escape at all (a state's base64 data, names, ids): one scan, no copy.
  if (!NEEDS_GO_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += "\\\\";
        continue;
      case 0x0a:
        out += "\\n";
        continue;
      case 0x0d:
        out += "\\r";
        continue;
      case 0x09:
        out += "\\t";
        continue;
      case 0x3c:
        out += "\\u003c";
        continue;
      case 0x3e:
        out += "\\u003e";
        continue;
      case 0x26:
        out += "\\u0026";
        continue;
      case 0x2028:
        out += "\\u2028";
        continue;
      case 0x2029:
        out += "\\u2029";
        continue;
    }
    if (c < 0x20) {
      out += "\\u00" + c.toString(16).padStart(2, "0");
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 in Go and becomes U+FFFD.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i] + (s[i + 1] as string);
        i++;
      } else {
        out += "\ufffd";
      }
    } else {
      out += s[i];
    }
  }
  return out + '"';
}

/** Go's time.Duration String for a whole number of milliseconds: "0s", "500ms", "1.5s", "2m0s", "1h0m0s". */
export function goDurationString(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = `${Number(((ms % 60_000) / 1000).toFixed(3))}s`;
  return h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
}
