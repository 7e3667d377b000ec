// Test-only helpers: load a configuration from in-memory files, the builtin provider factory,
// and plan/apply round trips that return what the tests compare.
import { Loader, MemoryFS, RootModuleInputs, rootModuleCall, type Config } from "../configs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { BuiltinTerraformProvider } from "../providers/index.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { State, newFile, writeStateFile } from "../states/index.js";
import type { InputValue } from "../configs/inputvars/index.js";
import type { Value } from "../values/index.js";
import { Context, type ContextOptions } from "./context.js";
import type { Plan } from "../plans/index.js";
import type { ProviderFactory } from "./providers.js";

/** Starts the builtin `terraform` provider; ids count up (`id-1`, `id-2`, …) so tests are stable. */
export function builtinFactory(): ProviderFactory & { started: () => number } {
  let n = 0;
  let started = 0;
  const f = async (p: Parameters<ProviderFactory>[0]) => {
    if (p.isBuiltIn() && p.type === "terraform") {
      started++;
      return { ok: true as const, provider: new BuiltinTerraformProvider({ newId: () => `id-${++n}` }) };
    }
    return { ok: false as const, diagnostics: [{ severity: "error" as const, summary: "Missing provider", detail: `No provider ${p.toString()} in tests.` }] };
  };
  return Object.assign(f, { started: () => started });
}

export function loadConfig(files: Record<string, string>, vars: Record<string, string> = {}): Config {
  const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
  const values = new Map(Object.entries(vars).map(([name, raw]) => [name, { kind: "string" as const, name, raw, source: "cli-arg" as const }]));
  const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(values), ".", "default") });
  if (hasErrors(r.diagnostics) || !r.config) throw new Error(`config errors: ${r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("; ")}`);
  return r.config;
}

export function inputs(vars: Record<string, Value>): Map<string, InputValue> {
  return new Map(Object.entries(vars).map(([k, v]) => [k, { value: v, sourceType: "cli-arg" as const }]));
}

export function errorsOf(diags: readonly Diagnostic[]): string[] {
  return diags.filter((d) => d.severity === "error").map((d) => `${d.summary}: ${d.detail}`);
}

/** Actions by address, as `addr: Action` lines (deposed objects marked). */
export function actions(plan: Plan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of plan.changes.resources) out[r.addr.toString() + (r.deposedKey ? ` (deposed ${r.deposedKey})` : "")] = r.change.action;
  return out;
}

/** Plans and applies `files` over `state`, failing the test on errors. */
export async function planAndApply(
  files: Record<string, string>,
  state: State = new State(),
  opts: { ctx?: Partial<ContextOptions>; variables?: Map<string, InputValue>; destroy?: boolean; factory?: ProviderFactory } = {},
): Promise<{ plan: Plan; state: State; planDiags: Diagnostic[]; applyDiags: Diagnostic[] }> {
  const config = loadConfig(files);
  const ctx = new Context({ providers: opts.factory ?? builtinFactory(), ...opts.ctx });
  const p = await ctx.plan(config, state, { variables: opts.variables ?? new Map(), mode: opts.destroy ? "destroy" : "normal" });
  if (hasErrors(p.diagnostics)) return { plan: p.plan, state, planDiags: p.diagnostics, applyDiags: [] };
  const a = await ctx.apply(p.plan, config);
  return { plan: p.plan, state: a.state, planDiags: p.diagnostics, applyDiags: a.diagnostics };
}

/** The steps of a scenario in testdata/: each step's files, in order. */
export function scenarioSteps(name: string): Array<Record<string, string>> {
  const dir = join(import.meta.dirname, "testdata", name);
  return readdirSync(dir)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(a) - Number(b))
    .map((step) => {
      const files: Record<string, string> = {};
      for (const f of readdirSync(join(dir, step))) files[f] = readFileSync(join(dir, step, f), "utf8");
      return files;
    });
}

/** The state as terraform.tfstate would hold it, parsed: attributes by instance address. */
export function stateAttributes(state: State): Record<string, unknown> {
  const w = writeStateFile(newFile(state, "lineage", 1));
  if (!w.ok) throw new Error("state did not serialize");
  return attributesFromStateJSON(w.text);
}

interface StateJSON {
  outputs?: Record<string, { value: unknown; sensitive?: boolean }>;
  resources?: Array<{ module?: string; mode: string; type: string; name: string; instances: Array<{ index_key?: string | number; attributes: unknown; deposed?: string; sensitive_attributes?: unknown }> }>;
}

/** Attributes by instance address (and outputs as `output.NAME`) from state file text. */
export function attributesFromStateJSON(text: string): Record<string, unknown> {
  const doc = JSON.parse(text) as StateJSON;
  const out: Record<string, unknown> = {};
  for (const r of doc.resources ?? []) {
    const base = `${r.module ? `${r.module}.` : ""}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    for (const is of r.instances) {
      const key = is.index_key === undefined ? "" : typeof is.index_key === "number" ? `[${is.index_key}]` : `[${JSON.stringify(is.index_key)}]`;
      out[base + key + (is.deposed ? ` (deposed)` : "")] = is.attributes;
      if (Array.isArray(is.sensitive_attributes) && is.sensitive_attributes.length > 0) out[`${base}${key} sensitive_attributes`] = is.sensitive_attributes;
    }
  }
  for (const [k, o] of Object.entries(doc.outputs ?? {})) out[`output.${k}`] = { value: o.value, sensitive: o.sensitive ?? false };
  return out;
}

/** Random ids (UUIDs, and the test factory's id-N) replaced so runs compare. */
export function withoutIds<T>(v: T): T {
  return JSON.parse(JSON.stringify(v).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>").replace(/\bid-\d+\b/g, "<uuid>")) as T;
}
