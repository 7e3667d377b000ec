// The recursive-descent parser for HCL's native syntax (hclsyntax's grammar and recovery rules).
// After an error it sets `recovery`, skips to a likely resynchronisation point and keeps going, so
// one pass reports many problems; while recovering it suppresses follow-on "bad token" errors.
// It never throws on user input: every path returns a (possibly partial) tree plus diagnostics.
import type {
  Attribute,
  BinaryOperator,
  Block,
  Body,
  Expression,
  LiteralValue,
  ObjectConsItem,
  Traverser,
} from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { formatRange, type Range } from "./pos.js";
import { Peeker, type Tok } from "./peeker.js";
import {
  AnonSymbolNode,
  AttrStep,
  AttributeNode,
  BinaryOpNode,
  BlockNode,
  BodyNode,
  ConditionalNode,
  ForNode,
  FunctionCallNode,
  IndexNode,
  IndexStep,
  LiteralNode,
  ObjectKeyNode,
  ObjectNode,
  ParenthesesNode,
  rangeOf,
  RelativeTraversalNode,
  RootStep,
  ScopeTraversalNode,
  SplatNode,
  SyntaxErrorNode,
  TemplateNode,
  TemplateWrapNode,
  TupleNode,
  UnaryOpNode,
} from "./nodes.js";
import { rangeAtEnd, spanOf, type SourceRange } from "./positions.js";
import { tokenTypeCode, type TokenStream, type TokenType } from "./scanner.js";
import { isPlainLiteral, normalizeNFC, unescapeLiteral } from "./strings.js";
import { parseTemplateParts, type TemplateParse } from "./template.js";

const BINARY_LEVELS: ReadonlyArray<Partial<Record<TokenType, BinaryOperator>>> = [
  { Or: "||" },
  { And: "&&" },
  { EqualOp: "==", NotEqual: "!=" },
  { GreaterThan: ">", GreaterThanEq: ">=", LessThan: "<", LessThanEq: "<=" },
  { Plus: "+", Minus: "-" },
  { Star: "*", Slash: "/", Percent: "%" },
];

/** The precedence level (index into BINARY_LEVELS) of each binary operator token. */
const BINARY_LEVEL: Partial<Record<TokenType, number>> = {};
BINARY_LEVELS.forEach((ops, level) => {
  for (const t of Object.keys(ops) as TokenType[]) BINARY_LEVEL[t] = level;
});

const QUOTED_LIT = tokenTypeCode("QuotedLit");
const CQUOTE = tokenTypeCode("CQuote");

/** BINARY_LEVEL by token type code (-1: not a binary operator), asked after every operand. */
const LEVEL_BY_CODE = new Int8Array(64).fill(-1);
for (const [t, level] of Object.entries(BINARY_LEVEL)) LEVEL_BY_CODE[tokenTypeCode(t as TokenType)] = level;

/** What normalizeNFC looks for, searched once per source instead of once per identifier. */
const MAY_NEED_NFC = /[^\u0000-\u02ff]/;

