// Character encodings by IANA name or alias, as Go's golang.org/x/text/encoding/ianaindex finds
// them for textencodebase64/textdecodebase64: lookup is case-insensitive over the IANA registry's
// names and aliases, and errors name the encoding by its registry name. Decoding uses the
// platform's TextDecoder where its tables agree with x/text's, with x/text's treatment of
// undefined bytes; encoding uses reverse tables built from the decoder. No Node APIs.

export interface TextEncoding {
  /** The IANA registry name (what ianaindex.IANA.Name returns). */
  readonly name: string;
  /** The bytes, or undefined when a character cannot be represented. */
  encode(s: string): Uint8Array | undefined;
  /** The text, with U+FFFD for undefined sequences; undefined when the input is invalid. */
  decode(b: Uint8Array): string | undefined;
}

interface Entry {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly make: () => TextEncoding;
}

function utf8(): TextEncoding {
  return {
    name: "UTF-8",
    encode: (s) => new TextEncoder().encode(s),
    decode: (b) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b),
  };
}

function utf16(name: string, order: "be" | "le" | "bom"): TextEncoding {
  return {
    name,
    encode: (s) => {
      const bom = order === "bom" ? 2 : 0;
      const out = new Uint8Array(bom + s.length * 2);
      if (bom) out.set([0xfe, 0xff]);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        const [hi, lo] = [c >> 8, c & 0xff];
        if (order === "le") out.set([lo, hi], bom + i * 2);
        else out.set([hi, lo], bom + i * 2);
      }
      return out;
    },
    decode: (b) => {
      let label = order === "le" ? "utf-16le" : "utf-16be";
      let bytes = b;
      if (order === "bom" && b.length >= 2) {
        if (b[0] === 0xff && b[1] === 0xfe) [label, bytes] = ["utf-16le", b.subarray(2)];
        else if (b[0] === 0xfe && b[1] === 0xff) bytes = b.subarray(2);
      }
      return new TextDecoder(label, { ignoreBOM: true }).decode(bytes);
    },
  };
}

/** A single-byte encoding from a 256-entry table of code points (-1 = undefined). */
function singleByte(name: string, table: readonly number[]): TextEncoding {
  const reverse = new Map<number, number>();
  table.forEach((cp, b) => {
    if (cp >= 0 && !reverse.has(cp)) reverse.set(cp, b);
  });
  return {
    name,
    encode: (s) => {
      const out: number[] = [];
      for (const ch of s) {
        const b = reverse.get(ch.codePointAt(0) as number);
        if (b === undefined) return undefined;
        out.push(b);
      }
      return Uint8Array.from(out);
    },
    decode: (b) => Array.from(b, (x) => ((table[x] as number) >= 0 ? String.fromCodePoint(table[x] as number) : "\uFFFD")).join(""),
  };
}

/** The table of a single-byte encoding from TextDecoder, with C1 positions the WHATWG tables fill in for undefined bytes marked undefined. */
function whatwgTable(label: string, undefinedC1: boolean): number[] {
  const d = new TextDecoder(label);
  const table: number[] = [];
  for (let b = 0; b < 256; b++) {
    const s = d.decode(Uint8Array.of(b));
    const cp = s.codePointAt(0) as number;
    table.push(s === "\uFFFD" || (undefinedC1 && b >= 0x80 && b <= 0x9f && cp === b) ? -1 : cp);
  }
  return table;
}

const identityTable = (limit: number) => Array.from({ length: 256 }, (_, b) => (b < limit ? b : -1));

