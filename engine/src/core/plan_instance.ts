// Planning resources (OpenTofu's nodeExpandPlannableResource, NodePlannableResourceInstance,
// NodePlannableResourceInstanceOrphan and node_resource_abstract_instance.go's plan/refresh):
// expand count/for_each into instances; per instance upgrade and refresh the prior object, merge
// the configuration over it (ProposedNew), ask the provider to plan, check the answer, and decide
// the action (Create, Update, NoOp, replace by DeleteThenCreate or CreateThenDelete); instances
// configuration no longer has become Delete.
import {
  AbsResource,
  AbsResourceInstance,
  ResourceInstance,
  Resource as ResourceAddr,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import { exprVariables, resourceAddrString, type Resource } from "../configs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import type { WalkContext } from "../graph/index.js";
import { checkPlan, impliedType } from "../providers/index.js";
import type { ResourceInstanceObjectSrc } from "../states/index.js";
import { equals, isWhollyKnown, nullVal, rawEquals, unknownVal, unmarkDeep, type Path, type Value } from "../values/index.js";
import { newGraph } from "./builder.js";
import { providerDiagnostics } from "./diags.js";
import { evalScope } from "./evaluate.js";
import { NO_REPETITION, evaluateExpansion, expansionHasKey, expansionKeys, repetitionFor, type Expansion } from "./expand.js";
import { evalInstanceConfig, instanceProvider, readPriorObject, remark, unmarkForProvider, valueAtPath, writeObject, type InstanceProvider } from "./instance.js";
import type { GraphNode } from "./nodes.js";
import { proposedNew } from "./objchange.js";
import { newResourceInstanceChange, type Action, type ActionReason } from "../plans/index.js";
import { resolveResourceProvider } from "./providerconfig.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";

type ResourceNode = Extract<GraphNode, { kind: "resource" }>;

function staticPathOf(m: ModuleInstance): string[] {
  return m.steps.map((s) => s.name);
}

/** Why an instance in state is not in the expansion any more. */
function orphanReason(e: Expansion, key: InstanceKey): ActionReason {
  if (e.kind === "count" && key.kind === "IntKey") return "DeleteBecauseCountIndex";
  if (e.kind === "forEach" && key.kind === "StringKey") return "DeleteBecauseEachKey";
  return "DeleteBecauseWrongRepetition";
}

/** Evaluates count/for_each in every module instance and registers the expansion. */
export function expandResource(run: RunState, n: ResourceNode): { byModule: Array<{ module: ModuleInstance; expansion: Expansion }>; diagnostics: Diagnostic[] } {
  const rc = n.config;
  const diagnostics: Diagnostic[] = [];
  const byModule: Array<{ module: ModuleInstance; expansion: Expansion }> = [];
  const t = [...(rc.count ? exprVariables(rc.count) : []), ...(rc.forEach ? exprVariables(rc.forEach) : [])];
  for (const inst of run.expander.moduleInstances(n.module)) {
    const scope = evalScope(run, { module: inst, repetition: NO_REPETITION }, t);
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const e = evaluateExpansion(rc.count, rc.forEach, scope.ctx);
    diagnostics.push(...e.diagnostics);
    if (!e.expansion) continue;
    run.expander.setResourceExpansion(inst, resourceAddrString(rc), e.expansion);
    byModule.push({ module: inst, expansion: e.expansion });
  }
  return { byModule, diagnostics };
}

/** The resource node of a plan: expands into one vertex per instance (and per orphan). */
export async function planResource(run: RunState, n: ResourceNode, wctx: WalkContext<GraphNode>): Promise<Diagnostic[]> {
  const rc = n.config;
  const { byModule, diagnostics } = expandResource(run, n);
  if (hasErrors(diagnostics)) return diagnostics;
  const resAddr = new ResourceAddr(rc.mode, rc.type, rc.name);
  const sub = newGraph();
  const mc = run.moduleConfig(n.module);
  const provider = mc ? resolveResourceProvider(mc, rc)?.addr : undefined;
  const live = new Set<string>();
  for (const { module, expansion } of byModule) {
    live.add(module.toString());
    for (const key of expansionKeys(expansion)) {
      sub.add({ kind: "planInstance", addr: new AbsResourceInstance(module, new ResourceInstance(resAddr, key)), config: rc, module: n.module });
    }
    const rs = run.state.resource(new AbsResource(module, resAddr));
    for (const is of rs?.instances.values() ?? []) {
      if (expansionHasKey(expansion, is.key) || !provider) continue;
      sub.add({ kind: "planOrphan", addr: new AbsResourceInstance(module, new ResourceInstance(resAddr, is.key)), reason: orphanReason(expansion, is.key), provider });
    }
  }
  // Instances in module instances that no longer exist.
  const orphanedModules = run.state.withState((s) =>
    [...s.modules.values()].filter((m) => !live.has(m.addr.toString()) && staticPathOf(m.addr).join(".") === n.module.join(".")).map((m) => m.addr),
  );
  for (const module of orphanedModules) {
    const rs = run.state.resource(new AbsResource(module, resAddr));
    for (const is of rs?.instances.values() ?? []) {
      if (provider) sub.add({ kind: "planOrphan", addr: new AbsResourceInstance(module, new ResourceInstance(resAddr, is.key)), reason: "DeleteBecauseNoModule", provider });
    }
  }
  if (sub.size > 0) wctx.expand(sub);
  return diagnostics;
}

/** A resource whose block is gone (or, in a destroy plan, every resource): delete each instance. */
export async function planOrphanResource(run: RunState, n: Extract<GraphNode, { kind: "orphanResource" }>, wctx: WalkContext<GraphNode>): Promise<Diagnostic[]> {
  const rs = run.state.resource(n.addr);
  const sub = newGraph();
  const reason: ActionReason = run.opts.destroy ? "None" : "DeleteBecauseNoResourceConfig";
  for (const is of rs?.instances.values() ?? []) {
    sub.add({ kind: "planOrphan", addr: n.addr.instance(is.key), reason, provider: n.provider });
  }
  if (sub.size > 0) wctx.expand(sub);
  return [];
}

/** Plans the deletion of an instance's current object (and of any deposed objects). */
export async function planOrphanInstance(run: RunState, n: Extract<GraphNode, { kind: "planOrphan" }>): Promise<Diagnostic[]> {
  const is = run.state.resourceInstance(n.addr);
  if (!is) return [];
  const providerKey = is.providerKey;
  const provider = run.providers.instance(n.provider, providerKey);
  const res = n.addr.resource.resource;
  const schema = run.providers.resourceTypeSchema(n.provider.provider, res.mode, res.type);
  if (!provider || !schema) {
    return [
      {
        severity: "error",
        summary: "Provider configuration not present",
        detail: `To work with ${n.addr.toString()} its original provider configuration at ${n.provider.instanceString(providerKey)} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${n.addr.toString()}, after which you can remove the provider configuration again.`,
      },
    ];
  }
  if (res.mode === "data") {
    run.state.forgetResourceInstanceAll(n.addr);
    return [];
  }
  const ip: InstanceProvider = { addr: n.provider, key: providerKey, provider, schema };
  const diagnostics: Diagnostic[] = [];
  const objects: Array<[string, ResourceInstanceObjectSrc]> = [];
  if (is.current) objects.push(["", is.current]);
  for (const [k, o] of is.deposed) objects.push([k, o]);
  for (const [deposedKey, src] of objects) {
    let prior = await readPriorObject(ip, res.type, src, undefined);
    diagnostics.push(...prior.diagnostics);
    if (!prior.value) continue;
    if (run.opts.refresh && deposedKey === "") {
      const refreshed = await refreshObject(run, n.addr, ip, prior.value, src);
      diagnostics.push(...refreshed.diagnostics);
      if (hasErrors(refreshed.diagnostics)) continue;
      prior = { value: refreshed.value, diagnostics: [] };
      if (!refreshed.value) continue; // already gone: nothing to delete
    }
    const before = prior.value ?? nullVal(impliedType(schema.block));
    run.changes.append(
      newResourceInstanceChange({
        addr: n.addr,
        providerAddr: n.provider,
        providerKey,
        deposedKey,
        change: { action: "Delete", before, after: nullVal(before.type), generatedConfig: "" },
        actionReason: deposedKey === "" ? n.reason : "None",
        ...(src.private ? { private: src.private } : {}),
      }),
    );
  }
  return diagnostics;
}

/** ReadResource: the remote object as it is now; undefined when it no longer exists. */
async function refreshObject(
  run: RunState,
  addr: AbsResourceInstance,
  ip: InstanceProvider,
  prior: Value,
  src: ResourceInstanceObjectSrc,
): Promise<{ value: Value | undefined; diagnostics: Diagnostic[] }> {
  run.opts.hooks.preRefresh?.(addr, "", prior);
  const [plain, pvm] = unmarkForProvider(prior);
  const r = await ip.provider.readResource({ typeName: addr.resource.resource.type, priorState: plain, ...(src.private ? { private: src.private } : {}) });
  const diagnostics = providerDiagnostics(r.diagnostics, undefined);
  if (hasErrors(diagnostics)) return { value: prior, diagnostics };
  if (r.newState.kind === "null") {
    run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
    return { value: undefined, diagnostics };
  }
  const value = markSensitiveBySchema(ip.schema.block, remark(r.newState, pvm));
  diagnostics.push(
    ...writeObject(run, addr, ip, value, {
      status: src.status,
      dependencies: src.dependencies,
      createBeforeDestroy: src.createBeforeDestroy,
      ...(r.private.length > 0 ? { private: r.private } : src.private ? { private: src.private } : {}),
    }),
  );
  return { value, diagnostics };
}

/** The requires-replace paths whose values actually change (OpenTofu filters the provider's list). */
function changedReplacePaths(paths: readonly Path[], prior: Value, planned: Value): Path[] {
  const out: Path[] = [];
  for (const p of paths) {
    const a = valueAtPath(prior, p);
    const b = valueAtPath(planned, p);
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined) {
      out.push(p);
      continue;
    }
    const eq = equals(a, b);
    if (eq.kind !== "bool" || !eq.value) out.push(p);
  }
  return out;
}

