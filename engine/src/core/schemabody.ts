// Configuration bodies against provider schemas (OpenTofu's hcldec over configschema's
// DecoderSpec): the references a body makes (`blockReferences`), decoding it to an object value
// in an evaluation context (`decodeBody`), and the sensitive marks a schema puts on a value
// (`schemaMarks`).
import { errorDiag, formatRange, type BodySchema, type Diagnostic, type Traverser } from "../hcl/index.js";
import { configBodyContent, configBodyPartialContent, exprVariables, unionBody, type ConfigBody } from "../configs/index.js";
import { evaluateAny, type EvalContext } from "../lang/eval/index.js";
import { attributeImpliedType, nestedBlockImpliedType, type Block } from "../providers/index.js";
import {
  SENSITIVE,
  convert,
  formatPathError,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  markWithPaths,
  nullVal,
  numberIntVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  NO_MARKS,
  unknownVal,
  withMarks,
  type Marks,
  type Path,
  type PathValueMarks,
  type Value,
} from "../values/index.js";
import { DYNAMIC_BLOCK_HEADER, dynamicBlockReferences, expandBlocks } from "./dynblock.js";

function bodySchema(b: Block): BodySchema {
  return {
    attributes: [...b.attributes].map(([name, a]) => ({ name, required: a.required })),
    blocks: [...b.blockTypes].map(([type, nb]) => ({ type, labelNames: nb.nesting === "map" ? ["key"] : [] })),
  };
}

/** hcldec.Variables: every traversal the arguments the schema reads would evaluate. */
export function blockReferences(body: ConfigBody, b: Block): Traverser[][] {
  const out: Traverser[][] = [];
  const { content } = configBodyPartialContent(body, { attributes: [...b.attributes.keys()].map((name) => ({ name })), blocks: [...(bodySchema(b).blocks ?? []), DYNAMIC_BLOCK_HEADER] });
  for (const a of content.attributes.values()) out.push(...exprVariables(a.expr));
  for (const blk of content.blocks) {
    const nb = b.blockTypes.get(blk.type === "dynamic" ? (blk.labels[0] ?? "") : blk.type);
    if (!nb) continue;
    if (blk.type === "dynamic") out.push(...dynamicBlockReferences(blk, nb.nesting === "map", (inner) => blockReferences(inner, nb.block)));
    else out.push(...blockReferences(blk.body, nb.block));
  }
  return out;
}

/** Decodes the body to a value of the block's implied type (hcldec.Decode with the block's spec). */
export function decodeBody(body: ConfigBody, b: Block, ctx: EvalContext): { value: Value; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const value = decode(body, b, ctx, diagnostics);
  return { value, diagnostics };
}

