// The first layer of version and constraint parsing: a hand-written equivalent of the Ragel
// machine in apparentlymart/go-versions (constraints/raw_scan.rl), which both OpenTofu's version
// parser and its Ruby-style constraint parser sit on. Its quirks are kept on purpose, because the
// error texts users see depend on exactly where the scan stops:
//   - it scans the longest prefix that fits `op sep nums pre? meta?` and returns the rest unscanned;
//   - input that ends in the middle of a part (`1.0.`, `1.0.0-`) is accepted as far as it got,
//     because the machine's end-of-input action does not check for a final state.

/** A tokenised constraint: the pieces as written, before any meaning is given to them. */
export interface RawConstraint {
  /** The operator characters (`>=`, `~>`, ...), possibly empty. */
  op: string;
  /** Whitespace and `v` characters between the operator and the first number. */
  sep: string;
  /** Up to three numbers (digits, or one of the wildcards `*`, `x`, `X`); missing ones are "". */
  nums: [string, string, string];
  /** How many numbers were written, including any beyond the third. */
  numCt: number;
  pre: string;
  meta: string;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Ragel's `space` class. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Anything but a digit, space, letter, `.` or `*` belongs to the operator. */
function isOpChar(c: number): boolean {
  return !(isDigit(c) || isSpace(c) || isAlpha(c) || c === 0x2e || c === 0x2a);
}

function isNumStart(c: number): boolean {
  return isDigit(c) || c === 0x2a || c === 0x78 || c === 0x58;
}

/** The characters of a prerelease or metadata part: letters, digits, `.` and `-`. */
function isExtraChar(c: number): boolean {
  return isDigit(c) || isAlpha(c) || c === 0x2e || c === 0x2d;
}

/**
 * Scans one constraint from the start of `data`, returning its parts and the unscanned rest.
 * Works on UTF-16 code units; every character the machine accepts is ASCII, so a non-ASCII
 * character simply stops the scan there, as a non-matching byte does in Go.
 */
export function scanConstraint(data: string): { raw: RawConstraint; remain: string } {
  const raw: RawConstraint = { op: "", sep: "", nums: ["", "", ""], numCt: 0, pre: "", meta: "" };
  const n = data.length;
  let i = 0;
  while (i < n && isOpChar(data.charCodeAt(i))) i++;
  raw.op = data.slice(0, i);
  const sepStart = i;
  while (i < n && (isSpace(data.charCodeAt(i)) || data.charCodeAt(i) === 0x76)) i++;
  raw.sep = data.slice(sepStart, i);

  if (i >= n) return { raw, remain: "" };
  if (!isNumStart(data.charCodeAt(i))) return { raw, remain: data.slice(i) };
  for (;;) {
    const start = i;
    if (isDigit(data.charCodeAt(i))) {
      while (i < n && isDigit(data.charCodeAt(i))) i++;
    } else {
      i++; // a wildcard is always a single character
    }
    if (raw.numCt < 3) raw.nums[raw.numCt] = data.slice(start, i);
    raw.numCt++;
    if (i >= n) return { raw, remain: "" };
    if (data.charCodeAt(i) !== 0x2e) break;
    i++;
    if (i >= n) return { raw, remain: "" };
    if (!isNumStart(data.charCodeAt(i))) return { raw, remain: data.slice(i) };
  }

  for (const [lead, key] of [
    [0x2d, "pre"],
    [0x2b, "meta"],
  ] as const) {
    if (data.charCodeAt(i) !== lead) continue;
    const start = i + 1;
    i = start;
    if (i >= n) return { raw, remain: "" };
    if (!isExtraChar(data.charCodeAt(i))) return { raw, remain: data.slice(i) };
    while (i < n && isExtraChar(data.charCodeAt(i))) i++;
    raw[key] = data.slice(start, i);
    if (i >= n) return { raw, remain: "" };
  }
  return { raw, remain: data.slice(i) };
}

export const NUM_NAMES = ["major", "minor", "patch"] as const;

export function isWildcardNum(s: string): boolean {
  return s === "*" || s === "x" || s === "X";
}

/** Go's strings.TrimSpace for the characters that can appear here. */
export function trimSpace(s: string): string {
  return s.replace(/^[\s\u0085]+|[\s\u0085]+$/g, "");
}
