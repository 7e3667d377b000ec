// The `lifecycle` rules a resource instance's plan obeys (OpenTofu's processIgnoreChanges,
// checkPreventDestroy, evalReplaceTriggeredByExpr / EvaluateReplaceTriggeredBy,
// nodeExpandPlannableResource's force-replace address check and `destroy = false`), as pure
// functions over values, expressions and the changes planned so far.
import { AbsResource, AbsResourceInstance, Resource as ResourceAddr, parseRef, type ModuleInstance, type Reference } from "../addrs/index.js";
import type { Resource } from "../configs/index.js";
import { errorDiag, type AnyExpression, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { isReplace, type Action, type ResourceInstanceChange } from "../plans/index.js";
import {
  attrStep,
  indexStep,
  mapVal,
  mapValEmpty,
  nullVal,
  parseNumberVal,
  rawEquals,
  stringVal,
  unmark,
  unmarkDeep,
  withMarks,
  type Path,
  type Value,
} from "../values/index.js";
import type { Attribute, Block } from "../providers/index.js";
import { attributeImpliedType } from "../providers/index.js";
import type { RepetitionData } from "./expand.js";
import { valueAtPath } from "./instance.js";

/** traversalToPath: a traversal written in configuration as a value path. */
export function traversalToPath(t: readonly Traverser[]): Path {
  const out = [];
  for (const step of t) {
    if (step.kind === "Root" || step.kind === "Attr") out.push(attrStep(step.name));
    else if (step.key.type === "string") out.push(indexStep(stringVal(step.key.value)));
    else if (step.key.type === "number") {
      const n = parseNumberVal(step.key.text);
      if (n) out.push(indexStep(n));
    }
  }
  return out;
}

function pathEqual(a: Path, b: Path): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const o = b[i];
    if (!o || o.kind !== s.kind) return false;
    if (s.kind === "attr") return o.kind === "attr" && o.name === s.name;
    return o.kind === "index" && rawEquals(s.key, o.key);
  });
}

/** Replaces the value at `path` inside `v` (every step must exist). */
function setAtPath(v: Value, path: Path, f: (old: Value) => Value): Value {
  if (path.length === 0) return f(v);
  const [step, ...rest] = path;
  if (!step) return v;
  if (v.kind === "object" || v.kind === "map") {
    const key = step.kind === "attr" ? step.name : step.key.kind === "string" ? step.key.value : undefined;
    if (key === undefined || !v.attrs.has(key)) return v;
    const attrs = new Map(v.attrs);
    attrs.set(key, setAtPath(v.attrs.get(key) as Value, rest, f));
    return withMarks({ ...v, attrs }, v.marks);
  }
  if ((v.kind === "list" || v.kind === "tuple") && step.kind === "index" && step.key.kind === "number") {
    const i = Number(step.key.value.toBigInt() ?? -1);
    if (i < 0 || i >= v.elements.length) return v;
    const elements = [...v.elements];
    elements[i] = setAtPath(elements[i] as Value, rest, f);
    return withMarks({ ...v, elements }, v.marks);
  }
  return v;
}

/** Every attribute of the schema that is computed and not optional, by path (for ignore_changes = all). */
function nullComputedOnly(schema: Block, v: Value): Value {
  if (v.kind !== "object") return v;
  const attrs = new Map(v.attrs);
  for (const [name, a] of schema.attributes) {
    if (a.computed && !a.optional) attrs.set(name, nullVal(attributeImpliedType(a as Attribute)));
  }
  for (const [name, nb] of schema.blockTypes) {
    const cur = attrs.get(name);
    if (!cur) continue;
    if (cur.kind === "object") attrs.set(name, nullComputedOnly(nb.block, cur));
    else if (cur.kind === "list" || cur.kind === "tuple" || cur.kind === "set") {
      attrs.set(name, withMarks({ ...cur, elements: cur.elements.map((e) => nullComputedOnly(nb.block, e)) }, cur.marks));
    } else if (cur.kind === "map") {
      const m = new Map<string, Value>();
      for (const [k, e] of cur.attrs) m.set(k, nullComputedOnly(nb.block, e));
      attrs.set(name, withMarks({ ...cur, attrs: m }, cur.marks));
    }
  }
  return withMarks({ ...v, attrs }, v.marks);
}

