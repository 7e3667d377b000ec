// Diagnostics helpers for core: provider diagnostics placed in the configuration (OpenTofu's
// tfdiags InConfigBody with ElaborateFromConfigBody) and a few shared texts.
//
// A provider diagnostic with an attribute path is placed on that argument of the body the
// provider was given: intermediate path steps walk into nested blocks (an index step picks the
// n-th block, or the block labelled with a string key), and the last step names an argument
// whose expression is the subject (for an index into a static list or map, that element). When
// the walk cannot go on (the path names an argument that is not set, a block, or something the
// body does not spell out) the subject is the "missing item" range of the deepest body reached.
// Diagnostics without a path are about the whole body and get its missing item range too. Each
// also names the instance the body was evaluated for (the "with <address>," line).
import { configBodyMissingItemRange, configBodyPartialContent, unionBody, type ConfigBody } from "../configs/index.js";
import { exprList, exprMap, missingItemRange, type AnyExpression, type ContentAttribute, type Diagnostic, type Range } from "../hcl/index.js";
import { EvalContext, evaluateAny, startRange } from "../lang/eval/index.js";
import type { ProviderDiagnostic } from "../providers/index.js";
import { formatPath, type Path, type PathStep, type Value } from "../values/index.js";

/**
 * Provider diagnostics as core diagnostics, where there is no configuration body to place them
 * in (orphans, destroys, imports without a block): the given subject, and an attribute path
 * named in an otherwise empty detail.
 */
export function providerDiagnostics(diags: readonly ProviderDiagnostic[], subject: Range | undefined): Diagnostic[] {
  return diags.map((d) => {
    const out: Diagnostic = { severity: d.severity, summary: d.summary, detail: d.detail };
    if (d.attribute && d.attribute.length > 0 && !d.detail.includes(formatPath(d.attribute))) {
      out.detail = d.detail === "" ? `(at ${formatPath(d.attribute)})` : d.detail;
    }
    const where = d.subject ?? subject;
    if (where) out.subject = where;
    return out;
  });
}

/**
 * Provider diagnostics about a configuration body (the resource, data source or provider block
 * whose arguments the provider was given), each placed as `InConfigBody` places it and given
 * `address` — the instance the body was evaluated for — unless it names one already. Without a
 * body this is `providerDiagnostics` with no subject and no address (OpenTofu elaborates only
 * where there is configuration).
 */
export function providerDiagnosticsInBody(diags: readonly ProviderDiagnostic[], body: ConfigBody | undefined, address?: string): Diagnostic[] {
  if (!body) return providerDiagnostics(diags, undefined);
  return diags.map((d) => {
    const out: Diagnostic = { severity: d.severity, summary: d.summary, detail: d.detail };
    const addr = d.address ?? address;
    if (addr) out.address = addr;
    const subject = d.subject ?? (d.attribute && d.attribute.length > 0 ? attributeRange(body, d.attribute) : bodyMissingItemRange(body));
    if (subject) out.subject = subject;
    return out;
  });
}

/**
 * The body of a provider configuration that has no block (hcl.EmptyBody, or merging no bodies):
 * its missing item range is the placeholder "<empty>" range OpenTofu reports for such providers
 * ("on <empty> line 0:").
 */
export const EMPTY_CONFIG_BODY: ConfigBody = unionBody([]);

/** The source range a path names within a body (ElaborateFromConfigBody). */
function attributeRange(body: ConfigBody, path: Path): Range | undefined {
  const first = path[0];
  // Instances of the block itself are told apart elsewhere: an index first says nothing here.
  if (!first || first.kind === "index") return bodyMissingItemRange(body);
  let final: PathStep = path[path.length - 1] ?? first;
  let walk = path;
  let index: Value | undefined;
  if (final.kind === "index") {
    index = final.key;
    walk = path.slice(0, -1);
    final = walk[walk.length - 1] ?? first;
  }
  const inner = walk.length > 1 ? descend(body, walk) : body;
  const fallback = bodyMissingItemRange(inner);
  if (final.kind !== "attr") return fallback;
  const { content, diagnostics } = configBodyPartialContent(inner, { attributes: [{ name: final.name, required: true }] });
  if (diagnostics.some((x) => x.severity === "error")) return fallback;
  const attr = content.attributes.get(final.name);
  if (!attr) return fallback;
  return index ? elementRange(attr, index) : attr.expr.range;
}

/**
 * Follows the steps through nested blocks as far as the body spells them out. A step that names
 * no block is passed over (the next may still match here); anything ambiguous or malformed stops
 * the walk at the body reached so far.
 */
function descend(body: ConfigBody, steps: Path): ConfigBody {
  let current = body;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (!step || step.kind !== "attr") return current;
    const next = steps[i + 1];
    const key = next?.kind === "index" ? next.key : undefined;
    if (key) i++;
    const labelled = key?.kind === "string";
    const { content, diagnostics } = configBodyPartialContent(current, { blocks: [{ type: step.name, labelNames: labelled ? ["key"] : [] }] });
    if (diagnostics.some((x) => x.severity === "error")) return current;
    const blocks = content.blocks.filter((b) => b.type === step.name);
    if (blocks.length === 0) continue;
    if (!key) {
      const only = blocks[0];
      if (blocks.length !== 1 || !only) return current;
      current = only.body;
    } else if (key.kind === "number") {
      const n = wholeNumber(key);
      const b = n === undefined ? undefined : blocks[n];
      if (!b) return current;
      current = b.body;
    } else if (key.kind === "string") {
      const b = blocks.find((x) => x.labels[0] === key.value);
      if (!b) return current;
      current = b.body;
    } else {
      return current;
    }
  }
  return current;
}

/** The element an index picks out of a static list or map argument (hclRangeFromIndexStepAndAttribute). */
function elementRange(attr: ContentAttribute, key: Value): Range {
  if (key.kind === "number") {
    const list = exprList(attr.expr);
    if (list.diagnostics.length > 0) return attr.expr.range;
    const n = wholeNumber(key);
    const item = n === undefined ? undefined : list.items[n];
    return item ? item.range : attr.nameRange;
  }
  if (key.kind === "string") {
    const map = exprMap(attr.expr);
    if (map.diagnostics.length > 0) return attr.expr.range;
    for (const item of map.items) {
      const k = evaluateAny(item.key, STATIC);
      if (k.diagnostics.some((x) => x.severity === "error") || k.value.kind !== "string") return attr.expr.range;
      if (k.value.value === key.value) return exprStartRange(item.value);
    }
    return attr.nameRange;
  }
  return attr.expr.range;
}

const STATIC = new EvalContext(undefined, undefined);

function exprStartRange(e: AnyExpression): Range {
  return e.kind === "JSONExpr" ? e.range : startRange(e);
}

function wholeNumber(v: Extract<Value, { kind: "number" }>): number | undefined {
  const n = v.value.isInt() ? v.value.toBigInt() : undefined;
  if (n === undefined || n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return Number(n);
}

/** HCL's MissingItemRange for the bodies configuration keeps (a merged body answers for its first part). */
function bodyMissingItemRange(b: ConfigBody): Range | undefined {
  switch (b.syntax) {
    case "native":
    case "json":
      return missingItemRange(b);
    case "override":
      return bodyMissingItemRange(b.base);
    case "union":
      return b.bodies[0] ? bodyMissingItemRange(b.bodies[0]) : configBodyMissingItemRange(b);
  }
}

/** An error without a source range (tfdiags.Sourceless). */
export function sourceless(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}
