// The check results of one run (OpenTofu's internal/checks.State and states.NewCheckResults):
// which configuration objects have conditions (resources with preconditions or postconditions,
// outputs with preconditions, `check` blocks, variables with validation rules), which instances
// each expanded into, and the status of every rule of every instance. A rule never evaluated is
// unknown; an object's status and a configuration object's status aggregate their parts (error,
// then fail, then unknown, else pass). The results go to the plan and, after apply, to state.
import type { ModuleInstance } from "../addrs/index.js";
import { allConfigs, modulePathString, resourceAddrString, type Config } from "../configs/index.js";
import type { CheckResultAggregate, CheckResults, CheckStatus, CheckableKind } from "../states/index.js";
import type { ValidationResult } from "../configs/inputvars/index.js";
import type { RunState } from "./run.js";

export type CheckRuleType = "ResourcePrecondition" | "ResourcePostcondition" | "OutputPrecondition" | "CheckDataResource" | "CheckAssertion" | "InputValidation";

/** How diagnostics name each kind of rule (addrs.CheckRuleType.Description). */
export const CHECK_RULE_DESCRIPTION: Record<CheckRuleType, string> = {
  ResourcePrecondition: "Resource precondition",
  ResourcePostcondition: "Resource postcondition",
  OutputPrecondition: "Module output value precondition",
  CheckDataResource: "Check block data resource",
  CheckAssertion: "Check block assertion",
  InputValidation: "Input variable validation",
};

interface ObjectState {
  /** Status by `type#index`. */
  readonly statuses: Map<string, CheckStatus>;
  readonly failureMessages: string[];
}

interface ConfigCheckable {
  readonly kind: CheckableKind;
  readonly addr: string;
  readonly ruleCounts: Partial<Record<CheckRuleType, number>>;
  /** Undefined until the object has been expanded (its instances are not known yet). */
  objects: Map<string, ObjectState> | undefined;
}

function modulePrefix(path: readonly string[]): string {
  return path.length === 0 ? "" : `${modulePathString(path)}.`;
}

export function instancePrefix(m: ModuleInstance): string {
  return m.isRoot() ? "" : `${m.toString()}.`;
}

function summarize(statuses: Iterable<CheckStatus>): CheckStatus {
  let error = false;
  let fail = false;
  let unknown = false;
  for (const s of statuses) {
    if (s === "error") error = true;
    else if (s === "fail") fail = true;
    else if (s === "unknown") unknown = true;
  }
  return error ? "error" : fail ? "fail" : unknown ? "unknown" : "pass";
}

export class CheckState {
  private readonly configs = new Map<string, ConfigCheckable>();

