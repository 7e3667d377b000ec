// `dynamic` blocks (HCL's ext/dynblock, which OpenTofu applies to every provider-schema body):
// each `dynamic "x" { for_each = …, iterator = …, labels = […], content { … } }` stands for one
// `x` block per element of for_each, whose content sees the iterator as `{key, value}`. An unknown
// for_each makes the whole block type's value unknown; a marked for_each marks every value
// produced inside (dynblock's exprWrap resultMarks).
import {
  absTraversalForExpr,
  errorDiag,
  exprList,
  type BlockHeaderSchema,
  type BodySchema,
  type ContentBlock,
  type Diagnostic,
  type Traverser,
} from "../hcl/index.js";
import { configBodyContent, exprVariables, type ConfigBody } from "../configs/index.js";
import { evaluateAny, type EvalContext } from "../lang/eval/index.js";
import {
  DynamicVal,
  NO_MARKS,
  StringType,
  convert,
  elementPairs,
  formatPathError,
  friendlyName,
  objectVal,
  unmark,
  type Marks,
  type Value,
} from "../values/index.js";

export const DYNAMIC_BLOCK_HEADER: BlockHeaderSchema = { type: "dynamic", labelNames: ["type"] };

/** A block after expansion: where its body is evaluated, and whether it stands for unknown blocks. */
export interface ExpandedBlock {
  readonly block: ContentBlock;
  readonly ctx: EvalContext;
  /** From a dynamic block whose for_each is unknown: the block type's whole value is unknown. */
  readonly unknown: boolean;
  /** Marks of the for_each value, put on every value the block produces. */
  readonly marks: Marks;
}

function dynamicSchema(withLabels: boolean): BodySchema {
  return {
    attributes: [{ name: "for_each", required: true }, { name: "iterator" }, ...(withLabels ? [{ name: "labels" }] : [])],
    blocks: [{ type: "content" }],
  };
}

/**
 * The blocks of a body's content with its `dynamic` blocks expanded in place (source order kept).
 * `schemaBlocks` are the block types the body may contain.
 */
