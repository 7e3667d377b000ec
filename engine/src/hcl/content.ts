// Decoding a body against a schema (HCL's Body.Content / PartialContent / JustAttributes), for
// native-syntax bodies and JSON-syntax bodies alike. A JSON body only gets its structure from the
// schema: a property is an argument or a block type depending on what the schema says, and block
// labels nest as object keys, as HCL's JSON spec describes.
import type { Body, Expression } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { startRange, type JSONObjectAttr, type JSONValue } from "./json/parser.js";
import { formatRange, rangeBetween, type Range } from "./pos.js";
import { rangeAtStart } from "./positions.js";
import { nameSuggestion } from "./template.js";

export interface AttributeSchema {
  name: string;
  required?: boolean;
}

export interface BlockHeaderSchema {
  type: string;
  labelNames?: readonly string[];
}

export interface BodySchema {
  attributes?: readonly AttributeSchema[];
  blocks?: readonly BlockHeaderSchema[];
}

/** A JSON value used as an expression; `lang` evaluates it by HCL's JSON rules (strings are templates). */
export interface JSONExpression {
  kind: "JSONExpr";
  value: JSONValue;
  range: Range;
}

export type AnyExpression = Expression | JSONExpression;

export interface NativeBody {
  syntax: "native";
  body: Body;
  hiddenAttrs: ReadonlySet<string>;
  hiddenBlocks: ReadonlySet<string>;
}

export interface JSONBody {
  syntax: "json";
  value: JSONValue;
  hiddenAttrs: ReadonlySet<string>;
}

/** A body of either syntax, as decoders see it. */
export type SyntaxBody = NativeBody | JSONBody;

export interface ContentAttribute {
  name: string;
  expr: AnyExpression;
  range: Range;
  nameRange: Range;
}

export interface ContentBlock {
  type: string;
  labels: string[];
  body: SyntaxBody;
  defRange: Range;
  typeRange: Range;
  labelRanges: Range[];
}

export interface BodyContent {
  attributes: Map<string, ContentAttribute>;
  blocks: ContentBlock[];
  missingItemRange: Range;
}

const NONE: ReadonlySet<string> = new Set();

export function nativeBody(body: Body): SyntaxBody {
  return { syntax: "native", body, hiddenAttrs: NONE, hiddenBlocks: NONE };
}

export function jsonBody(value: JSONValue): SyntaxBody {
  return { syntax: "json", value, hiddenAttrs: NONE };
}

export function missingItemRange(b: SyntaxBody): Range {
  if (b.syntax === "native") {
    return rangeAtStart(b.body.range);
  }
  const v = b.value;
  if (v.kind === "JSONObject") return v.closeRange;
  return startRange(v);
}

/** Decodes what the schema asks for; anything else in the body is an error. */
export function bodyContent(b: SyntaxBody, schema: BodySchema): { content: BodyContent; diagnostics: Diagnostic[] } {
  const { content, remain, diagnostics } = partialContent(b, schema);
  if (remain.syntax === "native") {
    const body = remain.body;
    for (const attr of body.attributes) {
      if (remain.hiddenAttrs.has(attr.name)) continue;
      const candidates = (schema.attributes ?? []).filter((a) => !content.attributes.has(a.name)).map((a) => a.name);
      let suggestion = nameSuggestion(attr.name, candidates);
      if (suggestion) suggestion = ` Did you mean ${JSON.stringify(suggestion)}?`;
      else if ((schema.blocks ?? []).some((bs) => bs.type === attr.name)) {
        suggestion = ` Did you mean to define a block of type ${JSON.stringify(attr.name)}?`;
      }
      diagnostics.push(
        errorDiag("Unsupported argument", `An argument named ${JSON.stringify(attr.name)} is not expected here.${suggestion}`, attr.nameRange),
      );
    }
    for (const block of body.blocks) {
      if (remain.hiddenBlocks.has(block.type)) continue;
      let suggestion = nameSuggestion(block.type, (schema.blocks ?? []).map((bs) => bs.type));
      if (suggestion) suggestion = ` Did you mean ${JSON.stringify(suggestion)}?`;
      else if ((schema.attributes ?? []).some((a) => a.name === block.type)) {
        suggestion = ` Did you mean to define argument ${JSON.stringify(block.type)}? If so, use the equals sign to assign it a value.`;
      }
      diagnostics.push(
        errorDiag("Unsupported block type", `Blocks of type ${JSON.stringify(block.type)} are not expected here.${suggestion}`, block.typeRange),
      );
    }
  } else {
    const names = [...(schema.attributes ?? []).map((a) => a.name), ...(schema.blocks ?? []).map((bs) => bs.type)];
    for (const attr of collectDeepAttrs(remain.value, undefined, [])) {
      if (attr.name === "//" || remain.hiddenAttrs.has(attr.name)) continue;
      let suggestion = nameSuggestion(attr.name, names);
      if (suggestion) suggestion = ` Did you mean ${JSON.stringify(suggestion)}?`;
      diagnostics.push(
        errorDiag(
          "Extraneous JSON object property",
          `No argument or block type is named ${JSON.stringify(attr.name)}.${suggestion}`,
          attr.nameRange,
          rangeBetween(attr.nameRange, attr.value.range),
        ),
      );
    }
  }
  return { content, diagnostics };
}

