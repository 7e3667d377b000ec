// Changes made outside OpenTofu (context_plan.go's driftedResources and relevantResourceAttrsForPlan):
// the difference between the previous run's state (objects upgraded, not refreshed) and the
// refreshed prior state, as resource changes, and which attributes of those objects the planned
// changes depend on (so the plan view can leave out drift nothing cares about).
import { AbsResource, AbsResourceInstance, NoKey, type ModuleInstance, type Reference } from "../addrs/index.js";
import { configBodyJustAttributes, descendent, exprVariables, type Config, type Resource } from "../configs/index.js";
import type { Diagnostic, Traverser } from "../hcl/index.js";
import { newResourceInstanceChange, type Plan, type ResourceAttr, type ResourceInstanceChange } from "../plans/index.js";
import { impliedType } from "../providers/index.js";
import { decodeObject, objectSrcEqual, type ResourceInstanceObjectSrc, type State } from "../states/index.js";
import { nullVal, rawEquals, type Value } from "../values/index.js";
import { referencesOf } from "./evaluate.js";
import { traversalToPath } from "./lifecycle.js";
import type { ProviderManager } from "./providers.js";
import { MoveResults } from "../refactoring/index.js";
import { blockReferences } from "./schemabody.js";

/** State.ManagedResourcesEqual: the same managed objects (current and deposed) in both. */
export function managedResourcesEqual(a: State, b: State): boolean {
  const objects = (s: State): Map<string, ResourceInstanceObjectSrc> => {
    const out = new Map<string, ResourceInstanceObjectSrc>();
    for (const rs of s.allResources()) {
      if (rs.addr.resource.mode !== "managed") continue;
      for (const is of rs.instances.values()) {
        const base = rs.addr.instance(is.key).toString();
        if (is.current) out.set(base, is.current);
        for (const [k, o] of is.deposed) out.set(`${base}|${k}`, o);
      }
    }
    return out;
  };
  const oa = objects(a);
  const ob = objects(b);
  if (oa.size !== ob.size) return false;
  for (const [k, o] of oa) {
    const other = ob.get(k);
    if (!other || !objectSrcEqual(o, other)) return false;
  }
  return true;
}

/**
 * driftedResources: one change per managed instance whose current object differs between the
 * two states (Delete when it is gone, Update when its value changed), or that a `moved` block
 * brought to a new address (NoOp, with its previous address). Deposed objects are never drift.
 * Objects that cannot be decoded are warnings, not errors: drift is best effort.
 */
