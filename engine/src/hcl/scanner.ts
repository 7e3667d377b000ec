// The scanner for HCL's native syntax: turns source text into tokens with ranges, following the
// token rules of hclsyntax (its Ragel scanner): a main mode for structure and expressions, a quoted
// string mode, a heredoc mode and a bare template mode, with `${`/`%{` sequences nesting main
// mode inside templates. It works on the JavaScript string by char code (no regex per character,
// no string building), writes tokens into typed arrays, and leaves UTF-8 byte offsets and
// grapheme-cluster columns to PositionMap, which computes them only for the tokens asked about.
import type { Pos, Range } from "./pos.js";
import { codePointAt, PositionMap } from "./positions.js";
import { isBadByte } from "./source.js";

/**
 * Token types and the small integer codes the scanner stores them as (the token stream is kept in
 * typed arrays, so a file's tokens are not millions of long-lived objects for the garbage collector).
 */
const T = {
  OBrace: 0, CBrace: 1, OBrack: 2, CBrack: 3, OParen: 4, CParen: 5,
  OQuote: 6, CQuote: 7, OHeredoc: 8, CHeredoc: 9,
  Star: 10, Slash: 11, Plus: 12, Minus: 13, Percent: 14,
  Equal: 15, EqualOp: 16, NotEqual: 17, LessThan: 18, LessThanEq: 19, GreaterThan: 20, GreaterThanEq: 21,
  And: 22, Or: 23, Bang: 24, Dot: 25, Comma: 26, DoubleColon: 27, Ellipsis: 28, FatArrow: 29,
  Question: 30, Colon: 31,
  TemplateInterp: 32, TemplateControl: 33, TemplateSeqEnd: 34,
  QuotedLit: 35, StringLit: 36, NumberLit: 37, Ident: 38, Comment: 39, Newline: 40, EOF: 41,
  // Not part of the language, recognised so the parser can explain them.
  BitwiseAnd: 42, BitwiseOr: 43, BitwiseNot: 44, BitwiseXor: 45, Apostrophe: 46, Backtick: 47, Semicolon: 48,
  Invalid: 49, BadUTF8: 50, QuotedNewline: 51,
} as const;

/** Every code from here on is a token the parser reports as invalid wherever it occurs. */
const FIRST_INVALID = T.BitwiseAnd;

export type TokenType = keyof typeof T;
type TokenCode = (typeof T)[TokenType];

/** Token type names by code. */
const TYPE_NAMES: TokenType[] = [];
for (const name of Object.keys(T) as TokenType[]) TYPE_NAMES[T[name]] = name;

export const COMMENT_CODE: number = T.Comment;
export const NEWLINE_CODE: number = T.Newline;

export function tokenTypeName(code: number): TokenType {
  return TYPE_NAMES[code] as TokenType;
}

export function tokenTypeCode(type: TokenType): number {
  return T[type];
}

/**
 * A token: its type and its span in the scanned string. Line, column and byte positions are
 * computed only when its range is asked for (most punctuation, comment and newline tokens never
 * need one), which keeps tokens small.
 */
export class Token {
  private cached: Range | undefined;

  /** The type's small integer code, for table lookups in the parser. */
  readonly code: number;

  constructor(
    readonly type: TokenType,
    /** Offsets into the scanned JavaScript string (UTF-16 code units), for slicing the text. */
    readonly start: number,
    readonly end: number,
    private readonly map: PositionMap,
    code?: number,
  ) {
    this.code = code ?? T[type];
  }

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

/** Token arrays released by a finished parse, for the next scan. */
let spare: { types: Uint8Array; starts: Int32Array; ends: Int32Array } | undefined;
/** Arrays for more tokens than this (a file of several MiB) are left to the collector, not kept. */
const MAX_SPARE_TOKENS = 1 << 19;

/**
 * A scanned file's tokens in compact form: type codes and string offsets in typed arrays. The
 * parser makes `Token` objects only for the tokens it looks at, and they die young.
 */
export class TokenStream {
  constructor(
    readonly src: string,
    readonly types: Uint8Array,
    readonly starts: Int32Array,
    readonly ends: Int32Array,
    /** Number of tokens; the last one is EOF. */
    readonly count: number,
    readonly map: PositionMap,
    /** Whether any token is one that is never valid (bitwise operators, `;`, bad UTF-8, ...). */
    readonly hasInvalid: boolean,
  ) {}

  /**
   * Hands the arrays back for the next scan to reuse (allocating typed arrays costs more than
   * scanning into them). The stream must not be used afterwards; tokens already made stay valid.
   */
  release(): void {
    const size = this.types.length;
    if (size <= MAX_SPARE_TOKENS && (!spare || spare.types.length < size)) spare = { types: this.types, starts: this.starts, ends: this.ends };
  }

