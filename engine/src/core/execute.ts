// Node executors shared by plan and apply (OpenTofu's Execute methods of NodeRootVariable,
// nodeModuleVariable, NodeLocal, NodeApplyableOutput, nodeExpandModule and NodeApplyableProvider),
// and the dispatcher the graph walk calls for every vertex.
import {
  AbsOutputValue,
  AbsResourceInstance,
  NoKey,
  OutputValue,
  ResourceInstance,
  Resource as ResourceAddr,
  RootModuleInstance,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import { configBodyJustAttributes, exprVariables, inputVariableDeclaration, modulePathString, resourceAddrString, unionBody } from "../configs/index.js";
import { evalVariableValidations, markVariableValue, prepareFinalInputVariableValue } from "../configs/inputvars/index.js";
import { deprecatedVariableWarning } from "./deprecation.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { WalkContext } from "../graph/index.js";
import { evaluateAny } from "../lang/eval/index.js";
import { sensitiveOutputDiagnostics } from "./output_sensitivity.js";
import { EPHEMERAL, SENSITIVE, DynamicVal, withMarks, containsMarked, hasMark, isWhollyKnown, nullVal, rawEquals, unmarkDeep, unmarkDeepWithPaths, type Value } from "../values/index.js";
import { evalScope, resourceInstanceValue } from "./evaluate.js";
import { NO_REPETITION, evaluateExpansion, expansionKeys, repetitionFor, type RepetitionData } from "./expand.js";
import { assertNever } from "../values/index.js";
import type { GraphNode } from "./nodes.js";
import type { OutputChange } from "../plans/index.js";
import type { RunState } from "./run.js";
import { blockReferences, decodeBody } from "./schemabody.js";
import { planOrphanInstance, planResource, planResourceInstance, planOrphanResource } from "./plan_instance.js";
import { applyInstance, destroyInstance, expandResourceForApply } from "./apply_instance.js";
import { checkReferences, evalCheckRules, refersBeyondVariables, resourceCheckable, resourceConditions } from "./conditions.js";
import { instancePrefix, reportVariableCheckables, reportVariableValidations, runChecks } from "./checks.js";
import { forgetInstance } from "./removed.js";
import { targetedWalkContext } from "./targeting.js";
import { unsupportedProvisioners } from "./provisioners.js";
import { closeEphemeralResource, openEphemeralResource } from "./ephemeral.js";
import { unknownAsNull } from "../providers/index.js";
import { ephemeralOutputDiagnostics, ephemeralVariableDiagnostics } from "./ephemeral_values.js";

/** Runs one vertex; the diagnostics it returns decide whether the walk counts it as failed. */
export async function executeNode(run: RunState, n: GraphNode, wctx: WalkContext<GraphNode>): Promise<Diagnostic[]> {
  switch (n.kind) {
    case "variable":
      return evalModuleVariable(run, n);
    case "variableValidation":
      return evalModuleVariableValidation(run, n);
    case "local":
      return evalLocal(run, n);
    case "output":
      return evalOutput(run, n);
    case "moduleCall":
      return expandModuleCall(run, n);
    case "provider":
      return configureProvider(run, n);
    case "resource": {
      if (n.config.mode === "ephemeral") {
        const opened = await openEphemeralResource(run, n);
        reportResourceCheckables(run, n);
        return opened;
      }
      // Provisioners this engine cannot run fail the plan, not the apply half-way through.
      if (run.opts.operation === "plan") {
        const unsupported = unsupportedProvisioners(n.config);
        if (unsupported.length > 0) return unsupported;
      }
      const diags = run.opts.operation === "plan" ? await planResource(run, n, targetedWalkContext(n, wctx, run.opts)) : await expandResourceForApply(run, n);
      reportResourceCheckables(run, n);
      return diags;
    }
    case "orphanResource":
      return planOrphanResource(run, n, targetedWalkContext(n, wctx, run.opts));
    case "planInstance":
      return planResourceInstance(run, n);
    case "planOrphan":
      return planOrphanInstance(run, n);
    case "applyInstance":
      return n.change.change.action === "NoOp" ? recheckUnchangedInstance(run, n) : applyInstance(run, n);
    case "destroyInstance":
      return destroyInstance(run, n);
    case "forgetInstance":
      return forgetInstance(run, n);
    case "check":
      return evalCheckBlock(run, n);
    case "ephemeralClose":
      return closeEphemeralResource(run, n);
    default:
      return assertNever(n);
  }
}

function staticPathOf(m: ModuleInstance): string[] {
  return m.steps.map((s) => s.name);
}

async function evalModuleVariable(run: RunState, n: Extract<GraphNode, { kind: "variable" }>): Promise<Diagnostic[]> {
  // Root module variables are set from the caller's values before the walk; their problems are
  // reported here, so that what refers to them is skipped.
  if (n.module.length === 0) {
    const diags = run.rootVariableDiagnostics.get(n.name) ?? [];
    run.rootVariableDiagnostics.delete(n.name);
    return diags;
  }
  const diagnostics: Diagnostic[] = [];
  const cfg = run.moduleConfig(n.module);
  const parentCfg = run.moduleConfig(n.module.slice(0, -1));
  const v = cfg?.module.variables.get(n.name);
  const call = parentCfg?.module.moduleCalls.get(n.module[n.module.length - 1] ?? "");
  if (!v || !call) return diagnostics;
  const attr = configBodyJustAttributes(call.config).attributes.get(n.name);
  const deprecated = attr ? deprecatedVariableWarning(call, v, attr.range, run.opts.deprecationWarnings) : undefined;
  if (deprecated) diagnostics.push(deprecated);
  const decl = inputVariableDeclaration(v);
  const instances = run.expander.moduleInstances(n.module);
  // Every instance is checkable, whether or not its rules get to run.
  if (decl.validations.length > 0) reportVariableCheckables(run, n.module, n.name, instances);
  for (const inst of instances) {
    let raw: Value | undefined;
    if (attr) {
      const scope = evalScope(run, { module: inst.parent(), repetition: run.expander.moduleRepetitionData(inst), hasCount: !!call.count, hasForEach: !!call.forEach }, exprVariables(attr.expr));
      diagnostics.push(...scope.diagnostics);
      const r = evaluateAny(attr.expr, scope.ctx);
      diagnostics.push(...r.diagnostics);
      raw = r.value;
    }
    if (raw) {
      const eph = ephemeralVariableDiagnostics(n.name, decl.ephemeral, raw, attr?.expr.range);
      diagnostics.push(...eph);
      if (hasErrors(eph)) continue;
    }
    const fin = prepareFinalInputVariableValue({ value: raw, sourceType: "config", sourceRange: attr?.expr.range }, decl, `${inst.toString()}.var.${n.name}`);
    diagnostics.push(...fin.diagnostics);
    const value = markVariableValue(fin.value, decl);
    run.values.set("var", inst, n.name, value);
    // Its validation rules run in their own node once everything they refer to is known.
    if (!hasErrors(fin.diagnostics)) run.validatable.add(`${inst.toString()}|${n.name}`);
  }
  return diagnostics;
}

/**
 * A variable's validation rules (OpenTofu's nodeVariableValidation) — a child module variable's
 * all, a root variable's those that refer to more than variables — in each instance of the module
 * whose value converted cleanly, evaluated in the module's own scope: other variables, locals and
 * whatever else the rules refer to are known by now.
 */
async function evalModuleVariableValidation(run: RunState, n: Extract<GraphNode, { kind: "variableValidation" }>): Promise<Diagnostic[]> {
  const v = run.moduleConfig(n.module)?.module.variables.get(n.name);
  if (!v) return [];
  const all = inputVariableDeclaration(v);
  // A root variable's other rules ran before the walk, with the root variables.
  const picked = all.validations.flatMap((rule, index) => (n.module.length > 0 || refersBeyondVariables(rule) ? [{ rule, index }] : []));
  const indices = picked.map((p) => p.index);
  const decl = { ...all, validations: picked.map((p) => p.rule) };
  const traversals = v.validations.filter((r) => n.module.length > 0 || refersBeyondVariables(r)).flatMap(checkReferences);
  const call = run.moduleConfig(n.module.slice(0, -1))?.module.moduleCalls.get(n.module[n.module.length - 1] ?? "");
  const valueRange = call ? configBodyJustAttributes(call.config).attributes.get(n.name)?.expr.range : undefined;
  const diagnostics: Diagnostic[] = [];
  for (const inst of run.expander.moduleInstances(n.module)) {
    const value = run.values.get("var", inst, n.name);
    if (!value || !run.validatable.has(`${inst.toString()}|${n.name}`)) continue;
    const scope = evalScope(run, { module: inst, repetition: NO_REPETITION }, traversals);
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const names = scope.ctx.variables ?? new Map<string, Value>();
    const vars = names.get("var");
    const variables = new Map<string, Value>(vars?.kind === "object" ? vars.attrs : []);
    const checked = evalVariableValidations(decl, value, { variables, roots: names, functions: scope.ctx.functions, ...(valueRange ? { valueRange } : {}) });
    reportVariableValidations(run, inst, n.name, indices, checked.statuses);
    diagnostics.push(...checked.diagnostics);
  }
  return diagnostics;
}

async function evalLocal(run: RunState, n: Extract<GraphNode, { kind: "local" }>): Promise<Diagnostic[]> {
  const l = run.moduleConfig(n.module)?.module.locals.get(n.name);
  if (!l) return [];
  const diagnostics: Diagnostic[] = [];
  for (const inst of run.expander.moduleInstances(n.module)) {
    const scope = evalScope(run, { module: inst, repetition: NO_REPETITION }, exprVariables(l.expr));
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) {
      run.values.set("local", inst, n.name, DynamicVal);
      continue;
    }
    const r = evaluateAny(l.expr, scope.ctx);
    diagnostics.push(...r.diagnostics);
    run.values.set("local", inst, n.name, r.value);
  }
  return diagnostics;
}

