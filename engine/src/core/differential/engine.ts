// Runs a scenario with core, as the CLI would for the same steps: configuration from in-memory
// files, `-var` values parsed against the root variables, Context.plan with the step's options,
// Context.apply of that plan, state edits as `taint`/`untaint`/`state rm` make them; each step
// observed in the shape terraform.ts records.
import { NoKey, parseAbsResourceInstanceStr, parseTargetStr } from "../../addrs/index.js";
import { Loader, MemoryFS, RootModuleInputs, inputVariableDeclarations, rootModuleCall, type Config } from "../../configs/index.js";
import { collectVariableValues, parseVariableValues, type InputValue } from "../../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../../hcl/index.js";
import type { Plan } from "../../plans/index.js";
import { BuiltinTerraformProvider, localRemoteStateBackend } from "../../providers/index.js";
import { State, newFile, writeStateFile } from "../../states/index.js";
import { Context, type PlanOptions } from "../context.js";
import type { ProviderFactory } from "../providers.js";
import { deposedAddr, maskIds, sortDiags, stateFromFileText, type ChangeObs, type Diag, type PlanObs, type StateObs, type StepObs } from "./observation.js";
import { isEditStep, type EditStep, type RunStep, type Scenario } from "./scenario.js";

/**
 * The builtin provider with real UUIDs, as terraform makes them (masked before comparing), whose
 * `terraform_remote_state` reads `backend = "local"` state files from the step's files, as
 * terraform reads them from its working directory.
 */
function builtinFor(files: RunStep["files"]): ProviderFactory {
  const readFile = async (path: string) => {
    const text = files[path.replace(/^\.\//, "")];
    return text === undefined ? undefined : new TextEncoder().encode(text);
  };
  const remoteStateBackends = new Map([["local", localRemoteStateBackend(readFile, ".")]]);
  return async (p) =>
    p.isBuiltIn() && p.type === "terraform"
      ? { ok: true, provider: new BuiltinTerraformProvider({ remoteStateBackends }) }
      : { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: `Only the builtin terraform provider is available, not ${p.toString()}.` }] };
}

function diags(ds: readonly Diagnostic[]): { errors: Diag[]; warnings: Diag[] } {
  const errors: Diag[] = [];
  const warnings: Diag[] = [];
  for (const d of ds) (d.severity === "error" ? errors : warnings).push({ summary: d.summary, detail: d.detail ?? "" });
  return { errors: sortDiags(errors), warnings: sortDiags(warnings) };
}

function observeState(state: State): StateObs {
  const w = writeStateFile(newFile(state, "differential", 1));
  if (!w.ok) throw new Error("state did not serialize");
  return stateFromFileText(w.text);
}

function observePlan(plan: Plan, ds: readonly Diagnostic[]): PlanObs {
  const changes: Record<string, ChangeObs> = {};
  for (const rc of plan.changes.resources) {
    const addr = rc.deposedKey ? deposedAddr(changes, rc.addr.toString()) : rc.addr.toString();
    changes[addr] = {
      action: rc.change.action,
      ...(rc.actionReason !== "None" ? { reason: rc.actionReason } : {}),
      ...(!rc.prevRunAddr.equal(rc.addr) ? { prev: rc.prevRunAddr.toString() } : {}),
      ...(rc.change.importing ? { importing: rc.change.importing.id } : {}),
    };
  }
  const outputs: Record<string, string> = {};
  for (const oc of plan.changes.outputs) if (oc.addr.module.isRoot()) outputs[oc.addr.outputValue.name] = oc.change.action;
  return maskIds({ ...diags(ds), changes, outputs });
}

