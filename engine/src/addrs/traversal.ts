// Absolute traversals from address strings (hclsyntax.ParseTraversalAbs): `-target`, `-replace`,
// state's provider strings and the like are written in HCL's traversal syntax, `a.b["c"][0]`,
// with only literal index keys. This reads the same grammar with the same diagnostics.
//
// It lives here rather than in `hcl` only because `hcl` does not export a traversal parser yet;
// it is built on `hcl`'s scanner and expression parser (for string escapes), so the token rules
// are shared.
import {
  errorDiag,
  hasErrors,
  parseExpression,
  rangeBetween,
  invalidTokenDiagnostics,
  scanTokens,
  type Diagnostic,
  type Expression,
  type LiteralValue,
  type Pos,
  type Range,
  type Token,
  type Traverser,
} from "../hcl/index.js";
import { parseNumberVal } from "../values/index.js";

export type Traversal = readonly Traverser[];

const START: Pos = { line: 1, column: 1, byte: 0 };

/** The range a traversal covers; undefined for an empty one (HCL's zero range). */
export function traversalRange(t: Traversal): Range | undefined {
  const first = t[0];
  const last = t[t.length - 1];
  if (!first || !last) return undefined;
  return rangeBetween(first.range, last.range);
}

/** The name of the root step, as HCL's Traversal.RootName (only meaningful on a Root step). */
export function traversalRootName(t: Traversal): string {
  const first = t[0];
  return first && first.kind !== "Index" ? first.name : "";
}

/**
 * The rest of a traversal after a prefix has been consumed, with its first Attr step turned into
 * a Root so that it reads as a traversal of its own (as OpenTofu's parse*Prefix functions do).
 */
export function asRootTraversal(t: Traversal): Traverser[] {
  const out = t.slice();
  const first = out[0];
  if (first && first.kind === "Attr") out[0] = { kind: "Root", name: first.name, range: first.range };
  return out;
}


/** The literal text of a parsed `"..."` expression (escapes already decoded by `hcl`). */
function literalText(e: Expression): string {
  if (e.kind === "Literal" && e.value.type === "string") return e.value.value;
  if (e.kind === "Template") return e.parts.map(literalText).join("");
  return "";
}

