// Expansion of `count` and `for_each` (OpenTofu's instances.Expander and eval_count.go /
// eval_for_each.go): which instances of each module call and resource exist, and the repetition
// data (`count.index`, `each.key`, `each.value`) each instance's expressions see.
import {
  NoKey,
  intKey,
  stringKey,
  compareInstanceKeys,
  type InstanceKey,
  RootModuleInstance,
  type ModuleInstance,
} from "../addrs/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic } from "../hcl/index.js";
import { evaluateForEachExpression } from "../configs/index.js";
import { evaluateAny, fromExpr, type DiagnosticCauses, type EvalContext } from "../lang/eval/index.js";
import { BoolType, EPHEMERAL, NumberType, SENSITIVE, asBool, convert, numberIntVal, stringVal, unmark, type Value } from "../values/index.js";

/** How many instances an object has. */
export type Expansion =
  | { readonly kind: "single" }
  /** `lifecycle { enabled = false }`: no instance, and the object evaluates to null. */
  | { readonly kind: "disabled" }
  | { readonly kind: "count"; readonly count: number }
  | { readonly kind: "forEach"; readonly elements: ReadonlyMap<string, Value> };

export const SINGLE: Expansion = Object.freeze({ kind: "single" });
export const DISABLED: Expansion = Object.freeze({ kind: "disabled" });

/** What `count.*` and `each.*` are for one instance (OpenTofu's instances.RepetitionData). */
export interface RepetitionData {
  readonly countIndex?: Value;
  readonly eachKey?: Value;
  readonly eachValue?: Value;
}

export const NO_REPETITION: RepetitionData = Object.freeze({});

export function expansionKeys(e: Expansion): InstanceKey[] {
  switch (e.kind) {
    case "single":
      return [NoKey];
    case "disabled":
      return [];
    case "count":
      return Array.from({ length: e.count }, (_, i) => intKey(i));
    case "forEach":
      return [...e.elements.keys()].map((k) => stringKey(k));
  }
}

export function repetitionFor(e: Expansion, key: InstanceKey): RepetitionData {
  switch (e.kind) {
    case "single":
    case "disabled":
      return NO_REPETITION;
    case "count":
      return key.kind === "IntKey" ? { countIndex: numberIntVal(key.value) } : NO_REPETITION;
    case "forEach": {
      if (key.kind !== "StringKey") return NO_REPETITION;
      const v = e.elements.get(key.value);
      return v === undefined ? NO_REPETITION : { eachKey: stringVal(key.value), eachValue: v };
    }
  }
}

/** Whether an instance key fits the expansion's kind and range. */
export function expansionHasKey(e: Expansion, key: InstanceKey): boolean {
  switch (e.kind) {
    case "single":
      return key.kind === "NoKey";
    case "disabled":
      return false;
    case "count":
      return key.kind === "IntKey" && key.value >= 0 && key.value < e.count;
    case "forEach":
      return key.kind === "StringKey" && e.elements.has(key.value);
  }
}

const UNKNOWN_COUNT =
  'The "count" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.';

/**
 * eval_count.go's evaluateCountExpression. With `allowUnknown` (the validate walk's
 * validateCount), a value not known yet is no error: the plan walk checks it.
 */
export function evaluateCount(expr: AnyExpression, ctx: EvalContext, opts: { allowUnknown?: boolean } = {}): { count: number; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const r = evaluateAny(expr, ctx);
  diagnostics.push(...r.diagnostics);
  if (hasErrors(diagnostics)) return { count: -1, diagnostics };
  // An ephemeral count is refused whether or not its value is known yet, as for_each is.
  if (opts.allowUnknown && unmark(r.value)[0].kind === "unknown" && !r.value.marks.has(EPHEMERAL)) return { count: -1, diagnostics };
  const c = convert(r.value, NumberType);
  if (!c.ok) {
    diagnostics.push(errorDiag("Incorrect value type", `Invalid expression value: ${c.error.message}.`, expr.range));
    return { count: -1, diagnostics };
  }
  // Sensitive counts are allowed: the number of instances does not disclose the value.
  const [v, marks] = unmark(c.value);
  if (marks.has(EPHEMERAL)) {
    diagnostics.push(
      errorDiag(
        "Invalid count argument",
        "Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key.",
        expr.range,
      ),
    );
    return { count: -1, diagnostics };
  }
  if (v.kind === "null") {
    diagnostics.push(errorDiag("Invalid count argument", 'The given "count" argument value is null. An integer is required.', expr.range));
    return { count: -1, diagnostics };
  }
  if (v.kind === "unknown") {
    diagnostics.push(errorDiag("Invalid count argument", UNKNOWN_COUNT, expr.range));
    return { count: -1, diagnostics };
  }
  if (v.kind !== "number") return { count: -1, diagnostics };
  const big = v.value.isInt() ? v.value.toBigInt() : undefined;
  if (big === undefined || big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER)) {
    diagnostics.push(
      errorDiag("Invalid count argument", `The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.`, expr.range),
    );
    return { count: -1, diagnostics };
  }
  const n = Number(big);
  if (n < 0) {
    diagnostics.push(errorDiag("Invalid count argument", 'The given "count" argument value is unsuitable: must be greater than or equal to zero.', expr.range));
    return { count: -1, diagnostics };
  }
  return { count: n, diagnostics };
}