  constructor(config: Config) {
    for (const c of allConfigs(config)) {
      const p = modulePrefix(c.path);
      for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values(), ...c.module.ephemeralResources.values()]) {
        if (r.preconditions.length + r.postconditions.length === 0) continue;
        this.add("resource", p + resourceAddrString(r), { ResourcePrecondition: r.preconditions.length, ResourcePostcondition: r.postconditions.length });
      }
      for (const [name, o] of c.module.outputs) if (o.preconditions.length > 0) this.add("output", `${p}output.${name}`, { OutputPrecondition: o.preconditions.length });
      // A nested data source is one more rule of its check block: a failed read fails the block.
      for (const [name, ch] of c.module.checks) this.add("check", `${p}check.${name}`, { CheckAssertion: ch.asserts.length, ...(ch.dataResource ? { CheckDataResource: 1 } : {}) });
      for (const [name, v] of c.module.variables) if (v.validations.length > 0) this.add("var", `${p}var.${name}`, { InputValidation: v.validations.length });
    }
  }

  private add(kind: CheckableKind, addr: string, ruleCounts: ConfigCheckable["ruleCounts"]): void {
    this.configs.set(addr, { kind, addr, ruleCounts, objects: undefined });
  }

  /** Whether the configuration object has any rules (ConfigHasChecks). */
  hasChecks(configAddr: string): boolean {
    return this.configs.has(configAddr);
  }

  /** The instances a configuration object expanded into (adds to what earlier module instances reported). */
  reportCheckableObjects(configAddr: string, objectAddrs: Iterable<string>): void {
    const c = this.configs.get(configAddr);
    if (!c) return;
    c.objects ??= new Map();
    for (const a of objectAddrs) if (!c.objects.has(a)) c.objects.set(a, { statuses: new Map(), failureMessages: [] });
  }

  reportCheckResult(configAddr: string, objectAddr: string, type: CheckRuleType, index: number, status: CheckStatus, failureMessage?: string): void {
    const c = this.configs.get(configAddr);
    if (!c) return;
    this.reportCheckableObjects(configAddr, [objectAddr]);
    const o = c.objects?.get(objectAddr);
    if (!o) return;
    o.statuses.set(`${type}#${index}`, status);
    if (status === "fail" && failureMessage) o.failureMessages.push(failureMessage);
  }

  /** The aggregate status of one object's rules so far (ObjectCheckStatus). */
  objectCheckStatus(configAddr: string, objectAddr: string): CheckStatus {
    const c = this.configs.get(configAddr);
    const o = c?.objects?.get(objectAddr);
    return c && o ? this.objectStatus(c, o) : "unknown";
  }

  private objectStatus(c: ConfigCheckable, o: ObjectState): CheckStatus {
    const all: CheckStatus[] = [];
    for (const [type, n] of Object.entries(c.ruleCounts)) for (let i = 0; i < (n ?? 0); i++) all.push(o.statuses.get(`${type}#${i}`) ?? "unknown");
    return summarize(all);
  }

  /**
   * The results as state and plans keep them (states.NewCheckResults), by configuration address;
   * undefined when the configuration has nothing to check (state files then record null).
   */
  results(): CheckResults | undefined {
    if (this.configs.size === 0) return undefined;
    const configResults: CheckResultAggregate[] = [];
    for (const c of [...this.configs.values()].sort((a, b) => (a.addr < b.addr ? -1 : a.addr > b.addr ? 1 : 0))) {
      if (!c.objects) {
        configResults.push({ objectKind: c.kind, configAddr: c.addr, status: "unknown", objects: [] });
        continue;
      }
      const objects = [...c.objects].map(([objectAddr, o]) => ({ objectAddr, status: this.objectStatus(c, o), failureMessages: [...o.failureMessages] }));
      objects.sort((a, b) => (a.objectAddr < b.objectAddr ? -1 : a.objectAddr > b.objectAddr ? 1 : 0));
      configResults.push({ objectKind: c.kind, configAddr: c.addr, status: summarize(objects.map((o) => o.status)), objects });
    }
    return { configResults };
  }
}

/** A variable's checkable configuration object (`module.m.var.x`). */
export function variableConfigCheckable(path: readonly string[], name: string): string {
  return `${modulePrefix(path)}var.${name}`;
}

/** A variable's checkable object in one module instance (`module.m[0].var.x`). */
export function variableObjectCheckable(module: ModuleInstance, name: string): string {
  return `${instancePrefix(module)}var.${name}`;
}

/**
 * The instances of a variable with validation rules, as checkable objects (none at all, for a
 * module call with count = 0, passes). A destroy walk reports none: its check results stay unknown.
 */
export function reportVariableCheckables(run: RunState, path: readonly string[], name: string, instances: readonly ModuleInstance[]): void {
  if (run.opts.destroy) return;
  runChecks(run).reportCheckableObjects(
    variableConfigCheckable(path, name),
    instances.map((m) => variableObjectCheckable(m, name)),
  );
}

/**
 * Records the outcome of some of a variable's validation rules in one module instance
 * (evalVariableValidations' ReportCheckResult); `indices` are the rules' positions in the
 * declaration, as some run before the walk and the others in it.
 */
export function reportVariableValidations(run: RunState, module: ModuleInstance, name: string, indices: readonly number[], results: readonly ValidationResult[]): void {
  if (run.opts.destroy) return;
  const configAddr = variableConfigCheckable(module.steps.map((s) => s.name), name);
  const objectAddr = variableObjectCheckable(module, name);
  results.forEach((r, i) => runChecks(run).reportCheckResult(configAddr, objectAddr, "InputValidation", indices[i] ?? i, r.status, r.failureMessage));
}

const byRun = new WeakMap<RunState, CheckState>();

/** The check state of a run, made from its configuration on first use. */
export function runChecks(run: RunState): CheckState {
  let s = byRun.get(run);
  if (!s) {
    s = new CheckState(run.config);
    byRun.set(run, s);
  }
  return s;
}
