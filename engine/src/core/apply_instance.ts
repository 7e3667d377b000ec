// Applying changes (OpenTofu's NodeApplyableResourceInstance, NodeDestroyResourceInstance and
// NodeDestroyDeposedResourceInstanceObject): the configuration is evaluated again with the
// applied values of everything it refers to, the change is planned again and checked against the
// saved plan ("Provider produced inconsistent final plan"), ApplyResourceChange runs, its result
// is checked, and the new object goes into state at once. A failed create that still returned an
// object keeps it (tainted), so nothing created is ever lost; a failed create_before_destroy
// replacement restores the deposed object.
import { resourceAddrString } from "../configs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { checkApplyResult, checkFinalPlan, impliedType, unknownAsNull } from "../providers/index.js";
import { NotDeposed } from "../states/index.js";
import { nullVal, unmarkDeep, type Value } from "../values/index.js";
import { providerDiagnostics } from "./diags.js";
import { NO_REPETITION, repetitionFor } from "./expand.js";
import { evalInstanceConfig, instanceProvider, readPriorObject, remark, unmarkForProvider, writeObject, type InstanceProvider } from "./instance.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { proposedNew } from "./objchange.js";
import { expandResource } from "./plan_instance.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";

/** The resource node of an apply graph only evaluates count/for_each (for each.* and whole-resource values). */
export async function expandResourceForApply(run: RunState, n: Extract<GraphNode, { kind: "resource" }>): Promise<Diagnostic[]> {
  return expandResource(run, n).diagnostics;
}

export async function applyInstance(run: RunState, n: Extract<GraphNode, { kind: "applyInstance" }>): Promise<Diagnostic[]> {
  const ch = n.change;
  const addr = ch.addr;
  const rc = n.config;
  const exp = run.expander.resourceExpansion(addr.module, resourceAddrString(rc));
  const rep = exp ? repetitionFor(exp, addr.resource.key) : NO_REPETITION;
  const ipr = instanceProvider(run, addr, rc, n.module, rep);
  const diagnostics = [...ipr.diagnostics];
  const ip = ipr.result;
  if (!ip) return diagnostics;
  const typeName = rc.type;
  const ty = impliedType(ip.schema.block);

  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  const [config, configMarks] = unmarkForProvider(cfg.value);

  if (rc.mode === "data") {
    const r = await ip.provider.readDataSource({ typeName, config });
    diagnostics.push(...providerDiagnostics(r.diagnostics, rc.declRange));
    if (hasErrors(diagnostics)) return diagnostics;
    const value = markSensitiveBySchema(ip.schema.block, remark(r.state, configMarks));
    diagnostics.push(...writeObject(run, addr, ip, value, { status: "ready", dependencies: [], createBeforeDestroy: false }));
    return diagnostics;
  }

  // The prior object: gone already for DeleteThenCreate; deposed first for CreateThenDelete.
  let src = run.state.resourceInstanceObject(addr);
  let deposedKey = NotDeposed;
  if (ch.change.action === "CreateThenDelete" && src) {
    deposedKey = run.state.deposeResourceInstanceObject(addr);
    run.deposedDuringApply.set(addr.toString(), deposedKey);
    src = undefined;
  }
  let prior: Value = nullVal(ty);
  if (src) {
    const r = await readPriorObject(ip, typeName, src, rc.declRange);
    diagnostics.push(...r.diagnostics);
    if (!r.value) return restoreOnFailure(run, addr, deposedKey, diagnostics);
    prior = r.value;
  }
  const [priorPlain] = unmarkDeep(prior);

  // Plan again with the final configuration and check it against the saved plan.
  const proposed = proposedNew(ip.schema.block, priorPlain, config);
  const pr = await ip.provider.planResourceChange({
    typeName,
    priorState: priorPlain,
    proposedNewState: proposed,
    config,
    ...(src?.private ? { priorPrivate: src.private } : {}),
  });
  diagnostics.push(...providerDiagnostics(pr.diagnostics, rc.declRange));
  if (hasErrors(diagnostics)) return restoreOnFailure(run, addr, deposedKey, diagnostics);
  const [savedPlanned] = unmarkDeep(ch.change.after);
  diagnostics.push(
    ...providerDiagnostics(
      checkFinalPlan({ schema: ip.schema.block, planned: savedPlanned, final: pr.plannedState, providerAddr: ip.addr.provider.toString(), addr: addr.toString() }),
      rc.declRange,
    ),
  );
  if (hasErrors(diagnostics)) return restoreOnFailure(run, addr, deposedKey, diagnostics);

  run.opts.hooks.preApply?.(addr, "", ch.change.action, prior, pr.plannedState);
  const ar = await ip.provider.applyResourceChange({
    typeName,
    priorState: priorPlain,
    plannedState: pr.plannedState,
    config,
    ...(pr.plannedPrivate.length > 0 ? { plannedPrivate: pr.plannedPrivate } : {}),
  });
  const applyDiags = providerDiagnostics(ar.diagnostics, rc.declRange);
  let newState = unknownAsNull(ar.newState);
  // The result is held to the plan only when the provider reports success (as OpenTofu does).
  if (!hasErrors(applyDiags)) {
    const checked = checkApplyResult({
      schema: ip.schema.block,
      planned: pr.plannedState,
      newState: ar.newState,
      providerAddr: ip.addr.provider.toString(),
      addr: addr.toString(),
      legacyTypeSystem: ar.legacyTypeSystem,
    });
    applyDiags.push(...providerDiagnostics(checked.diagnostics, rc.declRange));
    newState = checked.newState;
  }
  diagnostics.push(...applyDiags);
  const failed = hasErrors(applyDiags);
  run.opts.hooks.postApply?.(addr, "", ch.change.action, newState, failed);

  if (newState.kind === "null") {
    // The provider says no object exists (a failed create, or an update that lost the object).
    run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
    return failed ? restoreOnFailure(run, addr, deposedKey, diagnostics) : diagnostics;
  }
  const value = markSensitiveBySchema(ip.schema.block, remark(newState, configMarks));
  diagnostics.push(
    ...writeObject(run, addr, ip, value, {
      // A create that failed part-way leaves an object that must be replaced next time.
      status: failed && prior.kind === "null" ? "tainted" : "ready",
      dependencies: run.dependencies.get(nodeName(n)) ?? [],
      createBeforeDestroy: rc.managed?.createBeforeDestroy ?? false,
      ...(ar.private.length > 0 ? { private: ar.private } : {}),
    }),
  );
  return diagnostics;
}

