// Templates: quoted strings, heredocs and bare templates. Parsing happens in two passes, as in
// hclsyntax: first the token stream becomes a flat list of template parts (literals with escapes
// resolved and `~` strip markers applied, interpolations, and directive markers), then the parts
// become a tree, pairing `%{if}`/`%{else}`/`%{endif}` and `%{for}`/`%{endfor}`.
import type { Expression } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { formatRange, rangeBetween } from "./pos.js";
import { ConditionalNode, ForNode, LiteralNode, rangeOf, TemplateJoinNode, TemplateNode } from "./nodes.js";
import { rangeAtEnd, rangeAtStart, SourceRange, spanOf } from "./positions.js";
import { fit, MAX_NESTING, type Parser } from "./parser.js";
import type { Tok } from "./peeker.js";
import type { TokenType } from "./scanner.js";
import { isPlainLiteral, unescapeLiteral } from "./strings.js";

type Part =
  | { t: "literal"; value: string; range: SourceRange }
  // An interpolation's own range is never used: its expression has one.
  | { t: "interp"; expr: Expression }
  | { t: "if"; cond: Expression; range: SourceRange }
  | { t: "for"; keyVar?: string; valVar: string; coll: Expression; range: SourceRange }
  | { t: "endctrl"; which: "endif" | "else" | "endfor"; range: SourceRange }
  | { t: "end"; range: SourceRange };

export interface TemplateParse {
  exprs: Expression[];
  /** True when the template is exactly one interpolation ("${x}"), whose value passes through. */
  passthru: boolean;
  range: SourceRange;
}

/** Go's unicode.IsSpace. */
export function isUnicodeSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** The length of s's leading white space (Go's unicode.IsSpace). */
function leadingSpace(s: string): number {
  let i = 0;
  while (i < s.length && isUnicodeSpace(s.charCodeAt(i))) i++;
  return i;
}

function trimLeftSpace(s: string): string {
  const i = leadingSpace(s);
  return i === 0 ? s : s.slice(i);
}

function trimRightSpace(s: string): string {
  let i = s.length;
  while (i > 0 && isUnicodeSpace(s.charCodeAt(i - 1))) i--;
  return i === s.length ? s : s.slice(0, i);
}

function isKeyword(parser: Parser, tok: Tok, kw: string): boolean {
  return parser.p.type(tok) === "Ident" && parser.text(tok) === kw;
}

/** A `~` on a sequence opener trims the spaces at the end of the literal before it. */
function trimPrev(parts: Part[], parser: Parser, canTrimPrev: boolean, opener: Tok): void {
  if (canTrimPrev && parser.p.end(opener) - parser.p.start(opener) === 3 && parser.src.charCodeAt(parser.p.start(opener) + 2) === 126) {
    const prev = parts[parts.length - 1];
    if (prev && prev.t === "literal") prev.value = trimRightSpace(prev.value);
  }
}

