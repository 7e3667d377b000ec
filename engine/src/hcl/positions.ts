// Positions in a scanned file: PositionMap turns string offsets into HCL positions (line, column
// counting grapheme clusters, UTF-8 byte offset), and SourceRange is the range the syntax tree
// keeps: two string offsets and the map, with line/column/byte worked out only when read. Most
// ranges in a tree are never read (evaluation needs them only for diagnostics), so this keeps a
// tree at one small object per range instead of a range and two positions.
import type { Pos, Range } from "./pos.js";
import { isBadByte } from "./source.js";

const MARK = /^\p{M}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

/**
 * Turns string offsets into HCL positions: 1-based line, 1-based column counting grapheme
 * clusters, 0-based UTF-8 byte offset. Nothing is indexed until the first position is asked for:
 * a parse whose ranges are never read (most of them, file by file) pays nothing for positions.
 */
export class PositionMap {
  private table: LineTable | undefined;

  constructor(
    private readonly src: string,
    readonly filename: string,
    private readonly start: Pos,
    private readonly offset: number,
  ) {}

  pos(i: number): Pos {
    if (!this.table) this.table = new LineTable(this.src, this.start, this.offset);
    return this.table.pos(i);
  }

  /** A range with its positions computed now, as plain objects (tokens handed to tools such as fmt). */
  range(s: number, e: number): Range {
    const start = this.pos(s);
    return { filename: this.filename, start, end: e === s ? start : this.pos(e) };
  }
}

const CHECKPOINT = 256;
const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * A file's line index and position cache. Line starts, the byte offset of each line start and the
 * first non-ASCII character of each line are indexed once (with native indexOf and a regex, so
 * ASCII text costs almost nothing); a position with only ASCII before it on its line is then plain
 * arithmetic. Only positions after a non-ASCII character walk the line, forward from the last
 * position asked for, so positions requested in order cost O(n) in total.
 */
class LineTable {
  private readonly lineStarts: number[];
  private readonly lineBytes: number[];
  /** Per line: string offset of its first non-ASCII character (or a later offset if none). */
  private readonly firstWide: number[];
  /** The line of the last position asked for, where the next one usually is. */
  private hintLine = 0;
  private lastIdx = -1;
  private lastPos: Pos | undefined;
  // Walk states saved every CHECKPOINT characters (in increasing order), so a position before the
  // last one asked for is found without re-walking a long line from its start.
  private readonly ckIdx: number[] = [];
  private readonly ckCol: number[] = [];
  private readonly ckByte: number[] = [];
  private readonly ckPrev: number[] = [];
  // The last position the walk reached, to continue from.
  private cLine = 0;
  private cIdx: number;
  private cCol: number;
  private cByte: number;
  private cPrev = 0;

  constructor(
    private readonly src: string,
    private readonly start: Pos,
    offset: number,
  ) {
    const starts = [offset];
    for (let nl = src.indexOf("\n", offset); nl >= 0; nl = src.indexOf("\n", nl + 1)) starts.push(nl + 1);
    const bytes: number[] = new Array<number>(starts.length);
    const firstWide: number[] = new Array<number>(starts.length);
    // Bytes beyond one per code unit, summed over the non-ASCII characters met so far.
    let extra = 0;
    let line = 0;
    const n = src.length;
    firstWide[0] = n + 1;
    const re = NON_ASCII;
    re.lastIndex = offset;
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const k = m.index;
      while (line + 1 < starts.length && (starts[line + 1] as number) <= k) {
        line++;
        bytes[line] = start.byte + ((starts[line] as number) - offset) + extra;
        firstWide[line] = n + 1;
      }
      if ((firstWide[line] as number) > k) firstWide[line] = k;
      const c = src.charCodeAt(k);
      if (c < 0x800) extra += 1;
      else if (c >= 0xd800 && c <= 0xdbff && k + 1 < n && (src.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
        extra += 2;
        re.lastIndex = k + 2;
      } else if (c >= 0xdc80 && c <= 0xdcff) extra += 0;
      else extra += 2;
    }
    re.lastIndex = 0;
    bytes[0] = start.byte;
    while (line + 1 < starts.length) {
      line++;
      bytes[line] = start.byte + ((starts[line] as number) - offset) + extra;
      firstWide[line] = n + 1;
    }
    this.lineStarts = starts;
    this.lineBytes = bytes;
    this.firstWide = firstWide;
    this.cIdx = offset;
    this.cCol = start.column;
    this.cByte = start.byte;
  }

