// Bodies as the configuration keeps them, and the static decoding helpers every block decoder
// uses (gohcl.DecodeExpression with no context, HCL's ValidIdentifier, Variables, and OpenTofu's
// compat shim for quoted references).
//
// A body is kept undecoded (the provider or resource schema decodes it later), but may be a
// combination of source bodies:
//   - "override": an override file's body laid over a primary body (OpenTofu's MergeBodies in
//     module_merge_body.go): the override's arguments replace the base's, and any nested block
//     type present in the override replaces all of the base's blocks of that type;
//   - "union": a body together with its `_` meta-argument escaping block (HCL's MergeBodies):
//     arguments from all parts, each defined at most once.
import {
  bodyContent,
  errorDiag,
  formatRange,
  justAttributes,
  parseExpression,
  partialContent,
  absTraversalForExpr,
  type AnyExpression,
  type BodyContent,
  type BodySchema,
  type ContentAttribute,
  type ContentBlock,
  type Diagnostic,
  type Expression,
  type Range,
  type SyntaxBody,
  type Traverser,
} from "../hcl/index.js";
import { EvalContext, anyExpressionVariables, evaluateAny, startRange } from "../lang/eval/index.js";
import { BoolType, StringType, convert, formatPathError, friendlyName, type Type, type Value } from "../values/index.js";

export interface OverrideBody {
  syntax: "override";
  base: ConfigBody;
  override: ConfigBody;
}

export interface UnionBody {
  syntax: "union";
  bodies: ConfigBody[];
}

/** A body kept for later decoding against a schema (provider, resource type, backend, ...). */
export type ConfigBody = SyntaxBody | OverrideBody | UnionBody;

export function overrideBody(base: ConfigBody, override: ConfigBody): ConfigBody {
  return { syntax: "override", base, override };
}

export function unionBody(bodies: ConfigBody[]): ConfigBody {
  return { syntax: "union", bodies };
}

function withoutRequired(schema: BodySchema): BodySchema {
  return { attributes: (schema.attributes ?? []).map((a) => ({ name: a.name })), blocks: schema.blocks ?? [] };
}

/** The body's content for the schema; anything else in the body is an error. */
export function configBodyContent(b: ConfigBody, schema: BodySchema): { content: BodyContent; diagnostics: Diagnostic[] } {
  switch (b.syntax) {
    case "native":
    case "json":
      return bodyContent(b, schema);
    case "override": {
      const base = configBodyContent(b.base, schema);
      const over = configBodyContent(b.override, withoutRequired(schema));
      return { content: overlayContent(base.content, over.content), diagnostics: [...base.diagnostics, ...over.diagnostics] };
    }
    case "union":
      return unionContent(b.bodies, schema, false);
  }
}

/** The body's content for the schema, and the rest of the body for another decoder. */
export function configBodyPartialContent(b: ConfigBody, schema: BodySchema): { content: BodyContent; remain: ConfigBody; diagnostics: Diagnostic[] } {
  switch (b.syntax) {
    case "native":
    case "json":
      return partialContent(b, schema);
    case "override": {
      const base = configBodyPartialContent(b.base, schema);
      const over = configBodyPartialContent(b.override, withoutRequired(schema));
      return {
        content: overlayContent(base.content, over.content),
        remain: overrideBody(base.remain, over.remain),
        diagnostics: [...base.diagnostics, ...over.diagnostics],
      };
    }
    case "union": {
      const r = unionContent(b.bodies, schema, true);
      return { content: r.content, remain: unionBody(r.remains), diagnostics: r.diagnostics };
    }
  }
}

/** Every argument of a body that may hold only arguments. */
export function configBodyJustAttributes(b: ConfigBody): { attributes: Map<string, ContentAttribute>; diagnostics: Diagnostic[] } {
  switch (b.syntax) {
    case "native":
    case "json":
      return justAttributes(b);
    case "override": {
      const base = configBodyJustAttributes(b.base);
      const over = configBodyJustAttributes(b.override);
      for (const [name, a] of over.attributes) base.attributes.set(name, a);
      return { attributes: base.attributes, diagnostics: [...base.diagnostics, ...over.diagnostics] };
    }
    case "union": {
      const attributes = new Map<string, ContentAttribute>();
      const diagnostics: Diagnostic[] = [];
      for (const part of b.bodies) {
        const r = configBodyJustAttributes(part);
        diagnostics.push(...r.diagnostics);
        for (const [name, a] of r.attributes) {
          const existing = attributes.get(name);
          if (existing) {
            diagnostics.push(duplicateArgument(name, existing, a));
            continue;
          }
          attributes.set(name, a);
        }
      }
      return { attributes, diagnostics };
    }
  }
}