/** Reads template tokens up to `end` (already past the opener) and builds the template's parts. */
export function parseTemplateParts(parser: Parser, end: TokenType, flushHeredoc: boolean, diags: Diagnostic[]): TemplateParse {
  const p = parser.p;
  const parts: Part[] = [];
  const startRange = p.nextRange();
  let ltrimNext = false;
  let nextCanTrimPrev = false;
  let endRange: SourceRange;
  for (;;) {
    const next = p.read();
    if (p.type(next) === end) {
      endRange = p.range(next);
      break;
    }
    const ltrim = ltrimNext;
    ltrimNext = false;
    const canTrimPrev = nextCanTrimPrev;
    nextCanTrimPrev = false;
    if (p.type(next) === "StringLit" || p.type(next) === "QuotedLit") {
      const quoted = p.type(next) === "QuotedLit";
      const text = parser.text(next);
      let value = isPlainLiteral(text, quoted) ? text : unescapeLiteral(text, quoted, p.range(next), diags);
      if (ltrim) value = trimLeftSpace(value);
      parts.push({ t: "literal", value, range: p.range(next) });
      nextCanTrimPrev = true;
      continue;
    }
    if (p.type(next) === "TemplateInterp") {
      trimPrev(parts, parser, canTrimPrev, next);
      p.pushIncludeNewlines(false);
      const expr = parser.parseExpression(diags);
      const close = p.peek();
      if (p.type(close) !== "TemplateSeqEnd") {
        if (!parser.recovery) {
          if (p.type(close) === "EOF") {
            diags.push(
              errorDiag(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                startRange,
              ),
            );
          } else if (p.type(close) === "Colon") {
            diags.push(
              errorDiag(
                "Extra characters after interpolation expression",
                'Template interpolation doesn\'t expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with "$${" instead of just "${".',
                p.range(close),
                rangeBetween(startRange, p.range(close)),
              ),
            );
          } else if ((p.type(close) === "CQuote" || p.type(close) === "OQuote") && end === "CQuote") {
            diags.push(
              errorDiag(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                startRange,
              ),
            );
          } else {
            diags.push(
              errorDiag(
                "Extra characters after interpolation expression",
                'Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".',
                p.range(close),
                rangeBetween(startRange, p.range(close)),
              ),
            );
          }
        }
        parser.recover("TemplateSeqEnd");
      } else {
        p.read();
        if (p.end(close) - p.start(close) === 2 && parser.src.charCodeAt(p.start(close)) === 126) ltrimNext = true;
      }
      p.popIncludeNewlines();
      parts.push({ t: "interp", expr });
      continue;
    }
    if (p.type(next) === "TemplateControl") {
      trimPrev(parts, parser, canTrimPrev, next);
      p.pushIncludeNewlines(false);
      const kw = p.peek();
      if (p.type(kw) !== "Ident") {
        if (!parser.recovery) {
          diags.push(
            errorDiag(
              "Invalid template directive",
              'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.',
              p.range(kw),
              p.rangeOver(next, kw),
            ),
          );
        }
        parser.recover("TemplateSeqEnd");
        p.popIncludeNewlines();
        continue;
      }
      p.read();
      const word = parser.text(kw);
      let ok = true;
      switch (word) {
        case "if": {
          const cond = parser.parseExpression(diags);
          parts.push({ t: "if", cond, range: spanOf(p.range(next), p.nextRange()) });
          break;
        }
        case "else":
        case "endif":
        case "endfor":
          parts.push({ t: "endctrl", which: word, range: spanOf(p.range(next), p.nextRange()) });
          break;
        case "for": {
          if (p.type(p.peek()) !== "Ident") {
            if (!parser.recovery) diags.push(errorDiag("Invalid 'for' directive", "For directive requires variable name after 'for'.", p.nextRange()));
            ok = false;
            break;
          }
          let valVar = parser.identName(p.read());
          let keyVar: string | undefined;
          if (p.type(p.peek()) === "Comma") {
            keyVar = valVar;
            p.read();
            if (p.type(p.peek()) !== "Ident") {
              if (!parser.recovery) diags.push(errorDiag("Invalid 'for' directive", "For directive requires value variable name after comma.", p.nextRange()));
              ok = false;
              break;
            }
            valVar = parser.identName(p.read());
          }
          if (!isKeyword(parser, p.peek(), "in")) {
            if (!parser.recovery) diags.push(errorDiag("Invalid 'for' directive", "For directive requires 'in' keyword after names.", p.nextRange()));
            ok = false;
            break;
          }
          p.read();
          const coll = parser.parseExpression(diags);
          const part: Part = { t: "for", valVar, coll, range: spanOf(p.range(next), p.nextRange()) };
          if (keyVar !== undefined) part.keyVar = keyVar;
          parts.push(part);
          break;
        }
        default: {
          if (!parser.recovery) {
            const suggestion = nameSuggestion(word, ["if", "for", "else", "endif", "endfor"]);
            diags.push(
              errorDiag(
                "Invalid template control keyword",
                `${JSON.stringify(word)} is not a valid template control keyword.${suggestion ? ` Did you mean ${JSON.stringify(suggestion)}?` : ""}`,
                p.range(kw),
                p.rangeOver(next, kw),
              ),
            );
          }
          ok = false;
        }
      }
      if (!ok) {
        parser.recover("TemplateSeqEnd");
        p.popIncludeNewlines();
        continue;
      }
      const close = p.peek();
      if (p.type(close) !== "TemplateSeqEnd") {
        if (!parser.recovery) {
          diags.push(
            errorDiag(
              `Extra characters in ${word} marker`,
              "Expected a closing brace to end the sequence, but found extra characters.",
              p.range(close),
              rangeBetween(startRange, p.range(close)),
            ),
          );
        }
        parser.recover("TemplateSeqEnd");
      } else {
        p.read();
        if (p.end(close) - p.start(close) === 2 && parser.src.charCodeAt(p.start(close)) === 126) ltrimNext = true;
      }
      p.popIncludeNewlines();
      continue;
    }
    if (!parser.recovery) {
      diags.push(errorDiag("Unterminated template string", "No closing marker was found for the string.", p.range(next), rangeBetween(startRange, p.range(next))));
    }
    const final = parser.recover(end);
    endRange = p.range(final);
    break;
  }
  if (parts.length === 0) {
    parts.push({ t: "literal", value: "", range: rangeAtEnd(startRange) });
  }
  parts.push({ t: "end", range: endRange });
  if (flushHeredoc) flushHeredocParts(parts);
  meldLiterals(parts);
  const exprs = flatTemplate(parts) ?? fit(new TemplateTreeBuilder(parts, diags).root());
  const passthru = parts.length === 2 && parts[0]?.t === "interp";
  return { exprs, passthru, range: spanOf(startRange, endRange) };
}

