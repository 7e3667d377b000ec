// Applying changes (OpenTofu's NodeApplyableResourceInstance, NodeDestroyResourceInstance and
// NodeDestroyDeposedResourceInstanceObject): the configuration is evaluated again with the
// applied values of everything it refers to, the change is planned again and checked against the
// saved plan ("Provider produced inconsistent final plan"), ApplyResourceChange runs, its result
// is checked, and the new object goes into state at once. A failed create that still returned an
// object keeps it (tainted), so nothing created is ever lost; a failed create_before_destroy
// replacement restores the deposed object.
import { resourceAddrString } from "../configs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { checkApplyResult, checkFinalPlan, impliedType, toleratedProblemsMessage, unknownAsNull } from "../providers/index.js";
import { coreLog } from "../logging/index.js";
import { NotDeposed } from "../states/index.js";
import { nullVal, numberIntVal, stringVal, unmarkDeep, type Value } from "../values/index.js";
import type { InstanceKey } from "../addrs/index.js";
import { providerDiagnostics, providerDiagnosticsInBody } from "./diags.js";
import { NO_REPETITION, repetitionFor, type RepetitionData } from "./expand.js";
import { evalInstanceConfig, instanceProvider, readPriorObject, remark, sameObject, sensitivePathsEqual, unmarkForProvider, writeObject, type InstanceProvider } from "./instance.js";
import type { Action } from "../plans/index.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { proposedNew } from "./objchange.js";
import { processIgnoreChanges, skipDestroyFor } from "./lifecycle.js";
import { applyDataInstance } from "./plan_data.js";
import { expandResource } from "./plan_instance.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";
import { resourceConditions } from "./conditions.js";
import { applyProvisioners, destroyProvisioners, resourceProvisioners } from "./provisioners.js";

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
  if (rc.mode === "data") return [...diagnostics, ...(await applyDataInstance(run, addr, rc, rep, ip))];
  const typeName = rc.type;
  const ty = impliedType(ip.schema.block);

  diagnostics.push(...resourceConditions(run, "pre", addr, rc, rep));
  if (hasErrors(diagnostics)) return diagnostics;
  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  let [config, configMarks] = unmarkForProvider(cfg.value);

  // The prior object: gone already for DeleteThenCreate; deposed first for CreateThenDelete;
  // for ForgetThenCreate dropped from state here, the remote object left as it is.
  let src = run.state.resourceInstanceObject(addr);
  let deposedKey = NotDeposed;
  if (ch.change.action === "ForgetThenCreate" && src) {
    run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
    src = undefined;
  }
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
  // ignore_changes applies again, as when planning (a tainted prior was planned as a create).
  if (src?.status !== "tainted") [config, configMarks] = unmarkForProvider(processIgnoreChanges(rc, prior, cfg.value, ip.schema.block));

  // Plan again with the final configuration and check it against the saved plan.
  const proposed = proposedNew(ip.schema.block, priorPlain, config);
  const pr = await ip.provider.planResourceChange({
    typeName,
    priorState: priorPlain,
    proposedNewState: proposed,
    config,
    ...(src?.private ? { priorPrivate: src.private } : {}),
  });
  diagnostics.push(...providerDiagnosticsInBody(pr.diagnostics, rc.config, addr.toString()));
  if (hasErrors(diagnostics)) return restoreOnFailure(run, addr, deposedKey, diagnostics);
  const [savedPlanned] = unmarkDeep(ch.change.after);
  diagnostics.push(
    ...providerDiagnostics(
      checkFinalPlan({ schema: ip.schema.block, planned: savedPlanned, final: pr.plannedState, providerAddr: ip.addr.provider.toString(), addr: addr.toString() }),
      rc.declRange,
    ),
  );
  if (hasErrors(diagnostics)) return restoreOnFailure(run, addr, deposedKey, diagnostics);

  const action = finalAction(prior, priorPlain, pr.plannedState, markSensitiveBySchema(ip.schema.block, remark(pr.plannedState, configMarks)));
  const log = coreLog();
  log.info(`Starting apply for ${addr.toString()}`);
  log.debug(`${addr.toString()}: applying the planned ${action} change`);
  run.opts.hooks.preApply?.(addr, "", action, prior, pr.plannedState);
  // Unknowns that resolved to the prior values leave nothing to apply: no provider call and no
  // state write, but the postconditions still hold the object to account.
  if (action === "NoOp") return [...diagnostics, ...resourceConditions(run, "post", addr, rc, rep, prior)];
  const ar = await ip.provider.applyResourceChange({
    typeName,
    priorState: priorPlain,
    plannedState: pr.plannedState,
    config,
    ...(pr.plannedPrivate.length > 0 ? { plannedPrivate: pr.plannedPrivate } : {}),
  });
  const applyDiags = providerDiagnosticsInBody(ar.diagnostics, rc.config, addr.toString());
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
    if (checked.tolerated.length > 0) coreLog().warn(toleratedProblemsMessage("apply", ip.addr.provider.toString(), addr.toString(), checked.tolerated));
    applyDiags.push(...providerDiagnostics(checked.diagnostics, rc.declRange));
    newState = checked.newState;
  }
  diagnostics.push(...applyDiags);
  const failed = hasErrors(applyDiags);
  // PostApply follows the state write, as in OpenTofu: what the UI reports done is in the state.
  const postApply = (provisionFailed = false) => run.opts.hooks.postApply?.(addr, "", action, newState, failed || provisionFailed);

  if (newState.kind === "null") {
    // The provider says no object exists (a failed create, or an update that lost the object).
    run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
    postApply();
    return failed ? restoreOnFailure(run, addr, deposedKey, diagnostics) : diagnostics;
  }
  const value = markSensitiveBySchema(ip.schema.block, remark(newState, configMarks));
  // A create (a replacement's too: its prior is gone) that failed, part-way or in a
  // provisioner, leaves an object that must be replaced next time (OpenTofu's maybeTainted).
  const creating = prior.kind === "null";
  const write = (tainted: boolean) =>
    writeObject(run, addr, ip, value, {
      status: tainted ? "tainted" : "ready",
      dependencies: run.dependencies.get(nodeName(n)) ?? [],
      // Forced create_before_destroy (a dependent is CBD) is recorded too, so later destroy
      // ordering keeps honouring it (OpenTofu's CreateBeforeDestroy on the apply node).
      createBeforeDestroy: run.createBeforeDestroy(n.module, resourceAddrString(rc), rc.managed?.createBeforeDestroy ?? false) || ch.change.action === "CreateThenDelete",
      skipDestroy: skipDestroyFor(rc),
      ...(ar.private.length > 0 ? { private: ar.private } : {}),
    });
  const tainted = failed && creating;
  diagnostics.push(...write(tainted));
  // Creation-time provisioners run once the new object is in state, on new objects only.
  if (creating && !hasErrors(diagnostics)) {
    const prov = await applyProvisioners(run, addr, resourceProvisioners(rc), rep, value, tainted, "create");
    diagnostics.push(...prov);
    if (hasErrors(prov)) {
      diagnostics.push(...write(true));
      postApply(true);
      return restoreOnFailure(run, addr, deposedKey, diagnostics);
    }
  }
  postApply();
  if (!hasErrors(diagnostics)) diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, value));
  return diagnostics;
}

