// What every planning case needs: its configuration and prior state read from the case
// directory, plan and apply through Context with the bundled `test` provider started as real
// plugin processes, and plain-data views (changes, diagnostics, state) to compare with the
// expectations of the case's expect.md.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import {
  instanceKeyString,
  parseAbsResourceInstanceStr,
  parseTargetStr,
  type AbsResourceInstance,
  type Provider as ProviderAddr,
  type Targetable,
} from "../../addrs/index.js";
import { Loader, MemoryFS, RootModuleInputs, rootModuleCall, type Config } from "../../configs/index.js";
import type { InputValue } from "../../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../../hcl/index.js";
import type { Plan } from "../../plans/index.js";
import { launchProvider } from "../../providers/index.js";
import { bundledProviderExecutable } from "../../providers-bundled/index.js";
import { State, newFile, readStateFile, writeStateFile } from "../../states/index.js";
import { UNKNOWN as NATIVE_UNKNOWN, toNative, type Native, type NativeObject } from "../../sdk/index.js";
import type { Value } from "../../values/index.js";
import { Context, type PlanOptions } from "../context.js";
import type { ProviderFactory } from "../providers.js";
import { checkFailure, checkPasses, type CaseResult, type Check } from "../../conformance.testkit.js";
import { RecordingProvider, type Call } from "./recording.js";

export type { CaseResult, Check } from "../../conformance.testkit.js";

/** The checks of one case, in the order expect.md states them. */
export class Checks {
  readonly list: Check[] = [];

  eq(name: string, got: unknown, want: unknown): void {
    this.list.push({ name, got, want });
  }

  /** A condition stated as a check; `got` says what was seen when it fails. */
  that(name: string, ok: boolean, seen: unknown): void {
    this.list.push({ name, got: ok ? true : { failed: seen }, want: true });
  }

  /**
   * Runs `fn` for every item at once (each plan starts its own provider processes, so running
   * independent plans together saves most of a case's time) and keeps the checks in item order,
   * so the first failing check does not depend on timing.
   */
  async each<T>(items: readonly T[], fn: (t: Checks, item: T) => Promise<void>): Promise<void> {
    const parts = await Promise.all(
      items.map(async (item) => {
        const c = new Checks();
        await fn(c, item);
        return c;
      }),
    );
    for (const c of parts) this.list.push(...c.list);
  }

  firstFailure(): Check | undefined {
    return this.list.find((c) => !checkPasses(c));
  }
}