  private lineOf(i: number): number {
    const starts = this.lineStarts;
    const h = this.hintLine;
    if (i >= (starts[h] as number)) {
      const next = starts[h + 1];
      if (next === undefined || i < next) return h;
      // Usually the next line, when positions are asked for in order.
      const after = starts[h + 2];
      if (after === undefined || i < after) return (this.hintLine = h + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= i) lo = mid;
      else hi = mid - 1;
    }
    return (this.hintLine = lo);
  }

  pos(i: number): Pos {
    // Adjacent tokens share a boundary: hand out the same position object again.
    if (i === this.lastIdx && this.lastPos) return this.lastPos;
    const p = this.computePos(i);
    this.lastIdx = i;
    this.lastPos = p;
    return p;
  }

  private computePos(i: number): Pos {
    const line = this.lineOf(i);
    const lineStart = this.lineStarts[line] as number;
    if (i <= (this.firstWide[line] as number)) {
      // Only ASCII before i on this line: one column and one byte per character.
      const d = i - lineStart;
      return { line: this.start.line + line, column: (line === 0 ? this.start.column : 1) + d, byte: (this.lineBytes[line] as number) + d };
    }
    return this.walk(line, i);
  }

  /** The position of i on a line with non-ASCII text before it, walking grapheme clusters. */
  private walk(line: number, i: number): Pos {
    if (line === this.cLine && i < this.cIdx && this.stepBack(i)) {
      return { line: this.start.line + line, column: this.cCol, byte: this.cByte };
    }
    if (line !== this.cLine || i < this.cIdx) {
      const lineStart = this.lineStarts[line] as number;
      this.cLine = line;
      this.cIdx = lineStart;
      this.cCol = line === 0 ? this.start.column : 1;
      this.cByte = this.lineBytes[line] as number;
      this.cPrev = 0;
      const ck = this.checkpointBefore(i);
      if (ck >= 0 && (this.ckIdx[ck] as number) > lineStart) {
        this.cIdx = this.ckIdx[ck] as number;
        this.cCol = this.ckCol[ck] as number;
        this.cByte = this.ckByte[ck] as number;
        this.cPrev = this.ckPrev[ck] as number;
      }
    }
    const src = this.src;
    let k = this.cIdx;
    let col = this.cCol;
    let byte = this.cByte;
    let prev = this.cPrev;
    let nextCk = this.nextCheckpointAfter(k);
    while (k < i) {
      if (k >= nextCk) {
        this.ckIdx.push(k);
        this.ckCol.push(col);
        this.ckByte.push(byte);
        this.ckPrev.push(prev);
        nextCk = k + CHECKPOINT;
      }
      const c = src.charCodeAt(k);
      if (c < 0x80) {
        // A "\r\n" pair is one cluster; the line break itself is in the line table.
        if (!(c === 10 && prev === 13)) col++;
        byte++;
        k++;
        prev = c;
        continue;
      }
      if (isBadByte(src, k)) {
        byte++;
        k++;
        col++;
        prev = 0xfffd;
        continue;
      }
      const cp = codePointAt(src, k);
      k += cp > 0xffff ? 2 : 1;
      byte += cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (!extendsGrapheme(prev, cp)) col++;
      prev = cp;
    }
    this.cIdx = k;
    this.cCol = col;
    this.cByte = byte;
    this.cPrev = prev;
    return { line: this.start.line + line, column: col, byte };
  }