/** The first range of a body, for diagnostics about a body as a whole. */
/** HCL's placeholder for the missing item of an empty body (hcl.EmptyBody, merging no bodies). */
const EMPTY_BODY_RANGE: Range = { filename: "<empty>", start: { line: 0, column: 0, byte: 0 }, end: { line: 0, column: 0, byte: 0 } };

export function configBodyMissingItemRange(b: ConfigBody): Range | undefined {
  switch (b.syntax) {
    case "native":
      return { filename: b.body.range.filename, start: b.body.range.start, end: b.body.range.start };
    case "json":
      return b.value.range;
    case "override":
      return configBodyMissingItemRange(b.base);
    case "union":
      return b.bodies[0] ? configBodyMissingItemRange(b.bodies[0]) : EMPTY_BODY_RANGE;
  }
}

function overlayContent(base: BodyContent, over: BodyContent): BodyContent {
  const attributes = new Map(base.attributes);
  for (const [name, a] of over.attributes) attributes.set(name, a);
  const overridden = new Set(over.blocks.map((b) => b.type));
  const blocks: ContentBlock[] = base.blocks.filter((b) => !overridden.has(b.type));
  blocks.push(...over.blocks);
  return { attributes, blocks, missingItemRange: base.missingItemRange };
}

function duplicateArgument(name: string, existing: ContentAttribute, a: ContentAttribute): Diagnostic {
  return errorDiag("Duplicate argument", `Argument ${JSON.stringify(name)} was already set at ${formatRange(existing.nameRange)}`, a.nameRange);
}