/** `<<-` heredocs: remove the smallest common leading whitespace (in characters) from every line. */
function flushHeredocParts(parts: Part[]): void {
  let minSpaces = Number.MAX_SAFE_INTEGER;
  let newline = true;
  const adjust: Array<Extract<Part, { t: "literal" }>> = [];
  for (const part of parts) {
    if (newline) {
      newline = false;
      let spaces = Number.MAX_SAFE_INTEGER;
      if (part.t === "literal") {
        const orig = part.value;
        const lead = leadingSpace(orig);
        if (lead === orig.length && orig.endsWith("\n")) {
          // A blank line does not count towards the common prefix.
          spaces = Number.MAX_SAFE_INTEGER;
        } else {
          spaces = countCodePoints(orig, lead);
          adjust.push(part);
        }
      } else if (part.t === "end") {
        break;
      } else spaces = 0;
      if (spaces < minSpaces) minSpaces = spaces;
    }
    if (part.t === "literal" && part.value.endsWith("\n")) newline = true;
  }
  if (minSpaces === Number.MAX_SAFE_INTEGER) return;
  for (const lit of adjust) {
    let cut = 0;
    for (let k = 0; k < minSpaces && cut < lit.value.length; k++) {
      const c = lit.value.charCodeAt(cut);
      cut += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    lit.value = lit.value.slice(cut);
    // Whitespace cut from a line holds no newline, no invalid byte and nothing that joins a
    // grapheme cluster, so moving the start by string offsets lands on the right position.
    lit.range = new SourceRange(lit.range.map, lit.range.from + cut, lit.range.to);
  }
}

/** The expressions of a template without directives (most of them): its parts in order. */
function flatTemplate(parts: Part[]): Expression[] | undefined {
  const exprs = new Array<Expression>(parts.length - 1);
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] as Part;
    if (part.t === "literal") exprs[i] = new LiteralNode({ type: "string", value: part.value }, part.range.map, part.range.from, part.range.to);
    else if (part.t === "interp") exprs[i] = part.expr;
    else return undefined;
  }
  return exprs;
}