/** Case result from its checks (an exception is the first failure). */
export async function runChecks(fill: (t: Checks) => Promise<void>): Promise<{ checks: Check[]; result: CaseResult }> {
  const t = new Checks();
  try {
    await fill(t);
  } catch (e) {
    t.eq("case ran to the end", `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, "no exception");
  }
  const bad = t.firstFailure();
  if (t.list.length === 0) return { checks: t.list, result: { ok: false, message: "no checks" } };
  if (!bad) return { checks: t.list, result: { ok: true, message: `${t.list.length} checks passed` } };
  return { checks: t.list, result: { ok: false, message: checkFailure(bad) } };
}

// ---------------------------------------------------------------------------------------------
// Configuration and state

const CONFIG_FILE = /\.(tf|tofu|tf\.json|tofu\.json)$/;

/** Every configuration file under `dir` (child modules included), by relative path. */
export function configFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else if (CONFIG_FILE.test(name)) out[r] = readFileSync(path.join(dir, r), "utf8");
    }
  };
  walk("");
  return out;
}

/** Loads the configuration in `files` (root module at "."), with root variables for static evaluation. */
export function loadConfig(files: Record<string, string>, vars: Record<string, string> = {}): { config: Config | undefined; diagnostics: Diagnostic[] } {
  const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
  const values = new Map(Object.entries(vars).map(([name, raw]) => [name, { kind: "string" as const, name, raw, source: "cli-arg" as const }]));
  const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(values), ".", "default") });
  return { config: r.config, diagnostics: r.diagnostics };
}

/** Loads a configuration that must load without errors. */
export function mustLoadConfig(files: Record<string, string>, vars: Record<string, string> = {}): Config {
  const r = loadConfig(files, vars);
  if (!r.config || hasErrors(r.diagnostics)) throw new Error(`configuration errors: ${diagText(r.diagnostics).join("; ")}`);
  return r.config;
}

/** The state in `file` (a v4 snapshot), or an empty state when there is no such file. */
export function readState(file: string): State {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return new State();
  }
  const r = readStateFile(text);
  if (r.kind !== "ok") throw new Error(`${file}: not a state: ${JSON.stringify(r)}`);
  return r.file.state;
}

/** The state as `terraform.tfstate` would hold it, parsed (the v4 writer's view). */
export function stateJSON(state: State): StateFileJSON {
  const w = writeStateFile(newFile(state, "lineage", 1));
  if (!w.ok) throw new Error(`state did not serialize: ${diagText(w.diagnostics).join("; ")}`);
  return JSON.parse(w.text) as StateFileJSON;
}

export interface StateInstanceJSON {
  index_key?: string | number;
  status?: string;
  deposed?: string;
  provider?: string;
  create_before_destroy?: boolean;
  attributes: Record<string, unknown>;
  dependencies?: string[];
}

export interface StateResourceJSON {
  module?: string;
  mode: string;
  type: string;
  name: string;
  provider?: string;
  instances: StateInstanceJSON[];
}

export interface StateFileJSON {
  outputs?: Record<string, { value: unknown }>;
  resources?: StateResourceJSON[];
}

/** Resource instance objects by address (deposed ones as `addr (deposed KEY)`). */
export function stateObjects(state: State): Record<string, StateInstanceJSON & { resourceProvider?: string }> {
  const out: Record<string, StateInstanceJSON & { resourceProvider?: string }> = {};
  for (const r of stateJSON(state).resources ?? []) {
    const base = `${r.module ? `${r.module}.` : ""}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    for (const is of r.instances) {
      const key = is.index_key === undefined ? "" : typeof is.index_key === "number" ? `[${is.index_key}]` : `[${JSON.stringify(is.index_key)}]`;
      out[base + key + (is.deposed ? ` (deposed ${is.deposed})` : "")] = r.provider === undefined ? is : { ...is, resourceProvider: r.provider };
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Providers

/** Which test-provider profile serves a provider address ("" = the default mocks). */
export type ProfileFor = (p: ProviderAddr) => string;

/**
 * Starts the bundled `test` provider as a real plugin process for any provider address: the
 * process serves `<type>_*` resource types (so hashicorp/aws gets LEGACY-AWS), with the case's
 * profile; every call is recorded in `log`.
 */
export function pluginFactory(profileFor: ProfileFor, log: Call[]): ProviderFactory {
  let started = 0;
  return async (p) => {
    const r = await launchProvider({
      command: bundledProviderExecutable("test"),
      // From source: the profiles live in src, and a dist built earlier may predate them.
      env: { TERRACE_TEST_PROVIDER_NAME: p.type, TERRACE_TEST_PROVIDER_PROFILE: profileFor(p), TERRACE_PROVIDERS_FROM_SOURCE: "1" },
      providerAddr: p.toString(),
    });
    if (!r.ok) return { ok: false, diagnostics: r.diagnostics.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail })) };
    return { ok: true, provider: new RecordingProvider(r.provider, p.toString(), ++started, log) };
  };
}

/** The options a case plans with, by address strings (the CLI's -replace, -target, -exclude). */
export interface CasePlanOptions {
  readonly mode?: "normal" | "destroy" | "refresh-only";
  readonly refresh?: boolean;
  readonly variables?: Readonly<Record<string, Value>>;
  readonly replace?: readonly string[];
  readonly targets?: readonly string[];
  readonly excludes?: readonly string[];
}

function instanceAddr(s: string): AbsResourceInstance {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result) throw new Error(`bad resource instance address ${s}`);
  return r.result;
}

function targetAddr(s: string): Targetable {
  const r = parseTargetStr(s);
  if (!r.result) throw new Error(`bad target address ${s}`);
  return r.result.subject;
}

export interface Run {
  readonly calls: Call[];
  readonly context: Context;
}

/** A Context whose providers are plugin processes of the given profile(s). */
export function newRun(profileFor: ProfileFor | string = ""): Run {
  const calls: Call[] = [];
  const pf = typeof profileFor === "string" ? () => profileFor : profileFor;
  return { calls, context: new Context({ providers: pluginFactory(pf, calls) }) };
}

