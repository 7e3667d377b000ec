// The formatter's token model: hclwrite's, where a token is its text plus the number of spaces
// written before it. Positions are gone; formatting only ever changes `spaces`, and terraform's
// normalisations replace whole token runs.
import { scanTokens, type TokenType } from "../hcl/index.js";

/** `Nil` stands for "no token" at the start or end of a cell, as hclwrite's nilToken does. */
export type FmtTokenType = TokenType | "Nil";

export interface FmtToken {
  readonly type: FmtTokenType;
  readonly text: string;
  spaces: number;
}

export interface SourceTokens {
  readonly tokens: FmtToken[];
  /** UTF-8 byte offset at which each token starts (parallel to `tokens`), for matching AST ranges. */
  readonly startBytes: Float64Array;
}

function utf8Length(src: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c < 0x80) n++;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else if (c >= 0xdc80 && c <= 0xdcff) n += 1; // an invalid byte kept by decodeSource
    else n += 3;
  }
  return n;
}

/**
 * Scans source into formatter tokens. A token's `spaces` is the width of the gap before it in
 * bytes, as hclwrite counts it (the scanner skips only spaces and tabs, so this is exact for the
 * EOF token, the one token whose gap formatting keeps).
 */
export function lexForFormat(src: string): SourceTokens {
  const raw = scanTokens(src, "", { line: 1, column: 1, byte: 0 }, "normal");
  const tokens: FmtToken[] = new Array<FmtToken>(raw.length);
  const startBytes = new Float64Array(raw.length);
  let lastIdx = 0;
  let lastByte = 0;
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i] as (typeof raw)[number];
    const startByte = lastByte + utf8Length(src, lastIdx, t.start);
    const endByte = startByte + utf8Length(src, t.start, t.end);
    // A leading byte order mark is not a token and not a space: hclwrite drops it with the gap.
    const gap = lastIdx === 0 && src.charCodeAt(0) === 0xfeff ? t.start - 1 : t.start - lastIdx;
    tokens[i] = { type: t.type, text: src.slice(t.start, t.end), spaces: Math.max(0, gap) };
    startBytes[i] = startByte;
    lastIdx = t.end;
    lastByte = endByte;
  }
  return { tokens, startBytes };
}

/** Index of the first token starting at or after `byte` (hclwrite's partitionTokens), from `lo`. */
export function firstTokenAtOrAfter(startBytes: Float64Array, byte: number, lo = 0): number {
  let hi = startBytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((startBytes[mid] as number) < byte) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const SPACES = Array.from({ length: 41 }, (_, n) => " ".repeat(n));

/** The formatted text: each token preceded by its spaces. */
export function writeTokens(tokens: readonly FmtToken[]): string {
  const parts: string[] = new Array<string>(tokens.length * 2);
  let n = 0;
  for (const t of tokens) {
    parts[n++] = t.spaces === 0 ? "" : t.spaces < SPACES.length ? (SPACES[t.spaces] as string) : " ".repeat(t.spaces);
    parts[n++] = t.text;
  }
  return parts.join("");
}