/**
 * processIgnoreChanges: the configuration with ignored attributes put back to their prior values
 * (marks included), so the proposed value, the plan request and the change agree. Only applies
 * when an object already exists.
 */
export function processIgnoreChanges(rc: Resource, prior: Value, config: Value, schema: Block): Value {
  const managed = rc.managed;
  if (!managed || prior.kind === "null") return config;
  if (managed.ignoreAllChanges) return nullComputedOnly(schema, prior);
  if (managed.ignoreChanges.length === 0 || config.kind === "null") return config;
  interface Ignored {
    path: Path;
    value: Value;
    /** Set when the path ends in a map key: only that element is kept. */
    key: string | undefined;
  }
  const ignored: Ignored[] = [];
  for (const t of managed.ignoreChanges) {
    let path = traversalToPath(t);
    let key: string | undefined;
    const last = path[path.length - 1];
    if (last && last.kind === "index" && last.key.kind === "string") {
      key = last.key.value;
      path = path.slice(0, -1);
    }
    const p = valueAtPath(prior, path);
    const c = valueAtPath(config, path);
    if (p === undefined || c === undefined) continue;
    if (!rawEquals(p, c)) ignored.push({ path, value: p, key });
  }
  let out: Value = config;
  for (const ig of ignored) {
    out = setAtPath(out, ig.path, (cur) => {
      if (ig.key === undefined || cur.type.kind !== "map") return ig.value;
      if (cur.kind === "unknown") return cur;
      const [plain, marks] = unmark(cur);
      const configMap = new Map(plain.kind === "map" ? plain.attrs : []);
      const [priorPlain] = unmark(ig.value);
      const priorElem = priorPlain.kind === "map" ? priorPlain.attrs.get(ig.key) : undefined;
      if (priorElem === undefined) configMap.delete(ig.key);
      else configMap.set(ig.key, priorElem);
      const el = cur.type.kind === "map" ? cur.type.element : plain.type;
      const next = configMap.size > 0 ? mapVal(configMap) : plain.kind === "null" ? plain : mapValEmpty(el);
      return marks.size > 0 ? withMarks(next, marks) : next;
    });
  }
  return out;
}

/** The force-replace request matches this instance exactly. */
export function forceReplaceMatches(forceReplace: readonly AbsResourceInstance[], addr: AbsResourceInstance): boolean {
  return forceReplace.some((a) => a.equal(addr));
}

/**
 * validForceReplaceTargets: a `-replace` address without an instance key for a resource whose
 * instances have keys matches nothing; say which addresses would.
 */
export function forceReplaceWarnings(forceReplace: readonly AbsResourceInstance[], resource: AbsResource, instances: readonly AbsResourceInstance[]): Diagnostic[] {
  const mustHaveKey = instances.length !== 1 || !(instances[0]?.resource.key.kind === "NoKey");
  if (!mustHaveKey) return [];
  const out: Diagnostic[] = [];
  const summary = "Incompletely-matched force-replace resource instance";
  for (const cand of forceReplace) {
    if (cand.resource.key.kind !== "NoKey" || !cand.containingResource().equal(resource)) continue;
    const name = cand.toString();
    if (instances.length === 0) {
      out.push({ severity: "warning", summary, detail: `Your force-replace request for ${name} doesn't match any resource instances because this resource doesn't have any instances.` });
    } else if (instances.length === 1) {
      out.push({
        severity: "warning",
        summary,
        detail: `Your force-replace request for ${name} doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:\n  -replace=${JSON.stringify(instances[0]?.toString())}`,
      });
    } else {
      const options = instances.map((i) => `\n  -replace=${JSON.stringify(i.toString())}`).join("");
      out.push({
        severity: "warning",
        summary,
        detail: `Your force-replace request for ${name} doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:${options}`,
      });
    }
  }
  return out;
}