  token(i: number): Token {
    const code = this.types[i] as number;
    return new Token(TYPE_NAMES[code] as TokenType, this.starts[i] as number, this.ends[i] as number, this.map, code);
  }
}

export type ScanMode = "normal" | "template";

type Context =
  | { kind: "main" }
  | { kind: "string" }
  | { kind: "heredoc"; marker: string; startOfLine: boolean }
  | { kind: "bare" };

// The stateless contexts are shared (a heredoc's context carries state and is made per heredoc).
const MAIN: Context = { kind: "main" };
const STRING: Context = { kind: "string" };
const BARE: Context = { kind: "bare" };

const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;


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

/** MAIN_START: an ASCII identifier start. */
const IDENT = 1;
/** MAIN_START: SINGLE + the token code of a character that is a token on its own, whatever follows. */
const SINGLE = 64;
/** By ASCII code: how a main-mode token starting with it is scanned (0: by scanMain). */
const MAIN_START = new Uint8Array(128);
/** By ASCII code: 1 for the characters that continue an identifier. */
const IDENT_CONTINUE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (isAsciiIdentStart(c)) MAIN_START[c] = IDENT;
  if (isAsciiIdentContinue(c)) IDENT_CONTINUE[c] = 1;
}
for (const [ch, code] of [
  ["\n", T.Newline], ["[", T.OBrack], ["]", T.CBrack], ["(", T.OParen], [")", T.CParen], [",", T.Comma], ["*", T.Star],
  ["%", T.Percent], ["+", T.Plus], ["-", T.Minus], ["?", T.Question], ["^", T.BitwiseXor], [";", T.Semicolon],
  ["`", T.Backtick], ["'", T.Apostrophe],
] as const) {
  MAIN_START[ch.charCodeAt(0)] = SINGLE + code;
}

class Scanner {
  private readonly map: PositionMap;
  private readonly startOffset: number;
  private stack: Context[];
  private braces = 0;
  private retBraces: number[] = [];
  private types: Uint8Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private count = 0;
  private hasInvalid = false;

  constructor(
    private readonly src: string,
    filename: string,
    start: Pos,
    mode: ScanMode,
    offset: number,
  ) {
    this.map = new PositionMap(src, filename, start, offset);
    this.startOffset = offset;
    this.stack = [mode === "normal" ? MAIN : BARE];
    // Configuration text averages one token per four to six characters.
    const capacity = (src.length >> 2) + 16;
    if (spare && spare.types.length >= capacity) {
      this.types = spare.types;
      this.starts = spare.starts;
      this.ends = spare.ends;
      spare = undefined;
    } else {
      this.types = new Uint8Array(capacity);
      this.starts = new Int32Array(capacity);
      this.ends = new Int32Array(capacity);
    }
  }

  private emit(type: TokenCode, s: number, e: number): void {
    const k = this.count;
    if (k === this.types.length) this.grow();
    this.types[k] = type;
    if (type >= FIRST_INVALID) this.hasInvalid = true;
    this.starts[k] = s;
    this.ends[k] = e;
    this.count = k + 1;
  }

  private grow(): void {
    const size = this.types.length * 2;
    const types = new Uint8Array(size);
    types.set(this.types);
    const starts = new Int32Array(size);
    starts.set(this.starts);
    const ends = new Int32Array(size);
    ends.set(this.ends);
    this.types = types;
    this.starts = starts;
    this.ends = ends;
  }

  scan(): TokenStream {
    const src = this.src;
    const n = src.length;
    let i = this.startOffset;
    while (i < n) {
      const ctx = this.stack[this.stack.length - 1] ?? MAIN;
      switch (ctx.kind) {
        case "main":
          i = this.scanMainRun(i);
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
    this.emit(T.EOF, n, n);
    return new TokenStream(src, this.types, this.starts, this.ends, this.count, this.map, this.hasInvalid);
  }

  /**
   * Scans main-mode tokens until one of them changes the mode (or the input ends). Spaces, ASCII
   * identifiers, newlines and one-character punctuation (most of a configuration) are scanned
   * here; scanMain takes everything else.
   */
  private scanMainRun(i: number): number {
    const src = this.src;
    const n = src.length;
    const depth = this.stack.length;
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === 32 || c === 9) {
        i++;
        continue;
      }
      if (c < 128) {
        const cls = MAIN_START[c] as number;
        if (cls === IDENT) {
          let j = i + 1;
          while (j < n) {
            const d = src.charCodeAt(j);
            if (d < 128 && IDENT_CONTINUE[d] === 1) j++;
            else break;
          }
          // A non-ASCII character may continue the identifier: scanMain decides.
          if (j < n && src.charCodeAt(j) >= 128) {
            i = this.scanMain(i);
            continue;
          }
          this.emit(T.Ident, i, j);
          i = j;
          continue;
        }
        if (cls >= SINGLE) {
          this.emit((cls - SINGLE) as TokenCode, i, i + 1);
          i++;
          continue;
        }
      }
      i = this.scanMain(i);
      if (this.stack.length !== depth) break;
    }
    return i;
  }