/** Decodes what the schema asks for and returns the rest of the body for another decoder. */
export function partialContent(b: SyntaxBody, schema: BodySchema): { content: BodyContent; remain: SyntaxBody; diagnostics: Diagnostic[] } {
  return b.syntax === "native" ? nativePartialContent(b, schema) : jsonPartialContent(b, schema);
}

function nativePartialContent(b: NativeBody, schema: BodySchema): { content: BodyContent; remain: SyntaxBody; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const attributes = new Map<string, ContentAttribute>();
  const blocks: ContentBlock[] = [];
  const hiddenAttrs = new Set(b.hiddenAttrs);
  const hiddenBlocks = new Set(b.hiddenBlocks);
  const missing = missingItemRange(b);
  for (const as of schema.attributes ?? []) {
    const attr = b.body.attributes.find((a) => a.name === as.name);
    if (!attr || hiddenAttrs.has(as.name)) {
      if (as.required) {
        diagnostics.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(as.name)} is required, but no definition was found.`, missing));
      }
      continue;
    }
    hiddenAttrs.add(as.name);
    attributes.set(as.name, { name: attr.name, expr: attr.expr, range: attr.range, nameRange: attr.nameRange });
  }
  const wanted = new Map<string, BlockHeaderSchema>();
  for (const bs of schema.blocks ?? []) wanted.set(bs.type, bs);
  for (const block of b.body.blocks) {
    if (hiddenBlocks.has(block.type)) continue;
    const bs = wanted.get(block.type);
    if (!bs) continue;
    const labelNames = bs.labelNames ?? [];
    if (block.labels.length > labelNames.length) {
      const context = rangeBetween(block.typeRange, block.openBraceRange);
      const name = block.type;
      if (labelNames.length === 0) {
        diagnostics.push(errorDiag(`Extraneous label for ${name}`, `No labels are expected for ${name} blocks.`, block.labelRanges[0], context));
      } else {
        diagnostics.push(
          errorDiag(
            `Extraneous label for ${name}`,
            `Only ${labelNames.length} labels (${labelNames.join(", ")}) are expected for ${name} blocks.`,
            block.labelRanges[labelNames.length],
            context,
          ),
        );
      }
      continue;
    }
    if (block.labels.length < labelNames.length) {
      diagnostics.push(
        errorDiag(
          `Missing ${labelNames[block.labels.length] ?? "label"} for ${block.type}`,
          `All ${block.type} blocks must have ${labelNames.length} labels (${labelNames.join(", ")}).`,
          block.openBraceRange,
          rangeBetween(block.typeRange, block.openBraceRange),
        ),
      );
      continue;
    }
    const last = block.labelRanges[block.labelRanges.length - 1];
    blocks.push({
      type: block.type,
      labels: block.labels,
      body: nativeBody(block.body),
      defRange: last ? rangeBetween(block.typeRange, last) : block.typeRange,
      typeRange: block.typeRange,
      labelRanges: block.labelRanges,
    });
  }
  for (const bs of schema.blocks ?? []) hiddenBlocks.add(bs.type);
  return {
    content: { attributes, blocks, missingItemRange: missing },
    remain: { syntax: "native", body: b.body, hiddenAttrs, hiddenBlocks },
    diagnostics,
  };
}

function collectDeepAttrs(v: JSONValue, labelName: string | undefined, diags: Diagnostic[]): JSONObjectAttr[] {
  const notObject = (at: JSONValue) => {
    diags.push(
      errorDiag(
        "Incorrect JSON value type",
        labelName !== undefined
          ? `Either a JSON object or JSON array of objects is required here, to specify ${labelName} labels for this block.`
          : "A JSON object is required here, to define arguments and child blocks.",
        startRange(at),
      ),
    );
  };
  switch (v.kind) {
    case "JSONNull":
    case "JSONInvalid":
      return [];
    case "JSONObject":
      return v.attrs;
    case "JSONArray": {
      const out: JSONObjectAttr[] = [];
      for (const ev of v.values) {
        if (ev.kind === "JSONObject") out.push(...ev.attrs);
        else notObject(ev);
      }
      return out;
    }
    default:
      notObject(v);
      return [];
  }
}

function jsonPartialContent(b: JSONBody, schema: BodySchema): { content: BodyContent; remain: SyntaxBody; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const attrs = collectDeepAttrs(b.value, undefined, diagnostics);
  const used = new Set(b.hiddenAttrs);
  const attributes = new Map<string, ContentAttribute>();
  const blocks: ContentBlock[] = [];
  const attrSchemas = new Map((schema.attributes ?? []).map((a) => [a.name, a]));
  const blockSchemas = new Map((schema.blocks ?? []).map((bs) => [bs.type, bs]));
  for (const ja of attrs) {
    if (b.hiddenAttrs.has(ja.name)) continue;
    if (attrSchemas.has(ja.name)) {
      const existing = attributes.get(ja.name);
      const range = rangeBetween(ja.nameRange, ja.value.range);
      if (existing) {
        diagnostics.push(
          errorDiag("Duplicate argument", `The argument ${JSON.stringify(ja.name)} was already set at ${formatRange(existing.range)}.`, ja.nameRange, range),
        );
        continue;
      }
      attributes.set(ja.name, { name: ja.name, expr: { kind: "JSONExpr", value: ja.value, range: ja.value.range }, range, nameRange: ja.nameRange });
      used.add(ja.name);
    } else {
      const bs = blockSchemas.get(ja.name);
      if (!bs) continue;
      unpackBlock(ja.value, bs.type, ja.nameRange, bs.labelNames ?? [], [], [], blocks, diagnostics);
      used.add(ja.name);
    }
  }
  const missing = missingItemRange(b);
  for (const as of schema.attributes ?? []) {
    if (as.required && !attributes.has(as.name)) {
      diagnostics.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(as.name)} is required, but no definition was found.`, missing));
    }
  }
  return { content: { attributes, blocks, missingItemRange: missing }, remain: { syntax: "json", value: b.value, hiddenAttrs: used }, diagnostics };
}

