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
  uniqueKey,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import { exprVariables, resourceAddrString, type ConfigBody, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { WalkContext } from "../graph/index.js";
import { checkPlan, impliedType, toleratedProblemsMessage } from "../providers/index.js";
import { coreLog } from "../logging/index.js";
import { NotDeposed, type DeposedKey, type ResourceInstanceObjectSrc } from "../states/index.js";
import {
  equals,
  nullVal,
  unmarkDeep,
  type Path,
  type Value,
} from "../values/index.js";
import { newGraph } from "./builder.js";
import { providerDiagnostics, providerDiagnosticsInBody } from "./diags.js";
import { evalScope } from "./evaluate.js";
import { NO_REPETITION, evaluateExpansion, expansionHasKey, expansionKeys, repetitionFor, type Expansion, type RepetitionData } from "./expand.js";
import {
  evalInstanceConfig,
  instanceProvider,
  movePriorObject,
  readPriorObject,
  remark,
  sameObject,
  sensitivePathsEqual,
  unmarkForProvider,
  valueAtPath,
  writeObject,
  writeObjectTo,
  type InstanceProvider,
} from "./instance.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { proposedNew } from "./objchange.js";
import { isReplace, newResourceInstanceChange, type Action, type ActionReason, type ResourceInstanceChange } from "../plans/index.js";
import {
  configDestroy,
  evaluateReplaceTrigger,
  forceReplaceMatches,
  forceReplaceWarnings,
  preventDestroyDiagnostics,
  processIgnoreChanges,
  replaceAction,
  skipDestroyFor,
} from "./lifecycle.js";
import { resolveResourceProvider } from "./providerconfig.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";
import { orphanAction } from "./removed.js";
import { providerInstanceNotPresent } from "./provider_missing.js";
import { resourceConditions } from "./conditions.js";
import { planDataInstance } from "./plan_data.js";
import { selfReferences } from "./self_reference.js";
import { orderOwnInstances } from "./instance_order.js";
import { importInstance, importTargetFor, importingChange, resolveImportBlocks } from "./import.js";
import { generateImportedConfig } from "./import_generate.js";

type ResourceNode = Extract<GraphNode, { kind: "resource" }>;

function staticPathOf(m: ModuleInstance): string[] {
  return m.steps.map((s) => s.name);
}

/** Why an instance in state is not in the expansion any more. */
function orphanReason(e: Expansion, key: InstanceKey): ActionReason {
  if (e.kind === "disabled" && key.kind === "NoKey") return "DeleteBecauseEnabledFalse";
  if (e.kind === "count" && key.kind === "IntKey") return "DeleteBecauseCountIndex";
  if (e.kind === "forEach" && key.kind === "StringKey") return "DeleteBecauseEachKey";
  return "DeleteBecauseWrongRepetition";
}

/** Evaluates count/for_each in every module instance and registers the expansion. */
export function expandResource(run: RunState, n: ResourceNode): { byModule: Array<{ module: ModuleInstance; expansion: Expansion }>; diagnostics: Diagnostic[] } {
  const rc = n.config;
  const diagnostics: Diagnostic[] = [];
  const byModule: Array<{ module: ModuleInstance; expansion: Expansion }> = [];
  const t = [...(rc.count ? exprVariables(rc.count) : []), ...(rc.forEach ? exprVariables(rc.forEach) : []), ...(rc.enabled ? exprVariables(rc.enabled) : [])];
  for (const inst of run.expander.moduleInstances(n.module)) {
    const scope = evalScope(run, { module: inst, repetition: NO_REPETITION }, t);
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const e = evaluateExpansion(rc.count, rc.forEach, scope.ctx, rc.enabled);
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
  diagnostics.push(...resolveImportBlocks(run, n));
  if (hasErrors(diagnostics)) return diagnostics;
  const resAddr = new ResourceAddr(rc.mode, rc.type, rc.name);
  const sub = newGraph();
  const mc = run.moduleConfig(n.module);
  const provider = mc ? resolveResourceProvider(mc, rc)?.addr : undefined;
  const live = new Set<string>();
  for (const { module, expansion } of byModule) {
    live.add(module.toString());
    if (rc.mode === "managed" && run.opts.forceReplace.length > 0) {
      const instances = expansionKeys(expansion).map((k) => new AbsResourceInstance(module, new ResourceInstance(resAddr, k)));
      diagnostics.push(...forceReplaceWarnings(run.opts.forceReplace, new AbsResource(module, resAddr), instances));
    }
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
  // Instances referring to each other wait for each other, or are a cycle.
  const cycles = orderOwnInstances(sub, rc, run.providers);
  if (cycles.length > 0) return [...diagnostics, ...cycles];
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

/** The resource block an instance in state belongs to, when configuration still declares it. */
function configFor(run: RunState, addr: AbsResourceInstance): Resource | undefined {
  const mc = run.moduleConfig(staticPathOf(addr.module));
  const res = addr.resource.resource;
  return res.mode === "managed" ? mc?.module.managedResources.get(res.toString()) : undefined;
}

/**
 * Reads an object from state, upgraded to the current schema, and records that upgraded form
 * both in the previous-run state and in the prior state (so drift compares like with like and a
 * plan without refresh still carries upgraded objects).
 */
async function readAndRecordPrior(
  run: RunState,
  addr: AbsResourceInstance,
  ip: InstanceProvider,
  src: ResourceInstanceObjectSrc,
  deposedKey: DeposedKey,
  subject: Resource["declRange"] | undefined,
  createBeforeDestroy: boolean,
  skipDestroy: boolean,
): Promise<{ value: Value | undefined; private: Uint8Array | undefined; diagnostics: Diagnostic[] }> {
  // A current object an explicit `moved` block gave another type or provider is translated by
  // the target's provider (MoveResourceState) instead of being upgraded.
  const move = deposedKey === NotDeposed ? run.providerMoves.get(uniqueKey(addr)) : undefined;
  const r = move
    ? await movePriorObject(ip, addr, move, src, subject)
    : { ...(await readPriorObject(ip, addr.resource.resource.type, src, subject)), private: src.private };
  if (!r.value || run.opts.priorRefreshed) return r;
  const opts = { status: src.status, dependencies: src.dependencies, createBeforeDestroy: src.createBeforeDestroy, skipDestroy: src.skipDestroy, deposedKey, ...(r.private ? { private: r.private } : {}) };
  const diagnostics = [...r.diagnostics];
  const writes = [{ target: run.state, opts: { ...opts, createBeforeDestroy, skipDestroy } }];
  if (run.prevRunState) writes.unshift({ target: run.prevRunState, opts });
  diagnostics.push(...writeObjectTo(addr, ip, r.value, writes));
  return { value: r.value, private: r.private, diagnostics };
}

/**
 * The deposed objects of an instance (NodePlanDeposedResourceInstanceObject): refreshed, and in
 * a normal or destroy plan always planned to go, whatever the configuration says: destroyed, or
 * forgotten when a `removed` block or `destroy = false` (the block's or the one the object
 * recorded) says so. One the provider reports gone leaves state and gets a NoOp change, so the
 * plan still shows it was looked at (planDestroy of a null object).
 */
async function planDeposedObjects(run: RunState, addr: AbsResourceInstance, ip: InstanceProvider): Promise<Diagnostic[]> {
  const is = run.state.resourceInstance(addr);
  const diagnostics: Diagnostic[] = [];
  const rc = configFor(run, addr);
  for (const [deposedKey, src] of [...(is?.deposed ?? [])]) {
    const prior = await readAndRecordPrior(run, addr, ip, src, deposedKey, undefined, src.createBeforeDestroy, src.skipDestroy);
    diagnostics.push(...prior.diagnostics);
    let value = prior.value;
    if (!value) continue;
    if (run.opts.refresh) {
      const refreshed = await refreshObject(run, addr, ip, value, src, deposedKey, src.createBeforeDestroy, rc?.config);
      diagnostics.push(...refreshed.diagnostics);
      if (hasErrors(refreshed.diagnostics)) continue;
      value = refreshed.value;
    }
    if (run.opts.refreshOnly) continue;
    const base = { addr, providerAddr: ip.addr, providerKey: ip.key, deposedKey };
    if (!value) {
      // A destroy plan refreshes before its destroy walk in OpenTofu, so that walk never sees it.
      const gone = nullVal(impliedType(ip.schema.block));
      if (!run.opts.destroy) run.changes.append(newResourceInstanceChange({ ...base, change: { action: "NoOp", before: gone, after: gone, generatedConfig: "" } }));
      continue;
    }
    const removed = orphanAction(run, addr, deposedKey, { skipDestroy: src.skipDestroy, configDestroy: configDestroy(rc), configDecides: false });
    diagnostics.push(...removed.diagnostics);
    run.changes.append(
      newResourceInstanceChange({
        ...base,
        change: { action: removed.action, before: value, after: nullVal(value.type), generatedConfig: "" },
        ...(removed.reason ? { actionReason: removed.reason } : {}),
        ...(src.private ? { private: src.private } : {}),
      }),
    );
  }
  return diagnostics;
}

/** Plans the deletion of an instance's current object (and of any deposed objects). */
export async function planOrphanInstance(run: RunState, n: Extract<GraphNode, { kind: "planOrphan" }>): Promise<Diagnostic[]> {
  const is = run.state.resourceInstance(n.addr);
  if (!is) return [];
  const providerKey = is.providerKey;
  const provider = run.providers.forResource(n.addr, n.provider, providerKey);
  const res = n.addr.resource.resource;
  const schema = run.providers.resourceTypeSchema(n.provider.provider, res.mode, res.type);
  // A removed provider configuration fails when the graph is built; here the configuration
  // exists but not the instance (key) the object was created with.
  if (!provider) return [providerInstanceNotPresent(n.addr, n.provider, providerKey)];
  if (!schema) return [errorDiag("Invalid resource type", `The provider ${n.provider.provider.forDisplay()} does not support resource type ${JSON.stringify(res.type)}.`)];
  if (res.mode === "data") {
    run.state.forgetResourceInstanceAll(n.addr);
    return [];
  }
  const ip: InstanceProvider = { addr: n.provider, key: providerKey, provider, schema };
  const diagnostics: Diagnostic[] = [];
  const src = is.current;
  if (src) {
    let prior = await readAndRecordPrior(run, n.addr, ip, src, NotDeposed, undefined, src.createBeforeDestroy, src.skipDestroy);
    diagnostics.push(...prior.diagnostics);
    if (prior.value && run.opts.refresh) {
      const refreshed = await refreshObject(run, n.addr, ip, prior.value, src, NotDeposed, src.createBeforeDestroy);
      diagnostics.push(...refreshed.diagnostics);
      prior = hasErrors(refreshed.diagnostics) ? { value: undefined, private: undefined, diagnostics: [] } : { value: refreshed.value, private: prior.private, diagnostics: [] };
    }
    // Refresh-only plans keep orphans (refreshed) in state and plan nothing for them.
    if (prior.value && !run.opts.refreshOnly) {
      const rc = configFor(run, n.addr);
      const removed = orphanAction(run, n.addr, NotDeposed, { skipDestroy: src.skipDestroy, configDestroy: configDestroy(rc), configDecides: run.opts.destroy && rc !== undefined });
      diagnostics.push(...removed.diagnostics);
      const change = newResourceInstanceChange({
        addr: n.addr,
        providerAddr: n.provider,
        providerKey,
        change: { action: removed.action, before: prior.value, after: nullVal(prior.value.type), generatedConfig: "" },
        actionReason: removed.reason ?? n.reason,
        ...(src.private ? { private: src.private } : {}),
      });
      run.changes.append(change);
      diagnostics.push(...preventDestroyDiagnostics(rc, n.addr, change));
    }
  }
  diagnostics.push(...(await planDeposedObjects(run, n.addr, ip)));
  return diagnostics;
}

/** ReadResource: the remote object as it is now; undefined when it no longer exists. */
async function refreshObject(
  run: RunState,
  addr: AbsResourceInstance,
  ip: InstanceProvider,
  prior: Value,
  src: ResourceInstanceObjectSrc,
  deposedKey: DeposedKey,
  createBeforeDestroy: boolean,
  body?: ConfigBody,
): Promise<{ value: Value | undefined; diagnostics: Diagnostic[] }> {
  run.opts.hooks.preRefresh?.(addr, deposedKey, prior);
  const [plain, pvm] = unmarkForProvider(prior);
  const r = await ip.provider.readResource({ typeName: addr.resource.resource.type, priorState: plain, ...(src.private ? { private: src.private } : {}) });
  const diagnostics = providerDiagnosticsInBody(r.diagnostics, body, addr.toString());
  if (hasErrors(diagnostics)) return { value: prior, diagnostics };
  run.opts.hooks.postRefresh?.(addr, deposedKey, prior, r.newState);
  if (r.newState.kind === "null") {
    if (deposedKey !== NotDeposed) run.state.forgetResourceInstanceDeposed(addr, deposedKey);
    else run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
    return { value: undefined, diagnostics };
  }
  // A provider in this process may answer with the very object it was given: nothing changed,
  // and the state already holds that object as readAndRecordPrior encoded it.
  if (r.newState === plain && r.private.length === 0) return { value: prior, diagnostics };
  const value = markSensitiveBySchema(ip.schema.block, remark(r.newState, pvm));
  diagnostics.push(
    ...writeObject(run, addr, ip, value, {
      status: src.status,
      dependencies: src.dependencies,
      createBeforeDestroy,
      skipDestroy: src.skipDestroy,
      deposedKey,
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

/** replaceTriggered: the first replace_triggered_by reference whose object changes, if any. */
function replaceTriggered(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: RepetitionData): { fired: boolean; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const mc = run.moduleConfig(staticPathOf(addr.module));
  const declared = (r: ResourceAddr) => (r.mode === "managed" ? mc?.module.managedResources.has(r.toString()) : mc?.module.dataResources.has(r.toString())) ?? false;
  const changesOf = (r: AbsResource) => run.changes.all().filter((c) => c.deposedKey === NotDeposed && c.addr.containingResource().equal(r));
  for (const expr of rc.triggersReplacement) {
    const t = evaluateReplaceTrigger(expr, rep, addr.module, declared, changesOf, (a) => run.changes.get(a));
    diagnostics.push(...t.diagnostics);
    if (hasErrors(t.diagnostics)) continue;
    if (t.ref) return { fired: true, diagnostics };
  }
  return { fired: false, diagnostics };
}

/** Plans one resource instance. */
export async function planResourceInstance(run: RunState, n: Extract<GraphNode, { kind: "planInstance" }>): Promise<Diagnostic[]> {
  const generated: { placeholder?: ResourceInstanceChange } = {};
  const diagnostics = await planInstance(run, n, generated);
  // A plan that fails after configuration was generated still records it (a NoOp change), so
  // that it is written out (node_resource_plan_instance.go).
  if (generated.placeholder && hasErrors(diagnostics) && !run.changes.get(n.addr)) run.changes.append(generated.placeholder);
  return diagnostics;
}

async function planInstance(run: RunState, n: Extract<GraphNode, { kind: "planInstance" }>, generated: { placeholder?: ResourceInstanceChange }): Promise<Diagnostic[]> {
  const addr = n.addr;
  let rc = n.config;
  const exp = run.expander.resourceExpansion(addr.module, resourceAddrString(rc));
  const rep = exp ? repetitionFor(exp, addr.resource.key) : NO_REPETITION;
  const ipr = instanceProvider(run, addr, rc, n.module, rep);
  const diagnostics = [...ipr.diagnostics];
  const ip = ipr.result;
  if (!ip) return diagnostics;
  diagnostics.push(...selfReferences(addr.resource, rc.config, ip.schema.block));
  if (hasErrors(diagnostics)) return diagnostics;
  if (rc.mode === "data") return [...diagnostics, ...(await planDataInstance(run, addr, rc, rep, ip))];

  const ty = impliedType(ip.schema.block);
  const typeName = rc.type;
  const createBeforeDestroy = run.createBeforeDestroy(n.module, resourceAddrString(rc), rc.managed?.createBeforeDestroy ?? false);
  // Prior object: upgraded (recorded as such), then refreshed.
  let src = run.state.resourceInstanceObject(addr);
  let prior: Value = nullVal(ty);
  // An import target with nothing in state yet is imported, and planned against (import.ts).
  const importing = importTargetFor(run, addr);
  let importedPrivate: Uint8Array | undefined;
  let generatedConfig = "";
  if (importing) {
    const imported = await importInstance(run, addr, ip, importing, createBeforeDestroy);
    diagnostics.push(...imported.diagnostics);
    if (!imported.object) return diagnostics;
    prior = imported.object.value;
    importedPrivate = imported.object.private;
    // A stand-in for an import target without configuration gets it generated now (import_generate.ts).
    const gen = generateImportedConfig(rc, ip, prior);
    if (gen) {
      rc = gen.resource;
      generatedConfig = gen.generatedConfig;
      generated.placeholder = newResourceInstanceChange({ addr, providerAddr: ip.addr, providerKey: ip.key, change: { action: "NoOp", before: prior, after: prior, generatedConfig } });
      diagnostics.push(...gen.diagnostics);
      if (hasErrors(diagnostics)) return diagnostics;
    }
  } else if (src) {
    const r = await readAndRecordPrior(run, addr, ip, src, NotDeposed, rc.declRange, createBeforeDestroy, skipDestroyFor(rc));
    diagnostics.push(...r.diagnostics);
    if (!r.value) return diagnostics;
    prior = r.value;
    // From here on the object is the one just recorded: a moved object carries the private
    // data its new provider returned.
    src = run.state.resourceInstanceObject(addr) ?? src;
    if (run.opts.refresh) {
      const refreshed = await refreshObject(run, addr, ip, prior, src, NotDeposed, createBeforeDestroy, rc.config);
      diagnostics.push(...refreshed.diagnostics);
      if (hasErrors(refreshed.diagnostics)) return diagnostics;
      prior = refreshed.value ?? nullVal(ty);
    }
  }
  diagnostics.push(...(await planDeposedObjects(run, addr, ip)));
  if (hasErrors(diagnostics) || run.opts.refreshOnly) return diagnostics;

  const triggered = replaceTriggered(run, addr, rc, rep);
  diagnostics.push(...triggered.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  const forceReplace = triggered.fired || forceReplaceMatches(run.opts.forceReplace, addr);

  // A tainted object is planned as if creating anew, then shown as its replacement.
  const tainted = src?.status === "tainted" && prior.kind !== "null";
  const priorForPlan = tainted ? nullVal(ty) : prior;

  diagnostics.push(...resourceConditions(run, "pre", addr, rc, rep));
  if (hasErrors(diagnostics)) return diagnostics;

  // Configuration.
  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(cfg.diagnostics)) return diagnostics;
  const [unmarkedOrig] = unmarkForProvider(cfg.value);
  const v = await ip.provider.validateResourceConfig({ typeName, config: unmarkedOrig });
  diagnostics.push(...providerDiagnosticsInBody(v.diagnostics, rc.config, addr.toString()));
  if (hasErrors(diagnostics)) return diagnostics;
  // ignore_changes works on the marked values, so ignored attributes keep their prior marks too.
  const [config, configMarks] = unmarkForProvider(processIgnoreChanges(rc, priorForPlan, cfg.value, ip.schema.block));

  // Plan.
  const [priorPlain] = unmarkDeep(priorForPlan);
  const plan = async (priorState: Value, cfgVal: Value, priorPrivate: Uint8Array | undefined) => {
    const proposed = proposedNew(ip.schema.block, priorState, cfgVal);
    const resp = await ip.provider.planResourceChange({
      typeName,
      priorState,
      proposedNewState: proposed,
      config: cfgVal,
      ...(priorPrivate ? { priorPrivate } : {}),
    });
    const ds = providerDiagnosticsInBody(resp.diagnostics, rc.config, addr.toString());
    if (!hasErrors(ds)) {
      const checked = checkPlan({
        schema: ip.schema.block,
        prior: priorState,
        config: cfgVal,
        planned: resp.plannedState,
        providerAddr: ip.addr.provider.toString(),
        addr: addr.toString(),
        legacyTypeSystem: resp.legacyTypeSystem,
      });
      if (checked.tolerated.length > 0) coreLog().warn(toleratedProblemsMessage("plan", ip.addr.provider.toString(), addr.toString(), checked.tolerated));
      ds.push(...providerDiagnostics(checked.diagnostics, rc.declRange));
    }
    return { resp, diagnostics: ds };
  };
  const first = await plan(priorPlain, config, tainted ? undefined : (src?.private ?? importedPrivate));
  diagnostics.push(...first.diagnostics);
  if (hasErrors(first.diagnostics)) return diagnostics;
  let planned = first.resp.plannedState;
  let plannedPrivate = first.resp.plannedPrivate;
  let afterMarks = configMarks;
  let replanned = false;

  let action: Action;
  let reason: ActionReason = "None";
  const reqRep = priorForPlan.kind === "null" ? [] : changedReplacePaths(first.resp.requiresReplace, priorPlain, planned);
  const same = sameObject(planned, priorPlain);
  const replaceWith: Action = replaceAction(rc, createBeforeDestroy);
  if (priorForPlan.kind === "null") {
    action = "Create";
  } else if (same && !forceReplace && reqRep.length === 0) {
    action = "NoOp";
  } else if (forceReplace || reqRep.length > 0) {
    action = replaceWith;
    reason = forceReplace ? "ReplaceByRequest" : "ReplaceBecauseCannotUpdate";
  } else {
    action = "Update";
  }
  if (isReplace(action)) {
    // The replacement is planned as a create from nothing, with the configuration as written.
    const [origConfig, origMarks] = unmarkForProvider(cfg.value);
    const again = await plan(nullVal(ty), origConfig, plannedPrivate.length > 0 ? plannedPrivate : undefined);
    diagnostics.push(...again.diagnostics);
    if (hasErrors(again.diagnostics)) return diagnostics;
    planned = again.resp.plannedState;
    plannedPrivate = again.resp.plannedPrivate;
    afterMarks = origMarks;
    replanned = true;
  }
  if (action === "Create" && tainted) {
    action = replaceWith;
    reason = "ReplaceBecauseTainted";
  }
  if (triggered.fired && isReplace(action)) reason = "ReplaceByTriggers";
  // As OpenTofu: the schema's sensitive attributes are marked on the value planned against the
  // prior object, not on a replacement's (which only the configuration's marks carry).
  const remarked = remark(planned, afterMarks);
  const after = replanned ? remarked : markSensitiveBySchema(ip.schema.block, remarked);
  // Only the sensitivity of an attribute changing still needs an update (to record it in state).
  if (action === "NoOp" && !sensitivePathsEqual(after, prior)) action = "Update";
  const change = newResourceInstanceChange({
    addr,
    providerAddr: ip.addr,
    providerKey: ip.key,
    change: { action, before: prior, after, generatedConfig, ...importingChange(importing) },
    actionReason: reason,
    requiredReplace: reqRep,
    ...(plannedPrivate.length > 0 ? { private: plannedPrivate } : {}),
  });
  run.changes.append(change);
  // Apply will not touch a NoOp object, so its current dependencies are recorded now
  // (node_resource_plan_instance.go: NoOp and !depsEqual).
  if (action === "NoOp") recordNoOpDependencies(run, addr, n);
  diagnostics.push(...preventDestroyDiagnostics(rc, addr, change));
  diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, after));
  return diagnostics;
}

function recordNoOpDependencies(run: RunState, addr: AbsResourceInstance, n: Extract<GraphNode, { kind: "planInstance" }>): void {
  const deps = run.dependencies.get(nodeName({ kind: "resource", module: n.module, config: n.config }));
  const src = run.state.resourceInstanceObject(addr);
  if (!deps || !src) return;
  const had = new Set(src.dependencies.map(String));
  if (deps.length === had.size && deps.every((d) => had.has(d.toString()))) return;
  const rs = run.state.resource(addr.containingResource());
  run.state.setResourceInstanceCurrent(addr, { ...src, dependencies: [...deps] }, rs?.providerConfig, run.providerKeyFor(addr));
}