async function evalOutput(run: RunState, n: Extract<GraphNode, { kind: "output" }>): Promise<Diagnostic[]> {
  const o = run.moduleConfig(n.module)?.module.outputs.get(n.name);
  if (!o?.expr) return [];
  const diagnostics: Diagnostic[] = [];
  const configAddr = `${n.module.length === 0 ? "" : `${modulePathString(n.module)}.`}output.${n.name}`;
  for (const inst of run.expander.moduleInstances(n.module)) {
    // Preconditions first: a failed one stops the output's evaluation (not checked while destroying).
    if (!run.opts.destroy) {
      const objectAddr = `${instancePrefix(inst)}output.${n.name}`;
      runChecks(run).reportCheckableObjects(configAddr, [objectAddr]);
      const pre = evalCheckRules(run, "OutputPrecondition", o.preconditions, { configAddr, objectAddr }, { module: inst, repetition: NO_REPETITION }, run.opts.refreshOnly ? "warning" : "error");
      diagnostics.push(...pre);
      if (hasErrors(pre)) continue;
    }
    const scope = evalScope(run, { module: inst, repetition: NO_REPETITION }, exprVariables(o.expr));
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const r = evaluateAny(o.expr, scope.ctx);
    diagnostics.push(...r.diagnostics);
    if (hasErrors(r.diagnostics)) continue;
    let value = r.value;
    const eph = ephemeralOutputDiagnostics(o, value, inst.isRoot());
    diagnostics.push(...eph);
    if (hasErrors(eph)) continue;
    // Everything read from an ephemeral output is ephemeral, whatever it was set to.
    if (o.ephemeral) value = withMarks(value, EPHEMERAL);
    if (inst.isRoot() && !o.sensitive) {
      const sens = sensitiveOutputDiagnostics(o, value);
      diagnostics.push(...sens);
      if (hasErrors(sens)) continue;
    }
    if (o.sensitive) value = markSensitive(value);
    run.values.set("output", inst, n.name, value);
    if (!inst.isRoot()) {
      // Not in a destroy plan, which evaluates module outputs only for what reads them.
      if (run.opts.operation === "plan" && !run.opts.destroy) run.childOutputChanges.push({ module: inst, name: n.name, created: unmarkDeep(value)[0].kind !== "null" });
      continue;
    }
    const [plain] = unmarkDeep(value);
    // `terrace import` walks the plan graph with only the state it writes (no previous-run
    // state): that state takes outputs as an apply's does.
    if (run.opts.operation === "plan" && run.prevRunState) {
      // The change's "before" is read from the state first, so it is computed before the write below.
      run.outputChanges.push(outputChange(run, n.name, value, o.sensitive));
      // OpenTofu's NodeApplyableOutput also records a wholly known value in the refreshed state,
      // so the plan's prior state carries the outputs as they are now.
      if (isWhollyKnown(plain)) setRootOutputValue(run, n.name, plain, o.sensitive);
    } else {
      setRootOutputValue(run, n.name, plain, o.sensitive);
    }
  }
  return diagnostics;
}