/** Plans one resource instance. */
export async function planResourceInstance(run: RunState, n: Extract<GraphNode, { kind: "planInstance" }>): Promise<Diagnostic[]> {
  const { addr, config: rc } = n;
  const exp = run.expander.resourceExpansion(addr.module, resourceAddrString(rc));
  const rep = exp ? repetitionFor(exp, addr.resource.key) : NO_REPETITION;
  const ipr = instanceProvider(run, addr, rc, n.module, rep);
  const diagnostics = [...ipr.diagnostics];
  const ip = ipr.result;
  if (!ip) return diagnostics;
  if (rc.mode === "data") return [...diagnostics, ...(await planDataInstance(run, addr, rc, rep, ip))];

  const ty = impliedType(ip.schema.block);
  const typeName = rc.type;
  // Prior object: upgraded, then refreshed.
  const src = run.state.resourceInstanceObject(addr);
  let prior: Value = nullVal(ty);
  if (src) {
    const r = await readPriorObject(ip, typeName, src, rc.declRange);
    diagnostics.push(...r.diagnostics);
    if (!r.value) return diagnostics;
    prior = r.value;
    if (run.opts.refresh) {
      const refreshed = await refreshObject(run, addr, ip, prior, src);
      diagnostics.push(...refreshed.diagnostics);
      if (hasErrors(refreshed.diagnostics)) return diagnostics;
      prior = refreshed.value ?? nullVal(ty);
    }
  }
  const tainted = src?.status === "tainted" && prior.kind !== "null";

  // Configuration.
  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(cfg.diagnostics)) return diagnostics;
  const [config, configMarks] = unmarkForProvider(cfg.value);
  const v = await ip.provider.validateResourceConfig({ typeName, config });
  diagnostics.push(...providerDiagnostics(v.diagnostics, rc.declRange));
  if (hasErrors(diagnostics)) return diagnostics;

  // Plan.
  const [priorPlain] = unmarkDeep(prior);
  const plan = async (priorState: Value, priorPrivate: Uint8Array | undefined) => {
    const proposed = proposedNew(ip.schema.block, priorState, config);
    const resp = await ip.provider.planResourceChange({
      typeName,
      priorState,
      proposedNewState: proposed,
      config,
      ...(priorPrivate ? { priorPrivate } : {}),
    });
    const ds = providerDiagnostics(resp.diagnostics, rc.declRange);
    if (!hasErrors(ds)) {
      const checked = checkPlan({
        schema: ip.schema.block,
        prior: priorState,
        config,
        planned: resp.plannedState,
        providerAddr: ip.addr.provider.toString(),
        addr: addr.toString(),
        legacyTypeSystem: resp.legacyTypeSystem,
      });
      ds.push(...providerDiagnostics(checked.diagnostics, rc.declRange));
    }
    return { resp, diagnostics: ds };
  };
  const first = await plan(priorPlain, src?.private);
  diagnostics.push(...first.diagnostics);
  if (hasErrors(first.diagnostics)) return diagnostics;
  let planned = first.resp.plannedState;
  let plannedPrivate = first.resp.plannedPrivate;

  let action: Action;
  let reason: ActionReason = "None";
  let reqRep: Path[] = [];
  if (prior.kind === "null") {
    action = "Create";
  } else {
    reqRep = changedReplacePaths(first.resp.requiresReplace, priorPlain, planned);
    const eq = equals(planned, priorPlain);
    const same = eq.kind === "bool" && eq.value && rawEquals(planned, priorPlain);
    if (tainted) {
      action = rc.managed?.createBeforeDestroy ? "CreateThenDelete" : "DeleteThenCreate";
      reason = "ReplaceBecauseTainted";
    } else if (same && reqRep.length === 0) {
      action = "NoOp";
    } else if (reqRep.length > 0) {
      action = rc.managed?.createBeforeDestroy ? "CreateThenDelete" : "DeleteThenCreate";
      reason = "ReplaceBecauseCannotUpdate";
    } else {
      action = "Update";
    }
    if (action === "CreateThenDelete" || action === "DeleteThenCreate") {
      // The replacement is planned as a create from nothing.
      const again = await plan(nullVal(ty), undefined);
      diagnostics.push(...again.diagnostics);
      if (hasErrors(again.diagnostics)) return diagnostics;
      planned = again.resp.plannedState;
      plannedPrivate = again.resp.plannedPrivate;
    }
  }
  const after = markSensitiveBySchema(ip.schema.block, remark(planned, configMarks));
  run.changes.append(
    newResourceInstanceChange({
      addr,
      providerAddr: ip.addr,
      providerKey: ip.key,
      change: { action, before: prior, after, generatedConfig: "" },
      actionReason: reason,
      requiredReplace: reqRep,
      ...(plannedPrivate.length > 0 ? { private: plannedPrivate } : {}),
    }),
  );
  return diagnostics;
}

