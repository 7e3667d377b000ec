// The token cursor the parser reads through. Comments are skipped; newlines are significant only
// while the innermost context says so (bodies and object constructors), and a line comment, which
// absorbs the newline ending it, then stands for that newline. It reads the scanner's compact
// token stream and hands out tokens as handles (numbers), so the parser makes no object per token;
// ranges are offsets into the source (SourceRange), so making one computes no position.
import { SourceRange, type PositionMap } from "./positions.js";
import { COMMENT_CODE, NEWLINE_CODE, tokenTypeName, type TokenStream, type TokenType } from "./scanner.js";

/**
 * A token handle: the token's index in the stream, or -(index + 1) for a line comment standing
 * for the newline that ends it (its type is Newline, its text that newline, its range the
 * comment's, as hclsyntax reports it).
 */
export type Tok = number & { readonly __tok: unique symbol };

export class Peeker {
  private next = 0;
  private readonly newlines: boolean[] = [true];
  /** The innermost newline mode (the top of `newlines`). */
  private nl = true;
  // The next significant token and the index after it, cached until the cursor or the newline
  // mode changes (peek is called far more often than read).
  private peeked: Tok | undefined;
  private peekedAfter = 0;

  constructor(private readonly tokens: TokenStream, private readonly src: string) {}

  pushIncludeNewlines(include: boolean): void {
    this.newlines.push(include);
    this.nl = include;
    this.peeked = undefined;
  }

  popIncludeNewlines(): void {
    this.newlines.pop();
    this.nl = this.newlines[this.newlines.length - 1] ?? true;
    this.peeked = undefined;
  }

  /** Finds the next significant token from the cursor, caching it and the index after it. */
  private find(): Tok {
    if (this.peeked !== undefined) return this.peeked;
    const stream = this.tokens;
    const types = stream.types;
    const count = stream.count;
    const nl = this.nl;
    for (let i = this.next; i < count; i++) {
      const type = types[i] as number;
      if (type === COMMENT_CODE) {
        if (!nl) continue;
        const start = stream.starts[i] as number;
        const end = stream.ends[i] as number;
        if (end > start && this.src.charCodeAt(end - 1) === 10) {
          this.peeked = -(i + 1) as Tok;
          this.peekedAfter = i + 1;
          return this.peeked;
        }
        continue;
      }
      if (type === NEWLINE_CODE && !nl) continue;
      this.peeked = i as Tok;
      this.peekedAfter = i + 1;
      return this.peeked;
    }
    this.peeked = (count - 1) as Tok;
    this.peekedAfter = count;
    return this.peeked;
  }

  peek(): Tok {
    return this.find();
  }

  read(): Tok {
    const tok = this.find();
    this.next = this.peekedAfter;
    this.peeked = undefined;
    return tok;
  }

  /**
   * The type code of the raw token `k` places after the cursor (comments and newlines included),
   * for lookahead where neither can occur, such as inside a quoted string. -1 past the end.
   */
  rawTypeAhead(k: number): number {
    const i = this.next + k;
    return i < this.tokens.count ? (this.tokens.types[i] as number) : -1;
  }

  code(t: Tok): number {
    return t < 0 ? NEWLINE_CODE : (this.tokens.types[t] as number);
  }

  type(t: Tok): TokenType {
    return tokenTypeName(this.code(t));
  }

  /** Offsets of the token in the source string. */
  start(t: Tok): number {
    return t < 0 ? (this.tokens.ends[-t - 1] as number) - 1 : (this.tokens.starts[t] as number);
  }

  end(t: Tok): number {
    return t < 0 ? (this.tokens.ends[-t - 1] as number) : (this.tokens.ends[t] as number);
  }

  /** The position map of the file, for ranges made from offsets. */
  get map(): PositionMap {
    return this.tokens.map;
  }

  /** Start offset of the token's range (range(t).from, without making the range). */
  from(t: Tok): number {
    return this.tokens.starts[t < 0 ? -t - 1 : t] as number;
  }

  /** End offset of the token's range (range(t).to). */
  to(t: Tok): number {
    return this.tokens.ends[t < 0 ? -t - 1 : t] as number;
  }

  /** The token's range (for a line comment standing for a newline, the whole comment's). */
  range(t: Tok): SourceRange {
    const i = t < 0 ? -t - 1 : t;
    return new SourceRange(this.tokens.map, this.tokens.starts[i] as number, this.tokens.ends[i] as number);
  }

  /** From the start of token a to the end of token b (as rangeBetween of their ranges). */
  rangeOver(a: Tok, b: Tok): SourceRange {
    const ia = a < 0 ? -a - 1 : a;
    const ib = b < 0 ? -b - 1 : b;
    const starts = this.tokens.starts;
    const ends = this.tokens.ends;
    const from = Math.min(starts[ia] as number, starts[ib] as number);
    const to = Math.max(ends[ia] as number, ends[ib] as number);
    return new SourceRange(this.tokens.map, from, to);
  }

  text(t: Tok): string {
    return this.src.slice(this.start(t), this.end(t));
  }

  peekType(): TokenType {
    return this.type(this.find());
  }

  nextRange(): SourceRange {
    return this.range(this.peek());
  }

  /** The range of the token read most recently (any kind, including skipped ones before it). */
  prevRange(): SourceRange {
    if (this.next === 0) return this.nextRange();
    return this.range((this.next - 1) as Tok);
  }

  /** rangeBetween(range(from), prevRange()), without making either. */
  rangeToPrev(from: Tok): SourceRange {
    return this.rangeOver(from, this.next === 0 ? this.peek() : ((this.next - 1) as Tok));
  }
}
