// Writing a string as an HCL quoted literal, as hclwrite's TokensForValue does
// (escapeQuotedStringLit): the escapes HCL needs, non-printing characters as \uXXXX or
// \UXXXXXXXX, and `${` / `%{` doubled so the text is not read back as a template sequence.
// fmt, the encode functions, instance keys and the lock file all write strings this way.

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** The text between the quotes of a quoted literal for `s`. */
export function escapeQuotedStringLit(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    switch (ch) {
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "$":
      case "%":
        out += s.charCodeAt(i) === 123 ? ch + ch : ch;
        break;
      default:
        if (PRINTABLE.test(ch)) out += ch;
        else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
        else out += `\\U${cp.toString(16).padStart(8, "0")}`;
    }
  }
  return out;
}

/** `s` as a whole quoted literal, quotes included. */
export function quoteStringLit(s: string): string {
  return `"${escapeQuotedStringLit(s)}"`;
}