  /**
   * Moves the cached position back to i on the same line when only ASCII lies between (a common
   * case: the range of an opening token is often asked for after what follows it). False if not.
   */
  private stepBack(i: number): boolean {
    const src = this.src;
    const lineStart = this.lineStarts[this.cLine] as number;
    // The character before i decides how the next one joins its cluster, so it must be ASCII too.
    const from = i > lineStart ? i - 1 : i;
    for (let k = from; k < this.cIdx; k++) {
      const c = src.charCodeAt(k);
      if (c >= 0x80 || c === 13) return false;
    }
    const n = this.cIdx - i;
    this.cIdx = i;
    this.cCol -= n;
    this.cByte -= n;
    this.cPrev = i > lineStart ? src.charCodeAt(i - 1) : 0;
    return true;
  }

  /** Index of the last checkpoint at or before string offset i, or -1. */
  private checkpointBefore(i: number): number {
    const idx = this.ckIdx;
    let lo = 0;
    let hi = idx.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((idx[mid] as number) <= i) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Where walking from k should save its next checkpoint (only beyond the last one saved). */
  private nextCheckpointAfter(k: number): number {
    const last = this.ckIdx.length > 0 ? (this.ckIdx[this.ckIdx.length - 1] as number) : -CHECKPOINT;
    return Math.max(k, last + CHECKPOINT);
  }
}

/**
 * A range of a scanned file as string offsets; `start` and `end` are computed from the map when
 * read. It reads like a plain Range, but its own properties are the offsets, so code that copies a
 * range with object spread must name the fields instead.
 */
export class SourceRange implements Range {
  constructor(
    readonly map: PositionMap,
    /** String offsets of the start (inclusive) and end (exclusive). */
    readonly from: number,
    readonly to: number,
  ) {}

  get filename(): string {
    return this.map.filename;
  }

  get start(): Pos {
    return this.map.pos(this.from);
  }

  get end(): Pos {
    return this.map.pos(this.to);
  }

  /** The plain form, so serialised ranges look as they always did. */
  toJSON(): Range {
    return { filename: this.filename, start: this.start, end: this.end };
  }

  /** The plain form for Node's console and debuggers too, instead of the whole position map. */
  [Symbol.for("nodejs.util.inspect.custom")](): Range {
    return this.toJSON();
  }
}

export function codePointAt(src: string, i: number): number {
  const c = src.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length) {
    const d = src.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Whether code point `cp` continues the grapheme cluster that `prev` is part of (an approximation of UAX #29). */
export function extendsGrapheme(prev: number, cp: number): boolean {
  if (prev === 10 || prev === 13 || prev === 0) return false;
  if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0020 && cp <= 0xe007f)) {
    return true;
  }
  if (prev === 0x200d && PICTOGRAPHIC.test(String.fromCodePoint(cp))) return true;
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff && prev >= 0x1f1e6 && prev <= 0x1f1ff) return true;
  return MARK.test(String.fromCodePoint(cp));
}

/** The empty range at r's start. */
export function rangeAtStart(r: SourceRange): SourceRange;
export function rangeAtStart(r: Range): Range;
export function rangeAtStart(r: Range): Range {
  if (r instanceof SourceRange) return new SourceRange(r.map, r.from, r.from);
  const start = r.start;
  return { filename: r.filename, start, end: start };
}

/** The empty range at r's end. */
export function rangeAtEnd(r: SourceRange): SourceRange;
export function rangeAtEnd(r: Range): Range;
export function rangeAtEnd(r: Range): Range {
  if (r instanceof SourceRange) return new SourceRange(r.map, r.to, r.to);
  const end = r.end;
  return { filename: r.filename, start: end, end };
}

/** The smallest range covering both a and b, two ranges of one file (rangeBetween, typed). */
export function spanOf(a: SourceRange, b: SourceRange): SourceRange {
  return new SourceRange(a.map, a.from <= b.from ? a.from : b.from, a.to >= b.to ? a.to : b.to);
}
