// Values written as HCL native syntax exactly as hclwrite writes them (TokensForValue, then the
// formatting File.Bytes applies), for the builtin `terraform` provider's encode functions.
// Tokens are built here; spacing, indentation and `=` alignment come from the formatter `fmt`
// uses, which is hclwrite's format.
import { escapeQuotedStringLit } from "../../hcl/index.js";
import { layoutTokens } from "../../fmt/layout.js";
import { writeTokens, type FmtToken, type FmtTokenType } from "../../fmt/tokens.js";
import { asString, elementPairs, elementsOf, type Value } from "../../values/index.js";

export class UnknownValueError extends Error {
  constructor() {
    super("cannot produce tokens for unknown value");
  }
}

function tok(type: FmtTokenType, text: string): FmtToken {
  return { type, text, spaces: 0 };
}

const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u;

/** hclsyntax.ValidIdentifier: the string scans as exactly one identifier token. */
export function validIdentifier(s: string): boolean {
  return IDENTIFIER.test(s);
}

function stringTokens(s: string, out: FmtToken[]): void {
  out.push(tok("OQuote", '"'));
  const text = escapeQuotedStringLit(s);
  if (text !== "") out.push(tok("QuotedLit", text));
  out.push(tok("CQuote", '"'));
}

/** hclwrite's appendTokensForValue. Throws UnknownValueError for an unknown anywhere inside. */
export function tokensForValue(v: Value, out: FmtToken[] = []): FmtToken[] {
  switch (v.kind) {
    case "unknown":
      throw new UnknownValueError();
    case "null":
      out.push(tok("Ident", "null"));
      break;
    case "bool":
      out.push(tok("Ident", v.value ? "true" : "false"));
      break;
    case "number":
      out.push(tok("NumberLit", v.value.text("f")));
      break;
    case "string":
      stringTokens(v.value, out);
      break;
    case "list":
    case "set":
    case "tuple":
      out.push(tok("OBrack", "["));
      elementsOf(v).forEach((e, i) => {
        if (i > 0) out.push(tok("Comma", ","));
        tokensForValue(e, out);
      });
      out.push(tok("CBrack", "]"));
      break;
    case "map":
    case "object": {
      out.push(tok("OBrace", "{"));
      const pairs = elementPairs(v);
      if (pairs.length > 0) out.push(tok("Newline", "\n"));
      for (const [k, e] of pairs) {
        const key = asString(k);
        if (validIdentifier(key)) out.push(tok("Ident", key));
        else stringTokens(key, out);
        out.push(tok("Equal", "="));
        tokensForValue(e, out);
        out.push(tok("Newline", "\n"));
      }
      out.push(tok("CBrace", "}"));
      break;
    }
  }
  return out;
}

/** hclwrite's formatting of a token sequence, written out. */
export function formatTokens(tokens: FmtToken[]): string {
  layoutTokens(tokens);
  return writeTokens(tokens);
}

/** An expression for `v`, as `provider::terraform::encode_expr` writes it. */
export function encodeExpression(v: Value): string {
  return formatTokens(tokensForValue(v));
}

/** A body of `name = value` lines (names must be valid identifiers), as hclwrite's SetAttributeValue builds it. */
export function encodeAttributes(attrs: ReadonlyArray<[string, Value]>): string {
  const tokens: FmtToken[] = [];
  for (const [name, v] of attrs) {
    tokens.push(tok("Ident", name), tok("Equal", "="));
    tokensForValue(v, tokens);
    tokens.push(tok("Newline", "\n"));
  }
  return formatTokens(tokens);
}