/** Data sources read during plan when their configuration is known, else at apply. */
async function planDataInstance(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: ReturnType<typeof repetitionFor>, ip: InstanceProvider): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const ty = impliedType(ip.schema.block);
  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  const [config, configMarks] = unmarkForProvider(cfg.value);
  const v = await ip.provider.validateDataResourceConfig({ typeName: rc.type, config });
  diagnostics.push(...providerDiagnostics(v.diagnostics, rc.declRange));
  if (hasErrors(diagnostics)) return diagnostics;
  if (!isWhollyKnown(config)) {
    const prior = run.state.resourceInstanceObject(addr);
    run.changes.append(
      newResourceInstanceChange({
        addr,
        providerAddr: ip.addr,
        providerKey: ip.key,
        change: { action: "Read", before: nullVal(ty), after: remark(unknownVal(ty), []), generatedConfig: "" },
        actionReason: prior ? "None" : "ReadBecauseConfigUnknown",
      }),
    );
    return diagnostics;
  }
  const r = await ip.provider.readDataSource({ typeName: rc.type, config });
  diagnostics.push(...providerDiagnostics(r.diagnostics, rc.declRange));
  if (hasErrors(diagnostics)) return diagnostics;
  const value = markSensitiveBySchema(ip.schema.block, remark(r.state, configMarks));
  diagnostics.push(...writeObject(run, addr, ip, value, { status: "ready", dependencies: [], createBeforeDestroy: false }));
  return diagnostics;
}

