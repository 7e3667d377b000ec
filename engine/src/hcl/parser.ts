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
  ForExpr,
  LiteralValue,
  ObjectConsItem,
  SplatExpr,
  Traverser,
} from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { Peeker } from "./peeker.js";
import { formatRange, rangeBetween, type Range } from "./pos.js";
import type { Token, TokenType } from "./scanner.js";
import { normalizeNFC, unescapeLiteral } from "./strings.js";
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

  constructor(tokens: Token[], readonly src: string) {
    this.p = new Peeker(tokens, src);
  }

  text(tok: Token): string {
    return this.p.text(tok);
  }

  identName(tok: Token): string {
    return normalizeNFC(this.p.text(tok));
  }

  setRecovery(): void {
    this.recovery = true;
  }

  /** Skips to just after the token `end`, counting nested brackets of the same kind. */
  recover(end: TokenType): Token {
    const start = oppositeBracket(end);
    this.recovery = true;
    let nest = 0;
    for (;;) {
      const tok = this.p.read();
      let ty = tok.type;
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
      if (tok.type === start || tok.type === "EOF") break;
    }
    if (end) this.recover(end);
  }

  /** Skips to the newline that ends the current body item, respecting brackets. */
  recoverAfterBodyItem(): void {
    this.recovery = true;
    const open: TokenType[] = [];
    for (;;) {
      const tok = this.p.read();
      switch (tok.type) {
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
          open.push(tok.type);
          break;
        case "CBrace":
        case "CBrack":
        case "CParen":
        case "CQuote":
        case "CHeredoc": {
          const opener = oppositeBracket(tok.type);
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
    const attributes: Attribute[] = [];
    const byName = new Map<string, Attribute>();
    const blocks: Block[] = [];
    const diags: Diagnostic[] = [];
    const startRange = this.p.prevRange();
    let endRange: Range;
    for (;;) {
      const next = this.p.peek();
      if (next.type === end) {
        endRange = this.p.nextRange();
        this.p.read();
        break;
      }
      if (next.type === "Newline") {
        this.p.read();
        continue;
      }
      if (next.type === "Ident") {
        const item = this.parseBodyItem(diags);
        if (!item) continue;
        if (item.kind === "Block") blocks.push(item);
        else {
          const existing = byName.get(item.name);
          if (existing) {
            diags.push(
              errorDiag(
                "Attribute redefined",
                `The argument ${JSON.stringify(item.name)} was already set at ${formatRange(existing.nameRange)}. Each argument may be set only once.`,
                item.nameRange,
              ),
            );
          } else {
            byName.set(item.name, item);
            attributes.push(item);
          }
        }
        continue;
      }
      const bad = this.p.read();
      if (!this.recovery) {
        if (bad.type === "OQuote") {
          diags.push(errorDiag("Invalid argument name", "Argument names must not be quoted.", bad.range));
        } else if (bad.type === "EOF") {
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
          diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", bad.range));
        }
      }
      endRange = this.p.prevRange();
      this.recover(end);
      break;
    }
    const range = rangeBetween(startRange, endRange);
    return {
      body: {
        kind: "Body",
        attributes,
        blocks,
        range,
        endRange: { filename: endRange.filename, start: endRange.end, end: endRange.end },
      },
      diags,
    };
  }

  private parseBodyItem(diags: Diagnostic[]): Attribute | Block | undefined {
    const ident = this.p.read();
    if (ident.type !== "Ident") {
      this.recoverAfterBodyItem();
      diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", ident.range));
      return undefined;
    }
    const next = this.p.peek();
    switch (next.type) {
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
            ident.range,
          ),
        );
        return undefined;
    }
  }

  /** The body of a one-line block `a { b = c }`: exactly one attribute, then the closing brace. */
  private parseSingleAttrBody(diags: Diagnostic[]): Body | undefined {
    const ident = this.p.read();
    if (ident.type !== "Ident") {
      this.recoverAfterBodyItem();
      diags.push(errorDiag("Argument or block definition required", "An argument or block definition is required here.", ident.range));
      return undefined;
    }
    const next = this.p.peek();
    switch (next.type) {
      case "Equal": {
        const attr = this.finishBodyAttribute(ident, true, diags);
        return {
          kind: "Body",
          attributes: [attr],
          blocks: [],
          range: attr.range,
          endRange: { filename: attr.range.filename, start: attr.range.end, end: attr.range.end },
        };
      }
      case "OQuote":
      case "OBrace":
      case "Ident":
        this.recoverAfterBodyItem();
        diags.push(
          errorDiag(
            "Argument definition required",
            `A single-line block definition can contain only a single argument. If you meant to define argument ${JSON.stringify(this.text(ident))}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`,
            rangeBetween(ident.range, next.range),
          ),
        );
        return undefined;
      default:
        this.recoverAfterBodyItem();
        diags.push(
          errorDiag(
            "Argument or block definition required",
            'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
            ident.range,
          ),
        );
        return undefined;
    }
  }

  private finishBodyAttribute(ident: Token, singleLine: boolean, diags: Diagnostic[]): Attribute {
    const eq = this.p.read();
    const exprMark = diags.length;
    const expr = this.parseExpression(diags);
    let endRange: Range;
    if (this.recovery && errorsSince(diags, exprMark)) {
      endRange = this.p.prevRange();
      this.recoverAfterBodyItem();
    } else {
      endRange = this.p.prevRange();
      if (!singleLine) {
        const end = this.p.peek();
        if (end.type !== "Newline" && end.type !== "EOF") {
          if (!this.recovery) {
            let summary = "Missing newline after argument";
            let detail = "An argument definition must end with a newline.";
            if (end.type === "Comma") {
              summary = "Unexpected comma after argument";
              detail = "Argument definitions must be separated by newlines, not commas. " + detail;
            }
            diags.push(errorDiag(summary, detail, end.range, rangeBetween(ident.range, end.range)));
          }
          endRange = this.p.prevRange();
          this.recoverAfterBodyItem();
        } else {
          endRange = this.p.prevRange();
          this.p.read();
        }
      }
    }
    return {
      kind: "Attribute",
      name: this.identName(ident),
      expr,
      nameRange: ident.range,
      equalsRange: eq.range,
      range: rangeBetween(ident.range, endRange),
    };
  }

  private finishBodyBlock(ident: Token, diags: Diagnostic[]): Block {
    if (!this.enter(ident.range, diags)) {
      while (this.p.read().type !== "EOF");
      const empty: Body = { kind: "Body", attributes: [], blocks: [], range: ident.range, endRange: ident.range };
      return {
        kind: "Block",
        type: this.identName(ident),
        labels: [],
        body: empty,
        typeRange: ident.range,
        labelRanges: [],
        openBraceRange: ident.range,
        closeBraceRange: ident.range,
        range: ident.range,
      };
    }
    try {
      return this.finishBodyBlockInner(ident, diags);
    } finally {
      this.leave();
    }
  }

  private finishBodyBlockInner(ident: Token, diags: Diagnostic[]): Block {
    const type = this.identName(ident);
    const labels: string[] = [];
    const labelRanges: Range[] = [];
    let oBrace: Token | undefined;
    while (!oBrace) {
      const tok = this.p.peek();
      if (tok.type === "OBrace") {
        oBrace = this.p.read();
        break;
      }
      if (tok.type === "OQuote") {
        const lab = this.parseQuotedStringLiteral(diags);
        labels.push(lab.value);
        labelRanges.push(lab.range);
        continue;
      }
      if (tok.type === "Ident") {
        this.p.read();
        labels.push(this.identName(tok));
        labelRanges.push(tok.range);
        continue;
      }
      const context = rangeBetween(ident.range, tok.range);
      if (tok.type === "Equal") {
        diags.push(
          errorDiag(
            "Invalid block definition",
            'The equals sign "=" indicates an argument definition, and must not be used when defining a block.',
            tok.range,
            context,
          ),
        );
      } else if (tok.type === "Newline") {
        diags.push(
          errorDiag(
            "Invalid block definition",
            'A block definition must have block content delimited by "{" and "}", starting on the same line as the block header.',
            tok.range,
            context,
          ),
        );
      } else if (!this.recovery) {
        diags.push(
          errorDiag("Invalid block definition", 'Either a quoted string block label or an opening brace ("{") is expected here.', tok.range, context),
        );
      }
      this.recoverAfterBodyItem();
      const endRange = labelRanges.length > 0 ? (labelRanges[labelRanges.length - 1] as Range) : ident.range;
      return {
        kind: "Block",
        type,
        labels,
        body: { kind: "Body", attributes: [], blocks: [], range: ident.range, endRange: ident.range },
        typeRange: ident.range,
        labelRanges,
        openBraceRange: ident.range,
        closeBraceRange: endRange,
        range: rangeBetween(ident.range, endRange),
      };
    }

    let body: Body | undefined;
    const bodyDiags: Diagnostic[] = [];
    const first = this.p.peek().type;
    if (first === "Newline" || first === "EOF" || first === "CBrace") {
      const r = this.parseBody("CBrace");
      body = r.body;
      bodyDiags.push(...r.diags);
    } else {
      body = this.parseSingleAttrBody(bodyDiags);
      const after = this.p.peek();
      switch (after.type) {
        case "CBrace":
          this.p.read();
          break;
        case "Comma":
          diags.push(
            errorDiag(
              "Invalid single-argument block definition",
              "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
              after.range,
            ),
          );
          this.recover("CBrace");
          break;
        case "Newline":
          diags.push(
            errorDiag(
              "Invalid single-argument block definition",
              "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
              after.range,
            ),
          );
          this.recover("CBrace");
          break;
        default:
          if (!this.recovery) {
            if (after.type === "EOF") {
              diags.push(
                errorDiag(
                  "Unclosed configuration block",
                  "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                  oBrace.range,
                  rangeBetween(ident.range, oBrace.range),
                ),
              );
            } else {
              diags.push(
                errorDiag(
                  "Invalid single-argument block definition",
                  "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                  after.range,
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
    if (eol.type === "Newline" || eol.type === "EOF") {
      this.p.read();
    } else {
      if (!this.recovery) {
        diags.push(
          errorDiag("Missing newline after block definition", "A block definition must end with a newline.", eol.range, rangeBetween(ident.range, eol.range)),
        );
      }
      this.recoverAfterBodyItem();
    }
    if (!body) {
      body = { kind: "Body", attributes: [], blocks: [], range: rangeBetween(oBrace.range, cBraceRange), endRange: cBraceRange };
    }
    return {
      kind: "Block",
      type,
      labels,
      body,
      typeRange: ident.range,
      labelRanges,
      openBraceRange: oBrace.range,
      closeBraceRange: cBraceRange,
      range: rangeBetween(ident.range, cBraceRange),
    };
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
    if (this.p.peek().type !== "Question") return cond;
    this.p.read();
    const trueMark = diags.length;
    const trueExpr = this.parseExpression(diags);
    if (this.recovery && errorsSince(diags, trueMark)) return cond;
    const colon = this.p.peek();
    if (colon.type !== "Colon") {
      diags.push(
        errorDiag(
          "Missing false expression in conditional",
          "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
          colon.range,
          rangeBetween(startTok.range, colon.range),
        ),
      );
      return cond;
    }
    this.p.read();
    const falseMark = diags.length;
    const falseExpr = this.parseExpression(diags);
    if (this.recovery && errorsSince(diags, falseMark)) return cond;
    return {
      kind: "Conditional",
      condition: cond,
      trueResult: trueExpr,
      falseResult: falseExpr,
      range: rangeBetween(startTok.range, falseExpr.range),
    };
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
      const level = BINARY_LEVEL[next.type];
      if (level === undefined || level < minLevel) return lhs;
      const op = (BINARY_LEVELS[level] as Partial<Record<TokenType, BinaryOperator>>)[next.type] as BinaryOperator;
      this.p.read();
      const rhsMark = diags.length;
      const rhs = this.parseBinaryOps(level + 1, diags);
      if (this.recovery && errorsSince(diags, rhsMark)) return lhs;
      lhs = { kind: "BinaryOp", op, lhs, rhs, range: rangeBetween(lhs.range, rhs.range) };
    }
  }

  private parseExpressionWithTraversals(diags: Diagnostic[]): Expression {
    const term = this.parseExpressionTerm(diags);
    return this.parseExpressionTraversals(term, diags);
  }

  private numberLiteral(tok: Token, diags: Diagnostic[]): LiteralValue {
    const text = this.text(tok);
    if (!NUMBER_RE.test(text)) {
      diags.push(errorDiag("Invalid number literal", "Failed to recognize the value of this number literal.", tok.range));
      return { type: "invalid" };
    }
    return { type: "number", text };
  }

  private parseExpressionTraversals(from: Expression, diags: Diagnostic[]): Expression {
    let ret = from;
    for (;;) {
      const next = this.p.peek();
      if (next.type === "Dot") {
        const dot = this.p.read();
        const attrTok = this.p.peek();
        if (attrTok.type === "Ident") {
          this.p.read();
          const rng = rangeBetween(dot.range, attrTok.range);
          ret = makeRelativeTraversal(ret, { kind: "Attr", name: this.identName(attrTok), range: rng }, rng);
        } else if (attrTok.type === "NumberLit") {
          // The legacy index form `foo.0`, inherited from HIL.
          const numTok = this.p.read();
          const text = this.text(numTok);
          const rng = rangeBetween(dot.range, numTok.range);
          const dotIdx = text.indexOf(".");
          if (dotIdx >= 0) {
            diags.push(
              errorDiag(
                "Invalid legacy index syntax",
                `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [${text.slice(0, dotIdx)}][${text.slice(dotIdx + 1)}].`,
                numTok.range,
              ),
            );
            ret = makeRelativeTraversal(ret, { kind: "Index", key: { type: "invalid" }, range: rng }, rng);
          } else {
            ret = makeRelativeTraversal(ret, { kind: "Index", key: this.numberLiteral(numTok, diags), range: rng }, rng);
          }
        } else if (attrTok.type === "Star") {
          ret = this.finishAttrOnlySplat(from, ret, dot, attrTok, diags);
        } else {
          diags.push(errorDiag("Invalid attribute name", "An attribute name is required after a dot.", attrTok.range));
          ret = { kind: "SyntaxError", range: rangeBetween(from.range, dot.range) };
          this.setRecovery();
        }
        continue;
      }
      if (next.type === "OBrack") {
        const open = this.p.read();
        if (this.p.peek().type === "Star") {
          this.p.read();
          let close = this.p.read();
          if (close.type !== "CBrack" && !this.recovery) {
            close = this.recover("CBrack");
            // hclsyntax's subject aliases the token it recovers to, so the error points there.
            diags.push(
              errorDiag("Missing close bracket on splat index", 'The star for a full splat operator must be immediately followed by a closing bracket ("]").', close.range),
            );
          }
          const item = { kind: "AnonSymbol" as const, range: rangeBetween(open.range, close.range) };
          const each = this.parseExpressionTraversals(item, diags);
          const splat: SplatExpr = {
            kind: "Splat",
            source: ret,
            each,
            item,
            attrOnly: false,
            markerRange: rangeBetween(open.range, close.range),
            range: rangeBetween(from.range, each.range),
          };
          ret = splat;
          continue;
        }
        this.p.pushIncludeNewlines(false);
        const keyMark = diags.length;
        const key = this.parseExpression(diags);
        let close: Token;
        if (this.recovery && errorsSince(diags, keyMark)) close = this.recover("CBrack");
        else {
          close = this.p.read();
          if (close.type !== "CBrack" && !this.recovery) {
            close = this.recover("CBrack");
            // As above: the subject is the token recovery stopped at.
            diags.push(errorDiag("Missing close bracket on index", 'The index operator must end with a closing bracket ("]").', close.range));
          }
        }
        this.p.popIncludeNewlines();
        const rng = rangeBetween(open.range, close.range);
        const litKey = staticIndexKey(key);
        if (litKey) ret = makeRelativeTraversal(ret, { kind: "Index", key: litKey, range: rng }, rng);
        else ret = { kind: "Index", collection: ret, key, openRange: open.range, bracketRange: rng, range: rangeBetween(from.range, rng) };
        continue;
      }
      return ret;
    }
  }

  private finishAttrOnlySplat(from: Expression, source: Expression, dot: Token, starTok: Token, diags: Diagnostic[]): Expression {
    const marker = this.p.read();
    const trav: Traverser[] = [];
    const firstRange = this.p.nextRange();
    let lastRange = marker.range;
    while (this.p.peek().type === "Dot") {
      const d = this.p.read();
      const t = this.p.peek();
      if (t.type === "NumberLit") {
        const numTok = this.p.read();
        const text = this.text(numTok);
        const dotIdx = text.indexOf(".");
        if (dotIdx >= 0) {
          diags.push(
            errorDiag(
              "Invalid legacy index syntax",
              `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [${text.slice(0, dotIdx)}][${text.slice(dotIdx + 1)}].`,
              starTok.range,
            ),
          );
          trav.push({ kind: "Index", key: { type: "invalid" }, range: rangeBetween(d.range, numTok.range) });
        } else {
          trav.push({ kind: "Index", key: this.numberLiteral(numTok, diags), range: rangeBetween(d.range, numTok.range) });
        }
        lastRange = numTok.range;
        continue;
      }
      if (t.type !== "Ident") {
        if (!this.recovery) {
          if (t.type === "Star") {
            diags.push(
              errorDiag("Nested splat expression not allowed", "A splat expression (*) cannot be used inside another attribute-only splat expression.", t.range),
            );
          } else {
            diags.push(errorDiag("Invalid attribute name", "An attribute name is required after a dot.", starTok.range));
          }
        }
        this.setRecovery();
        break;
      }
      const a = this.p.read();
      trav.push({ kind: "Attr", name: this.identName(a), range: rangeBetween(d.range, a.range) });
      lastRange = a.range;
    }
    const item = { kind: "AnonSymbol" as const, range: rangeBetween(dot.range, marker.range) };
    const each: Expression =
      trav.length === 0 ? item : { kind: "RelativeTraversal", source: item, traversal: trav, range: rangeBetween(firstRange, lastRange) };
    return {
      kind: "Splat",
      source,
      each,
      item,
      attrOnly: true,
      markerRange: rangeBetween(dot.range, marker.range),
      range: rangeBetween(from.range, lastRange),
    };
  }

  private parseExpressionTerm(diags: Diagnostic[]): Expression {
    const start = this.p.peek();
    if (!this.enter(start.range, diags)) {
      // Skip the rest of the input: nothing sensible can be made of it.
      while (this.p.read().type !== "EOF");
      return { kind: "Literal", value: { type: "invalid" }, range: start.range };
    }
    try {
      return this.parseTerm(start, diags);
    } finally {
      this.leave();
    }
  }

  private parseTerm(start: Token, diags: Diagnostic[]): Expression {
    switch (start.type) {
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
        if (close.type !== "CParen") {
          diags.push(
            errorDiag("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", close.range, rangeBetween(start.range, close.range)),
          );
          this.setRecovery();
        }
        const cParen = this.p.read();
        this.p.popIncludeNewlines();
        return { kind: "Parentheses", expression: expr, range: rangeBetween(oParen.range, cParen.range) };
      }
      case "NumberLit": {
        const tok = this.p.read();
        return { kind: "Literal", value: this.numberLiteral(tok, diags), range: tok.range };
      }
      case "Ident": {
        const tok = this.p.read();
        const after = this.p.peek().type;
        if (after === "OParen" || after === "DoubleColon") return this.finishFunctionCall(tok, diags);
        const name = this.identName(tok);
        switch (name) {
          case "true":
            return { kind: "Literal", value: { type: "bool", value: true }, range: tok.range };
          case "false":
            return { kind: "Literal", value: { type: "bool", value: false }, range: tok.range };
          case "null":
            return { kind: "Literal", value: { type: "null" }, range: tok.range };
          default:
            return { kind: "ScopeTraversal", traversal: [{ kind: "Root", name, range: tok.range }], range: tok.range };
        }
      }
      case "OQuote":
      case "OHeredoc": {
        const open = this.p.read();
        const closer = start.type === "OQuote" ? "CQuote" : "CHeredoc";
        const flush = start.type === "OHeredoc" && this.text(open).startsWith("<<-");
        const t = parseTemplateParts(this, closer, flush, diags);
        return templateResult(t, rangeBetween(open.range, this.p.prevRange()));
      }
      case "Minus":
      case "Bang": {
        const tok = this.p.read();
        // The operand binds tighter than any binary operator: -46+5 is (-46)+5.
        const operand = this.parseExpressionWithTraversals(diags);
        return {
          kind: "UnaryOp",
          op: start.type === "Minus" ? "-" : "!",
          operand,
          symbolRange: tok.range,
          range: rangeBetween(tok.range, operand.range),
        };
      }
      case "OBrack":
        return this.parseTupleCons(diags);
      case "OBrace":
        return this.parseObjectCons(diags);
      default:
        if (!this.recovery) {
          if (start.type === "EOF") {
            diags.push(errorDiag("Missing expression", "Expected the start of an expression, but found the end of the file.", start.range));
          } else {
            diags.push(errorDiag("Invalid expression", "Expected the start of an expression, but found an invalid expression token.", start.range));
          }
        }
        this.setRecovery();
        return { kind: "Literal", value: { type: "invalid" }, range: start.range };
    }
  }

  private finishFunctionCall(name: Token, diags: Diagnostic[]): Expression {
    let openTok = this.p.read();
    const nameParts = [this.identName(name)];
    let nameEnd = name.range.end;
    while (openTok.type === "DoubleColon") {
      const nextName = this.p.read();
      if (nextName.type !== "Ident") {
        diags.push(
          errorDiag(
            "Missing function name",
            "Function scope resolution symbol :: must be followed by a function name in this scope.",
            nextName.range,
            rangeBetween(name.range, nextName.range),
          ),
        );
        this.recoverOver("OParen");
        return { kind: "SyntaxError", range: rangeBetween(name.range, nextName.range) };
      }
      nameParts.push(this.identName(nextName));
      nameEnd = nextName.range.end;
      openTok = this.p.read();
    }
    const nameRange: Range = { filename: name.range.filename, start: name.range.start, end: nameEnd };
    if (openTok.type !== "OParen") {
      diags.push(
        errorDiag(
          "Missing open parenthesis",
          "Function selector must be followed by an open parenthesis to begin the function call.",
          openTok.range,
          rangeBetween(name.range, openTok.range),
        ),
      );
      this.recoverOver("OParen");
      return { kind: "SyntaxError", range: rangeBetween(name.range, openTok.range) };
    }
    const args: Expression[] = [];
    let expandFinal = false;
    let closeTok: Token | undefined;
    this.p.pushIncludeNewlines(false);
    for (;;) {
      const tok = this.p.peek();
      if (tok.type === "CParen") {
        closeTok = this.p.read();
        break;
      }
      const argMark = diags.length;
      const arg = this.parseExpression(diags);
      args.push(arg);
      if (this.recovery && errorsSince(diags, argMark)) {
        const rec = this.recover("CParen");
        if (rec.type === "CParen") closeTok = rec;
        break;
      }
      const sep = this.p.read();
      if (sep.type === "CParen") {
        closeTok = sep;
        break;
      }
      if (sep.type === "Ellipsis") {
        expandFinal = true;
        if (this.p.peek().type !== "CParen") {
          if (!this.recovery) {
            diags.push(
              errorDiag(
                "Missing closing parenthesis",
                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                sep.range,
                rangeBetween(name.range, sep.range),
              ),
            );
          }
          closeTok = this.recover("CParen");
        } else closeTok = this.p.read();
        break;
      }
      if (sep.type !== "Comma") {
        if (sep.type === "EOF") {
          diags.push(
            errorDiag(
              "Unterminated function call",
              "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
              rangeBetween(name.range, openTok.range),
            ),
          );
        } else {
          diags.push(
            errorDiag(
              "Missing argument separator",
              "A comma is required to separate each function argument from the next.",
              sep.range,
              rangeBetween(name.range, sep.range),
            ),
          );
        }
        closeTok = this.recover("CParen");
        break;
      }
      if (this.p.peek().type === "CParen") {
        closeTok = this.p.read();
        break;
      }
    }
    this.p.popIncludeNewlines();
    const closeRange = closeTok ? closeTok.range : this.p.prevRange();
    return {
      kind: "FunctionCall",
      name: nameParts.join("::"),
      args,
      expandFinal,
      nameRange,
      openParenRange: openTok.range,
      closeParenRange: closeRange,
      range: rangeBetween(nameRange, closeRange),
    };
  }

  private isKeyword(tok: Token, kw: string): boolean {
    return tok.type === "Ident" && tok.end - tok.start === kw.length && this.text(tok) === kw;
  }

  private parseTupleCons(diags: Diagnostic[]): Expression {
    const open = this.p.read();
    this.p.pushIncludeNewlines(false);
    try {
      if (this.isKeyword(this.p.peek(), "for")) return this.finishForExpr(open, diags);
      const exprs: Expression[] = [];
      let close: Token;
      for (;;) {
        let next = this.p.peek();
        if (next.type === "CBrack") {
          close = this.p.read();
          break;
        }
        const exprMark = diags.length;
        exprs.push(this.parseExpression(diags));
        if (this.recovery && errorsSince(diags, exprMark)) {
          close = this.recover("CBrack");
          break;
        }
        next = this.p.peek();
        if (next.type === "CBrack") {
          close = this.p.read();
          break;
        }
        if (next.type !== "Comma") {
          if (!this.recovery) {
            if (next.type === "EOF") {
              diags.push(
                errorDiag(
                  "Unterminated tuple constructor expression",
                  "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                  open.range,
                ),
              );
            } else {
              diags.push(
                errorDiag("Missing item separator", "Expected a comma to mark the beginning of the next item.", next.range, rangeBetween(open.range, next.range)),
              );
            }
          }
          close = this.recover("CBrack");
          break;
        }
        this.p.read();
      }
      return { kind: "Tuple", exprs, openRange: open.range, range: rangeBetween(open.range, close.range) };
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
      const items: ObjectConsItem[] = [];
      let close: Token;
      for (;;) {
        let next = this.p.peek();
        if (next.type === "Newline") {
          this.p.read();
          continue;
        }
        if (next.type === "CBrace") {
          close = this.p.read();
          break;
        }
        const forceNonLiteral = next.type === "OParen";
        const keyMark = diags.length;
        const keyExpr = this.parseExpression(diags);
        if (this.recovery && errorsSince(diags, keyMark)) {
          close = this.recover("CBrace");
          break;
        }
        const key = { kind: "ObjectKey" as const, wrapped: keyExpr, forceNonLiteral, range: keyExpr.range };
        next = this.p.peek();
        if (next.type !== "Equal" && next.type !== "Colon") {
          if (!this.recovery) {
            const context = rangeBetween(open.range, next.range);
            switch (next.type) {
              case "Newline":
              case "Comma":
                diags.push(errorDiag("Missing attribute value", 'Expected an attribute value, introduced by an equals sign ("=").', next.range, context));
                break;
              case "Ident":
                diags.push(
                  errorDiag(
                    "Missing key/value separator",
                    'Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.',
                    next.range,
                    context,
                  ),
                );
                break;
              case "EOF":
                diags.push(
                  errorDiag(
                    "Unterminated object constructor expression",
                    "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                    open.range,
                  ),
                );
                break;
              default:
                diags.push(
                  errorDiag("Missing key/value separator", 'Expected an equals sign ("=") to mark the beginning of the attribute value.', next.range, context),
                );
            }
          }
          close = this.recover("CBrace");
          break;
        }
        this.p.read();
        const valueMark = diags.length;
        const value = this.parseExpression(diags);
        items.push({ key, value });
        if (this.recovery && errorsSince(diags, valueMark)) {
          close = this.recover("CBrace");
          break;
        }
        next = this.p.peek();
        if (next.type === "CBrace") {
          close = this.p.read();
          break;
        }
        if (next.type !== "Comma" && next.type !== "Newline") {
          if (!this.recovery) {
            if (next.type === "EOF") {
              diags.push(
                errorDiag(
                  "Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                  open.range,
                ),
              );
            } else {
              diags.push(
                errorDiag(
                  "Missing attribute separator",
                  "Expected a newline or comma to mark the beginning of the next attribute.",
                  next.range,
                  rangeBetween(open.range, next.range),
                ),
              );
            }
          }
          close = this.recover("CBrace");
          break;
        }
        this.p.read();
      }
      return { kind: "Object", items, openRange: open.range, range: rangeBetween(open.range, close.range) };
    } finally {
      this.p.popIncludeNewlines();
    }
  }

  private forError(open: Token, closeType: TokenType, detail: string, diags: Diagnostic[]): Expression {
    if (!this.recovery) {
      const at = this.p.peek();
      diags.push(errorDiag("Invalid 'for' expression", detail, at.range, rangeBetween(open.range, at.range)));
    }
    const close = this.recover(closeType);
    return { kind: "Literal", value: { type: "invalid" }, range: rangeBetween(open.range, close.range) };
  }

  private finishForExpr(open: Token, diags: Diagnostic[]): Expression {
    this.p.pushIncludeNewlines(false);
    try {
      this.p.read(); // "for"
      const makeObj = open.type === "OBrace";
      const closeType: TokenType = makeObj ? "CBrace" : "CBrack";
      if (this.p.peek().type !== "Ident") return this.forError(open, closeType, "For expression requires variable name after 'for'.", diags);
      let valName = this.identName(this.p.read());
      let keyName: string | undefined;
      if (this.p.peek().type === "Comma") {
        keyName = valName;
        this.p.read();
        if (this.p.peek().type !== "Ident") return this.forError(open, closeType, "For expression requires value variable name after comma.", diags);
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
        return { kind: "Literal", value: { type: "invalid" }, range: rangeBetween(open.range, close.range) };
      }
      if (this.p.peek().type !== "Colon") return this.forError(open, closeType, "For expression requires a colon after the collection expression.", diags);
      this.p.read();
      let keyExpr: Expression | undefined;
      const keyMark = diags.length;
      let valExpr = this.parseExpression(diags);
      let valMark = keyMark;
      if (this.p.peek().type === "FatArrow") {
        this.p.read();
        keyExpr = valExpr;
        valMark = diags.length;
        valExpr = this.parseExpression(diags);
      }
      if (this.recovery && (errorsSince(diags, keyMark) || errorsSince(diags, valMark))) {
        const close = this.recover(closeType);
        return { kind: "Literal", value: { type: "invalid" }, range: rangeBetween(open.range, close.range) };
      }
      let group = false;
      let ellipsis: Token | undefined;
      if (this.p.peek().type === "Ellipsis") {
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
          return { kind: "Literal", value: { type: "invalid" }, range: rangeBetween(open.range, close.range) };
        }
      }
      let close: Token;
      if (this.p.peek().type === closeType) close = this.p.read();
      else {
        if (!this.recovery) {
          const at = this.p.peek();
          diags.push(errorDiag("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", at.range, rangeBetween(open.range, at.range)));
        }
        close = this.recover(closeType);
      }
      const whole = rangeBetween(open.range, close.range);
      if (!makeObj) {
        if (keyExpr) diags.push(errorDiag("Invalid 'for' expression", "Key expression is not valid when building a tuple.", keyExpr.range, whole));
        if (group && ellipsis) {
          diags.push(errorDiag("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", ellipsis.range, whole));
        }
      } else if (!keyExpr) {
        diags.push(errorDiag("Invalid 'for' expression", "Key expression is required when building an object.", valExpr.range, whole));
      }
      const result: ForExpr = {
        kind: "For",
        valVar: valName,
        collExpr,
        valExpr,
        group,
        openRange: open.range,
        closeRange: close.range,
        range: whole,
      };
      if (keyName !== undefined) result.keyVar = keyName;
      if (keyExpr) result.keyExpr = keyExpr;
      if (condExpr) result.condExpr = condExpr;
      return result;
    } finally {
      this.p.popIncludeNewlines();
    }
  }

  /** A quoted string that must not contain template sequences, such as a block label. */
  parseQuotedStringLiteral(diags: Diagnostic[]): { value: string; range: Range } {
    const oQuote = this.p.read();
    if (oQuote.type !== "OQuote") {
      diags.push(errorDiag("Invalid string literal", "A quoted string is required here.", oQuote.range));
      return { value: "", range: oQuote.range };
    }
    const parts: string[] = [];
    let endRange: Range;
    for (;;) {
      const tok = this.p.read();
      if (tok.type === "CQuote") {
        endRange = tok.range;
        break;
      }
      if (tok.type === "QuotedLit") {
        parts.push(unescapeToken(this, tok, true, diags));
        continue;
      }
      if (tok.type === "TemplateControl" || tok.type === "TemplateInterp") {
        const which = tok.type === "TemplateControl" ? "%" : "$";
        diags.push(
          errorDiag(
            "Invalid string literal",
            `Template sequences are not allowed in this string. To include a literal ${JSON.stringify(which)}, double it (as "${which}${which}") to escape it.`,
            tok.range,
            rangeBetween(oQuote.range, tok.range),
          ),
        );
        parts.push(which, "{ ... }");
        this.recover("TemplateSeqEnd");
        continue;
      }
      if (tok.type === "EOF") {
        diags.push(
          errorDiag("Unterminated string literal", "Unable to find the closing quote mark before the end of the file.", tok.range, rangeBetween(oQuote.range, tok.range)),
        );
        endRange = tok.range;
        break;
      }
      diags.push(errorDiag("Invalid string literal", "This item is not valid in a string literal.", tok.range, rangeBetween(oQuote.range, tok.range)));
      this.recover("CQuote");
      endRange = tok.range;
      break;
    }
    return { value: normalizeNFC(parts.join("")), range: rangeBetween(oQuote.range, endRange) };
  }
}

export function unescapeToken(parser: Parser, tok: Token, quoted: boolean, diags: Diagnostic[]): string {
  return unescapeLiteral(parser.text(tok), quoted, tok.range, diags);
}

function staticIndexKey(key: Expression): LiteralValue | undefined {
  if (key.kind === "Literal") return key.value;
  if (key.kind === "Template" && key.parts.length === 1) {
    const only = key.parts[0];
    if (only && only.kind === "Literal" && only.value.type === "string") return only.value;
  }
  return undefined;
}

function makeRelativeTraversal(expr: Expression, next: Traverser, rng: Range): Expression {
  if (expr.kind === "ScopeTraversal" || expr.kind === "RelativeTraversal") {
    expr.traversal.push(next);
    expr.range = rangeBetween(expr.range, rng);
    return expr;
  }
  return { kind: "RelativeTraversal", source: expr, traversal: [next], range: rangeBetween(expr.range, rng) };
}

export function templateResult(t: TemplateParse, range: Range): Expression {
  const first = t.exprs[0];
  if (t.passthru && first) return { kind: "TemplateWrap", wrapped: first, range };
  return { kind: "Template", parts: t.exprs, range };
}