function unionContent(bodies: ConfigBody[], schema: BodySchema, partial: boolean): { content: BodyContent; remains: ConfigBody[]; diagnostics: Diagnostic[] } {
  const merged = withoutRequired(schema);
  const attributes = new Map<string, ContentAttribute>();
  const blocks: ContentBlock[] = [];
  const remains: ConfigBody[] = [];
  const diagnostics: Diagnostic[] = [];
  let missing: Range | undefined;
  for (const part of bodies) {
    let content: BodyContent;
    if (partial) {
      const r = configBodyPartialContent(part, merged);
      content = r.content;
      remains.push(r.remain);
      diagnostics.push(...r.diagnostics);
    } else {
      const r = configBodyContent(part, merged);
      content = r.content;
      diagnostics.push(...r.diagnostics);
    }
    missing ??= content.missingItemRange;
    for (const [name, a] of content.attributes) {
      const existing = attributes.get(name);
      if (existing) {
        diagnostics.push(duplicateArgument(name, existing, a));
        continue;
      }
      attributes.set(name, a);
    }
    blocks.push(...content.blocks);
  }
  const missingItemRange: Range = missing ?? EMPTY_BODY_RANGE;
  for (const as of schema.attributes ?? []) {
    if (as.required && !attributes.has(as.name)) {
      diagnostics.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(as.name)} is required, but was not set.`, missingItemRange));
    }
  }
  return { content: { attributes, blocks, missingItemRange }, remains, diagnostics };
}

// ---------------------------------------------------------------------------------------------
// Static decoding (gohcl.DecodeExpression with a nil EvalContext).

const NO_CONTEXT = new EvalContext(undefined, undefined);

/** HCL's StartRange for an expression of either syntax. */
export function exprStartRange(e: AnyExpression): Range {
  return e.kind === "JSONExpr" ? e.range : startRange(e);
}

/** The value of an expression that may use no variables and no functions. */
export function staticValue(e: AnyExpression): { value: Value; diagnostics: Diagnostic[] } {
  return evaluateAny(e, NO_CONTEXT);
}

function decodeAs(e: AnyExpression, type: Type): { value: Value | undefined; diagnostics: Diagnostic[] } {
  const r = staticValue(e);
  if (r.diagnostics.some((d) => d.severity === "error")) return { value: undefined, diagnostics: r.diagnostics };
  const unsuitable = (message: string) => ({
    value: undefined,
    diagnostics: [...r.diagnostics, errorDiag("Unsuitable value type", `Unsuitable value: ${message}`, exprStartRange(e), e.range)],
  });
  const c = convert(r.value, type);
  if (!c.ok) return unsuitable(formatPathError(c.error));
  if (c.value.kind === "null") return unsuitable("null value is not allowed");
  if (c.value.kind === "unknown") return unsuitable("value must be known");
  return { value: c.value, diagnostics: r.diagnostics };
}

/** Decodes a static string argument (`description = "..."`). */
export function decodeString(e: AnyExpression): { value: string | undefined; diagnostics: Diagnostic[] } {
  const r = decodeAs(e, StringType);
  return { value: r.value?.kind === "string" ? r.value.value : undefined, diagnostics: r.diagnostics };
}

/** Decodes a static bool argument (`sensitive = true`). */
export function decodeBool(e: AnyExpression): { value: boolean | undefined; diagnostics: Diagnostic[] } {
  const r = decodeAs(e, BoolType);
  return { value: r.value?.kind === "bool" ? r.value.value : undefined, diagnostics: r.diagnostics };
}

const IDENT = /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u;

/** HCL's ValidIdentifier: a letter or underscore, then letters, digits, underscores and dashes. */
export function validIdentifier(s: string): boolean {
  return IDENT.test(s);
}

/** A consistent detail message for all "not a valid identifier" diagnostics. */
export const BAD_IDENTIFIER_DETAIL =
  "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

/** Whether an expression is a native-syntax quoted string (a template), as in the 0.11 language. */
export function exprIsNativeQuotedString(e: AnyExpression): boolean {
  return e.kind === "Template";
}

/**
 * OpenTofu's shimTraversalInString: a native quoted string holding a reference
 * (`depends_on = ["aws_instance.a"]`, `when = "destroy"`) is read as the reference itself, with
 * a deprecation warning on the quoted string; `wantKeyword` words it for a keyword. JSON strings
 * are left alone: references in strings are that syntax's only form.
 */
export function shimTraversalInString(e: AnyExpression, wantKeyword = false): { expr: AnyExpression; diagnostics: Diagnostic[] } {
  let x: AnyExpression = e;
  if (x.kind === "ObjectKey") x = x.wrapped;
  if (x.kind !== "Template") return { expr: x, diagnostics: [] };
  const v = staticValue(x);
  if (v.diagnostics.some((d) => d.severity === "error") || v.value.kind !== "string") return { expr: x, diagnostics: [] };
  const start = x.range.start;
  const parsed = parseExpression(v.value.value, x.range.filename, { line: start.line, column: start.column + 1, byte: start.byte + 1 });
  const t = absTraversalForExpr(parsed.result);
  const warning = wantKeyword ? quotedKeywordWarning(x.range) : quotedReferenceWarning(x.range);
  if (parsed.diagnostics.length > 0 || t.diagnostics.length > 0) {
    return { expr: x, diagnostics: [...parsed.diagnostics, ...t.diagnostics, warning] };
  }
  return { expr: { kind: "ScopeTraversal", traversal: t.traversal, range: x.range }, diagnostics: [warning] };
}

function quotedReferenceWarning(subject: Range): Diagnostic {
  return {
    severity: "warning",
    summary: "Quoted references are deprecated",
    detail:
      "In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.",
    subject,
  };
}

function quotedKeywordWarning(subject: Range): Diagnostic {
  return {
    severity: "warning",
    summary: "Quoted keywords are deprecated",
    detail:
      "In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.",
    subject,
  };
}

/** HCL's RelTraversalForExpr: like absTraversalForExpr, with the root step made an attribute step. */
export function relTraversalForExpr(e: AnyExpression): { traversal: Traverser[]; diagnostics: Diagnostic[] } {
  const r = absTraversalForExpr(e);
  const first = r.traversal[0];
  if (!first || first.kind !== "Root") return r;
  return { traversal: [{ kind: "Attr", name: first.name, range: first.range }, ...r.traversal.slice(1)], diagnostics: r.diagnostics };
}

/** The range a traversal covers. */
export function traversalRange(t: readonly Traverser[]): Range | undefined {
  const first = t[0];
  const last = t[t.length - 1];
  if (!first || !last) return undefined;
  return { filename: first.range.filename, start: first.range.start, end: last.range.end };
}

/** The traversals an expression of either syntax reads from its scope (HCL's Variables). */
export const exprVariables = anyExpressionVariables;

/** A JSON string expression re-read as a native expression (hcl2shim.ConvertJSONExpressionToHCL). */
export function jsonExprAsNative(e: AnyExpression): { expr: Expression | undefined; diagnostics: Diagnostic[] } {
  if (e.kind !== "JSONExpr") return { expr: e, diagnostics: [] };
  const v = staticValue(e);
  if (v.diagnostics.some((d) => d.severity === "error")) return { expr: undefined, diagnostics: v.diagnostics };
  if (v.value.kind !== "string") {
    const ty = friendlyName(v.value.type);
    return {
      expr: undefined,
      diagnostics: [errorDiag("Expected string expression", `This value must be a string, but got ${ty}.`, e.range)],
    };
  }
  const start = e.range.start;
  const r = parseExpression(v.value.value, e.range.filename, start);
  if (r.diagnostics.some((d) => d.severity === "error")) return { expr: undefined, diagnostics: r.diagnostics };
  return { expr: r.result, diagnostics: r.diagnostics };
}