export async function plan(run: Run, config: Config, prior: State, o: CasePlanOptions = {}): Promise<{ plan: Plan; diagnostics: Diagnostic[] }> {
  const variables = new Map<string, InputValue>(Object.entries(o.variables ?? {}).map(([k, v]) => [k, { value: v, sourceType: "cli-arg" as const }]));
  const opts: PlanOptions = {
    mode: o.mode ?? "normal",
    refresh: o.refresh ?? true,
    variables,
    ...(o.replace ? { replace: o.replace.map(instanceAddr) } : {}),
    ...(o.targets ? { targets: o.targets.map(targetAddr) } : {}),
    ...(o.excludes ? { excludes: o.excludes.map(targetAddr) } : {}),
  };
  const r = await run.context.plan(config, prior, opts);
  return { plan: r.plan, diagnostics: r.diagnostics };
}

export async function apply(run: Run, p: Plan, config: Config): Promise<{ state: State; diagnostics: Diagnostic[] }> {
  return run.context.apply(p, config);
}

export interface Step {
  readonly plan: Plan;
  /** The plan's diagnostics, then (when the plan had no errors) the apply's. */
  readonly diagnostics: Diagnostic[];
  /** The state after apply (the prior state when the plan failed). */
  readonly state: State;
}

/** OpenTofu's "apply" in these tests: plan, then apply the plan when planning succeeded. */
export async function planAndApply(run: Run, config: Config, prior: State, o: CasePlanOptions = {}): Promise<Step> {
  const p = await plan(run, config, prior, o);
  if (hasErrors(p.diagnostics)) return { plan: p.plan, diagnostics: p.diagnostics, state: prior };
  const a = await apply(run, p.plan, config);
  return { plan: p.plan, diagnostics: [...p.diagnostics, ...a.diagnostics], state: a.state };
}

// ---------------------------------------------------------------------------------------------
// Plain views

export function diagText(diags: readonly Diagnostic[]): string[] {
  return diags.map((d) => `${d.severity}: ${d.summary}${d.detail ? `: ${d.detail}` : ""}`);
}

export function errors(diags: readonly Diagnostic[]): string[] {
  return diagText(diags.filter((d) => d.severity === "error"));
}

export function warnings(diags: readonly Diagnostic[]): Array<{ summary: string; detail: string }> {
  return diags.filter((d) => d.severity === "warning").map((d) => ({ summary: d.summary, detail: d.detail ?? "" }));
}

export const UNKNOWN = "(unknown)";

/**
 * A value as plain data: the SDK's native view (numbers as numbers, marks dropped) with unknowns
 * as "(unknown)", so expectations are JSON, and object keys sorted, so failures read the same.
 */
export function plain(v: Value): unknown {
  return plainNative(toNative(v));
}

function plainNative(n: Native): unknown {
  if (n === NATIVE_UNKNOWN) return UNKNOWN;
  if (Array.isArray(n)) return n.map(plainNative);
  if (n === null || typeof n !== "object") return n;
  const obj = n as NativeObject;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort()) out[k] = plainNative(obj[k]);
  return out;
}

export interface ChangeView {
  action: string;
  reason: string;
  prevRunAddr: string;
  providerKey: string;
}

/** Resource instance changes by address (deposed objects as `addr (deposed KEY)`). */
export function changes(p: Plan): Record<string, ChangeView> {
  const out: Record<string, ChangeView> = {};
  for (const rc of p.changes.resources) {
    out[rc.addr.toString() + (rc.deposedKey ? ` (deposed ${rc.deposedKey})` : "")] = {
      action: rc.change.action,
      reason: rc.actionReason,
      prevRunAddr: rc.prevRunAddr.toString(),
      providerKey: rc.providerKey.kind === "NoKey" ? "" : instanceKeyString(rc.providerKey),
    };
  }
  return out;
}

/** Actions by address, the shape most expect.md lists use. */
export function actions(p: Plan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, c] of Object.entries(changes(p))) out[k] = c.action;
  return out;
}

/** The After value of one change, as plain data. */
export function after(p: Plan, addr: string, deposed = ""): unknown {
  const rc = p.changes.resources.find((r) => r.addr.toString() === addr && r.deposedKey === deposed);
  return rc ? plain(rc.change.after) : "(no change)";
}

/** An output's planned value, as plain data. */
export function outputAfter(p: Plan, name: string): unknown {
  const oc = p.changes.outputs.find((o) => o.addr.outputValue.name === name);
  return oc ? plain(oc.change.after) : "(no output change)";
}

/** RPC names called, in order (optionally for one type). */
export function rpcs(calls: readonly Call[], typeName?: string): string[] {
  return calls.filter((c) => typeName === undefined || c.typeName === typeName).map((c) => c.rpc);
}
