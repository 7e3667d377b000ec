// Decoding a kept body against a schema known later (a backend's, for instance) with static
// evaluation (OpenTofu's StaticEvaluator.DecodeBlock over hcldec): the references of every
// argument the schema reads are checked and resolved first, then each argument is evaluated and
// converted to its attribute's type, and nested blocks are decoded by their nesting mode.
import { errorDiag, formatRange, hasErrors, type BodySchema, type Diagnostic, type Traverser } from "../../hcl/index.js";
import { evaluateAny, type EvalContext } from "../../lang/eval/index.js";
import {
  DynamicPseudoType,
  EmptyObject,
  formatPathError,
  listOf,
  listVal,
  listValEmpty,
  mapOf,
  mapVal,
  mapValEmpty,
  nullVal,
  objectOf,
  objectVal,
  setOf,
  setVal,
  setValEmpty,
  convert,
  type Type,
  type Value,
} from "../../values/index.js";
import { configBodyContent, configBodyPartialContent, exprVariables, type ConfigBody } from "../body.js";
import type { StaticEvaluator } from "./evaluator.js";
import type { StaticIdentifier } from "./identifier.js";
import { references } from "./references.js";

/** The part of a configschema block static decoding reads (providers' `Block` fits it). */
export interface StaticBlockSchema {
  readonly attributes: ReadonlyMap<string, StaticAttributeSchema>;
  readonly blockTypes: ReadonlyMap<string, StaticNestedBlockSchema>;
}

export interface StaticAttributeSchema {
  /** Absent means any type. */
  readonly type?: Type;
  readonly required: boolean;
}

export interface StaticNestedBlockSchema {
  readonly block: StaticBlockSchema;
  readonly nesting: "single" | "group" | "list" | "set" | "map";
  readonly minItems: number;
  readonly maxItems: number;
}

/** configschema's NoneRequired: the same schema with no attribute or block required. */
export function noneRequired(s: StaticBlockSchema): StaticBlockSchema {
  return {
    attributes: new Map([...s.attributes].map(([n, a]) => [n, { ...a, required: false }])),
    blockTypes: new Map([...s.blockTypes].map(([n, b]) => [n, { ...b, block: noneRequired(b.block), minItems: 0 }])),
  };
}

/** configschema's ImpliedType. */
export function impliedType(s: StaticBlockSchema): Type {
  const attrs = new Map<string, Type>();
  for (const [n, a] of s.attributes) attrs.set(n, a.type ?? DynamicPseudoType);
  for (const [n, b] of s.blockTypes) {
    const t = impliedType(b.block);
    switch (b.nesting) {
      case "single":
      case "group":
        attrs.set(n, t);
        break;
      case "list":
        attrs.set(n, listOf(t));
        break;
      case "set":
        attrs.set(n, setOf(t));
        break;
      case "map":
        attrs.set(n, mapOf(t));
        break;
    }
  }
  return attrs.size === 0 ? EmptyObject : objectOf(attrs);
}

function bodySchema(s: StaticBlockSchema): BodySchema {
  return {
    attributes: [...s.attributes].map(([name, a]) => ({ name, required: a.required })),
    blocks: [...s.blockTypes].map(([type, b]) => ({ type, labelNames: b.nesting === "map" ? ["key"] : [] })),
  };
}

/** hcldec.Variables: the traversals of every argument the schema reads, nested blocks included. */
export function schemaVariables(body: ConfigBody, s: StaticBlockSchema): Traverser[][] {
  const out: Traverser[][] = [];
  const { content } = configBodyPartialContent(body, bodySchema(noneRequired(s)));
  for (const a of content.attributes.values()) out.push(...exprVariables(a.expr));
  for (const b of content.blocks) {
    const nested = s.blockTypes.get(b.type);
    if (nested) out.push(...schemaVariables(b.body, nested.block));
  }
  return out;
}

