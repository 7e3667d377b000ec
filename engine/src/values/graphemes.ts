// Grapheme clusters as cty counts "characters": go-textseg's Unicode 15.0 rules. Intl.Segmenter
// follows a newer Unicode, so its clusters are split where 15.0 breaks; where it is missing (some
// embedded runtimes), a code point and the combining marks after it make one cluster.

const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
// Made on first use: ICU's segmenter costs ~8 ms to set up, which every command would pay.
let segmenter: Intl.Segmenter | undefined;

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
  if (!Segmenter) return fallbackGraphemes(s);
  segmenter ??= new Segmenter(undefined, { granularity: "grapheme" });
  for (const seg of segmenter.segment(s)) {
    if (seg.segment.length > 1) splitConjuncts(seg.segment, out);
    else out.push(seg.segment);
  }
  return out;
}

function fallbackGraphemes(s: string): string[] {
  const out: string[] = [];
  for (const ch of s) {
    if (out.length > 0 && MARK_OR_JOINER.test(ch)) out[out.length - 1] += ch;
    else out.push(ch);
  }
  return out;
}