function restoreOnFailure(run: RunState, addr: Extract<GraphNode, { kind: "applyInstance" }>["change"]["addr"], deposedKey: string, diagnostics: Diagnostic[]): Diagnostic[] {
  if (deposedKey !== NotDeposed && !run.state.resourceInstanceObject(addr)) {
    if (run.state.maybeRestoreResourceInstanceDeposed(addr, deposedKey)) run.deposedDuringApply.delete(addr.toString());
  }
  return diagnostics;
}

export async function destroyInstance(run: RunState, n: Extract<GraphNode, { kind: "destroyInstance" }>): Promise<Diagnostic[]> {
  const ch = n.change;
  const addr = ch.addr;
  let deposedKey = ch.deposedKey;
  if (ch.change.action === "CreateThenDelete") {
    const k = run.deposedDuringApply.get(addr.toString());
    if (k === undefined) return []; // the replacement was not created: the old object stays current
    deposedKey = k;
  }
  const src = run.state.resourceInstanceObject(addr, deposedKey);
  if (!src) return [];
  const provider = run.providers.instance(ch.providerAddr, ch.providerKey);
  const res = addr.resource.resource;
  const schema = run.providers.resourceTypeSchema(ch.providerAddr.provider, res.mode, res.type);
  if (!provider || !schema) {
    return [{ severity: "error", summary: "Provider configuration not present", detail: `To destroy ${addr.toString()} the provider ${ch.providerAddr.instanceString(ch.providerKey)} is required.` }];
  }
  const forget = () => {
    if (deposedKey !== NotDeposed) run.state.forgetResourceInstanceDeposed(addr, deposedKey);
    else run.state.setResourceInstanceCurrent(addr, undefined, ch.providerAddr, ch.providerKey);
    run.state.removeResourceIfEmpty(addr.containingResource());
  };
  if (res.mode === "data") {
    forget();
    return [];
  }
  const ip: InstanceProvider = { addr: ch.providerAddr, key: ch.providerKey, provider, schema };
  const prior = await readPriorObject(ip, res.type, src, undefined);
  const diagnostics = [...prior.diagnostics];
  if (!prior.value) return diagnostics;
  const [priorPlain] = unmarkDeep(prior.value);
  const ty = impliedType(schema.block);
  run.opts.hooks.preApply?.(addr, deposedKey, "Delete", prior.value, nullVal(ty));
  const ar = await provider.applyResourceChange({
    typeName: res.type,
    priorState: priorPlain,
    plannedState: nullVal(ty),
    config: nullVal(ty),
    ...(src.private ? { plannedPrivate: src.private } : {}),
  });
  diagnostics.push(...providerDiagnostics(ar.diagnostics, undefined));
  run.opts.hooks.postApply?.(addr, deposedKey, "Delete", ar.newState, hasErrors(diagnostics));
  if (hasErrors(diagnostics)) return diagnostics;
  forget();
  return diagnostics;
}
