// Text primitives the string functions share, with Go's semantics rather than JavaScript's:
// grapheme clusters (cty counts "characters" with textseg), per-rune simple case mapping
// (Go's unicode.ToUpper/ToLower/ToTitle, so "ß" stays "ß" and "İ" lowers to "i"), Go's
// unicode.IsSpace, and UTF-8 lengths for the few places cty measures bytes.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

// Viramas (Indic "linkers"). Unicode 15.1 made a virama followed by a consonant one cluster
// (rule GB9c); OpenTofu's textseg implements Unicode 15.0, where the consonant starts a new one.
const VIRAMAS = new Set([
  0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d4d, 0x0dca, 0x0e3a, 0x0f84, 0x1039, 0x103a, 0x1714, 0x1734,
  0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f, 0x11046,
  0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d, 0x11442, 0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b,
  0x11839, 0x1193d, 0x1193e, 0x119e0, 0x11a34, 0x11a47, 0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97,
]);
const MARK_OR_JOINER = /^[\p{M}\u200c\u200d]$/u;
const LETTER_CHAR = /^\p{L}$/u;

/** Splits an ICU cluster where Unicode 15.0 breaks: before a letter that follows a virama. */
function splitConjuncts(cluster: string, out: string[]): void {
  let start = 0;
  let afterVirama = false;
  let i = 0;
  for (const ch of cluster) {
    const cp = ch.codePointAt(0) as number;
    if (afterVirama && i > start && LETTER_CHAR.test(ch)) {
      out.push(cluster.slice(start, i));
      start = i;
      afterVirama = false;
    }
    if (VIRAMAS.has(cp)) afterVirama = true;
    else if (!MARK_OR_JOINER.test(ch)) afterVirama = false;
    i += ch.length;
  }
  out.push(cluster.slice(start));
}

/** The grapheme clusters of `s`, in order (textseg's Unicode 15.0 rules). */
export function graphemes(s: string): string[] {
  const out: string[] = [];
  for (const seg of segmenter.segment(s)) {
    if (seg.segment.length > 1) splitConjuncts(seg.segment, out);
    else out.push(seg.segment);
  }
  return out;
}

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