/** A multi-byte encoding decoded by TextDecoder and encoded through a reverse table of its one- and two-byte sequences. */
function multiByte(name: string, label: string): TextEncoding {
  let reverse: Map<string, number[]> | undefined;
  const build = () => {
    const m = new Map<string, number[]>();
    const d = new TextDecoder(label);
    for (let b = 0; b < 0x80; b++) m.set(String.fromCharCode(b), [b]);
    // Every two-byte sequence, each followed by a newline so one decode call reads them all.
    const buf: number[] = [];
    const pairs: Array<[number, number]> = [];
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        buf.push(lead, trail, 0x0a);
        pairs.push([lead, trail]);
      }
    }
    for (let b = 0x80; b <= 0xff; b++) {
      const s = d.decode(Uint8Array.of(b));
      if (s.length > 0 && s !== "\uFFFD" && !m.has(s)) m.set(s, [b]);
    }
    const parts = d.decode(Uint8Array.from(buf)).split("\n");
    pairs.forEach((p, i) => {
      const s = parts[i];
      if (s !== undefined && s.length > 0 && !s.includes("\uFFFD") && [...s].length === 1 && !m.has(s)) m.set(s, p);
    });
    return m;
  };
  return {
    name,
    encode: (s) => {
      reverse ??= build();
      const out: number[] = [];
      for (const ch of s) {
        const bytes = reverse.get(ch);
        if (!bytes) return undefined;
        out.push(...bytes);
      }
      return Uint8Array.from(out);
    },
    decode: (b) => new TextDecoder(label).decode(b),
  };
}

const entries: Entry[] = [
  { name: "UTF-8", aliases: ["csUTF8"], make: utf8 },
  { name: "UTF-16", aliases: ["csUTF16"], make: () => utf16("UTF-16", "bom") },
  { name: "UTF-16BE", aliases: ["csUTF16BE"], make: () => utf16("UTF-16BE", "be") },
  { name: "UTF-16LE", aliases: ["csUTF16LE"], make: () => utf16("UTF-16LE", "le") },
  {
    name: "US-ASCII",
    aliases: ["iso-ir-6", "ANSI_X3.4-1968", "ANSI_X3.4-1986", "ISO_646.irv:1991", "ISO646-US", "us", "IBM367", "cp367", "csASCII"],
    make: () => singleByte("US-ASCII", identityTable(0x80)),
  },
  {
    name: "ISO_8859-1:1987",
    aliases: ["iso-ir-100", "ISO_8859-1", "ISO-8859-1", "latin1", "l1", "IBM819", "CP819", "csISOLatin1"],
    make: () => singleByte("ISO_8859-1:1987", identityTable(0x100)),
  },
  iso("ISO_8859-2:1987", ["iso-ir-101", "ISO_8859-2", "ISO-8859-2", "latin2", "l2", "csISOLatin2"], "iso-8859-2"),
  iso("ISO_8859-3:1988", ["iso-ir-109", "ISO_8859-3", "ISO-8859-3", "latin3", "l3", "csISOLatin3"], "iso-8859-3"),
  iso("ISO_8859-4:1988", ["iso-ir-110", "ISO_8859-4", "ISO-8859-4", "latin4", "l4", "csISOLatin4"], "iso-8859-4"),
  iso("ISO_8859-5:1988", ["iso-ir-144", "ISO_8859-5", "ISO-8859-5", "cyrillic", "csISOLatinCyrillic"], "iso-8859-5"),
  iso("ISO_8859-6:1987", ["iso-ir-127", "ISO_8859-6", "ISO-8859-6", "ECMA-114", "ASMO-708", "arabic", "csISOLatinArabic"], "iso-8859-6"),
  iso("ISO_8859-7:1987", ["iso-ir-126", "ISO_8859-7", "ISO-8859-7", "ELOT_928", "ECMA-118", "greek", "greek8", "csISOLatinGreek"], "iso-8859-7"),
  iso("ISO_8859-8:1988", ["iso-ir-138", "ISO_8859-8", "ISO-8859-8", "hebrew", "csISOLatinHebrew"], "iso-8859-8"),
  {
    // WHATWG reads ISO-8859-9 as windows-1254; x/text keeps C1 controls at 0x80–0x9F.
    name: "ISO_8859-9:1989",
    aliases: ["iso-ir-148", "ISO_8859-9", "ISO-8859-9", "latin5", "l5", "csISOLatin5"],
    make: () => singleByte("ISO_8859-9:1989", whatwgTable("windows-1254", false).map((cp, b) => (b >= 0x80 && b <= 0x9f ? b : cp))),
  },
  iso("ISO-8859-10", ["iso-ir-157", "l6", "ISO_8859-10:1992", "csISOLatin6", "latin6"], "iso-8859-10"),
  iso("ISO-8859-13", ["csISO885913"], "iso-8859-13"),
  iso("ISO-8859-14", ["iso-ir-199", "ISO_8859-14:1998", "ISO_8859-14", "latin8", "iso-celtic", "l8", "csISO885914"], "iso-8859-14"),
  iso("ISO-8859-15", ["ISO_8859-15", "Latin-9", "csISO885915"], "iso-8859-15"),
  iso("ISO-8859-16", ["iso-ir-226", "ISO_8859-16:2001", "ISO_8859-16", "latin10", "l10", "csISO885916"], "iso-8859-16"),
  iso("KOI8-R", ["csKOI8R"], "koi8-r"),
  iso("KOI8-U", ["csKOI8U"], "koi8-u"),
  iso("macintosh", ["mac", "csMacintosh"], "macintosh"),
  iso("IBM866", ["cp866", "866", "csIBM866"], "ibm866"),
  windows("windows-874", ["cswindows874"]),
  ...[1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258].map((n) => windows(`windows-${n}`, [`cswindows${n}`])),
  { name: "Shift_JIS", aliases: ["MS_Kanji", "csShiftJIS"], make: () => multiByte("Shift_JIS", "shift_jis") },
  { name: "EUC-JP", aliases: ["Extended_UNIX_Code_Packed_Format_for_Japanese", "csEUCPkdFmtJapanese"], make: () => multiByte("EUC-JP", "euc-jp") },
  { name: "EUC-KR", aliases: ["csEUCKR"], make: () => multiByte("EUC-KR", "euc-kr") },
  { name: "GBK", aliases: ["CP936", "MS936", "windows-936", "csGBK"], make: () => multiByte("GBK", "gbk") },
  { name: "GB18030", aliases: ["csGB18030"], make: () => multiByte("GB18030", "gb18030") },
  { name: "Big5", aliases: ["csBig5"], make: () => multiByte("Big5", "big5") },
];

