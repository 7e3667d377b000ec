// The contract checks seen from the outside: a real plugin process built on the SDK
// (testdata/misbehaving-provider.ts) breaks one rule per resource type, and the engine's own
// plan and apply walks (core's Context, launching it through launchProvider as the CLI does)
// must answer with OpenTofu's diagnostics and leave state as OpenTofu would.

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Loader, MemoryFS, RootModuleInputs, rootModuleCall, type Config } from "../../configs/index.js";
import { Context, type ProviderFactory } from "../../core/index.js";
import { hasErrors, type Diagnostic } from "../../hcl/index.js";
import { State, newFile, writeStateFile } from "../../states/index.js";
import { launchProvider } from "../plugin/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = createRequire(import.meta.url).resolve("tsx/esm");
const PROVIDER = "registry.opentofu.org/terrace/misbehave";
const BUG = "This is a bug in the provider, which should be reported in the provider's own issue tracker.";

/** Every provider this test needs is the misbehaving plugin, started as its own process. */
function factory(): ProviderFactory & { launched: () => number } {
  let launched = 0;
  const f: ProviderFactory = async (p) => {
    if (p.type !== "misbehave") return { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };
    launched++;
    return launchProvider({
      command: process.execPath,
      args: ["--import", tsx, path.join(here, "testdata", "misbehaving-provider.ts")],
      providerAddr: p.toString(),
      handshakeTimeoutMs: 30_000,
    });
  };
  return Object.assign(f, { launched: () => launched });
}

function loadConfig(main: string): Config {
  const files = { "main.tf": `terraform {\n  required_providers {\n    misbehave = { source = "terrace/misbehave" }\n  }\n}\n${main}` };
  const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
  const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(new Map()), ".", "default") });
  if (hasErrors(r.diagnostics) || !r.config) throw new Error(r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("; "));
  return r.config;
}

const errors = (diags: readonly Diagnostic[]): Array<[string, string]> =>
  diags
    .filter((d) => d.severity === "error")
    .map((d): [string, string] => [d.summary, d.detail ?? ""])
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

interface InstanceJSON {
  status?: string;
  attributes: Record<string, unknown>;
}

/** The state as its file would hold it: instances by address, with status and attributes. */
function instances(state: State): Record<string, InstanceJSON> {
  const w = writeStateFile(newFile(state, "lineage", 1));
  if (!w.ok) throw new Error("state did not serialize");
  const doc = JSON.parse(w.text) as { resources?: Array<{ type: string; name: string; instances: InstanceJSON[] }> };
  const out: Record<string, InstanceJSON> = {};
  for (const r of doc.resources ?? []) for (const is of r.instances) out[`${r.type}.${r.name}`] = { ...(is.status ? { status: is.status } : {}), attributes: is.attributes };
  return out;
}

describe("a misbehaving SDK provider, through plan and apply", () => {
  it("fails the plan with \"Provider produced invalid plan\" naming each bad attribute", { timeout: 60_000 }, async () => {
    const config = loadConfig(
      [
        'resource "misbehave_drop_config" "x" {\n  value = "a"\n}',
        'resource "misbehave_set_noncomputed" "x" {\n  value = "a"\n}',
        'resource "misbehave_block_count" "x" {\n  rule {\n    name = "a"\n  }\n}',
      ].join("\n"),
    );
    const f = factory();
    const prior = new State();
    const p = await new Context({ providers: f }).plan(config, prior);
    const invalid = (addr: string, msg: string): [string, string] => [
      "Provider produced invalid plan",
      `Provider "${PROVIDER}" planned an invalid value for ${addr}: ${msg}.\n\n${BUG}`,
    ];
    expect(errors(p.diagnostics)).toEqual([
      invalid("misbehave_block_count.x.rule", "block count in plan (2) disagrees with count in config (1)"),
      invalid("misbehave_drop_config.x.value", 'planned value cty.NullVal(cty.String) does not match config value cty.StringVal("a")'),
      invalid("misbehave_set_noncomputed.x.extra", 'planned value cty.StringVal("chosen by the provider") for a non-computed attribute'),
    ]);
    expect(f.launched()).toBeGreaterThan(0);
    expect(instances(prior)).toEqual({});
  });

  it("fails the apply with inconsistent final plans and results, and keeps state correct", { timeout: 90_000 }, async () => {
    const config = loadConfig(
      [
        'resource "misbehave_ok" "a" {}',
        'resource "misbehave_final_plan" "x" {\n  input = misbehave_ok.a.id\n}',
        'resource "misbehave_apply_result" "x" {\n  value = "a"\n}',
        'resource "misbehave_unknown_after_apply" "x" {\n  value = "a"\n}',
      ].join("\n"),
    );
    const ctx = new Context({ providers: factory() });
    const p = await ctx.plan(config, new State());
    expect(errors(p.diagnostics)).toEqual([]);
    const a = await ctx.apply(p.plan, config);
    expect(errors(a.diagnostics)).toEqual([
      [
        "Provider returned invalid result object after apply",
        "After the apply operation, the provider still indicated an unknown value for misbehave_unknown_after_apply.x.id. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. OpenTofu will still save the other known object values in the state.",
      ],
      [
        "Provider produced inconsistent result after apply",
        `When applying changes to misbehave_apply_result.x, provider "${PROVIDER}" produced an unexpected new value: .value: was cty.StringVal("a"), but now cty.StringVal("changed by the provider").\n\n${BUG}`,
      ],
      [
        "Provider produced inconsistent final plan",
        `When expanding the plan for misbehave_final_plan.x to include new values learned so far during apply, provider "${PROVIDER}" produced an invalid new value for .echo: was cty.StringVal("while unknown"), but now cty.StringVal("once known").\n\n${BUG}`,
      ],
    ]);

    // The well-behaved object is saved; the rejected final plan applied nothing; the objects
    // whose results broke the contract are kept as the provider returned them (unknowns as null)
    // but tainted, so the next plan replaces them.
    expect(instances(a.state)).toEqual({
      "misbehave_ok.a": { attributes: { id: "ok-1", value: null } },
      "misbehave_apply_result.x": { status: "tainted", attributes: { id: "result-1", value: "changed by the provider" } },
      "misbehave_unknown_after_apply.x": { status: "tainted", attributes: { id: null, value: "a" } },
    });
    const again = await ctx.plan(config, a.state);
    const actions = Object.fromEntries(again.plan.changes.resources.map((c) => [c.addr.toString(), c.change.action]));
    expect(actions).toMatchObject({
      "misbehave_apply_result.x": "DeleteThenCreate",
      "misbehave_unknown_after_apply.x": "DeleteThenCreate",
      "misbehave_final_plan.x": "Create",
    });
  });
});
