// Resolving escape sequences in string literal tokens, as hclsyntax's ParseStringLiteralToken:
// `\n \r \t \" \\ \uNNNN \UNNNNNNNN` in quoted strings, and `$${` / `%%{` (a literal `${` / `%{`)
// in every template. The result is NFC-normalised, as cty normalises every string.
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import type { Range } from "./pos.js";

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The range of text[from, to) inside a token whose text starts at `range.start` (single-line slices). */
function subRange(range: Range, text: string, from: number, to: number): Range {
  const pos = (k: number) => {
    let line = range.start.line;
    let column = range.start.column;
    let byte = range.start.byte;
    for (let i = 0; i < k; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        line++;
        column = 1;
      } else column++;
      byte += c < 0x80 ? 1 : c < 0x800 ? 2 : (c & 0xfc00) === 0xd800 ? 4 : (c & 0xfc00) === 0xdc00 ? 0 : 3;
    }
    return { line, column, byte };
  };
  return { filename: range.filename, start: pos(from), end: pos(to) };
}

/** NFC normalisation; text below U+0300 (all ASCII and Latin-1) is already normalised. */
export function normalizeNFC(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x300) return s.normalize("NFC");
  }
  return s;
}

/** Whether a literal's text needs no work: no escapes, no `$${`/`%%{`, nothing to normalise. */
export function isPlainLiteral(text: string, quoted: boolean): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x300 || (c === 92 && quoted)) return false;
    // A lone `$` or `%` (shell variables, percentages) is plain text.
    if ((c === 36 || c === 37) && i + 2 < n && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === 123) return false;
  }
  return true;
}

/**
 * Resolves the escapes in one literal token's text. `quoted` is true for quoted strings
 * (backslash escapes apply) and false for heredocs and bare templates. Callers check
 * `isPlainLiteral` first, so a token's range is made only when there is something to resolve.
 */
export function unescapeLiteral(text: string, quoted: boolean, range: Range, diags: Diagnostic[]): string {
  if (isPlainLiteral(text, quoted)) return text;
  const parts: string[] = [];
  let litStart = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 && quoted) {
      if (i > litStart) parts.push(text.slice(litStart, i));
      const sel = i + 1 < n ? text.charCodeAt(i + 1) : -1;
      switch (sel) {
        case 110:
          parts.push("\n");
          i += 2;
          break;
        case 114:
          parts.push("\r");
          i += 2;
          break;
        case 116:
          parts.push("\t");
          i += 2;
          break;
        case 34:
          parts.push('"');
          i += 2;
          break;
        case 92:
          parts.push("\\");
          i += 2;
          break;
        case 117:
        case 85: {
          const want = sel === 117 ? 4 : 8;
          let j = i + 2;
          let value = 0;
          while (j < n && j - (i + 2) < want) {
            const h = hexValue(text.charCodeAt(j));
            if (h < 0) break;
            value = value * 16 + h;
            j++;
          }
          if (j - (i + 2) !== want) {
            diags.push(
              errorDiag(
                "Invalid escape sequence",
                sel === 117
                  ? "The \\u escape sequence must be followed by four hexadecimal digits."
                  : "The \\U escape sequence must be followed by eight hexadecimal digits.",
                subRange(range, text, i, j),
              ),
            );
            parts.push(text.slice(i, j));
          } else if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
            diags.push(
              errorDiag(
                "Invalid escape sequence",
                `Cannot encode character U+${value.toString(16).padStart(4, "0")} in UTF-8.`,
                subRange(range, text, i, j),
              ),
            );
            parts.push(text.slice(i, j));
          } else parts.push(String.fromCodePoint(value));
          i = j;
          break;
        }
        case -1:
          diags.push(
            errorDiag("Invalid escape sequence", "Backslash must be followed by an escape sequence selector character.", subRange(range, text, i, i + 1)),
          );
          parts.push("\\");
          i += 1;
          break;
        default: {
          const w = sel >= 0xd800 && sel <= 0xdbff ? 2 : 1;
          const symbol = text.slice(i + 1, i + 1 + w);
          diags.push(
            errorDiag(
              "Invalid escape sequence",
              `The symbol ${JSON.stringify(symbol)} is not a valid escape sequence selector.`,
              subRange(range, text, i, i + 1 + w),
            ),
          );
          parts.push(symbol);
          i += 1 + w;
        }
      }
      litStart = i;
      continue;
    }
    if ((c === 36 || c === 37) && i + 2 < n && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === 123) {
      // "$${" is a literal "${"; "%%{" a literal "%{".
      parts.push(text.slice(litStart, i + 1));
      parts.push("{");
      i += 3;
      litStart = i;
      continue;
    }
    i++;
  }
  if (parts.length === 0) return normalizeNFC(text);
  if (litStart < n) parts.push(text.slice(litStart));
  return normalizeNFC(parts.join(""));
}
