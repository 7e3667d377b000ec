// The scanner for HCL's native syntax: turns source text into tokens with ranges, following the
// token rules of hclsyntax (its Ragel scanner): a main mode for structure and expressions, a quoted
// string mode, a heredoc mode and a bare template mode, with `${`/`%{` sequences nesting main
// mode inside templates. It works on the JavaScript string by char code (no regex per character,
// no string building) and tracks UTF-8 byte offsets and grapheme-cluster columns as it goes.
import type { Pos, Range } from "./pos.js";
import { isBadByte } from "./source.js";

export type TokenType =
  | "OBrace" | "CBrace" | "OBrack" | "CBrack" | "OParen" | "CParen"
  | "OQuote" | "CQuote" | "OHeredoc" | "CHeredoc"
  | "Star" | "Slash" | "Plus" | "Minus" | "Percent"
  | "Equal" | "EqualOp" | "NotEqual" | "LessThan" | "LessThanEq" | "GreaterThan" | "GreaterThanEq"
  | "And" | "Or" | "Bang" | "Dot" | "Comma" | "DoubleColon" | "Ellipsis" | "FatArrow"
  | "Question" | "Colon"
  | "TemplateInterp" | "TemplateControl" | "TemplateSeqEnd"
  | "QuotedLit" | "StringLit" | "NumberLit" | "Ident" | "Comment" | "Newline" | "EOF"
  // Not part of the language, recognised so the parser can explain them.
  | "BitwiseAnd" | "BitwiseOr" | "BitwiseNot" | "BitwiseXor" | "Apostrophe" | "Backtick" | "Semicolon"
  | "Invalid" | "BadUTF8" | "QuotedNewline";

/**
 * A token: its type and its span in the scanned string. Line, column and byte positions are
 * computed only when its range is asked for (most punctuation, comment and newline tokens never
 * need one), which keeps tokens small.
 */
export class Token {
  private cached: Range | undefined;

  constructor(
    readonly type: TokenType,
    /** Offsets into the scanned JavaScript string (UTF-16 code units), for slicing the text. */
    readonly start: number,
    readonly end: number,
    private readonly map: PositionMap,
  ) {}

  get range(): Range {
    if (!this.cached) this.cached = this.map.range(this.start, this.end);
    return this.cached;
  }

  /** A token of another type covering this token's range (a line comment standing for its newline). */
  withType(type: TokenType, start: number, end: number): Token {
    const t = new Token(type, start, end, this.map);
    t.cached = this.range;
    return t;
  }
}

/**
 * Turns string offsets into HCL positions: 1-based line, 1-based column counting grapheme
 * clusters, 0-based UTF-8 byte offset. Line starts are indexed once; within a line it walks
 * forward from the last position asked for, so positions requested in order cost O(n) in total.
 */
const CHECKPOINT = 256;

export class PositionMap {
  private readonly lineStarts: number[];
  private readonly lineBytes: number[];
  // Walk states saved every CHECKPOINT characters (in increasing order), so a position before the
  // last one asked for is found without re-walking a long line from its start.
  private readonly ckIdx: number[] = [];
  private readonly ckCol: number[] = [];
  private readonly ckByte: number[] = [];
  private readonly ckPrev: number[] = [];
  // The last position computed, to continue from.
  private cLine = 0;
  private cIdx: number;
  private cCol: number;
  private cByte: number;
  private cPrev = 0;