export function driftedResources(
  providers: ProviderManager,
  prevRun: State,
  prior: State,
  moves: MoveResults = new MoveResults(),
): { changes: ResourceInstanceChange[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const changes: ResourceInstanceChange[] = [];
  if (managedResourcesEqual(prevRun, prior) && moves.changes.size === 0) return { changes, diagnostics };
  for (const rs of prevRun.allResources()) {
    if (rs.addr.resource.mode !== "managed" || !rs.providerConfig) continue;
    const provider = rs.providerConfig;
    const schema = providers.resourceTypeSchema(provider.provider, "managed", rs.addr.resource.type);
    if (!schema) {
      diagnostics.push({ severity: "warning", summary: "Missing resource schema from provider", detail: `No resource schema found for ${rs.addr.resource.type} when decoding prior state` });
      continue;
    }
    const ty = impliedType(schema.block);
    for (const is of rs.instances.values()) {
      if (!is.current) continue;
      const addr = rs.addr.instance(is.key);
      const oldObj = decodeObject(is.current, ty);
      if (!oldObj.ok) {
        diagnostics.push({ severity: "warning", summary: "Failed to decode resource from state", detail: `Error decoding ${JSON.stringify(addr.toString())} from prior state: ${oldObj.error}` });
        continue;
      }
      const newSrc = prior.resourceInstance(addr)?.current;
      let newVal: Value = nullVal(ty);
      if (newSrc) {
        const d = decodeObject(newSrc, ty);
        if (!d.ok) {
          diagnostics.push({ severity: "warning", summary: "Failed to decode resource from state", detail: `Error decoding ${JSON.stringify(addr.toString())} from prior state: ${d.error}` });
          continue;
        }
        newVal = d.value.value;
      }
      const oldVal = oldObj.value.value;
      const prevRunAddr = moves.oldAddr(addr);
      const same = rawEquals(oldVal, newVal);
      if (same && addr.equal(prevRunAddr)) continue;
      const action = newVal.kind === "null" ? "Delete" : same ? "NoOp" : "Update";
      changes.push(
        newResourceInstanceChange({
          addr,
          prevRunAddr,
          providerAddr: provider,
          providerKey: is.providerKey,
          change: { action, before: oldVal, after: newVal, generatedConfig: "" },
        }),
      );
    }
  }
  changes.sort((a, b) => a.addr.compare(b.addr));
  return { changes, diagnostics };
}

/**
 * relevantResourceAttrsForPlan: the resource attributes that the configuration of every resource
 * with a planned change, every changing root output, and every child module output with a value
 * (planned as a Create: `childOutputs`) refers to — directly or through locals, other resources,
 * and across module calls (a child's input variable leads to the calling module's argument, a
 * module output to the child's output expression), as OpenTofu's globalref analysis follows them.
 */
export function relevantAttributes(
  config: Config,
  providers: ProviderManager,
  plan: Plan,
  childOutputs: readonly { readonly module: ModuleInstance; readonly name: string }[] = [],
): ResourceAttr[] {
  const out = new Map<string, ResourceAttr>();
  const seen = new Set<string>();
  const visitResource = (module: ModuleInstance, rc: Resource) => {
    const key = `${module.toString()}|${rc.mode}.${rc.type}.${rc.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const t: Traverser[][] = [];
    if (rc.count) t.push(...exprVariables(rc.count));
    if (rc.forEach) t.push(...exprVariables(rc.forEach));
    if (rc.enabled) t.push(...exprVariables(rc.enabled));
    const schema = rc.provider ? providers.resourceTypeSchema(rc.provider, rc.mode, rc.type) : undefined;
    if (schema) t.push(...blockReferences(rc.config, schema.block));
    visitTraversals(module, t);
  };
  const visitTraversals = (module: ModuleInstance, t: Traverser[][]) => {
    const mc = descendent(config, module.steps.map((s) => s.name));
    if (!mc) return;
    for (const ref of referencesOf(t).refs) visitRef(module, mc, ref);
  };
  const visitRef = (module: ModuleInstance, mc: Config, ref: Reference) => {
    const s = ref.subject;
    if (s.kind === "InputVariable") {
      if (module.isRoot()) return;
      const key = `${module.toString()}|var.${s.name}`;
      if (seen.has(key)) return;
      seen.add(key);
      const step = module.steps[module.steps.length - 1];
      const call = step ? mc.parent?.module.moduleCalls.get(step.name) : undefined;
      const attr = call ? configBodyJustAttributes(call.config).attributes.get(s.name) : undefined;
      if (attr) visitTraversals(module.parent(), exprVariables(attr.expr));
      return;
    }
    if (s.kind === "ModuleCall" || s.kind === "ModuleCallInstance" || s.kind === "ModuleCallInstanceOutput") {
      const name = s.kind === "ModuleCall" ? s.name : s.kind === "ModuleCallInstance" ? s.call.name : s.call.call.name;
      const child = mc.children.get(name);
      if (!child) return;
      // A whole call (`module.x`, `module.x[*]`) stands for every instance: the call's address
      // without a key, as globalref reports it.
      const inst = module.child(name, s.kind === "ModuleCall" ? NoKey : s.kind === "ModuleCallInstance" ? s.key : s.call.key);
      const outputs = s.kind === "ModuleCallInstanceOutput" ? [s.name] : [...child.module.outputs.keys()];
      for (const o of outputs) {
        const key = `${inst.toString()}|output.${o}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const expr = child.module.outputs.get(o)?.expr;
        if (expr) visitTraversals(inst, exprVariables(expr));
      }
      return;
    }
    if (s.kind === "LocalValue") {
      const key = `${module.toString()}|local.${s.name}`;
      if (seen.has(key)) return;
      seen.add(key);
      const l = mc.module.locals.get(s.name);
      if (l) visitTraversals(module, exprVariables(l.expr));
      return;
    }
    if (s.kind !== "Resource" && s.kind !== "ResourceInstance") return;
    const res = s.kind === "Resource" ? s : s.resource;
    if (res.mode !== "managed") return;
    const attr = traversalToPath(ref.remaining.slice(0, 1));
    // A reference without an instance key stands for the whole resource, which is reported under
    // its own address (as globalref does), not expanded into the instances of the moment.
    const inst = s.kind === "ResourceInstance" ? new AbsResourceInstance(module, s) : new AbsResource(module, res).instance(NoKey);
    out.set(`${inst.toString()}|${attr.map((p) => (p.kind === "attr" ? p.name : "")).join(".")}`, { resource: inst, attr });
    const rc = mc.module.managedResources.get(res.toString());
    if (rc) visitResource(module, rc);
  };
  for (const ch of plan.changes.resources) {
    if (ch.change.action === "NoOp") continue;
    const mc = descendent(config, ch.addr.module.steps.map((s) => s.name));
    const rc = mc?.module.managedResources.get(ch.addr.resource.resource.toString());
    if (rc) visitResource(ch.addr.module, rc);
  }
  for (const oc of plan.changes.outputs) {
    if (oc.change.action === "NoOp") continue;
    const o = config.module.outputs.get(oc.addr.outputValue.name);
    if (o?.expr) visitTraversals(oc.addr.module, exprVariables(o.expr));
  }
  for (const { module, name } of childOutputs) {
    const o = descendent(config, module.steps.map((s) => s.name))?.module.outputs.get(name);
    if (o?.expr) visitTraversals(module, exprVariables(o.expr));
  }
  return [...out.values()];
}