/** StaticEvaluator.DecodeBlock. */
export function decodeStaticBlock(
  evaluator: StaticEvaluator,
  body: ConfigBody,
  schema: StaticBlockSchema,
  ident: StaticIdentifier,
): { value: Value; diagnostics: Diagnostic[] } {
  const ctx = staticBlockContext(evaluator, body, schema, ident);
  if (!ctx.ctx) return { value: nullVal(DynamicPseudoType), diagnostics: ctx.diagnostics };
  const diagnostics = [...ctx.diagnostics];
  const value = decodeBody(body, schema, ctx.ctx, diagnostics);
  return { value, diagnostics };
}

/** The references check and evaluation context DecodeBlock starts with; no context after errors. */
export function staticBlockContext(
  evaluator: StaticEvaluator,
  body: ConfigBody,
  schema: StaticBlockSchema,
  ident: StaticIdentifier,
): { ctx: EvalContext | undefined; diagnostics: Diagnostic[] } {
  const refs = references(schemaVariables(body, schema));
  const diagnostics = [...refs.diagnostics];
  if (hasErrors(diagnostics)) return { ctx: undefined, diagnostics };
  const c = evaluator.evalContext(ident, refs.refs);
  diagnostics.push(...c.diagnostics);
  if (hasErrors(diagnostics)) return { ctx: undefined, diagnostics };
  return { ctx: c.ctx, diagnostics };
}

function decodeBody(body: ConfigBody, s: StaticBlockSchema, ctx: EvalContext, diagnostics: Diagnostic[]): Value {
  const { content, diagnostics: contentDiags } = configBodyContent(body, bodySchema(s));
  diagnostics.push(...contentDiags);
  const out = new Map<string, Value>();
  for (const [name, a] of s.attributes) {
    const ty = a.type ?? DynamicPseudoType;
    const attr = content.attributes.get(name);
    if (!attr) {
      out.set(name, nullVal(ty));
      continue;
    }
    const r = evaluateAny(attr.expr, ctx);
    diagnostics.push(...r.diagnostics);
    const c = convert(r.value, ty);
    if (!c.ok) {
      diagnostics.push(
        errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: ${formatPathError(c.error)}.`, attr.expr.range),
      );
      out.set(name, nullVal(ty));
      continue;
    }
    out.set(name, c.value);
  }
  for (const [name, b] of s.blockTypes) {
    const blocks = content.blocks.filter((x) => x.type === name);
    const ty = impliedType(b.block);
    const values = blocks.map((x) => decodeBody(x.body, b.block, ctx, diagnostics));
    if (b.nesting === "single" || b.nesting === "group") {
      const first = blocks[0];
      const second = blocks[1];
      if (second && first) {
        diagnostics.push(errorDiag(`Duplicate ${name} block`, `Only one ${name} block is allowed. Another was defined at ${formatRange(first.defRange)}.`, second.defRange));
      }
      out.set(name, values[0] ?? (b.nesting === "group" ? decodeBody({ syntax: "union", bodies: [] }, b.block, ctx, diagnostics) : nullVal(ty)));
      continue;
    }
    if (blocks.length < b.minItems || (b.maxItems > 0 && blocks.length > b.maxItems)) {
      const rng = blocks[blocks.length - 1]?.defRange ?? content.missingItemRange;
      diagnostics.push(
        errorDiag(
          blocks.length < b.minItems ? `Insufficient ${name} blocks` : `Too many ${name} blocks`,
          blocks.length < b.minItems ? `At least ${b.minItems} ${JSON.stringify(name)} blocks are required.` : `No more than ${b.maxItems} ${JSON.stringify(name)} blocks are allowed`,
          rng,
        ),
      );
    }
    switch (b.nesting) {
      case "list":
        out.set(name, values.length > 0 ? listVal(values) : listValEmpty(ty));
        break;
      case "set":
        out.set(name, values.length > 0 ? setVal(values) : setValEmpty(ty));
        break;
      case "map": {
        const m = new Map<string, Value>();
        blocks.forEach((x, i) => m.set(x.labels[0] ?? "", values[i] as Value));
        out.set(name, m.size > 0 ? mapVal(m) : mapValEmpty(ty));
        break;
      }
    }
  }
  return objectVal(out);
}