function countCodePoints(s: string, units: number): number {
  let n = 0;
  for (let i = 0; i < units; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

function meldLiterals(parts: Part[]): void {
  let w = 0;
  for (let r = 0; r < parts.length; r++) {
    const cur = parts[r] as Part;
    const prev = w > 0 ? parts[w - 1] : undefined;
    if (prev && prev.t === "literal" && cur.t === "literal") {
      prev.value += cur.value;
      prev.range = new SourceRange(prev.range.map, prev.range.from, cur.range.to);
      continue;
    }
    parts[w++] = cur;
  }
  parts.length = w;
}

class TemplateTreeBuilder {
  private pos = 0;
  private depth = 0;
  private tooDeep = false;

  constructor(private readonly parts: Part[], private readonly diags: Diagnostic[]) {}

  private peek(): Part {
    return this.parts[this.pos] as Part;
  }

  private read(): Part {
    const part = this.peek();
    if (part.t !== "end") this.pos++;
    return part;
  }

  root(): Expression[] {
    const exprs: Expression[] = [];
    while (this.peek().t !== "end") exprs.push(this.expr());
    return exprs;
  }

  private expr(): Expression {
    const next = this.peek();
    switch (next.t) {
      case "literal":
        this.read();
        return new LiteralNode({ type: "string", value: next.value }, next.range.map, next.range.from, next.range.to);
      case "interp":
        this.read();
        return next.expr;
      case "if":
      case "for": {
        // Directive parts were read iteratively; only their pairing recurses, so bound it.
        if (this.depth >= MAX_NESTING) {
          this.pos = this.parts.length - 1;
          this.tooDeep = true;
          this.diags.push(errorDiag("Nesting too deep", `Template directives may be nested at most ${MAX_NESTING} levels deep.`, next.range));
          return placeholder(next.range);
        }
        this.depth++;
        try {
          return next.t === "if" ? this.ifDirective() : this.forDirective();
        } finally {
          this.depth--;
        }
      }
      case "end":
        this.read();
        this.diags.push(errorDiag("Unexpected end of template", "The control directives within this template are unbalanced.", next.range));
        return placeholder(next.range);
      case "endctrl":
        this.read();
        this.diags.push(errorDiag(`Unexpected ${next.which} directive`, "The control directives within this template are unbalanced.", next.range));
        return placeholder(next.range);
      default: {
        const never: never = next;
        return never;
      }
    }
  }

  private ifDirective(): Expression {
    const open = this.read() as Extract<Part, { t: "if" }>;
    const ifExprs: Expression[] = [];
    const elseExprs: Expression[] = [];
    let current = ifExprs;
    let endifRange: SourceRange | undefined;
    while (!endifRange) {
      const next = this.peek();
      if (next.t === "end") {
        if (this.tooDeep) return placeholder(next.range);
        this.diags.push(
          errorDiag("Unexpected end of template", `The if directive at ${formatRange(open.range)} is missing its corresponding endif directive.`, next.range),
        );
        return placeholder(next.range);
      }
      if (next.t === "endctrl") {
        this.read();
        if (next.which === "else") {
          if (current === ifExprs) {
            current = elseExprs;
            continue;
          }
          this.diags.push(errorDiag("Unexpected else directive", `Already in the else clause for the if started at ${formatRange(open.range)}.`, next.range));
          return placeholder(next.range);
        }
        if (next.which === "endif") {
          endifRange = next.range;
          break;
        }
        this.diags.push(
          errorDiag(`Unexpected ${next.which} directive`, `Expecting an endif directive for the if started at ${formatRange(open.range)}.`, next.range),
        );
        return placeholder(next.range);
      }
      current.push(this.expr());
    }
    if (ifExprs.length === 0) ifExprs.push(emptyString(rangeAtEnd(open.range)));
    if (elseExprs.length === 0) elseExprs.push(emptyString(rangeAtStart(endifRange)));
    return new ConditionalNode(open.cond, templateOf(ifExprs), templateOf(elseExprs), spanOf(open.range, endifRange));
  }

  private forDirective(): Expression {
    const open = this.read() as Extract<Part, { t: "for" }>;
    const content: Expression[] = [];
    let endforRange: SourceRange | undefined;
    while (!endforRange) {
      const next = this.peek();
      if (next.t === "end") {
        if (this.tooDeep) return placeholder(next.range);
        this.diags.push(
          errorDiag("Unexpected end of template", `The for directive at ${formatRange(open.range)} is missing its corresponding endfor directive.`, next.range),
        );
        return placeholder(next.range);
      }
      if (next.t === "endctrl") {
        this.read();
        if (next.which === "endfor") {
          endforRange = next.range;
          break;
        }
        if (next.which === "else") {
          this.diags.push(errorDiag("Unexpected else directive", "An else clause is not expected for a for directive.", next.range));
        } else {
          this.diags.push(
            errorDiag(
              `Unexpected ${next.which} directive`,
              `Expecting an endfor directive corresponding to the for directive at ${formatRange(open.range)}.`,
              next.range,
            ),
          );
        }
        return placeholder(next.range);
      }
      content.push(this.expr());
    }
    if (content.length === 0) content.push(emptyString(rangeAtEnd(open.range)));
    const range = spanOf(open.range, endforRange);
    const tuple = new ForNode(open.keyVar, open.valVar, open.coll, undefined, templateOf(content), undefined, false, open.range, endforRange, range);
    return new TemplateJoinNode(tuple, range);
  }
}

function placeholder(range: SourceRange): Expression {
  return new LiteralNode({ type: "invalid" }, range.map, range.from, range.to);
}

function emptyString(at: SourceRange): Expression {
  return new LiteralNode({ type: "string", value: "" }, at.map, at.from, at.to);
}

function templateOf(exprs: Expression[]): Expression {
  const first = exprs[0] as Expression;
  const last = exprs[exprs.length - 1] as Expression;
  const r = spanOf(rangeOf(first), rangeOf(last));
  return new TemplateNode(fit(exprs), r.map, r.from, r.to);
}

/** HCL's didyoumean: the closest candidate within Levenshtein distance 3, or "". */
export function nameSuggestion(given: string, suggestions: readonly string[]): string {
  for (const s of suggestions) {
    if (levenshtein(given, s) < 3) return s;
  }
  return "";
}

function levenshtein(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n] as number;
}