export function expandBlocks(
  blocks: readonly ContentBlock[],
  schemaBlocks: readonly BlockHeaderSchema[],
  ctx: EvalContext,
  marks: Marks = NO_MARKS,
): { blocks: ExpandedBlock[]; diagnostics: Diagnostic[] } {
  const out: ExpandedBlock[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const blk of blocks) {
    if (blk.type !== "dynamic") {
      out.push({ block: blk, ctx, unknown: false, marks });
      continue;
    }
    const realType = blk.labels[0] ?? "";
    const header = schemaBlocks.find((s) => s.type === realType);
    if (!header) {
      diagnostics.push(errorDiag("Unsupported block type", `Blocks of type ${JSON.stringify(realType)} are not expected here.`, blk.labelRanges[0] ?? blk.defRange));
      continue;
    }
    const labelNames = header.labelNames ?? [];
    const { content, diagnostics: specDiags } = configBodyContent(blk.body, dynamicSchema(labelNames.length > 0));
    diagnostics.push(...specDiags);
    if (specDiags.some((d) => d.severity === "error")) continue;

    const eachAttr = content.attributes.get("for_each");
    if (!eachAttr) continue;
    const each = evaluateAny(eachAttr.expr, ctx);
    diagnostics.push(...each.diagnostics);
    if (each.diagnostics.some((d) => d.severity === "error")) continue;
    const [eachVal, eachMarks] = unmark(each.value);
    const iterable = ["list", "set", "tuple", "map", "object"].includes(eachVal.type.kind);
    if (!iterable && eachVal.type.kind !== "dynamic") {
      diagnostics.push(errorDiag("Invalid dynamic for_each value", `Cannot use a ${friendlyName(eachVal.type)} value in for_each. An iterable collection is required.`, eachAttr.expr.range));
      continue;
    }
    if (eachVal.kind === "null") {
      diagnostics.push(errorDiag("Invalid dynamic for_each value", "Cannot use a null value in for_each.", eachAttr.expr.range));
      continue;
    }

    let iterator = realType;
    const itAttr = content.attributes.get("iterator");
    if (itAttr) {
      const t = absTraversalForExpr(itAttr.expr);
      diagnostics.push(...t.diagnostics);
      if (t.diagnostics.some((d) => d.severity === "error")) continue;
      const [root, ...rest] = t.traversal;
      if (!root || root.kind !== "Root" || rest.length > 0) {
        diagnostics.push(errorDiag("Invalid dynamic iterator name", "Dynamic iterator must be a single variable name.", itAttr.expr.range));
        continue;
      }
      iterator = root.name;
    }

    let labelExprs: ReturnType<typeof exprList>["items"] = [];
    const labelsAttr = content.attributes.get("labels");
    if (labelsAttr) {
      const l = exprList(labelsAttr.expr);
      diagnostics.push(...l.diagnostics);
      if (l.diagnostics.some((d) => d.severity === "error")) continue;
      labelExprs = l.items;
      const extra = labelExprs[labelNames.length];
      if (extra) {
        diagnostics.push(errorDiag("Extraneous dynamic block label", `Blocks of type ${JSON.stringify(realType)} require ${labelNames.length} label(s).`, extra.range));
        continue;
      }
      if (labelExprs.length < labelNames.length) {
        diagnostics.push(errorDiag("Insufficient dynamic block labels", `Blocks of type ${JSON.stringify(realType)} require ${labelNames.length} label(s).`, labelsAttr.expr.range));
        continue;
      }
    }

    const contentBlocks = content.blocks;
    const [first, second] = contentBlocks;
    if (!first) {
      diagnostics.push(
        errorDiag("Missing dynamic content block", 'A dynamic block must have a nested block of type "content" to describe the body of each generated block.', content.missingItemRange),
      );
      continue;
    }
    if (second) {
      diagnostics.push(errorDiag("Extraneous dynamic content block", "Only one nested content block is allowed for each dynamic block.", second.defRange));
      continue;
    }

    const allMarks: Marks = eachMarks.size === 0 ? marks : new Set([...marks, ...eachMarks]);
    const pairs: Array<[Value, Value]> = eachVal.kind === "unknown" || eachVal.type.kind === "dynamic" ? [[DynamicVal, DynamicVal]] : elementPairs(eachVal);
    const unknown = eachVal.kind === "unknown" || eachVal.type.kind === "dynamic";
    for (const [key, value] of pairs) {
      const iterCtx = ctx.child(new Map([[iterator, objectVal(new Map([["key", key], ["value", value]]))]]));
      const labels: string[] = [];
      let ok = true;
      for (const le of labelExprs) {
        const r = evaluateAny(le, iterCtx);
        diagnostics.push(...r.diagnostics);
        if (r.diagnostics.some((d) => d.severity === "error")) {
          ok = false;
          break;
        }
        const c = convert(r.value, StringType);
        const bad = (detail: string) => {
          diagnostics.push(errorDiag("Invalid dynamic block label", detail, le.range));
          ok = false;
        };
        if (!c.ok) bad(`Cannot use this value as a dynamic block label: ${formatPathError(c.error)}.`);
        else if (c.value.kind === "null") bad("Cannot use a null value as a dynamic block label.");
        else if (c.value.kind === "unknown") bad("This value is not yet known. Dynamic block labels must be immediately-known values.");
        else if (c.value.kind === "string") labels.push(c.value.value);
        if (!ok) break;
      }
      if (!ok) continue;
      const generated: ContentBlock = {
        type: realType,
        labels,
        body: first.body,
        defRange: blk.defRange,
        typeRange: blk.labelRanges[0] ?? blk.typeRange,
        labelRanges: labelExprs.map((e) => e.range),
      };
      out.push({ block: generated, ctx: iterCtx, unknown, marks: allMarks });
    }
  }
  return { blocks: out, diagnostics };
}

/**
 * The traversals a dynamic block reads (dynblock's VariablesHCLDec): its for_each and labels, and
 * what `inner` finds in its content except references to its own iterator.
 */
export function dynamicBlockReferences(blk: ContentBlock, withLabels: boolean, inner: (body: ConfigBody) => Traverser[][]): Traverser[][] {
  const out: Traverser[][] = [];
  const { content } = configBodyContent(blk.body, dynamicSchema(withLabels));
  const each = content.attributes.get("for_each");
  if (each) out.push(...exprVariables(each.expr));
  let iterator = blk.labels[0] ?? "";
  const itAttr = content.attributes.get("iterator");
  if (itAttr) {
    const root = absTraversalForExpr(itAttr.expr).traversal[0];
    if (root && root.kind === "Root") iterator = root.name;
  }
  const own = (t: Traverser[]) => {
    const root = t[0];
    return root !== undefined && root.kind === "Root" && root.name === iterator;
  };
  const labels = content.attributes.get("labels");
  if (labels) out.push(...exprVariables(labels.expr).filter((t) => !own(t)));
  for (const c of content.blocks) out.push(...inner(c.body).filter((t) => !own(t)));
  return out;
}