function unpackBlock(
  v: JSONValue,
  typeName: string,
  typeRange: Range,
  labelsLeft: readonly string[],
  labelsUsed: string[],
  labelRanges: Range[],
  blocks: ContentBlock[],
  diags: Diagnostic[],
): void {
  const labelName = labelsLeft[0];
  if (labelName !== undefined) {
    const attrs = collectDeepAttrs(v, labelName, diags);
    if (attrs.length === 0) {
      diags.push(
        errorDiag(
          "Missing block label",
          `At least one object property is required, whose name represents the ${typeName} block's ${labelName}.`,
          startRange(v),
        ),
      );
      return;
    }
    for (const p of attrs) {
      unpackBlock(p.value, typeName, typeRange, labelsLeft.slice(1), [...labelsUsed, p.name], [...labelRanges, p.nameRange], blocks, diags);
    }
    return;
  }
  switch (v.kind) {
    case "JSONNull":
    case "JSONInvalid":
      return;
    case "JSONObject":
      blocks.push({ type: typeName, labels: labelsUsed, body: jsonBody(v), defRange: v.openRange, typeRange, labelRanges });
      return;
    case "JSONArray":
      for (const av of v.values) {
        blocks.push({ type: typeName, labels: labelsUsed, body: jsonBody(av), defRange: v.openRange, typeRange, labelRanges });
      }
      return;
    default:
      diags.push(
        errorDiag(
          "Incorrect JSON value type",
          `Either a JSON object or a JSON array is required, representing the contents of one or more ${JSON.stringify(typeName)} blocks.`,
          startRange(v),
        ),
      );
  }
}

/** Every attribute of a body that may contain only attributes (such as `locals`). */
export function justAttributes(b: SyntaxBody): { attributes: Map<string, ContentAttribute>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const attributes = new Map<string, ContentAttribute>();
  if (b.syntax === "native") {
    const first = b.body.blocks[0];
    if (first) diagnostics.push(errorDiag(`Unexpected ${JSON.stringify(first.type)} block`, "Blocks are not allowed here.", first.typeRange));
    for (const attr of b.body.attributes) {
      if (b.hiddenAttrs.has(attr.name)) continue;
      attributes.set(attr.name, { name: attr.name, expr: attr.expr, range: attr.range, nameRange: attr.nameRange });
    }
    return { attributes, diagnostics };
  }
  const v = b.value;
  if (v.kind !== "JSONObject") {
    if (v.kind !== "JSONInvalid") {
      diagnostics.push(errorDiag("Incorrect JSON value type", "A JSON object is required here, setting the arguments for this block.", startRange(v)));
    }
    return { attributes, diagnostics };
  }
  for (const ja of v.attrs) {
    if (ja.name === "//" || b.hiddenAttrs.has(ja.name)) continue;
    const range = rangeBetween(ja.nameRange, ja.value.range);
    const existing = attributes.get(ja.name);
    if (existing) {
      diagnostics.push(
        errorDiag("Duplicate attribute definition", `The argument ${JSON.stringify(ja.name)} was already set at ${formatRange(existing.range)}.`, ja.nameRange, range),
      );
      continue;
    }
    attributes.set(ja.name, { name: ja.name, expr: { kind: "JSONExpr", value: ja.value, range: ja.value.range }, range, nameRange: ja.nameRange });
  }
  return { attributes, diagnostics };
}