/**
 * OpenTofu's setValue for a root output: null removes it; otherwise whatever is still unknown
 * (an output of a resource a refresh-only apply never created) is stored as null.
 */
function setRootOutputValue(run: RunState, name: string, plain: Value, sensitive: boolean): void {
  if (plain.kind === "null") run.state.removeOutputValue(name);
  else run.state.setOutputValue(name, unknownAsNull(plain), sensitive);
}

function markSensitive(v: Value): Value {
  return hasMark(v, SENSITIVE) ? v : { ...v, marks: new Set([...v.marks, SENSITIVE]) };
}

/** The planned change of a root output (OpenTofu's NodeApplyableOutput in plan mode). */
export function outputChange(run: RunState, name: string, after: Value, sensitive: boolean): OutputChange {
  const prior = run.state.outputValue(name);
  const before = prior ? prior.value : nullVal(after.type);
  const [plainAfter] = unmarkDeep(after);
  let action: OutputChange["change"]["action"];
  // Null before and after is a no-op even for a new output (checked first, as OpenTofu does).
  if (plainAfter.kind === "null" && unmarkDeep(before)[0].kind === "null") action = "NoOp";
  else if (!prior) action = "Create";
  else if (isWhollyKnown(plainAfter) && rawEquals(unmarkDeep(before)[0], plainAfter) && prior.sensitive === sensitive) action = "NoOp";
  else action = "Update";
  return {
    addr: new AbsOutputValue(RootModuleInstance, new OutputValue(name)),
    sensitive: sensitive || (prior?.sensitive ?? false),
    change: { action, before, after, generatedConfig: "" },
  };
}