  private openSequence(type: typeof T.TemplateInterp | typeof T.TemplateControl, i: number): number {
    const e = i + 2 < this.src.length && this.src.charCodeAt(i + 2) === 126 /* ~ */ ? i + 3 : i + 2;
    this.emit(type, i, e);
    this.braces++;
    this.retBraces.push(this.braces);
    const top = this.stack[this.stack.length - 1];
    if (top && top.kind === "heredoc") top.startOfLine = false;
    this.stack.push(MAIN);
    return e;
  }

  private closeSequence(i: number, e: number, tildeForm: boolean): number {
    const rb = this.retBraces;
    if (rb.length > 0 && rb[rb.length - 1] === this.braces) {
      this.emit(T.TemplateSeqEnd, i, e);
      this.braces--;
      rb.pop();
      this.stack.pop();
    } else {
      // A "~}" outside a template sequence still scans as a sequence end so the parser can
      // report the misuse, as hclsyntax does.
      this.emit(tildeForm ? T.TemplateSeqEnd : T.CBrace, i, e);
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
        this.emit(T.Newline, i, i + 1);
        return i + 1;
      case 13:
        if (next === 10) {
          this.emit(T.Newline, i, i + 2);
          return i + 2;
        }
        this.emit(T.Invalid, i, i + 1);
        return i + 1;
      case 35: // #
        return this.lineComment(i);
      case 47: // /
        if (next === 47) return this.lineComment(i);
        if (next === 42) {
          const close = src.indexOf("*/", i + 2);
          if (close >= 0) {
            this.emit(T.Comment, i, close + 2);
            return close + 2;
          }
        }
        this.emit(T.Slash, i, i + 1);
        return i + 1;
      case 34: // "
        this.emit(T.OQuote, i, i + 1);
        this.stack.push(STRING);
        return i + 1;
      case 60: {
        // <
        if (next === 60) {
          const h = this.heredocIntro(i);
          if (h > 0) return h;
        }
        if (next === 61) {
          this.emit(T.LessThanEq, i, i + 2);
          return i + 2;
        }
        this.emit(T.LessThan, i, i + 1);
        return i + 1;
      }
      case 123:
        this.emit(T.OBrace, i, i + 1);
        this.braces++;
        return i + 1;
      case 125:
        return this.closeSequence(i, i + 1, false);
      case 126: // ~
        if (next === 125) return this.closeSequence(i, i + 2, true);
        this.emit(T.BitwiseNot, i, i + 1);
        return i + 1;
      case 61: // =
        if (next === 61) return this.two(T.EqualOp, i);
        if (next === 62) return this.two(T.FatArrow, i);
        return this.one(T.Equal, i);
      case 33: // !
        if (next === 61) return this.two(T.NotEqual, i);
        return this.one(T.Bang, i);
      case 62: // >
        if (next === 61) return this.two(T.GreaterThanEq, i);
        return this.one(T.GreaterThan, i);
      case 38: // &
        if (next === 38) return this.two(T.And, i);
        return this.one(T.BitwiseAnd, i);
      case 124: // |
        if (next === 124) return this.two(T.Or, i);
        return this.one(T.BitwiseOr, i);
      case 58: // :
        if (next === 58) return this.two(T.DoubleColon, i);
        return this.one(T.Colon, i);
      case 46: // .
        if (next === 46 && i + 2 < n && src.charCodeAt(i + 2) === 46) {
          this.emit(T.Ellipsis, i, i + 3);
          return i + 3;
        }
        return this.one(T.Dot, i);
      case 91:
        return this.one(T.OBrack, i);
      case 93:
        return this.one(T.CBrack, i);
      case 40:
        return this.one(T.OParen, i);
      case 41:
        return this.one(T.CParen, i);
      case 44:
        return this.one(T.Comma, i);
      case 42:
        return this.one(T.Star, i);
      case 37:
        return this.one(T.Percent, i);
      case 43:
        return this.one(T.Plus, i);
      case 45:
        return this.one(T.Minus, i);
      case 63:
        return this.one(T.Question, i);
      case 94:
        return this.one(T.BitwiseXor, i);
      case 59:
        return this.one(T.Semicolon, i);
      case 96:
        return this.one(T.Backtick, i);
      case 39:
        return this.one(T.Apostrophe, i);
      default:
        break;
    }
    if (isDigit(c)) return this.number(i);
    const idLen = identLength(src, i);
    if (idLen > 0) {
      this.emit(T.Ident, i, i + idLen);
      return i + idLen;
    }
    if (isBadByte(src, i)) return this.one(T.BadUTF8, i);
    const cp = codePointAt(src, i);
    const e = i + (cp > 0xffff ? 2 : 1);
    this.emit(T.Invalid, i, e);
    return e;
  }