/** checkPreventDestroy: an error when the change would destroy an object whose resource forbids it. */
export function preventDestroyDiagnostics(rc: Resource | undefined, addr: AbsResourceInstance, change: ResourceInstanceChange): Diagnostic[] {
  if (!rc?.managed?.preventDestroy) return [];
  // Forgetting leaves the remote object alone, so only actual destroys are prevented.
  const a = change.change.action;
  if (a !== "Delete" && a !== "DeleteThenCreate" && a !== "CreateThenDelete") return [];
  return [
    errorDiag(
      "Instance cannot be destroyed",
      `Resource ${addr.toString()} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.`,
      rc.declRange,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// destroy = false

/** The block's `lifecycle { destroy }`: false forgets objects instead of destroying them. */
export function configDestroy(rc: Resource | undefined): boolean | undefined {
  return rc?.managed ? rc.managed.destroy : undefined;
}

/** `skip_destroy` for an object planned or applied with this configuration. */
export function skipDestroyFor(rc: Resource | undefined): boolean {
  return configDestroy(rc) === false;
}

/** How an object that must be replaced is replaced: forgotten first when it may not be destroyed. */
export function replaceAction(rc: Resource, createBeforeDestroy: boolean): Extract<Action, "DeleteThenCreate" | "CreateThenDelete" | "ForgetThenCreate"> {
  if (skipDestroyFor(rc)) return "ForgetThenCreate";
  return createBeforeDestroy ? "CreateThenDelete" : "DeleteThenCreate";
}

// ---------------------------------------------------------------------------------------------
// replace_triggered_by

/** triggersExprToTraversal: the expression as a static traversal, with count.index / each.key substituted. */
function triggerTraversal(expr: AnyExpression, rep: RepetitionData): { traversal: Traverser[]; diagnostics: Diagnostic[] } {
  if (expr.kind === "ScopeTraversal") return { traversal: [...expr.traversal], diagnostics: [] };
  if (expr.kind === "RelativeTraversal") {
    const src = triggerTraversal(expr.source, rep);
    return { traversal: [...src.traversal, ...expr.traversal], diagnostics: src.diagnostics };
  }
  if (expr.kind === "Index") {
    const coll = triggerTraversal(expr.collection, rep);
    if (coll.diagnostics.some((d) => d.severity === "error")) return coll;
    const key = indexKey(expr.key, rep);
    if (!key.step) return { traversal: [], diagnostics: [...coll.diagnostics, ...key.diagnostics] };
    return { traversal: [...coll.traversal, key.step], diagnostics: [...coll.diagnostics, ...key.diagnostics] };
  }
  return { traversal: [], diagnostics: [errorDiag("Invalid replace_triggered_by expression", "Unexpected expression found in replace_triggered_by.", expr.range)] };
}

const INVALID_INDEX = "Only constant values, count.index or each.key are allowed in index expressions.";

/** parseIndexKeyExpr: a constant, count.index or each.key. */
function indexKey(expr: AnyExpression, rep: RepetitionData): { step: Traverser | undefined; diagnostics: Diagnostic[] } {
  const range: Range = expr.range;
  if (expr.kind === "Literal") {
    if (expr.value.type === "string" || expr.value.type === "number") return { step: { kind: "Index", key: expr.value, range }, diagnostics: [] };
  }
  if (expr.kind === "Template" && expr.parts.length === 1) {
    const only = expr.parts[0];
    if (only && only.kind === "Literal" && only.value.type === "string") return { step: { kind: "Index", key: only.value, range }, diagnostics: [] };
  }
  if (expr.kind === "ScopeTraversal") {
    const name = expr.traversal.map((t) => (t.kind === "Index" ? "[]" : t.name)).join(".");
    if (name === "count.index") {
      const ci = rep.countIndex;
      if (ci === undefined || ci.kind !== "number") {
        return { step: undefined, diagnostics: [errorDiag('Reference to "count" in non-counted context', 'The "count" object can only be used in "resource" blocks when the "count" argument is set.', range)] };
      }
      return { step: { kind: "Index", key: { type: "number", text: ci.value.text("f", -1) }, range }, diagnostics: [] };
    }
    if (name === "each.key") {
      const ek = rep.eachKey;
      if (ek === undefined || ek.kind !== "string") {
        return { step: undefined, diagnostics: [errorDiag('Reference to "each" in context without for_each', 'The "each" object can be used only in "resource" blocks when the "for_each" argument is set.', range)] };
      }
      return { step: { kind: "Index", key: { type: "string", value: ek.value }, range }, diagnostics: [] };
    }
  }
  return { step: undefined, diagnostics: [errorDiag("Invalid index expression", INVALID_INDEX, range)] };
}

/**
 * evalReplaceTriggeredByExpr: the reference one replace_triggered_by expression names, with
 * count.index / each.key substituted (validate passes placeholders: only the shape matters).
 */
export function replaceTriggerReference(expr: AnyExpression, rep: RepetitionData): TriggerResult {
  const t = triggerTraversal(expr, rep);
  if (t.diagnostics.some((d) => d.severity === "error")) return { ref: undefined, diagnostics: t.diagnostics };
  const parsed = parseRef(t.traversal);
  const diagnostics = [...t.diagnostics, ...parsed.diagnostics];
  const ref = parsed.result;
  if (!ref || diagnostics.some((d) => d.severity === "error")) return { ref: undefined, diagnostics };
  return { ref, diagnostics };
}

export interface TriggerResult {
  /** The reference that fired, when one did. */
  readonly ref: Reference | undefined;
  readonly diagnostics: Diagnostic[];
}

/**
 * EvaluateReplaceTriggeredBy for one expression: a whole-resource (or instance) reference fires
 * when any of its instances is created, updated or replaced; an attribute reference fires when
 * that attribute's planned value differs from its prior one.
 */
export function evaluateReplaceTrigger(
  expr: AnyExpression,
  rep: RepetitionData,
  module: ModuleInstance,
  declared: (r: ResourceAddr) => boolean,
  changesOf: (r: AbsResource) => ResourceInstanceChange[],
  changeOf: (r: AbsResourceInstance) => ResourceInstanceChange | undefined,
): TriggerResult {
  const { ref, diagnostics } = replaceTriggerReference(expr, rep);
  if (!ref) return { ref: undefined, diagnostics };
  let resource: ResourceAddr;
  let changes: ResourceInstanceChange[];
  const s = ref.subject;
  if (s.kind === "Resource") {
    resource = s;
    changes = changesOf(new AbsResource(module, s));
  } else if (s.kind === "ResourceInstance") {
    resource = s.resource;
    const c = changeOf(new AbsResourceInstance(module, s));
    changes = c ? [c] : [];
  } else {
    return { ref: undefined, diagnostics: [...diagnostics, errorDiag("Invalid replace_triggered_by expression", "Unexpected expression found in replace_triggered_by.", expr.range)] };
  }
  if (!declared(resource)) {
    const where = module.isRoot() ? "the root module" : module.toString();
    return { ref: undefined, diagnostics: [...diagnostics, errorDiag("Reference to undeclared resource", `A resource ${s.toString()} has not been declared in ${where}`, expr.range)] };
  }
  const fires = (a: ResourceInstanceChange["change"]["action"]) => a === "Create" || a === "Update" || isReplace(a);
  if (ref.remaining.length === 0) {
    return { ref: changes.some((c) => fires(c.change.action)) ? ref : undefined, diagnostics };
  }
  const change = changes[0];
  if (!change || !fires(change.change.action)) return { ref: undefined, diagnostics };
  const path = traversalToPath(ref.remaining);
  const before = valueAtPath(unmarkDeep(change.change.before)[0], path);
  const after = valueAtPath(unmarkDeep(change.change.after)[0], path);
  if (before === undefined || after === undefined) return { ref: before !== after ? ref : undefined, diagnostics };
  return { ref: rawEquals(before, after) ? undefined : ref, diagnostics };
}