/** A cursor over the significant tokens: comments and newlines don't matter in a traversal. */
class Cursor {
  private i = 0;
  constructor(
    private readonly toks: readonly Token[],
    readonly src: string,
  ) {}
  peek(): Token {
    return this.toks[Math.min(this.i, this.toks.length - 1)] as Token;
  }
  read(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  text(t: Token): string {
    return this.src.slice(t.start, t.end);
  }
  /** Skips to just after the next token of the given type (parser recovery inside a string). */
  skipPast(type: Token["type"]): void {
    for (;;) {
      const t = this.read();
      if (t.type === type || t.type === "EOF") return;
    }
  }
}

/** A quoted string with no template sequences (hclsyntax's parseQuotedStringLiteral). */
function quotedStringLiteral(c: Cursor, diags: Diagnostic[]): string {
  const oQuote = c.read();
  let out = "";
  for (;;) {
    const tok = c.read();
    switch (tok.type) {
      case "CQuote":
        return out.normalize("NFC");
      case "QuotedLit": {
        // Decode the escapes with `hcl` itself, positioned so its diagnostics point into the source.
        const r = tok.range;
        const at: Pos = { line: r.start.line, column: r.start.column - 1, byte: r.start.byte - 1 };
        const parsed = parseExpression(`"${c.text(tok)}"`, r.filename, at);
        diags.push(...parsed.diagnostics);
        out += literalText(parsed.result);
        break;
      }
      case "TemplateInterp":
      case "TemplateControl": {
        const which = tok.type === "TemplateControl" ? "%" : "$";
        diags.push(
          errorDiag(
            "Invalid string literal",
            `Template sequences are not allowed in this string. To include a literal "${which}", double it (as "${which}${which}") to escape it.`,
            tok.range,
            rangeBetween(oQuote.range, tok.range),
          ),
        );
        out += `${which}{ ... }`;
        c.skipPast("TemplateSeqEnd");
        break;
      }
      case "EOF":
        diags.push(
          errorDiag(
            "Unterminated string literal",
            "Unable to find the closing quote mark before the end of the file.",
            tok.range,
            rangeBetween(oQuote.range, tok.range),
          ),
        );
        return out.normalize("NFC");
      default:
        diags.push(errorDiag("Invalid string literal", "This item is not valid in a string literal.", tok.range, rangeBetween(oQuote.range, tok.range)));
        c.skipPast("CQuote");
        return out.normalize("NFC");
    }
  }
}

function closeBracket(c: Cursor, open: Token, diags: Diagnostic[]): Token {
  const close = c.read();
  if (close.type !== "CBrack") {
    diags.push(
      errorDiag("Unclosed index brackets", "Index key must be followed by a closing bracket.", close.range, rangeBetween(open.range, close.range)),
    );
  }
  return close;
}

/**
 * Parses `src` as an absolute traversal: a name, then `.name` and `[literal]` steps, nothing else.
 * On error the steps read so far are returned with the diagnostics.
 */
export function parseTraversalAbs(src: string, filename = "", start: Pos = START): { traversal: Traverser[]; diagnostics: Diagnostic[] } {
  const all = scanTokens(src, filename, start, "normal");
  const diags = invalidTokenDiagnostics(src, filename, start, "normal");
  const c = new Cursor(
    all.filter((t) => t.type !== "Comment" && t.type !== "Newline"),
    src,
  );
  const ret: Traverser[] = [];

  const varTok = c.read();
  if (varTok.type !== "Ident") {
    diags.push(errorDiag("Variable name required", "Must begin with a variable name.", varTok.range));
    return { traversal: ret, diagnostics: diags };
  }
  ret.push({ kind: "Root", name: c.text(varTok), range: varTok.range });

  for (;;) {
    const next = c.peek();
    if (next.type === "EOF") return { traversal: ret, diagnostics: diags };
    if (next.type === "Dot") {
      const dot = c.read();
      const nameTok = c.read();
      if (nameTok.type !== "Ident") {
        const detail = nameTok.type === "Star" ? "Splat expressions (.*) may not be used here." : "Dot must be followed by attribute name.";
        diags.push(errorDiag("Attribute name required", detail, nameTok.range, rangeBetween(varTok.range, nameTok.range)));
        return { traversal: ret, diagnostics: diags };
      }
      ret.push({ kind: "Attr", name: c.text(nameTok), range: rangeBetween(dot.range, nameTok.range) });
      continue;
    }
    if (next.type === "OBrack") {
      const open = c.read();
      const keyTok = c.peek();
      let key: LiteralValue;
      if (keyTok.type === "NumberLit") {
        c.read();
        const text = c.text(keyTok);
        if (parseNumberVal(text) === undefined) {
          diags.push(errorDiag("Invalid number literal", "Failed to recognize the value of this number literal.", keyTok.range));
          key = { type: "invalid" };
        } else {
          key = { type: "number", text };
        }
      } else if (keyTok.type === "OQuote") {
        key = { type: "string", value: quotedStringLiteral(c, diags) };
      } else {
        const [summary, detail] =
          keyTok.type === "Star"
            ? ["Attribute name required", "Splat expressions ([*]) may not be used here."]
            : ["Index value required", "Index brackets must contain either a literal number or a literal string."];
        diags.push(errorDiag(summary, detail, keyTok.range, rangeBetween(varTok.range, keyTok.range)));
        return { traversal: ret, diagnostics: diags };
      }
      const close = closeBracket(c, open, diags);
      ret.push({ kind: "Index", key, range: rangeBetween(open.range, close.range) });
      if (hasErrors(diags)) return { traversal: ret, diagnostics: diags };
      continue;
    }
    diags.push(errorDiag("Invalid character", "Expected an attribute access or an index operator.", next.range, rangeBetween(varTok.range, next.range)));
    return { traversal: ret, diagnostics: diags };
  }
}