/**
 * The action the final plan calls for at this node (OpenTofu's plan at apply, then reducePlan): a
 * replacement's prior object is gone or deposed by now, so it is a create (its destroy is the
 * destroy node's); an update whose unknowns came out as the prior values is a NoOp.
 */
function finalAction(prior: Value, priorPlain: Value, planned: Value, plannedMarked: Value): Action {
  if (prior.kind === "null") return "Create";
  return sameObject(planned, priorPlain) && sensitivePathsEqual(plannedMarked, prior) ? "NoOp" : "Update";
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
  const provider = run.providers.forResource(addr, ch.providerAddr, ch.providerKey);
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
  const log = coreLog();
  const who = deposedKey ? `${addr.toString()} (deposed object ${deposedKey})` : addr.toString();
  log.info(`Starting apply for ${who}`);
  log.debug(`${who}: applying the planned Delete change`);
  run.opts.hooks.preApply?.(addr, deposedKey, "Delete", prior.value, nullVal(ty));
  // Destroy-time provisioners run first, for the current object only; a failure keeps it.
  const provs = deposedKey === NotDeposed && res.mode === "managed" ? destroyProvisioners(run.config, addr) : undefined;
  if (provs) {
    const p = await applyProvisioners(run, addr, provs, keyRepetition(addr.resource.key), prior.value, src.status === "tainted", "destroy");
    diagnostics.push(...p);
    if (hasErrors(p)) {
      run.opts.hooks.postApply?.(addr, deposedKey, "Delete", prior.value, true);
      return diagnostics;
    }
  }
  const ar = await provider.applyResourceChange({
    typeName: res.type,
    priorState: priorPlain,
    plannedState: nullVal(ty),
    config: nullVal(ty),
    ...(src.private ? { plannedPrivate: src.private } : {}),
  });
  diagnostics.push(...providerDiagnostics(ar.diagnostics, undefined));
  if (!hasErrors(diagnostics)) forget();
  run.opts.hooks.postApply?.(addr, deposedKey, "Delete", ar.newState, hasErrors(diagnostics));
  return diagnostics;
}

/** count.index / each.key of an instance, from its key (destroy-time provisioners see only these). */
function keyRepetition(key: InstanceKey): RepetitionData {
  switch (key.kind) {
    case "IntKey":
      return { countIndex: numberIntVal(key.value) };
    case "StringKey":
      return { eachKey: stringVal(key.value) };
    default:
      return NO_REPETITION;
  }
}