const NUMBER_RE = /^[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?$/;

export function oppositeBracket(t: TokenType): TokenType | undefined {
  switch (t) {
    case "OBrace":
      return "CBrace";
    case "OBrack":
      return "CBrack";
    case "OParen":
      return "CParen";
    case "OQuote":
      return "CQuote";
    case "OHeredoc":
      return "CHeredoc";
    case "CBrace":
      return "OBrace";
    case "CBrack":
      return "OBrack";
    case "CParen":
      return "OParen";
    case "CQuote":
      return "OQuote";
    case "CHeredoc":
      return "OHeredoc";
    case "TemplateControl":
    case "TemplateInterp":
      return "TemplateSeqEnd";
    case "TemplateSeqEnd":
      return "TemplateInterp";
    default:
      return undefined;
  }
}

/**
 * An array built by push has room for at least 17 items; the tree keeps its arrays for as long as
 * it lives, so each is copied to its exact size once complete (most hold one to three items).
 */
export function fit<T>(items: T[]): T[] {
  return items.length === 0 ? items : items.slice();
}

/** True if an error was appended to diags at or after index `mark`. */
function errorsSince(diags: readonly Diagnostic[], mark: number): boolean {
  for (let i = mark; i < diags.length; i++) if ((diags[i] as Diagnostic).severity === "error") return true;
  return false;
}

/**
 * How deeply brackets, blocks and templates may nest. Real configurations stay far below it; the
 * limit keeps pathological input from exhausting the call stack, so the parser never throws.
 */
export const MAX_NESTING = 200;

export class Parser {
  recovery = false;
  readonly p: Peeker;
  private depth = 0;
  private toldDepth = false;
  // The items of the lists being built (body items, labels, arguments, tuple and object items),
  // each list above the one it is nested in; `take` copies a finished list out at its exact size,
  // so no array is outgrown and then copied. Every list started must be taken on every path.
  private readonly items: unknown[] = [];
  private top = 0;
  /** Whether the source has characters NFC normalisation may change (none below U+0300). */
  private readonly nfcText: boolean;

  private keep(item: unknown): void {
    this.items[this.top++] = item;
  }

  /** The items kept since `mark`, as an array of their own; the list is then closed. */
  private take<T>(mark: number): T[] {
    const out = mark === this.top ? [] : (this.items.slice(mark, this.top) as T[]);
    this.top = mark;
    return out;
  }

  /** Enters one nesting level; false (with one diagnostic per parse) when too deep. */
  enter(at: Range, diags: Diagnostic[]): boolean {
    if (this.depth >= MAX_NESTING) {
      if (!this.toldDepth) {
        diags.push(
          errorDiag("Nesting too deep", `Expressions, blocks and templates may be nested at most ${MAX_NESTING} levels deep.`, at),
        );
        this.toldDepth = true;
      }
      this.recovery = true;
      return false;
    }
    this.depth++;
    return true;
  }

  leave(): void {
    this.depth--;
  }

  constructor(tokens: TokenStream, readonly src: string) {
    this.p = new Peeker(tokens, src);
    this.nfcText = MAY_NEED_NFC.test(src);
  }

  text(tok: Tok): string {
    return this.p.text(tok);
  }

  identName(tok: Tok): string {
    const text = this.p.text(tok);
    return this.nfcText ? normalizeNFC(text) : text;
  }

  setRecovery(): void {
    this.recovery = true;
  }

  /** Skips to just after the token `end`, counting nested brackets of the same kind. */
  recover(end: TokenType): Tok {
    const start = oppositeBracket(end);
    this.recovery = true;
    let nest = 0;
    for (;;) {
      const tok = this.p.read();
      let ty = this.p.type(tok);
      if (end === "TemplateSeqEnd" && ty === "TemplateControl") ty = "TemplateInterp";
      if (ty === start) nest++;
      else if (ty === end) {
        if (nest < 1) return tok;
        nest--;
      } else if (ty === "EOF") return tok;
    }
  }

  /** Skips to the next `start` bracket, then past its matching close. */
  recoverOver(start: TokenType): void {
    const end = oppositeBracket(start);
    for (;;) {
      const tok = this.p.read();
      if (this.p.type(tok) === start || this.p.type(tok) === "EOF") break;
    }
    if (end) this.recover(end);
  }

  /** Skips to the newline that ends the current body item, respecting brackets. */
  recoverAfterBodyItem(): void {
    this.recovery = true;
    const open: TokenType[] = [];
    for (;;) {
      const tok = this.p.read();
      switch (this.p.type(tok)) {
        case "Newline":
          if (open.length === 0) return;
          break;
        case "EOF":
          return;
        case "OBrace":
        case "OBrack":
        case "OParen":
        case "OQuote":
        case "OHeredoc":
        case "TemplateInterp":
        case "TemplateControl":
          open.push(this.p.type(tok));
          break;
        case "CBrace":
        case "CBrack":
        case "CParen":
        case "CQuote":
        case "CHeredoc": {
          const opener = oppositeBracket(this.p.type(tok));
          while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
          if (open.length > 0) open.pop();
          break;
        }
        case "TemplateSeqEnd":
          while (open.length > 0 && open[open.length - 1] !== "TemplateInterp" && open[open.length - 1] !== "TemplateControl") open.pop();
          if (open.length > 0) open.pop();
          break;
        default:
          break;
      }
    }
  }

  // ---- Bodies -------------------------------------------------------------------------------

  parseBody(end: TokenType): { body: Body; diags: Diagnostic[] } {
    // Attributes and blocks, in source order, kept as one list and split at the end.
    const mark = this.top;
    let nAttrs = 0;
    // Most bodies have a handful of arguments: a Map only once there are many.
    let byName: Map<string, Attribute> | undefined;
    const diags: Diagnostic[] = [];
    const startRange = this.p.prevRange();
    let endRange: SourceRange;
    for (;;) {
      const next = this.p.peek();
      if (this.p.type(next) === end) {
        endRange = this.p.nextRange();
        this.p.read();
        break;
      }
      if (this.p.type(next) === "Newline") {
        this.p.read();
        continue;
      }
      if (this.p.type(next) === "Ident") {
        const item = this.parseBodyItem(diags);
        if (!item) continue;
        if (item.kind === "Block") this.keep(item);
        else {
          const existing = byName ? byName.get(item.name) : this.findAttribute(mark, item.name);
          if (existing) {
            diags.push(
              errorDiag(
                "Attribute redefined",
                `The argument ${JSON.stringify(item.name)} was already set at ${formatRange(existing.nameRange)}. Each argument may be set only once.`,
                item.nameRange,
              ),
            );
          } else {
            this.keep(item);
            nAttrs++;
            if (byName) byName.set(item.name, item);
            else if (nAttrs > 8) byName = this.attributesByName(mark);
          }
        }
        continue;
      }
      const bad = this.p.read();
      if (!this.recovery) {
        if (this.p.type(bad) === "OQuote") {
          diags.push(errorDiag("Invalid argument name", "Argument names must not be quoted.", this.p.range(bad)));
        } else if (this.p.type(bad) === "EOF") {
          if (end === "CBrace") {
            diags.push(
              errorDiag(
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                startRange,
              ),
            );
          } else {
            diags.push(errorDiag("Unclosed configuration body", "Found end of file before the end of this configuration body.", startRange));
          }
        } else {
          diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", this.p.range(bad)));
        }
      }
      endRange = this.p.prevRange();
      this.recover(end);
      break;
    }
    const { attributes, blocks } = this.takeBodyItems(mark, nAttrs);
    return { body: new BodyNode(attributes, blocks, spanOf(startRange, endRange), rangeAtEnd(endRange)), diags };
  }

  private findAttribute(mark: number, name: string): Attribute | undefined {
    for (let k = mark; k < this.top; k++) {
      const item = this.items[k] as Attribute | Block;
      if (item.kind === "Attribute" && item.name === name) return item;
    }
    return undefined;
  }

  private attributesByName(mark: number): Map<string, Attribute> {
    const byName = new Map<string, Attribute>();
    for (let k = mark; k < this.top; k++) {
      const item = this.items[k] as Attribute | Block;
      if (item.kind === "Attribute") byName.set(item.name, item);
    }
    return byName;
  }

  /** Takes a body's list of items, split into its attributes and its blocks. */
  private takeBodyItems(mark: number, nAttrs: number): { attributes: Attribute[]; blocks: Block[] } {
    const n = this.top - mark;
    if (nAttrs === n) return { attributes: this.take<Attribute>(mark), blocks: [] };
    if (nAttrs === 0) return { attributes: [], blocks: this.take<Block>(mark) };
    const attributes = new Array<Attribute>(nAttrs);
    const blocks = new Array<Block>(n - nAttrs);
    let a = 0;
    let b = 0;
    for (let k = mark; k < this.top; k++) {
      const item = this.items[k] as Attribute | Block;
      if (item.kind === "Attribute") attributes[a++] = item;
      else blocks[b++] = item;
    }
    this.top = mark;
    return { attributes, blocks };
  }

  private parseBodyItem(diags: Diagnostic[]): Attribute | Block | undefined {
    const ident = this.p.read();
    if (this.p.type(ident) !== "Ident") {
      this.recoverAfterBodyItem();
      diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", this.p.range(ident)));
      return undefined;
    }
    const next = this.p.peek();
    switch (this.p.type(next)) {
      case "Equal":
        return this.finishBodyAttribute(ident, false, diags);
      case "OQuote":
      case "OBrace":
      case "Ident":
        return this.finishBodyBlock(ident, diags);
      default:
        this.recoverAfterBodyItem();
        diags.push(
          errorDiag(
            "Argument or block definition required",
            'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
            this.p.range(ident),
          ),
        );
        return undefined;
    }
  }

  /** The body of a one-line block `a { b = c }`: exactly one attribute, then the closing brace. */
  private parseSingleAttrBody(diags: Diagnostic[]): Body | undefined {
    const ident = this.p.read();
    if (this.p.type(ident) !== "Ident") {
      this.recoverAfterBodyItem();
      diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", this.p.range(ident)));
      return undefined;
    }
    const next = this.p.peek();
    switch (this.p.type(next)) {
      case "Equal": {
        const attr = this.finishBodyAttribute(ident, true, diags);
        const range = rangeOf(attr);
        return new BodyNode([attr], [], range, rangeAtEnd(range));
      }
      case "OQuote":
      case "OBrace":
      case "Ident":
        this.recoverAfterBodyItem();
        diags.push(
          errorDiag(
            "Argument definition required",
            `A single-line block definition can contain only a single argument. If you meant to define argument ${JSON.stringify(this.text(ident))}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`,
            this.p.rangeOver(ident, next),
          ),
        );
        return undefined;
      default:
        this.recoverAfterBodyItem();
        diags.push(
          errorDiag(
            "Argument or block definition required",
            'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
            this.p.range(ident),
          ),
        );
        return undefined;
    }
  }

  private finishBodyAttribute(ident: Tok, singleLine: boolean, diags: Diagnostic[]): Attribute {
    const eq = this.p.read();
    const exprMark = diags.length;
    const expr = this.parseExpression(diags);
    // The attribute ends with the token before the newline (or before recovery skipped on).
    let range: SourceRange;
    if (this.recovery && errorsSince(diags, exprMark)) {
      range = this.p.rangeToPrev(ident);
      this.recoverAfterBodyItem();
    } else {
      range = this.p.rangeToPrev(ident);
      if (!singleLine) {
        const end = this.p.peek();
        if (this.p.type(end) !== "Newline" && this.p.type(end) !== "EOF") {
          if (!this.recovery) {
            let summary = "Missing newline after argument";
            let detail = "An argument definition must end with a newline.";
            if (this.p.type(end) === "Comma") {
              summary = "Unexpected comma after argument";
              detail = "Argument definitions must be separated by newlines, not commas. " + detail;
            }
            diags.push(errorDiag(summary, detail, this.p.range(end), this.p.rangeOver(ident, end)));
          }
          range = this.p.rangeToPrev(ident);
          this.recoverAfterBodyItem();
        } else {
          this.p.read();
        }
      }
    }
    return new AttributeNode(this.identName(ident), expr, range.map, range.from, range.to, this.p.to(ident), this.p.from(eq), this.p.to(eq));
  }

  private finishBodyBlock(ident: Tok, diags: Diagnostic[]): Block {
    if (!this.enter(this.p.range(ident), diags)) {
      while (this.p.type(this.p.read()) !== "EOF");
      const at = this.p.range(ident);
      return new BlockNode(this.identName(ident), [], new BodyNode([], [], at, at), at, [], at, at, at);
    }
    try {
      return this.finishBodyBlockInner(ident, diags);
    } finally {
      this.leave();
    }
  }

  private takeLabels(mark: number): { labels: string[]; labelRanges: SourceRange[] } {
    const n = (this.top - mark) >> 1;
    if (n === 0) return { labels: [], labelRanges: [] };
    const labels = new Array<string>(n);
    const labelRanges = new Array<SourceRange>(n);
    for (let k = 0; k < n; k++) {
      labels[k] = this.items[mark + 2 * k] as string;
      labelRanges[k] = this.items[mark + 2 * k + 1] as SourceRange;
    }
    this.top = mark;
    return { labels, labelRanges };
  }

  private finishBodyBlockInner(ident: Tok, diags: Diagnostic[]): Block {
    const type = this.identName(ident);
    // Labels and their ranges, kept in pairs.
    const mark = this.top;
    let oBrace: Tok | undefined;
    while (oBrace === undefined) {
      const tok = this.p.peek();
      if (this.p.type(tok) === "OBrace") {
        oBrace = this.p.read();
        break;
      }
      if (this.p.type(tok) === "OQuote") {
        const lab = this.parseQuotedStringLiteral(diags);
        this.keep(lab.value);
        this.keep(lab.range);
        continue;
      }
      if (this.p.type(tok) === "Ident") {
        this.p.read();
        this.keep(this.identName(tok));
        this.keep(this.p.range(tok));
        continue;
      }
      const context = this.p.rangeOver(ident, tok);
      if (this.p.type(tok) === "Equal") {
        diags.push(
          errorDiag(
            "Invalid block definition",
            'The equals sign "=" indicates an argument definition, and must not be used when defining a block.',
            this.p.range(tok),
            context,
          ),
        );
      } else if (this.p.type(tok) === "Newline") {
        diags.push(
          errorDiag(
            "Invalid block definition",
            'A block definition must have block content delimited by "{" and "}", starting on the same line as the block header.',
            this.p.range(tok),
            context,
          ),
        );
      } else if (!this.recovery) {
        diags.push(
          errorDiag("Invalid block definition", 'Either a quoted string block label or an opening brace ("{") is expected here.', this.p.range(tok), context),
        );
      }
      this.recoverAfterBodyItem();
      const { labels, labelRanges } = this.takeLabels(mark);
      const at = this.p.range(ident);
      const endRange = labelRanges.length > 0 ? (labelRanges[labelRanges.length - 1] as SourceRange) : at;
      return new BlockNode(type, labels, new BodyNode([], [], at, at), at, labelRanges, at, endRange, spanOf(at, endRange));
    }
    const { labels, labelRanges } = this.takeLabels(mark);

    let body: Body | undefined;
    const bodyDiags: Diagnostic[] = [];
    const first = this.p.peekType();
    if (first === "Newline" || first === "EOF" || first === "CBrace") {
      const r = this.parseBody("CBrace");
      body = r.body;
      bodyDiags.push(...r.diags);
    } else {
      body = this.parseSingleAttrBody(bodyDiags);
      const after = this.p.peek();
      switch (this.p.type(after)) {
        case "CBrace":
          this.p.read();
          break;
        case "Comma":
          diags.push(
            errorDiag(
              "Invalid single-argument block definition",
              "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
              this.p.range(after),
            ),
          );
          this.recover("CBrace");
          break;
        case "Newline":
          diags.push(
            errorDiag(
              "Invalid single-argument block definition",
              "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
              this.p.range(after),
            ),
          );
          this.recover("CBrace");
          break;
        default:
          if (!this.recovery) {
            if (this.p.type(after) === "EOF") {
              diags.push(
                errorDiag(
                  "Unclosed configuration block",
                  "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                  this.p.range(oBrace),
                  this.p.rangeOver(ident, oBrace),
                ),
              );
            } else {
              diags.push(
                errorDiag(
                  "Invalid single-argument block definition",
                  "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                  this.p.range(after),
                ),
              );
            }
          }
          this.recover("CBrace");
      }
    }
    diags.push(...bodyDiags);
    const cBraceRange = this.p.prevRange();
    const eol = this.p.peek();
    if (this.p.type(eol) === "Newline" || this.p.type(eol) === "EOF") {
      this.p.read();
    } else {
      if (!this.recovery) {
        diags.push(
          errorDiag("Missing newline after block definition", "A block definition must end with a newline.", this.p.range(eol), this.p.rangeOver(ident, eol)),
        );
      }
      this.recoverAfterBodyItem();
    }
    if (!body) body = new BodyNode([], [], spanOf(this.p.range(oBrace), cBraceRange), cBraceRange);
    const typeRange = this.p.range(ident);
    return new BlockNode(type, labels, body, typeRange, labelRanges, this.p.range(oBrace), cBraceRange, spanOf(typeRange, cBraceRange));
  }

  // ---- Expressions --------------------------------------------------------------------------

  parseExpression(diags: Diagnostic[]): Expression {
    return this.parseTernaryConditional(diags);
  }

  private parseTernaryConditional(diags: Diagnostic[]): Expression {
    // The first token's range is needed only if this turns out to be a conditional.
    const startTok = this.p.peek();
    const condMark = diags.length;
    const cond = this.parseBinaryOps(0, diags);
    if (this.recovery && errorsSince(diags, condMark)) return cond;
    if (this.p.peekType() !== "Question") return cond;
    this.p.read();
    const trueMark = diags.length;
    const trueExpr = this.parseExpression(diags);
    if (this.recovery && errorsSince(diags, trueMark)) return cond;
    const colon = this.p.peek();
    if (this.p.type(colon) !== "Colon") {
      diags.push(
        errorDiag(
          "Missing false expression in conditional",
          "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
          this.p.range(colon),
          this.p.rangeOver(startTok, colon),
        ),
      );
      return cond;
    }
    this.p.read();
    const falseMark = diags.length;
    const falseExpr = this.parseExpression(diags);
    if (this.recovery && errorsSince(diags, falseMark)) return cond;
    return new ConditionalNode(cond, trueExpr, falseExpr, spanOf(this.p.range(startTok), rangeOf(falseExpr)));
  }

  /**
   * Binary operators by precedence climbing: the same left-associative trees as hclsyntax's one
   * function per precedence level, without descending through every level for every operand.
   */
  private parseBinaryOps(minLevel: number, diags: Diagnostic[]): Expression {
    const lhsMark = diags.length;
    let lhs = this.parseExpressionWithTraversals(diags);
    if (this.recovery && errorsSince(diags, lhsMark)) return lhs;
    for (;;) {
      const next = this.p.peek();
      const level = LEVEL_BY_CODE[this.p.code(next)] as number;
      if (level < 0 || level < minLevel) return lhs;
      const op = (BINARY_LEVELS[level] as Partial<Record<TokenType, BinaryOperator>>)[this.p.type(next)] as BinaryOperator;
      this.p.read();
      const rhsMark = diags.length;
      const rhs = this.parseBinaryOps(level + 1, diags);
      if (this.recovery && errorsSince(diags, rhsMark)) return lhs;
      lhs = new BinaryOpNode(op, lhs, rhs, spanOf(rangeOf(lhs), rangeOf(rhs)));
    }
  }

  private parseExpressionWithTraversals(diags: Diagnostic[]): Expression {
    const term = this.parseExpressionTerm(diags);
    return this.parseExpressionTraversals(term, diags);
  }

  private numberLiteral(tok: Tok, diags: Diagnostic[]): LiteralValue {
    const text = this.text(tok);
    if (!NUMBER_RE.test(text)) {
      diags.push(errorDiag("Invalid number literal", "Failed to recognize the value of this number literal.", this.p.range(tok)));
      return { type: "invalid" };
    }
    return { type: "number", text };
  }

  private parseExpressionTraversals(from: Expression, diags: Diagnostic[]): Expression {
    let ret = from;
    for (;;) {
      const next = this.p.peek();
      if (this.p.type(next) === "Dot") {
        const dot = this.p.read();
        const attrTok = this.p.peek();
        if (this.p.type(attrTok) === "Ident") {
          this.p.read();
          ret = extendTraversal(ret, new AttrStep(this.identName(attrTok), this.p.map, this.p.from(dot), this.p.to(attrTok)));
        } else if (this.p.type(attrTok) === "NumberLit") {
          // The legacy index form `foo.0`, inherited from HIL.
          const numTok = this.p.read();
          const text = this.text(numTok);
          const rng = this.p.rangeOver(dot, numTok);
          const dotIdx = text.indexOf(".");
          if (dotIdx >= 0) {
            diags.push(
              errorDiag(
                "Invalid legacy index syntax",
                `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [${text.slice(0, dotIdx)}][${text.slice(dotIdx + 1)}].`,
                this.p.range(numTok),
              ),
            );
            ret = extendTraversal(ret, new IndexStep({ type: "invalid" }, rng.map, rng.from, rng.to));
          } else {
            ret = extendTraversal(ret, new IndexStep(this.numberLiteral(numTok, diags), rng.map, rng.from, rng.to));
          }
        } else if (this.p.type(attrTok) === "Star") {
          ret = this.finishAttrOnlySplat(from, ret, dot, attrTok, diags);
        } else {
          diags.push(errorDiag("Invalid attribute name", "An attribute name is required after a dot.", this.p.range(attrTok)));
          ret = new SyntaxErrorNode(spanOf(rangeOf(from), this.p.range(dot)));
          this.setRecovery();
        }
        continue;
      }
      if (this.p.type(next) === "OBrack") {
        const open = this.p.read();
        if (this.p.peekType() === "Star") {
          this.p.read();
          let close = this.p.read();
          if (this.p.type(close) !== "CBrack" && !this.recovery) {
            close = this.recover("CBrack");
            // hclsyntax's subject aliases the token it recovers to, so the error points there.
            diags.push(
              errorDiag("Missing close bracket on splat index", 'The star for a full splat operator must be immediately followed by a closing bracket ("]").', this.p.range(close)),
            );
          }
          const marker = this.p.rangeOver(open, close);
          const item = new AnonSymbolNode(marker);
          const each = this.parseExpressionTraversals(item, diags);
          ret = new SplatNode(ret, each, item, false, marker, spanOf(rangeOf(from), rangeOf(each)));
          continue;
        }
        this.p.pushIncludeNewlines(false);
        const keyMark = diags.length;
        const key = this.parseExpression(diags);
        let close: Tok;
        if (this.recovery && errorsSince(diags, keyMark)) close = this.recover("CBrack");
        else {
          close = this.p.read();
          if (this.p.type(close) !== "CBrack" && !this.recovery) {
            close = this.recover("CBrack");
            // As above: the subject is the token recovery stopped at.
            diags.push(errorDiag("Missing close bracket on index", 'The index operator must end with a closing bracket ("]").', this.p.range(close)));
          }
        }
        this.p.popIncludeNewlines();
        const rng = this.p.rangeOver(open, close);
        const litKey = staticIndexKey(key);
        if (litKey) ret = extendTraversal(ret, new IndexStep(litKey, rng.map, rng.from, rng.to));
        else ret = new IndexNode(ret, key, this.p.range(open), rng, spanOf(rangeOf(from), rng));
        continue;
      }
      return ret;
    }
  }

  private finishAttrOnlySplat(from: Expression, source: Expression, dot: Tok, starTok: Tok, diags: Diagnostic[]): Expression {
    const marker = this.p.read();
    const trav: Traverser[] = [];
    const map = this.p.map;
    const firstRange = this.p.nextRange();
    let lastRange = this.p.range(marker);
    while (this.p.peekType() === "Dot") {
      const d = this.p.read();
      const t = this.p.peek();
      if (this.p.type(t) === "NumberLit") {
        const numTok = this.p.read();
        const text = this.text(numTok);
        const dotIdx = text.indexOf(".");
        if (dotIdx >= 0) {
          diags.push(
            errorDiag(
              "Invalid legacy index syntax",
              `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [${text.slice(0, dotIdx)}][${text.slice(dotIdx + 1)}].`,
              this.p.range(starTok),
            ),
          );
          trav.push(new IndexStep({ type: "invalid" }, map, this.p.from(d), this.p.to(numTok)));
        } else {
          trav.push(new IndexStep(this.numberLiteral(numTok, diags), map, this.p.from(d), this.p.to(numTok)));
        }
        lastRange = this.p.range(numTok);
        continue;
      }
      if (this.p.type(t) !== "Ident") {
        if (!this.recovery) {
          if (this.p.type(t) === "Star") {
            diags.push(
              errorDiag("Nested splat expression not allowed", "A splat expression (*) cannot be used inside another attribute-only splat expression.", this.p.range(t)),
            );
          } else {
            diags.push(errorDiag("Invalid attribute name", "An attribute name is required after a dot.", this.p.range(starTok)));
          }
        }
        this.setRecovery();
        break;
      }
      const a = this.p.read();
      trav.push(new AttrStep(this.identName(a), map, this.p.from(d), this.p.to(a)));
      lastRange = this.p.range(a);
    }
    const markerRange = this.p.rangeOver(dot, marker);
    const item = new AnonSymbolNode(markerRange);
    const each: Expression = trav.length === 0 ? item : new RelativeTraversalNode(item, fit(trav), spanOf(firstRange, lastRange));
    return new SplatNode(source, each, item, true, markerRange, spanOf(rangeOf(from), lastRange));
  }

  private parseExpressionTerm(diags: Diagnostic[]): Expression {
    const start = this.p.peek();
    if (!this.enter(this.p.range(start), diags)) {
      // Skip the rest of the input: nothing sensible can be made of it.
      while (this.p.type(this.p.read()) !== "EOF");
      return new LiteralNode({ type: "invalid" }, this.p.map, this.p.from(start), this.p.to(start));
    }
    try {
      return this.parseTerm(start, diags);
    } finally {
      this.leave();
    }
  }

  private parseTerm(start: Tok, diags: Diagnostic[]): Expression {
    switch (this.p.type(start)) {
      case "OParen": {
        const oParen = this.p.read();
        this.p.pushIncludeNewlines(false);
        const innerMark = diags.length;
        const expr = this.parseExpression(diags);
        if (errorsSince(diags, innerMark)) {
          this.recover("CParen");
          this.p.popIncludeNewlines();
          return expr;
        }
        const close = this.p.peek();
        if (this.p.type(close) !== "CParen") {
          diags.push(
            errorDiag("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", this.p.range(close), this.p.rangeOver(start, close)),
          );
          this.setRecovery();
        }
        const cParen = this.p.read();
        this.p.popIncludeNewlines();
        return new ParenthesesNode(expr, this.p.rangeOver(oParen, cParen));
      }
      case "NumberLit": {
        const tok = this.p.read();
        return new LiteralNode(this.numberLiteral(tok, diags), this.p.map, this.p.from(tok), this.p.to(tok));
      }
      case "Ident": {
        const tok = this.p.read();
        const after = this.p.peekType();
        if (after === "OParen" || after === "DoubleColon") return this.finishFunctionCall(tok, diags);
        const name = this.identName(tok);
        const map = this.p.map;
        const from = this.p.from(tok);
        const to = this.p.to(tok);
        switch (name) {
          case "true":
            return new LiteralNode({ type: "bool", value: true }, map, from, to);
          case "false":
            return new LiteralNode({ type: "bool", value: false }, map, from, to);
          case "null":
            return new LiteralNode({ type: "null" }, map, from, to);
          default:
            return new ScopeTraversalNode([new RootStep(name, map, from, to)], map, from, to);
        }
      }
      case "OQuote":
      case "OHeredoc": {
        const open = this.p.read();
        if (this.p.type(start) === "OQuote" && this.p.rawTypeAhead(0) === QUOTED_LIT && this.p.rawTypeAhead(1) === CQUOTE) {
          // The most common template by far, a plain quoted string: the tree parseTemplateParts
          // would build for it, without its general machinery.
          const lit = this.p.read();
          const close = this.p.read();
          const text = this.text(lit);
          const value = isPlainLiteral(text, true) ? text : unescapeLiteral(text, true, this.p.range(lit), diags);
          const map = this.p.map;
          return new TemplateNode([new LiteralNode({ type: "string", value }, map, this.p.from(lit), this.p.to(lit))], map, this.p.from(open), this.p.to(close));
        }
        const closer = this.p.type(start) === "OQuote" ? "CQuote" : "CHeredoc";
        const flush = this.p.type(start) === "OHeredoc" && this.text(open).startsWith("<<-");
        const t = parseTemplateParts(this, closer, flush, diags);
        return templateResult(t, this.p.rangeToPrev(open));
      }
      case "Minus":
      case "Bang": {
        const tok = this.p.read();
        // The operand binds tighter than any binary operator: -46+5 is (-46)+5.
        const operand = this.parseExpressionWithTraversals(diags);
        const symbol = this.p.range(tok);
        return new UnaryOpNode(this.p.type(start) === "Minus" ? "-" : "!", operand, symbol, spanOf(symbol, rangeOf(operand)));
      }
      case "OBrack":
        return this.parseTupleCons(diags);
      case "OBrace":
        return this.parseObjectCons(diags);
      default:
        if (!this.recovery) {
          if (this.p.type(start) === "EOF") {
            diags.push(errorDiag("Missing expression", "Expected the start of an expression, but found the end of the file.", this.p.range(start)));
          } else {
            diags.push(errorDiag("Invalid expression", "Expected the start of an expression, but found an invalid expression token.", this.p.range(start)));
          }
        }
        this.setRecovery();
        return new LiteralNode({ type: "invalid" }, this.p.map, this.p.from(start), this.p.to(start));
    }
  }

  private finishFunctionCall(name: Tok, diags: Diagnostic[]): Expression {
    let openTok = this.p.read();
    let fullName = this.identName(name);
    let lastName = name;
    while (this.p.type(openTok) === "DoubleColon") {
      const nextName = this.p.read();
      if (this.p.type(nextName) !== "Ident") {
        diags.push(
          errorDiag(
            "Missing function name",
            "Function scope resolution symbol :: must be followed by a function name in this scope.",
            this.p.range(nextName),
            this.p.rangeOver(name, nextName),
          ),
        );
        this.recoverOver("OParen");
        return new SyntaxErrorNode(this.p.rangeOver(name, nextName));
      }
      fullName += "::" + this.identName(nextName);
      lastName = nextName;
      openTok = this.p.read();
    }
    const nameRange = this.p.rangeOver(name, lastName);
    if (this.p.type(openTok) !== "OParen") {
      diags.push(
        errorDiag(
          "Missing open parenthesis",
          "Function selector must be followed by an open parenthesis to begin the function call.",
          this.p.range(openTok),
          this.p.rangeOver(name, openTok),
        ),
      );
      this.recoverOver("OParen");
      return new SyntaxErrorNode(this.p.rangeOver(name, openTok));
    }
    const mark = this.top;
    let expandFinal = false;
    let closeTok: Tok | undefined;
    this.p.pushIncludeNewlines(false);
    for (;;) {
      const tok = this.p.peek();
      if (this.p.type(tok) === "CParen") {
        closeTok = this.p.read();
        break;
      }
      const argMark = diags.length;
      const arg = this.parseExpression(diags);
      this.keep(arg);
      if (this.recovery && errorsSince(diags, argMark)) {
        const rec = this.recover("CParen");
        if (this.p.type(rec) === "CParen") closeTok = rec;
        break;
      }
      const sep = this.p.read();
      if (this.p.type(sep) === "CParen") {
        closeTok = sep;
        break;
      }
      if (this.p.type(sep) === "Ellipsis") {
        expandFinal = true;
        if (this.p.peekType() !== "CParen") {
          if (!this.recovery) {
            diags.push(
              errorDiag(
                "Missing closing parenthesis",
                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                this.p.range(sep),
                this.p.rangeOver(name, sep),
              ),
            );
          }
          closeTok = this.recover("CParen");
        } else closeTok = this.p.read();
        break;
      }
      if (this.p.type(sep) !== "Comma") {
        if (this.p.type(sep) === "EOF") {
          diags.push(
            errorDiag(
              "Unterminated function call",
              "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
              this.p.rangeOver(name, openTok),
            ),
          );
        } else {
          diags.push(
            errorDiag(
              "Missing argument separator",
              "A comma is required to separate each function argument from the next.",
              this.p.range(sep),
              this.p.rangeOver(name, sep),
            ),
          );
        }
        closeTok = this.recover("CParen");
        break;
      }
      if (this.p.peekType() === "CParen") {
        closeTok = this.p.read();
        break;
      }
    }
    this.p.popIncludeNewlines();
    const closeRange = closeTok !== undefined ? this.p.range(closeTok) : this.p.prevRange();
    return new FunctionCallNode(fullName, this.take<Expression>(mark), expandFinal, nameRange, this.p.range(openTok), closeRange, spanOf(nameRange, closeRange));
  }

  private isKeyword(tok: Tok, kw: string): boolean {
    return this.p.type(tok) === "Ident" && this.p.end(tok) - this.p.start(tok) === kw.length && this.text(tok) === kw;
  }

  private parseTupleCons(diags: Diagnostic[]): Expression {
    const open = this.p.read();
    this.p.pushIncludeNewlines(false);
    try {
      if (this.isKeyword(this.p.peek(), "for")) return this.finishForExpr(open, diags);
      const mark = this.top;
      let close: Tok;
      for (;;) {
        let next = this.p.peek();
        if (this.p.type(next) === "CBrack") {
          close = this.p.read();
          break;
        }
        const exprMark = diags.length;
        this.keep(this.parseExpression(diags));
        if (this.recovery && errorsSince(diags, exprMark)) {
          close = this.recover("CBrack");
          break;
        }
        next = this.p.peek();
        if (this.p.type(next) === "CBrack") {
          close = this.p.read();
          break;
        }
        if (this.p.type(next) !== "Comma") {
          if (!this.recovery) {
            if (this.p.type(next) === "EOF") {
              diags.push(
                errorDiag(
                  "Unterminated tuple constructor expression",
                  "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                  this.p.range(open),
                ),
              );
            } else {
              diags.push(
                errorDiag("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.p.range(next), this.p.rangeOver(open, next)),
              );
            }
          }
          close = this.recover("CBrack");
          break;
        }
        this.p.read();
      }
      return new TupleNode(this.take<Expression>(mark), this.p.range(open), this.p.rangeOver(open, close));
    } finally {
      this.p.popIncludeNewlines();
    }
  }

  private parseObjectCons(diags: Diagnostic[]): Expression {
    const open = this.p.read();
    // "for" expressions ignore newlines, object constructors do not.
    this.p.pushIncludeNewlines(false);
    const isFor = this.isKeyword(this.p.peek(), "for");
    this.p.popIncludeNewlines();
    if (isFor) return this.finishForExpr(open, diags);
    this.p.pushIncludeNewlines(true);
    try {
      const mark = this.top;
      let close: Tok;
      for (;;) {
        let next = this.p.peek();
        if (this.p.type(next) === "Newline") {
          this.p.read();
          continue;
        }
        if (this.p.type(next) === "CBrace") {
          close = this.p.read();
          break;
        }
        const forceNonLiteral = this.p.type(next) === "OParen";
        const keyMark = diags.length;
        const keyExpr = this.parseExpression(diags);
        if (this.recovery && errorsSince(diags, keyMark)) {
          close = this.recover("CBrace");
          break;
        }
        const key = new ObjectKeyNode(keyExpr, forceNonLiteral);
        next = this.p.peek();
        if (this.p.type(next) !== "Equal" && this.p.type(next) !== "Colon") {
          if (!this.recovery) {
            const context = this.p.rangeOver(open, next);
            switch (this.p.type(next)) {
              case "Newline":
              case "Comma":
                diags.push(errorDiag("Missing attribute value", 'Expected an attribute value, introduced by an equals sign ("=").', this.p.range(next), context));
                break;
              case "Ident":
                diags.push(
                  errorDiag(
                    "Missing key/value separator",
                    'Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.',
                    this.p.range(next),
                    context,
                  ),
                );
                break;
              case "EOF":
                diags.push(
                  errorDiag(
                    "Unterminated object constructor expression",
                    "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                    this.p.range(open),
                  ),
                );
                break;
              default:
                diags.push(
                  errorDiag("Missing key/value separator", 'Expected an equals sign ("=") to mark the beginning of the attribute value.', this.p.range(next), context),
                );
            }
          }
          close = this.recover("CBrace");
          break;
        }
        this.p.read();
        const valueMark = diags.length;
        const value = this.parseExpression(diags);
        this.keep({ key, value });
        if (this.recovery && errorsSince(diags, valueMark)) {
          close = this.recover("CBrace");
          break;
        }
        next = this.p.peek();
        if (this.p.type(next) === "CBrace") {
          close = this.p.read();
          break;
        }
        if (this.p.type(next) !== "Comma" && this.p.type(next) !== "Newline") {
          if (!this.recovery) {
            if (this.p.type(next) === "EOF") {
              diags.push(
                errorDiag(
                  "Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                  this.p.range(open),
                ),
              );
            } else {
              diags.push(
                errorDiag(
                  "Missing attribute separator",
                  "Expected a newline or comma to mark the beginning of the next attribute.",
                  this.p.range(next),
                  this.p.rangeOver(open, next),
                ),
              );
            }
          }
          close = this.recover("CBrace");
          break;
        }
        this.p.read();
      }
      return new ObjectNode(this.take<ObjectConsItem>(mark), this.p.range(open), this.p.rangeOver(open, close));
    } finally {
      this.p.popIncludeNewlines();
    }
  }

  private forError(open: Tok, closeType: TokenType, detail: string, diags: Diagnostic[]): Expression {
    if (!this.recovery) {
      const at = this.p.peek();
      diags.push(errorDiag("Invalid 'for' expression", detail, this.p.range(at), this.p.rangeOver(open, at)));
    }
    const close = this.recover(closeType);
    return invalidOver(this.p.rangeOver(open, close));
  }

  private finishForExpr(open: Tok, diags: Diagnostic[]): Expression {
    this.p.pushIncludeNewlines(false);
    try {
      this.p.read(); // "for"
      const makeObj = this.p.type(open) === "OBrace";
      const closeType: TokenType = makeObj ? "CBrace" : "CBrack";
      if (this.p.peekType() !== "Ident") return this.forError(open, closeType, "For expression requires variable name after 'for'.", diags);
      let valName = this.identName(this.p.read());
      let keyName: string | undefined;
      if (this.p.peekType() === "Comma") {
        keyName = valName;
        this.p.read();
        if (this.p.peekType() !== "Ident") return this.forError(open, closeType, "For expression requires value variable name after comma.", diags);
        valName = this.identName(this.p.read());
      }
      if (!this.isKeyword(this.p.peek(), "in")) {
        return this.forError(open, closeType, "For expression requires the 'in' keyword after its name declarations.", diags);
      }
      this.p.read();
      const collMark = diags.length;
      const collExpr = this.parseExpression(diags);
      if (this.recovery && errorsSince(diags, collMark)) {
        const close = this.recover(closeType);
        return invalidOver(this.p.rangeOver(open, close));
      }
      if (this.p.peekType() !== "Colon") return this.forError(open, closeType, "For expression requires a colon after the collection expression.", diags);
      this.p.read();
      let keyExpr: Expression | undefined;
      const keyMark = diags.length;
      let valExpr = this.parseExpression(diags);
      let valMark = keyMark;
      if (this.p.peekType() === "FatArrow") {
        this.p.read();
        keyExpr = valExpr;
        valMark = diags.length;
        valExpr = this.parseExpression(diags);
      }
      if (this.recovery && (errorsSince(diags, keyMark) || errorsSince(diags, valMark))) {
        const close = this.recover(closeType);
        return invalidOver(this.p.rangeOver(open, close));
      }
      let group = false;
      let ellipsis: Tok | undefined;
      if (this.p.peekType() === "Ellipsis") {
        ellipsis = this.p.read();
        group = true;
      }
      let condExpr: Expression | undefined;
      if (this.isKeyword(this.p.peek(), "if")) {
        this.p.read();
        const condMark = diags.length;
        condExpr = this.parseExpression(diags);
        if (this.recovery && errorsSince(diags, condMark)) {
          const close = this.recover(closeType);
          return invalidOver(this.p.rangeOver(open, close));
        }
      }
      let close: Tok;
      if (this.p.peekType() === closeType) close = this.p.read();
      else {
        if (!this.recovery) {
          const at = this.p.peek();
          diags.push(errorDiag("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", this.p.range(at), this.p.rangeOver(open, at)));
        }
        close = this.recover(closeType);
      }
      const whole = this.p.rangeOver(open, close);
      if (!makeObj) {
        if (keyExpr) diags.push(errorDiag("Invalid 'for' expression", "Key expression is not valid when building a tuple.", keyExpr.range, whole));
        if (group && ellipsis !== undefined) {
          diags.push(errorDiag("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", this.p.range(ellipsis), whole));
        }
      } else if (!keyExpr) {
        diags.push(errorDiag("Invalid 'for' expression", "Key expression is required when building an object.", valExpr.range, whole));
      }
      return new ForNode(keyName, valName, collExpr, keyExpr, valExpr, condExpr, group, this.p.range(open), this.p.range(close), whole);
    } finally {
      this.p.popIncludeNewlines();
    }
  }

  /** A quoted string that must not contain template sequences, such as a block label. */
  parseQuotedStringLiteral(diags: Diagnostic[]): { value: string; range: SourceRange } {
    const oQuote = this.p.read();
    if (this.p.type(oQuote) !== "OQuote") {
      diags.push(errorDiag("Invalid string literal", "A quoted string is required here.", this.p.range(oQuote)));
      return { value: "", range: this.p.range(oQuote) };
    }
    if (this.p.rawTypeAhead(0) === QUOTED_LIT && this.p.rawTypeAhead(1) === CQUOTE) {
      // The usual label, one literal: what the loop below would make of it.
      const lit = this.p.read();
      const close = this.p.read();
      return { value: normalizeNFC(unescapeToken(this, lit, true, diags)), range: this.p.rangeOver(oQuote, close) };
    }
    const parts: string[] = [];
    let endRange: SourceRange;
    for (;;) {
      const tok = this.p.read();
      if (this.p.type(tok) === "CQuote") {
        endRange = this.p.range(tok);
        break;
      }
      if (this.p.type(tok) === "QuotedLit") {
        parts.push(unescapeToken(this, tok, true, diags));
        continue;
      }
      if (this.p.type(tok) === "TemplateControl" || this.p.type(tok) === "TemplateInterp") {
        const which = this.p.type(tok) === "TemplateControl" ? "%" : "$";
        diags.push(
          errorDiag(
            "Invalid string literal",
            `Template sequences are not allowed in this string. To include a literal ${JSON.stringify(which)}, double it (as "${which}${which}") to escape it.`,
            this.p.range(tok),
            this.p.rangeOver(oQuote, tok),
          ),
        );
        parts.push(which, "{ ... }");
        this.recover("TemplateSeqEnd");
        continue;
      }
      if (this.p.type(tok) === "EOF") {
        diags.push(
          errorDiag("Unterminated string literal", "Unable to find the closing quote mark before the end of the file.", this.p.range(tok), this.p.rangeOver(oQuote, tok)),
        );
        endRange = this.p.range(tok);
        break;
      }
      diags.push(errorDiag("Invalid string literal", "This item is not valid in a string literal.", this.p.range(tok), this.p.rangeOver(oQuote, tok)));
      this.recover("CQuote");
      endRange = this.p.range(tok);
      break;
    }
    return { value: normalizeNFC(parts.join("")), range: spanOf(this.p.range(oQuote), endRange) };
  }
}

export function unescapeToken(parser: Parser, tok: Tok, quoted: boolean, diags: Diagnostic[]): string {
  const text = parser.text(tok);
  return isPlainLiteral(text, quoted) ? text : unescapeLiteral(text, quoted, parser.p.range(tok), diags);
}

function staticIndexKey(key: Expression): LiteralValue | undefined {
  if (key.kind === "Literal") return key.value;
  if (key.kind === "Template" && key.parts.length === 1) {
    const only = key.parts[0];
    if (only && only.kind === "Literal" && only.value.type === "string") return only.value;
  }
  return undefined;
}

/** A copy of items with item added, at its exact size (traversals grow one step at a time). */
function appended<T>(items: readonly T[], item: T): T[] {
  const n = items.length;
  const out = new Array<T>(n + 1);
  for (let i = 0; i < n; i++) out[i] = items[i] as T;
  out[n] = item;
  return out;
}

/** expr followed by one more traversal step. */
function extendTraversal(expr: Expression, next: AttrStep | IndexStep): Expression {
  if (expr instanceof ScopeTraversalNode || expr instanceof RelativeTraversalNode) {
    // Still being parsed: grown in place (the step lies after the traversal's start).
    expr.traversal = appended(expr.traversal, next);
    if (next.to > expr.to) expr.to = next.to;
    return expr;
  }
  return new RelativeTraversalNode(expr, [next], spanOf(rangeOf(expr), next.range));
}

/** The placeholder for a part of the source that failed to parse. */
function invalidOver(r: SourceRange): Expression {
  return new LiteralNode({ type: "invalid" }, r.map, r.from, r.to);
}

export function templateResult(t: TemplateParse, range: SourceRange): Expression {
  const first = t.exprs[0];
  if (t.passthru && first) return new TemplateWrapNode(first, range);
  return new TemplateNode(t.exprs, range.map, range.from, range.to);
}
