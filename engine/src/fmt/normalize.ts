// The rewrites `tofu fmt` / `terraform fmt` make beyond whitespace, found by walking the syntax
// tree and replacing token runs (hclwrite's SetAttributeRaw and SetLabels):
// - block labels become quoted strings, and comments among them are dropped;
// - an argument whose value is exactly one interpolation, `"${expr}"`, becomes `expr`;
// - a top-level `variable` block's `type` loses the pre-0.12 spellings (`"string"`, bare `list`).
import { escapeQuotedStringLit, type Block, type Body } from "../hcl/index.js";
import { firstTokenAtOrAfter, type FmtToken, type SourceTokens } from "./tokens.js";

/** Token range [from, to) of the source to be replaced by `tokens`. */
export interface Edit {
  from: number;
  to: number;
  tokens: FmtToken[];
}

function tok(type: FmtToken["type"], text: string): FmtToken {
  return { type, text, spaces: 0 };
}

/** Token index range of a source range, as hclwrite's partitionTokens finds it. */
function tokenSpan(src: SourceTokens, startByte: number, endByte: number): [number, number] {
  const from = firstTokenAtOrAfter(src.startBytes, startByte);
  const to = firstTokenAtOrAfter(src.startBytes, endByte, from);
  return [from, to];
}

export function collectEdits(body: Body, src: SourceTokens): Edit[] {
  const edits: Edit[] = [];
  walkBody(body, [], src, edits);
  edits.sort((a, b) => a.from - b.from);
  return edits;
}

function walkBody(body: Body, inBlocks: readonly string[], src: SourceTokens, edits: Edit[]): void {
  for (const attr of body.attributes) {
    const [from, to] = tokenSpan(src, attr.expr.range.start.byte, attr.expr.range.end.byte);
    const isVariableType = inBlocks.length === 1 && inBlocks[0] === "variable" && attr.name === "type";
    // Most values are neither quoted nor legacy types: look before copying any tokens.
    const first = src.tokens[from];
    if (!isVariableType && (first?.type !== "OQuote" || to - from < 5)) continue;
    const tokens = src.tokens.slice(from, to);
    const replaced = isVariableType ? typeExprTokens(tokens) : valueExprTokens(tokens);
    if (replaced) edits.push({ from, to, tokens: replaced });
  }
  for (const block of body.blocks) {
    labelEdit(block, src, edits);
    walkBody(block.body, [...inBlocks, block.type], src, edits);
  }
}

/**
 * Everything from just after the block type to the end of its last label becomes the labels as
 * canonical quoted strings (hclwrite discards the tokens before the first label and rebuilds
 * the label list, so comments there go).
 */
function labelEdit(block: Block, src: SourceTokens, edits: Edit[]): void {
  const last = block.labelRanges[block.labelRanges.length - 1];
  if (!last) return;
  const [typeFrom] = tokenSpan(src, block.typeRange.start.byte, block.typeRange.end.byte);
  const [, lastTo] = tokenSpan(src, last.start.byte, last.end.byte);
  const tokens: FmtToken[] = [];
  block.labels.forEach((label, i) => {
    const range = block.labelRanges[i];
    if (!range) return;
    const [from, to] = tokenSpan(src, range.start.byte, range.end.byte);
    const lit = src.tokens[from + 1];
    if (to - from === 3 && lit && lit.type === "QuotedLit" && splitsLiteral(lit.text)) return;
    tokens.push(tok("OQuote", '"'));
    const text = escapeQuotedStringLit(label);
    if (text !== "") tokens.push(tok("QuotedLit", text));
    tokens.push(tok("CQuote", '"'));
  });
  edits.push({ from: typeFrom + 1, to: lastTo, tokens });
}

/**
 * Whether hclsyntax's scanner cuts this quoted literal into several tokens: it does at every `$`
 * and `%` (a `$${` or `%%{` escape staying whole), and hclwrite then no longer recognises the
 * label, so `terraform fmt` drops it. Our scanner keeps the literal whole.
 */
function splitsLiteral(text: string): boolean {
  if (!/[$%]/.test(text)) return false;
  return !(text === "$" || text === "%" || text === "$${" || text === "%%{");
}

/** `"${expr}"` → `expr` (parenthesised when it spans lines); undefined when not applicable. */
function valueExprTokens(tokens: FmtToken[]): FmtToken[] | undefined {
  const n = tokens.length;
  if (n < 5) return undefined;
  if (
    (tokens[0] as FmtToken).type !== "OQuote" ||
    (tokens[1] as FmtToken).type !== "TemplateInterp" ||
    (tokens[n - 2] as FmtToken).type !== "TemplateSeqEnd" ||
    (tokens[n - 1] as FmtToken).type !== "CQuote"
  ) {
    return undefined;
  }
  const inside = tokens.slice(2, n - 2);
  // Only one interpolation and no literal text at the outer level: quotes nest expressions.
  let quotes = 0;
  for (const t of inside) {
    if (t.type === "OQuote") quotes++;
    else if (t.type === "CQuote") quotes--;
    else if (quotes > 0) continue;
    else if (t.type === "TemplateInterp" || t.type === "TemplateSeqEnd" || t.type === "QuotedLit") return undefined;
  }
  let start = 0;
  let end = inside.length;
  while (start < end && (inside[start] as FmtToken).type === "Newline") start++;
  while (end > start && (inside[end - 1] as FmtToken).type === "Newline") end--;
  const trimmed = inside.slice(start, end);
  let multiLine = false;
  let leadingParen = false;
  let trailingParen = false;
  trimmed.forEach((t, i) => {
    if (i === 0 && t.type === "OParen") leadingParen = true;
    else if (t.type === "Newline") multiLine = true;
    else if (i === trimmed.length - 1 && t.type === "CParen") trailingParen = true;
  });
  if (multiLine && !(leadingParen && trailingParen)) return [tok("OParen", "("), ...trimmed, tok("CParen", ")")];
  return trimmed;
}

/** Legacy type spellings in `variable` blocks; undefined when not applicable. */
function typeExprTokens(tokens: FmtToken[]): FmtToken[] | undefined {
  const ofType = (name: string, elem: string) => [tok("Ident", name), tok("OParen", "("), tok("Ident", elem), tok("CParen", ")")];
  if (tokens.length === 1) {
    const kw = tokens[0] as FmtToken;
    if (kw.type === "Ident" && (kw.text === "list" || kw.text === "map" || kw.text === "set")) return ofType(kw.text, "any");
    return undefined;
  }
  if (tokens.length === 3) {
    const [o, s, c] = tokens as [FmtToken, FmtToken, FmtToken];
    if (o.type !== "OQuote" || s.type !== "QuotedLit" || c.type !== "CQuote") return undefined;
    // Terraform 0.11 had no `any`; its collections held strings.
    if (s.text === "string") return [tok("Ident", "string")];
    if (s.text === "list" || s.text === "map") return ofType(s.text, "string");
  }
  return undefined;
}