function decode(body: ConfigBody, b: Block, ctx: EvalContext, diagnostics: Diagnostic[], marks: Marks = NO_MARKS): Value {
  const schema = bodySchema(b);
  const { content, diagnostics: contentDiags } = configBodyContent(body, { ...schema, blocks: [...(schema.blocks ?? []), DYNAMIC_BLOCK_HEADER] });
  diagnostics.push(...contentDiags);
  const expanded = expandBlocks(content.blocks, schema.blocks ?? [], ctx, marks);
  diagnostics.push(...expanded.diagnostics);
  const out = new Map<string, Value>();
  for (const [name, a] of b.attributes) {
    const ty = attributeImpliedType(a);
    const at = content.attributes.get(name);
    if (!at) {
      out.set(name, nullVal(ty));
      continue;
    }
    const r = evaluateAny(at.expr, ctx);
    diagnostics.push(...r.diagnostics);
    const c = convert(r.value, ty);
    if (!c.ok) {
      diagnostics.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: ${formatPathError(c.error)}.`, at.expr.range));
      out.set(name, nullVal(ty));
      continue;
    }
    out.set(name, marks.size > 0 ? withMarks(c.value, marks) : c.value);
  }
  for (const [name, nb] of b.blockTypes) {
    if (out.has(name)) continue;
    const ty = nestedBlockImpliedType(nb);
    const expandedOfType = expanded.blocks.filter((x) => x.block.type === name);
    const blocks = expandedOfType.map((x) => x.block);
    const values = expandedOfType.map((x) => decode(x.block.body, nb.block, x.ctx, diagnostics, x.marks));
    // A dynamic block with an unknown for_each: how many blocks there will be is not known yet.
    if (expandedOfType.some((x) => x.unknown)) {
      out.set(name, unknownVal(ty));
      continue;
    }
    if (nb.nesting === "single" || nb.nesting === "group") {
      const [first, second] = blocks;
      if (first && second) {
        diagnostics.push(errorDiag(`Duplicate ${name} block`, `Only one ${name} block is allowed. Another was defined at ${formatRange(first.defRange)}.`, second.defRange));
      }
      out.set(name, values[0] ?? (nb.nesting === "group" ? decode(unionBody([]), nb.block, ctx, diagnostics) : nullVal(ty)));
      continue;
    }
    if (blocks.length < nb.minItems || (nb.maxItems > 0 && blocks.length > nb.maxItems)) {
      const rng = blocks[blocks.length - 1]?.defRange ?? content.missingItemRange;
      const few = blocks.length < nb.minItems;
      diagnostics.push(
        errorDiag(
          few ? `Insufficient ${name} blocks` : `Too many ${name} blocks`,
          few ? `At least ${nb.minItems} ${JSON.stringify(name)} blocks are required.` : `No more than ${nb.maxItems} ${JSON.stringify(name)} blocks are allowed`,
          rng,
        ),
      );
    }
    switch (nb.nesting) {
      case "list":
        if (ty.kind === "list") out.set(name, values.length > 0 ? listVal(values) : listValEmpty(ty.element));
        else out.set(name, tupleVal(values));
        break;
      case "set":
        out.set(name, values.length > 0 ? setVal(values) : ty.kind === "set" ? setValEmpty(ty.element) : nullVal(ty));
        break;
      case "map": {
        const m = new Map<string, Value>();
        blocks.forEach((x, i) => m.set(x.labels[0] ?? "", values[i] as Value));
        if (ty.kind === "map") out.set(name, m.size > 0 ? mapVal(m) : mapValEmpty(ty.element));
        else out.set(name, objectVal(m));
        break;
      }
    }
  }
  return objectVal(out);
}

/** Paths of the value that the schema declares sensitive (configschema's ValueMarks). */
export function schemaMarks(b: Block, v: Value, path: Path = []): PathValueMarks[] {
  const out: PathValueMarks[] = [];
  if (v.kind !== "object") return out;
  const marks = new Set([SENSITIVE]);
  for (const [name, a] of b.attributes) {
    if (a.sensitive && v.attrs.has(name)) out.push({ path: [...path, { kind: "attr", name }], marks });
  }
  for (const [name, nb] of b.blockTypes) {
    const bv = v.attrs.get(name);
    if (!bv || bv.kind === "null" || bv.kind === "unknown") continue;
    const p: Path = [...path, { kind: "attr", name }];
    switch (bv.kind) {
      case "object":
        if (nb.nesting === "single" || nb.nesting === "group") out.push(...schemaMarks(nb.block, bv, p));
        else for (const [k, e] of bv.attrs) out.push(...schemaMarks(nb.block, e, [...p, { kind: "index", key: stringVal(k) }]));
        break;
      case "map":
        for (const [k, e] of bv.attrs) out.push(...schemaMarks(nb.block, e, [...p, { kind: "index", key: stringVal(k) }]));
        break;
      case "list":
      case "tuple":
        bv.elements.forEach((e, i) => out.push(...schemaMarks(nb.block, e, [...p, { kind: "index", key: numberIntVal(i) }])));
        break;
      default:
        // Set elements cannot carry marks; cty moves them to the set itself.
        if (nb.block.attributes.size > 0 && [...nb.block.attributes.values()].some((a) => a.sensitive)) out.push({ path: p, marks });
        break;
    }
  }
  return out;
}

/** The value with the schema's sensitive attributes marked. */
export function markSensitiveBySchema(b: Block, v: Value): Value {
  const m = schemaMarks(b, v);
  return m.length === 0 ? v : markWithPaths(v, m);
}