/** A root output the configuration no longer declares (or every output, in a destroy plan). */
export function deletedOutputChange(run: RunState, name: string): OutputChange | undefined {
  const prior = run.state.outputValue(name);
  if (!prior) return undefined;
  return {
    addr: new AbsOutputValue(RootModuleInstance, new OutputValue(name)),
    sensitive: prior.sensitive,
    change: { action: "Delete", before: prior.value, after: nullVal(prior.value.type), generatedConfig: "" },
  };
}

async function expandModuleCall(run: RunState, n: Extract<GraphNode, { kind: "moduleCall" }>): Promise<Diagnostic[]> {
  const call = run.moduleConfig(n.module)?.module.moduleCalls.get(n.name);
  if (!call) return [];
  const diagnostics: Diagnostic[] = [];
  const byParent: Array<{ parent: ModuleInstance; expansion: NonNullable<ReturnType<typeof evaluateExpansion>["expansion"]> }> = [];
  for (const parent of run.expander.moduleInstances(n.module)) {
    const t = [...(call.count ? exprVariables(call.count) : []), ...(call.forEach ? exprVariables(call.forEach) : []), ...(call.enabled ? exprVariables(call.enabled) : [])];
    const scope = evalScope(run, { module: parent, repetition: NO_REPETITION }, t);
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const e = evaluateExpansion(call.count, call.forEach, scope.ctx, call.enabled);
    diagnostics.push(...e.diagnostics);
    if (e.expansion) byParent.push({ parent, expansion: e.expansion });
  }
  run.expander.setModuleCallExpansions(n.module, n.name, byParent);
  return diagnostics;
}

