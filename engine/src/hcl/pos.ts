// Source positions and ranges, as HCL reports them: line and column are 1-based (columns count
// grapheme clusters), byte is the 0-based UTF-8 byte offset. Start is inclusive, end exclusive.

import { SourceRange } from "./positions.js";

export interface Pos {
  line: number;
  column: number;
  byte: number;
}

/**
 * A range. The native-syntax parser's trees give SourceRange objects (positions.ts), which compute
 * `start` and `end` when read: read the fields, or JSON-serialise; do not copy one with object
 * spread or compare it structurally (its own properties are offsets, not these fields). The same
 * holds for the tree's nodes (nodes.ts): their range fields are getters.
 */
export interface Range {
  filename: string;
  start: Pos;
  end: Pos;
}

export function pos(line: number, column: number, byte: number): Pos {
  return { line, column, byte };
}

/** The smallest range covering both a and b (HCL's RangeBetween / RangeOver). */
export function rangeBetween(a: Range, b: Range): Range {
  // Two ranges of one parsed file: compare offsets, without computing positions.
  if (a instanceof SourceRange && b instanceof SourceRange && a.map === b.map) {
    return new SourceRange(a.map, a.from <= b.from ? a.from : b.from, a.to >= b.to ? a.to : b.to);
  }
  const start = a.start.byte <= b.start.byte ? a.start : b.start;
  const end = a.end.byte >= b.end.byte ? a.end : b.end;
  return { filename: a.filename, start, end };
}

/** A zero-width range at the given position. */
export function emptyRangeAt(filename: string, p: Pos): Range {
  return { filename, start: p, end: p };
}

export function rangeContainsOffset(r: Range, byte: number): boolean {
  return byte >= r.start.byte && byte < r.end.byte;
}

export function formatRange(r: Range): string {
  if (r.start.line === r.end.line) {
    return `${r.filename}:${r.start.line},${r.start.column}-${r.end.column}`;
  }
  return `${r.filename}:${r.start.line},${r.start.column}-${r.end.line},${r.end.column}`;
}