/** evalchecks.EvaluateEnabledExpression: `lifecycle { enabled = ... }` as a known bool. */
export function evaluateEnabled(expr: AnyExpression, ctx: EvalContext): { enabled: boolean | undefined; diagnostics: Diagnostic[] } {
  const r = evaluateAny(expr, ctx);
  const diagnostics: Diagnostic[] = [...r.diagnostics];
  if (hasErrors(diagnostics)) return { enabled: undefined, diagnostics };
  const invalid = (detail: string, causes?: DiagnosticCauses) => fromExpr(errorDiag("Invalid enabled argument", detail, expr.range), expr, ctx, causes);
  const v = r.value;
  if (v.marks.has(SENSITIVE)) {
    diagnostics.push(
      invalid(
        'Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.',
        { unknown: true },
      ),
    );
  }
  if (v.marks.has(EPHEMERAL)) diagnostics.push(invalid('The given "enabled" argument value is unsuitable: the given value is ephemeral.'));
  if (v.kind === "null") diagnostics.push(invalid('The given "enabled" argument value is unsuitable: the given value is null.'));
  if (v.kind === "unknown") {
    diagnostics.push(
      invalid(
        'The given "enabled" argument value is derived from a value that won\'t be known until the apply phase, so OpenTofu cannot determine whether an instance of this object is declared or not.',
        { unknown: true },
      ),
    );
  }
  if (hasErrors(diagnostics)) return { enabled: undefined, diagnostics };
  const b = convert(unmark(v)[0], BoolType);
  if (!b.ok) {
    diagnostics.push(invalid(`The given "enabled" argument value is unsuitable: ${b.error.message}.`));
    return { enabled: undefined, diagnostics };
  }
  return { enabled: asBool(b.value), diagnostics };
}

/** The expansion of an object with the given `count` / `for_each` / `enabled` (none: a single instance). */
export function evaluateExpansion(
  count: AnyExpression | undefined,
  forEach: AnyExpression | undefined,
  ctx: EvalContext,
  enabled?: AnyExpression,
): { expansion: Expansion | undefined; diagnostics: Diagnostic[] } {
  if (count) {
    const r = evaluateCount(count, ctx);
    return { expansion: r.count < 0 ? undefined : { kind: "count", count: r.count }, diagnostics: r.diagnostics };
  }
  if (forEach) {
    const r = evaluateForEachExpression(forEach, () => ({ ctx, diagnostics: [] }));
    return { expansion: hasErrors(r.diagnostics) ? undefined : { kind: "forEach", elements: r.instances }, diagnostics: r.diagnostics };
  }
  if (enabled) {
    const r = evaluateEnabled(enabled, ctx);
    return { expansion: r.enabled === undefined ? undefined : r.enabled ? SINGLE : DISABLED, diagnostics: r.diagnostics };
  }
  return { expansion: SINGLE, diagnostics: [] };
}

function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}

/**
 * The instances known so far in one walk. Module calls and resources register their expansion
 * as their graph node runs; everything that depends on them runs later (graph order), so reads
 * never race writes.
 */
export class Expander {
  /** Static module path → its instances, in order. */
  private readonly modules = new Map<string, ModuleInstance[]>([[pathKey([]), [RootModuleInstance]]]);
  /** Module instance string → the repetition data of the call that made it. */
  private readonly moduleRepetition = new Map<string, RepetitionData>();
  /** `<parent module instance>|<call name>` → the call's expansion there. */
  private readonly calls = new Map<string, Expansion>();
  /** `<module instance>|<resource addr>` → the resource's expansion there. */
  private readonly resources = new Map<string, Expansion>();

  moduleInstances(path: readonly string[]): ModuleInstance[] {
    return this.modules.get(pathKey(path)) ?? [];
  }

  /** Records the instances of `call` inside every instance of its parent module. */
  setModuleCallExpansions(parentPath: readonly string[], call: string, byParent: ReadonlyArray<{ parent: ModuleInstance; expansion: Expansion }>): void {
    const out: ModuleInstance[] = [];
    for (const { parent, expansion } of byParent) {
      this.calls.set(`${parent.toString()}|${call}`, expansion);
      for (const key of expansionKeys(expansion).sort(compareInstanceKeys)) {
        const inst = parent.child(call, key);
        out.push(inst);
        this.moduleRepetition.set(inst.toString(), repetitionFor(expansion, key));
      }
    }
    this.modules.set(pathKey([...parentPath, call]), out);
  }

  moduleCallExpansion(parent: ModuleInstance, call: string): Expansion | undefined {
    return this.calls.get(`${parent.toString()}|${call}`);
  }

  moduleRepetitionData(inst: ModuleInstance): RepetitionData {
    return this.moduleRepetition.get(inst.toString()) ?? NO_REPETITION;
  }

  setResourceExpansion(module: ModuleInstance, resourceAddr: string, e: Expansion): void {
    this.resources.set(`${module.toString()}|${resourceAddr}`, e);
  }

  resourceExpansion(module: ModuleInstance, resourceAddr: string): Expansion | undefined {
    return this.resources.get(`${module.toString()}|${resourceAddr}`);
  }
}