async function configureProvider(run: RunState, n: Extract<GraphNode, { kind: "provider" }>): Promise<Diagnostic[]> {
  const schema = run.providers.providerSchema(n.addr.provider);
  if (!schema) return []; // reported when schemas were loaded
  const diagnostics: Diagnostic[] = [];
  // Provider blocks are not allowed in modules with count/for_each, so there is one module instance.
  const inst = run.expander.moduleInstances(n.module)[0] ?? RootModuleInstance;
  const body = n.config?.config ?? unionBody([]);
  const instances: Array<{ key: InstanceKey; rep: RepetitionData }> = [];
  if (n.config?.instances) {
    for (const [k, r] of n.config.instances) instances.push({ key: { kind: "StringKey", value: k }, rep: { eachKey: r.eachKey, eachValue: r.eachValue } });
  } else {
    instances.push({ key: NoKey, rep: NO_REPETITION });
  }
  for (const { key, rep } of instances) {
    // A preconfigured instance (a test's mock_provider) takes no configuration at all.
    const started = await run.providers.start(n.addr, key);
    diagnostics.push(...started.diagnostics);
    if (!started.configure) continue;
    const scope = evalScope(run, { module: inst, repetition: rep, hasForEach: n.config?.instances !== undefined }, blockReferences(body, schema.provider.block));
    diagnostics.push(...scope.diagnostics);
    if (hasErrors(scope.diagnostics)) continue;
    const decoded = decodeBody(body, schema.provider.block, scope.ctx);
    diagnostics.push(...decoded.diagnostics);
    if (hasErrors(decoded.diagnostics)) continue;
    const [plain] = unmarkDeep(decoded.value);
    diagnostics.push(...(await run.providers.configure(n.addr, key, plain, n.config?.config)));
  }
  return diagnostics;
}

/** The instances of a resource with conditions, for the check results (also when there are none). */
function reportResourceCheckables(run: RunState, n: Extract<GraphNode, { kind: "resource" }>): void {
  const rc = n.config;
  if (rc.preconditions.length + rc.postconditions.length === 0) return;
  const resAddr = new ResourceAddr(rc.mode, rc.type, rc.name);
  for (const inst of run.expander.moduleInstances(n.module)) {
    const exp = run.expander.resourceExpansion(inst, resourceAddrString(rc));
    if (!exp) continue;
    const addrs = expansionKeys(exp).map((k) => new AbsResourceInstance(inst, new ResourceInstance(resAddr, k)));
    const first = addrs[0];
    const configAddr = first ? resourceCheckable(first, rc).configAddr : `${n.module.length === 0 ? "" : `${modulePathString(n.module)}.`}${resourceAddrString(rc)}`;
    runChecks(run).reportCheckableObjects(configAddr, addrs.map((a) => a.toString()));
  }
}

/**
 * Apply of an unchanged instance with conditions (NodeApplyableResourceInstance with a NoOp
 * change): its conditions are checked again against the values known now.
 */
async function recheckUnchangedInstance(run: RunState, n: Extract<GraphNode, { kind: "applyInstance" }>): Promise<Diagnostic[]> {
  const addr = n.change.addr;
  const exp = run.expander.resourceExpansion(addr.module, resourceAddrString(n.config));
  const rep = exp ? repetitionFor(exp, addr.resource.key) : NO_REPETITION;
  const diagnostics = resourceConditions(run, "pre", addr, n.config, rep);
  if (hasErrors(diagnostics)) return diagnostics;
  diagnostics.push(...resourceConditions(run, "post", addr, n.config, rep, resourceInstanceValue(run, addr, n.config)));
  return diagnostics;
}

/** A `check` block (nodeCheckAssert): its assertions in each module instance, failures as warnings. */
async function evalCheckBlock(run: RunState, n: Extract<GraphNode, { kind: "check" }>): Promise<Diagnostic[]> {
  const c = run.moduleConfig(n.module)?.module.checks.get(n.name);
  if (!c || run.opts.destroy) return [];
  const diagnostics: Diagnostic[] = [];
  const configAddr = `${n.module.length === 0 ? "" : `${modulePathString(n.module)}.`}check.${n.name}`;
  for (const inst of run.expander.moduleInstances(n.module)) {
    const objectAddr = `${instancePrefix(inst)}check.${n.name}`;
    runChecks(run).reportCheckableObjects(configAddr, [objectAddr]);
    // A nested data source that could not be read has failed the block already (plan_data.ts).
    const status = runChecks(run).objectCheckStatus(configAddr, objectAddr);
    if (status === "fail" || status === "error") continue;
    diagnostics.push(...evalCheckRules(run, "CheckAssertion", c.asserts, { configAddr, objectAddr }, { module: inst, repetition: NO_REPETITION }, "warning"));
  }
  return diagnostics;
}

export { staticPathOf };
