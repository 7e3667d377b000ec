// Text primitives the string functions share, with Go's semantics rather than JavaScript's:
// grapheme clusters (cty counts "characters" with textseg), per-rune simple case mapping
// (Go's unicode.ToUpper/ToLower/ToTitle, so "ß" stays "ß" and "İ" lowers to "i"), Go's
// unicode.IsSpace, and UTF-8 lengths for the few places cty measures bytes.
import { graphemes } from "../../values/graphemes.js";

export { graphemes };

/** Length of `s` in UTF-8 bytes. */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

// Greek letters with ypogegrammeni: JavaScript maps them to two letters (full case mapping);
// Go's simple mapping has a one-letter titlecase form for them.
function greekIotaUpper(cp: number): number | undefined {
  if ((cp >= 0x1f80 && cp <= 0x1f87) || (cp >= 0x1f90 && cp <= 0x1f97) || (cp >= 0x1fa0 && cp <= 0x1fa7)) return cp + 8;
  if (cp === 0x1fb3) return 0x1fbc;
  if (cp === 0x1fc3) return 0x1fcc;
  if (cp === 0x1ff3) return 0x1ffc;
  return undefined;
}

function single(s: string): number | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

/** Go's unicode.ToUpper: the simple uppercase mapping of one code point. */
export function toUpperRune(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  const iota = greekIotaUpper(cp);
  if (iota !== undefined) return iota;
  return single(String.fromCodePoint(cp).toUpperCase()) ?? cp;
}

/** Go's unicode.ToLower: the simple lowercase mapping of one code point. */
export function toLowerRune(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp === 0x130) return 0x69; // İ: the full mapping adds a combining dot
  return single(String.fromCodePoint(cp).toLowerCase()) ?? cp;
}

/** Go's unicode.ToTitle: like ToUpper except for the digraphs and Georgian letters. */
export function toTitleRune(cp: number): number {
  if (cp >= 0x1c4 && cp <= 0x1c6) return 0x1c5;
  if (cp >= 0x1c7 && cp <= 0x1c9) return 0x1c8;
  if (cp >= 0x1ca && cp <= 0x1cc) return 0x1cb;
  if (cp >= 0x1f1 && cp <= 0x1f3) return 0x1f2;
  // Georgian Mkhedruli letters are their own titlecase (their uppercase is Mtavruli).
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return cp;
  return toUpperRune(cp);
}

export function mapRunes(s: string, f: (cp: number) => number): string {
  let out = "";
  for (const ch of s) out += String.fromCodePoint(f(ch.codePointAt(0) as number));
  return out;
}

const WHITE_SPACE = /^\p{White_Space}$/u;

/** Go's unicode.IsSpace. */
export function isSpaceRune(cp: number): boolean {
  if (cp <= 0xff) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85 || cp === 0xa0;
  return WHITE_SPACE.test(String.fromCodePoint(cp));
}

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

/** Go's unicode.IsLetter. */
export function isLetterRune(cp: number): boolean {
  return LETTER.test(String.fromCodePoint(cp));
}

/** Go's unicode.IsDigit. */
export function isDigitRune(cp: number): boolean {
  return DIGIT.test(String.fromCodePoint(cp));
}
