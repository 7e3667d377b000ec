// The token cursor the parser reads through. Comments are skipped; newlines are significant only
// while the innermost context says so (bodies and object constructors), and a line comment, which
// absorbs the newline ending it, then stands for that newline. It reads the scanner's compact
// token stream and hands out tokens as handles (numbers), so the parser makes no object per token;
// a token's range is made once, when first asked for.
import type { Range } from "./pos.js";
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
  /** Ranges made so far, by token index (each token's range is one object, however often asked). */
  private readonly ranges: Array<Range | undefined>;

  constructor(private readonly tokens: TokenStream, private readonly src: string) {
    this.ranges = new Array<Range | undefined>(tokens.count);
  }

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

  range(t: Tok): Range {
    const i = t < 0 ? -t - 1 : t;
    let r = this.ranges[i];
    if (!r) {
      r = this.tokens.map.range(this.tokens.starts[i] as number, this.tokens.ends[i] as number);
      this.ranges[i] = r;
    }
    return r;
  }

  text(t: Tok): string {
    return this.src.slice(this.start(t), this.end(t));
  }

  peekType(): TokenType {
    return this.type(this.find());
  }

  nextRange(): Range {
    return this.range(this.peek());
  }

  /** The range of the token read most recently (any kind, including skipped ones before it). */
  prevRange(): Range {
    if (this.next === 0) return this.nextRange();
    return this.range((this.next - 1) as Tok);
  }
}