function iso(name: string, aliases: string[], label: string): Entry {
  return { name, aliases, make: () => singleByte(name, whatwgTable(label, false)) };
}

// windows-1252's 0x80–0x9F (the rest is ISO-8859-1). Written out because some platforms' TextDecoder
// reads windows-1252 as ISO-8859-1; -1 marks bytes x/text leaves undefined.
const WINDOWS_1252_C1 = [
  0x20ac, -1, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, -1, 0x017d, -1,
  -1, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, -1, 0x017e, 0x0178,
];

function windows(name: string, aliases: string[]): Entry {
  if (name === "windows-1252") {
    return { name, aliases, make: () => singleByte(name, identityTable(0x100).map((cp, b) => (b >= 0x80 && b <= 0x9f ? (WINDOWS_1252_C1[b - 0x80] as number) : cp))) };
  }
  return { name, aliases, make: () => singleByte(name, whatwgTable(name, true)) };
}

const index = new Map<string, Entry>();
for (const e of entries) for (const n of [e.name, ...e.aliases]) index.set(n.toLowerCase(), e);
const cache = new Map<string, TextEncoding>();

/** The encoding for an IANA name or alias (case-insensitive), or undefined when unsupported. */
export function ianaEncoding(nameOrAlias: string): TextEncoding | undefined {
  const e = index.get(nameOrAlias.toLowerCase());
  if (!e) return undefined;
  let enc = cache.get(e.name);
  if (!enc) {
    enc = e.make();
    cache.set(e.name, enc);
  }
  return enc;
}