  constructor(
    private readonly src: string,
    readonly filename: string,
    private readonly start: Pos,
    private readonly offset: number,
  ) {
    const starts = [offset];
    const bytes = [start.byte];
    let byte = start.byte;
    for (let i = offset; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c < 0x80) {
        byte++;
        if (c === 10) {
          starts.push(i + 1);
          bytes.push(byte);
        }
      } else if (c < 0x800) byte += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        byte += 4;
        i++;
      } else if (c >= 0xdc80 && c <= 0xdcff) byte += 1;
      else byte += 3;
    }
    this.lineStarts = starts;
    this.lineBytes = bytes;
    this.cIdx = offset;
    this.cCol = start.column;
    this.cByte = start.byte;
  }

  private lineOf(i: number): number {
    const starts = this.lineStarts;
    const next = starts[this.cLine + 1];
    if (i >= (starts[this.cLine] as number) && (next === undefined || i < next)) return this.cLine;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  pos(i: number): Pos {
    const line = this.lineOf(i);
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

  range(s: number, e: number): Range {
    const start = this.pos(s);
    return { filename: this.filename, start, end: e === s ? start : this.pos(e) };
  }
}

export type ScanMode = "normal" | "template";

type Context =
  | { kind: "main" }
  | { kind: "string" }
  | { kind: "heredoc"; marker: string; startOfLine: boolean }
  | { kind: "bare" };

const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;
const MARK = /^\p{M}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

function codePointAt(src: string, i: number): number {
  const c = src.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length) {
    const d = src.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

function isAsciiIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isAsciiIdentContinue(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Length in code units of an identifier starting at i, or 0 if none starts there. */
export function identLength(src: string, i: number): number {
  const n = src.length;
  let j = i;
  if (j >= n) return 0;
  const c = src.charCodeAt(j);
  if (isAsciiIdentStart(c)) j++;
  else if (c >= 0x80) {
    const cp = codePointAt(src, j);
    if (isBadByte(src, j) || !ID_START.test(String.fromCodePoint(cp))) return 0;
    j += cp > 0xffff ? 2 : 1;
  } else return 0;
  while (j < n) {
    const d = src.charCodeAt(j);
    if (isAsciiIdentContinue(d)) {
      j++;
      continue;
    }
    if (d < 0x80 || isBadByte(src, j)) break;
    const cp = codePointAt(src, j);
    if (!ID_CONTINUE.test(String.fromCodePoint(cp))) break;
    j += cp > 0xffff ? 2 : 1;
  }
  return j - i;
}

class Scanner {
  readonly tokens: Token[] = [];
  private readonly map: PositionMap;
  private readonly startOffset: number;
  private stack: Context[];
  private braces = 0;
  private retBraces: number[] = [];

  constructor(
    private readonly src: string,
    filename: string,
    start: Pos,
    mode: ScanMode,
    offset: number,
  ) {
    this.map = new PositionMap(src, filename, start, offset);
    this.startOffset = offset;
    this.stack = [mode === "normal" ? { kind: "main" } : { kind: "bare" }];
  }

  private emit(type: TokenType, s: number, e: number): void {
    this.tokens.push(new Token(type, s, e, this.map));
  }

  scan(): Token[] {
    const src = this.src;
    const n = src.length;
    let i = this.startOffset;
    while (i < n) {
      const ctx = this.stack[this.stack.length - 1] ?? { kind: "main" };
      switch (ctx.kind) {
        case "main":
          i = this.scanMain(i);
          break;
        case "string":
          i = this.scanString(i);
          break;
        case "heredoc":
          i = this.scanHeredoc(i, ctx);
          break;
        case "bare":
          i = this.scanBare(i);
          break;
        default: {
          const never: never = ctx;
          return never;
        }
      }
    }
    this.emit("EOF", n, n);
    return this.tokens;
  }

  private openSequence(type: "TemplateInterp" | "TemplateControl", i: number): number {
    const e = i + 2 < this.src.length && this.src.charCodeAt(i + 2) === 126 /* ~ */ ? i + 3 : i + 2;
    this.emit(type, i, e);
    this.braces++;
    this.retBraces.push(this.braces);
    const top = this.stack[this.stack.length - 1];
    if (top && top.kind === "heredoc") top.startOfLine = false;
    this.stack.push({ kind: "main" });
    return e;
  }

  private closeSequence(i: number, e: number, tildeForm: boolean): number {
    const rb = this.retBraces;
    if (rb.length > 0 && rb[rb.length - 1] === this.braces) {
      this.emit("TemplateSeqEnd", i, e);
      this.braces--;
      rb.pop();
      this.stack.pop();
    } else {
      // A "~}" outside a template sequence still scans as a sequence end so the parser can
      // report the misuse, as hclsyntax does.
      this.emit(tildeForm ? "TemplateSeqEnd" : "CBrace", i, e);
      this.braces--;
    }
    return e;
  }

  private scanMain(i: number): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    switch (c) {
      case 32:
      case 9: {
        let j = i + 1;
        while (j < n) {
          const d = src.charCodeAt(j);
          if (d !== 32 && d !== 9) break;
          j++;
        }
        return j;
      }
      case 10:
        this.emit("Newline", i, i + 1);
        return i + 1;
      case 13:
        if (next === 10) {
          this.emit("Newline", i, i + 2);
          return i + 2;
        }
        this.emit("Invalid", i, i + 1);
        return i + 1;
      case 35: // #
        return this.lineComment(i);
      case 47: // /
        if (next === 47) return this.lineComment(i);
        if (next === 42) {
          const close = src.indexOf("*/", i + 2);
          if (close >= 0) {
            this.emit("Comment", i, close + 2);
            return close + 2;
          }
        }
        this.emit("Slash", i, i + 1);
        return i + 1;
      case 34: // "
        this.emit("OQuote", i, i + 1);
        this.stack.push({ kind: "string" });
        return i + 1;
      case 60: {
        // <
        if (next === 60) {
          const h = this.heredocIntro(i);
          if (h > 0) return h;
        }
        if (next === 61) {
          this.emit("LessThanEq", i, i + 2);
          return i + 2;
        }
        this.emit("LessThan", i, i + 1);
        return i + 1;
      }
      case 123:
        this.emit("OBrace", i, i + 1);
        this.braces++;
        return i + 1;
      case 125:
        return this.closeSequence(i, i + 1, false);
      case 126: // ~
        if (next === 125) return this.closeSequence(i, i + 2, true);
        this.emit("BitwiseNot", i, i + 1);
        return i + 1;
      case 61: // =
        if (next === 61) return this.two("EqualOp", i);
        if (next === 62) return this.two("FatArrow", i);
        return this.one("Equal", i);
      case 33: // !
        if (next === 61) return this.two("NotEqual", i);
        return this.one("Bang", i);
      case 62: // >
        if (next === 61) return this.two("GreaterThanEq", i);
        return this.one("GreaterThan", i);
      case 38: // &
        if (next === 38) return this.two("And", i);
        return this.one("BitwiseAnd", i);
      case 124: // |
        if (next === 124) return this.two("Or", i);
        return this.one("BitwiseOr", i);
      case 58: // :
        if (next === 58) return this.two("DoubleColon", i);
        return this.one("Colon", i);
      case 46: // .
        if (next === 46 && i + 2 < n && src.charCodeAt(i + 2) === 46) {
          this.emit("Ellipsis", i, i + 3);
          return i + 3;
        }
        return this.one("Dot", i);
      case 91:
        return this.one("OBrack", i);
      case 93:
        return this.one("CBrack", i);
      case 40:
        return this.one("OParen", i);
      case 41:
        return this.one("CParen", i);
      case 44:
        return this.one("Comma", i);
      case 42:
        return this.one("Star", i);
      case 37:
        return this.one("Percent", i);
      case 43:
        return this.one("Plus", i);
      case 45:
        return this.one("Minus", i);
      case 63:
        return this.one("Question", i);
      case 94:
        return this.one("BitwiseXor", i);
      case 59:
        return this.one("Semicolon", i);
      case 96:
        return this.one("Backtick", i);
      case 39:
        return this.one("Apostrophe", i);
      default:
        break;
    }
    if (isDigit(c)) return this.number(i);
    const idLen = identLength(src, i);
    if (idLen > 0) {
      this.emit("Ident", i, i + idLen);
      return i + idLen;
    }
    if (isBadByte(src, i)) return this.one("BadUTF8", i);
    const cp = codePointAt(src, i);
    const e = i + (cp > 0xffff ? 2 : 1);
    this.emit("Invalid", i, e);
    return e;
  }

  private one(type: TokenType, i: number): number {
    this.emit(type, i, i + 1);
    return i + 1;
  }

  private two(type: TokenType, i: number): number {
    this.emit(type, i, i + 2);
    return i + 2;
  }

  private lineComment(i: number): number {
    const nl = this.src.indexOf("\n", i);
    const e = nl < 0 ? this.src.length : nl + 1;
    this.emit("Comment", i, e);
    return e;
  }

  private number(i: number): number {
    const src = this.src;
    const n = src.length;
    let j = i + 1;
    while (j < n) {
      const d = src.charCodeAt(j);
      if (isDigit(d) || d === 46) {
        j++;
        continue;
      }
      if (d === 101 || d === 69) {
        const e1 = j + 1 < n ? src.charCodeAt(j + 1) : -1;
        if (isDigit(e1)) {
          j += 2;
          continue;
        }
        if ((e1 === 43 || e1 === 45) && j + 2 < n && isDigit(src.charCodeAt(j + 2))) {
          j += 3;
          continue;
        }
      }
      break;
    }
    // A number literal never ends with a dot: "1..." is 1 then an ellipsis.
    while (src.charCodeAt(j - 1) === 46) j--;
    this.emit("NumberLit", i, j);
    return j;
  }

  /** Scans `<<EOT` or `<<-EOT` plus its newline; returns the end offset, or 0 if not a heredoc. */
  private heredocIntro(i: number): number {
    const src = this.src;
    let j = i + 2;
    if (src.charCodeAt(j) === 45) j++;
    const idLen = identLength(src, j);
    if (idLen === 0) return 0;
    const marker = src.slice(j, j + idLen);
    let e = j + idLen;
    if (src.charCodeAt(e) === 10) e += 1;
    else if (src.charCodeAt(e) === 13 && src.charCodeAt(e + 1) === 10) e += 2;
    else return 0;
    this.emit("OHeredoc", i, e);
    this.stack.push({ kind: "heredoc", marker, startOfLine: true });
    return e;
  }

  private scanString(i: number): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    if (c === 34) {
      this.emit("CQuote", i, i + 1);
      this.stack.pop();
      return i + 1;
    }
    if (c === 36 && next === 123) return this.openSequence("TemplateInterp", i);
    if (c === 37 && next === 123) return this.openSequence("TemplateControl", i);
    if (c === 10 || c === 13) {
      let j = i + 1;
      while (j < n && (src.charCodeAt(j) === 10 || src.charCodeAt(j) === 13)) j++;
      this.emit("QuotedNewline", i, j);
      return j;
    }
    if (isBadByte(src, i)) return this.one("BadUTF8", i);
    if (c === 92 && (next === -1 || next === 10 || next === 13)) return this.one("Invalid", i);
    let j = i;
    while (j < n) {
      const d = src.charCodeAt(j);
      if (d === 34 || d === 10 || d === 13) break;
      if (d === 92) {
        const e = j + 1 < n ? src.charCodeAt(j + 1) : -1;
        if (e === -1 || e === 10 || e === 13) break;
        j += 2;
        continue;
      }
      if (d === 36 || d === 37) {
        const e = j + 1 < n ? src.charCodeAt(j + 1) : -1;
        if (e === 123) break;
        if (e === d && j + 2 < n && src.charCodeAt(j + 2) === 123) {
          j += 3;
          continue;
        }
        j++;
        continue;
      }
      if (d >= 0x80 && isBadByte(src, j)) break;
      j++;
    }
    this.emit("QuotedLit", i, j);
    return j;
  }

  /** Length of the literal run at i in a heredoc or bare template: stops before a newline or a sequence opener. */
  private literalRun(i: number): number {
    const src = this.src;
    const n = src.length;
    let j = i;
    while (j < n) {
      const d = src.charCodeAt(j);
      if (d === 10) break;
      if (d === 13 && j + 1 < n && src.charCodeAt(j + 1) === 10) break;
      if (d === 36 || d === 37) {
        const e = j + 1 < n ? src.charCodeAt(j + 1) : -1;
        if (e === 123) break;
        if (e === d && j + 2 < n && src.charCodeAt(j + 2) === 123) {
          j += 3;
          continue;
        }
      } else if (d >= 0x80 && isBadByte(src, j)) break;
      j++;
    }
    return j;
  }

  private scanHeredoc(i: number, ctx: { kind: "heredoc"; marker: string; startOfLine: boolean }): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    if (c === 36 && next === 123) return this.openSequence("TemplateInterp", i);
    if (c === 37 && next === 123) return this.openSequence("TemplateControl", i);
    if (isBadByte(src, i)) {
      ctx.startOfLine = false;
      return this.one("BadUTF8", i);
    }
    const j = this.literalRun(i);
    let nlEnd = -1;
    if (j < n) {
      const d = src.charCodeAt(j);
      if (d === 10) nlEnd = j + 1;
      else if (d === 13 && src.charCodeAt(j + 1) === 10) nlEnd = j + 2;
    }
    if (nlEnd < 0) {
      ctx.startOfLine = false;
      this.emit("StringLit", i, j);
      return j;
    }
    if (ctx.startOfLine && src.slice(i, j).trim() === ctx.marker) {
      // The closing marker and the newline after it are separate tokens, so the newline can
      // still end the attribute the heredoc belongs to.
      this.emit("CHeredoc", i, j);
      this.emit("Newline", j, nlEnd);
      this.stack.pop();
      return nlEnd;
    }
    ctx.startOfLine = true;
    this.emit("StringLit", i, nlEnd);
    return nlEnd;
  }

  private scanBare(i: number): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    if (c === 36 && next === 123) return this.openSequence("TemplateInterp", i);
    if (c === 37 && next === 123) return this.openSequence("TemplateControl", i);
    if (isBadByte(src, i)) return this.one("BadUTF8", i);
    let j = this.literalRun(i);
    if (j < n) {
      const d = src.charCodeAt(j);
      if (d === 10) j += 1;
      else if (d === 13 && src.charCodeAt(j + 1) === 10) j += 2;
    }
    this.emit("StringLit", i, j);
    return j;
  }
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

/**
 * Scans src into tokens. `start` is the position of src's first character in its file (for
 * expressions embedded in other files, such as JSON strings). A leading byte order mark is skipped.
 */
export function scanTokens(src: string, filename: string, start: Pos, mode: ScanMode): Token[] {
  let offset = 0;
  let startPos = start;
  if (src.charCodeAt(0) === 0xfeff) {
    offset = 1;
    startPos = { line: start.line, column: start.column, byte: start.byte + 3 };
  }
  return new Scanner(src, filename, startPos, mode, offset).scan();
}