/** The configuration and root variable values of a step, or the diagnostics that stop it. */
function loadStep(step: RunStep): { config?: Config; variables: Map<string, InputValue>; diagnostics: Diagnostic[] } {
  const collected = collectVariableValues({
    env: {},
    args: Object.entries(step.vars ?? {}).map(([k, v]) => ({ flag: "-var" as const, value: `${k}=${v}` })),
    fs: { readFile: () => undefined, readDir: () => [] },
  });
  const diagnostics: Diagnostic[] = [...collected.diagnostics];
  const loader = new Loader({ fs: new MemoryFS({ ...step.files }), workingDir: "." });
  const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(collected.values), ".", "default") });
  diagnostics.push(...r.diagnostics);
  if (hasErrors(diagnostics) || !r.config) return { variables: new Map(), diagnostics };
  const parsed = parseVariableValues(collected.values, inputVariableDeclarations(r.config.module));
  diagnostics.push(...parsed.diagnostics);
  return { config: r.config, variables: parsed.values, diagnostics };
}

function parsed<T>(s: string, r: { result: T | undefined }): T {
  if (r.result === undefined) throw new Error(`scenario address ${s} does not parse`);
  return r.result;
}

function planOptions(step: RunStep, variables: Map<string, InputValue>): PlanOptions {
  return {
    mode: step.mode ?? "normal",
    refresh: step.refresh ?? true,
    variables,
    replace: (step.replace ?? []).map((s) => parsed(s, parseAbsResourceInstanceStr(s))),
    targets: (step.targets ?? []).map((s) => parsed(s, parseTargetStr(s)).subject),
  };
}

/** `terraform taint|untaint|state rm` on the state in hand (a copy). */
function editState(state: State, step: EditStep): State {
  const next = state.deepCopy();
  const subject = parsed(step.addr, parseTargetStr(step.addr)).subject;
  if (step.edit === "rm") {
    if (subject.kind === "AbsResource") next.module(subject.module)?.removeResource(subject.resource);
    else if (subject.kind === "AbsResourceInstance") next.module(subject.module)?.forgetResourceInstanceAll(subject.resource);
    else throw new Error(`state rm of ${step.addr} is not supported by the harness`);
    next.pruneModules();
    return next;
  }
  const addr = subject.kind === "AbsResourceInstance" ? subject : subject.kind === "AbsResource" ? subject.instance(NoKey) : undefined;
  const obj = addr ? next.resourceInstance(addr)?.current : undefined;
  if (!obj) throw new Error(`${step.edit} ${step.addr}: no such object in state`);
  obj.status = step.edit === "taint" ? "tainted" : "ready";
  return next;
}

async function runStep(step: RunStep, state: State): Promise<{ obs: StepObs; state: State }> {
  const loaded = loadStep(step);
  const same = (plan: PlanObs): { obs: StepObs; state: State } => ({ obs: { plan, state: observeState(state) }, state });
  if (!loaded.config || hasErrors(loaded.diagnostics)) return same({ ...diags(loaded.diagnostics), changes: {}, outputs: {} });
  const ctx = new Context({ providers: builtinFor(step.files) });
  const planned = await ctx.plan(loaded.config, state, planOptions(step, loaded.variables));
  const planDiags = [...loaded.diagnostics, ...planned.diagnostics];
  if (hasErrors(planDiags)) return same({ ...diags(planDiags), changes: {}, outputs: {} });
  const plan = observePlan(planned.plan, planDiags);
  if (step.planOnly) return same(plan);
  const applied = await ctx.apply(planned.plan, loaded.config);
  return { obs: { plan, apply: maskIds(diags(applied.diagnostics)), state: observeState(applied.state) }, state: applied.state };
}

/** Every step of `s` run with core, observed. A thrown error ends the scenario as an error. */
export async function runScenario(s: Scenario): Promise<StepObs[]> {
  let state = new State();
  const out: StepObs[] = [];
  for (const step of s.steps) {
    try {
      if (isEditStep(step)) {
        // Throws when an earlier step left no such object: that step already differs.
        state = editState(state, step);
        out.push({ state: observeState(state) });
        continue;
      }
      const r = await runStep(step, state);
      out.push(r.obs);
      state = r.state;
    } catch (e) {
      const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
      out.push({ plan: { errors: [{ summary: "core threw", detail }], warnings: [], changes: {}, outputs: {} }, state: observeState(state) });
      break;
    }
  }
  return out;
}