  private one(type: TokenCode, i: number): number {
    this.emit(type, i, i + 1);
    return i + 1;
  }

  private two(type: TokenCode, i: number): number {
    this.emit(type, i, i + 2);
    return i + 2;
  }

  private lineComment(i: number): number {
    const nl = this.src.indexOf("\n", i);
    const e = nl < 0 ? this.src.length : nl + 1;
    this.emit(T.Comment, i, e);
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
    this.emit(T.NumberLit, i, j);
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
    this.emit(T.OHeredoc, i, e);
    this.stack.push({ kind: "heredoc", marker, startOfLine: true });
    return e;
  }

  private scanString(i: number): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    if (c === 34) {
      this.emit(T.CQuote, i, i + 1);
      this.stack.pop();
      return i + 1;
    }
    if (c === 36 && next === 123) return this.openSequence(T.TemplateInterp, i);
    if (c === 37 && next === 123) return this.openSequence(T.TemplateControl, i);
    if (c === 10 || c === 13) {
      let j = i + 1;
      while (j < n && (src.charCodeAt(j) === 10 || src.charCodeAt(j) === 13)) j++;
      this.emit(T.QuotedNewline, i, j);
      return j;
    }
    if (isBadByte(src, i)) return this.one(T.BadUTF8, i);
    if (c === 92 && (next === -1 || next === 10 || next === 13)) return this.one(T.Invalid, i);
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
    this.emit(T.QuotedLit, i, j);
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
    if (c === 36 && next === 123) return this.openSequence(T.TemplateInterp, i);
    if (c === 37 && next === 123) return this.openSequence(T.TemplateControl, i);
    if (isBadByte(src, i)) {
      ctx.startOfLine = false;
      return this.one(T.BadUTF8, i);
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
      this.emit(T.StringLit, i, j);
      return j;
    }
    if (ctx.startOfLine && src.slice(i, j).trim() === ctx.marker) {
      // The closing marker and the newline after it are separate tokens, so the newline can
      // still end the attribute the heredoc belongs to.
      this.emit(T.CHeredoc, i, j);
      this.emit(T.Newline, j, nlEnd);
      this.stack.pop();
      return nlEnd;
    }
    ctx.startOfLine = true;
    this.emit(T.StringLit, i, nlEnd);
    return nlEnd;
  }

  private scanBare(i: number): number {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(i);
    const next = i + 1 < n ? src.charCodeAt(i + 1) : -1;
    if (c === 36 && next === 123) return this.openSequence(T.TemplateInterp, i);
    if (c === 37 && next === 123) return this.openSequence(T.TemplateControl, i);
    if (isBadByte(src, i)) return this.one(T.BadUTF8, i);
    let j = this.literalRun(i);
    if (j < n) {
      const d = src.charCodeAt(j);
      if (d === 10) j += 1;
      else if (d === 13 && src.charCodeAt(j + 1) === 10) j += 2;
    }
    this.emit(T.StringLit, i, j);
    return j;
  }
}


/**
 * Scans src into tokens. `start` is the position of src's first character in its file (for
 * expressions embedded in other files, such as JSON strings). A leading byte order mark is skipped.
 */
export function scanTokens(src: string, filename: string, start: Pos, mode: ScanMode): Token[] {
  const stream = scanStream(src, filename, start, mode);
  const tokens = new Array<Token>(stream.count);
  for (let i = 0; i < stream.count; i++) tokens[i] = stream.token(i);
  stream.release();
  return tokens;
}

/** Scans src into a compact token stream (what the parser reads); `scanTokens` for the rest. */
export function scanStream(src: string, filename: string, start: Pos, mode: ScanMode): TokenStream {
  let offset = 0;
  let startPos = start;
  if (src.charCodeAt(0) === 0xfeff) {
    offset = 1;
    startPos = { line: start.line, column: start.column, byte: start.byte + 3 };
  }
  return new Scanner(src, filename, startPos, mode, offset).scan();
}
