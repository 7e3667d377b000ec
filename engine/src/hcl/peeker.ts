// The token cursor the parser reads through. Comments are skipped; newlines are significant only
// while the innermost context says so (bodies and object constructors), and a line comment, which
// absorbs the newline ending it, then stands for that newline.
import type { Range } from "./pos.js";
import type { Token } from "./scanner.js";

export class Peeker {
  private next = 0;
  private readonly newlines: boolean[] = [true];
  // The next significant token and the index after it, cached until the cursor or the newline
  // mode changes (peek is called far more often than read).
  private peeked: Token | undefined;
  private peekedAfter = 0;

  constructor(private readonly tokens: Token[], private readonly src: string) {}

  private includingNewlines(): boolean {
    return this.newlines[this.newlines.length - 1] ?? true;
  }

  pushIncludeNewlines(include: boolean): void {
    this.newlines.push(include);
    this.peeked = undefined;
  }

  popIncludeNewlines(): void {
    this.newlines.pop();
    this.peeked = undefined;
  }

  /** Finds the next significant token from the cursor, caching it and the index after it. */
  private find(): Token {
    if (this.peeked) return this.peeked;
    const toks = this.tokens;
    const nl = this.includingNewlines();
    for (let i = this.next; i < toks.length; i++) {
      const tok = toks[i] as Token;
      if (tok.type === "Comment") {
        if (!nl) continue;
        if (tok.end > tok.start && this.src.charCodeAt(tok.end - 1) === 10) {
          this.peeked = tok.withType("Newline", tok.end - 1, tok.end);
          this.peekedAfter = i + 1;
          return this.peeked;
        }
        continue;
      }
      if (tok.type === "Newline" && !nl) continue;
      this.peeked = tok;
      this.peekedAfter = i + 1;
      return tok;
    }
    this.peeked = toks[toks.length - 1] as Token;
    this.peekedAfter = toks.length;
    return this.peeked;
  }

  peek(): Token {
    return this.find();
  }

  read(): Token {
    const tok = this.find();
    this.next = this.peekedAfter;
    this.peeked = undefined;
    return tok;
  }

  nextRange(): Range {
    return this.peek().range;
  }

  /** The range of the token read most recently (any kind, including skipped ones before it). */
  prevRange(): Range {
    if (this.next === 0) return this.nextRange();
    return (this.tokens[this.next - 1] as Token).range;
  }

  text(tok: Token): string {
    return this.src.slice(tok.start, tok.end);
  }
}
