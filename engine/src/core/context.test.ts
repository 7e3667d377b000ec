import { describe, expect, it } from "vitest";
import { hasErrors } from "../hcl/index.js";
import { State } from "../states/index.js";
import { stringVal } from "../values/index.js";
import { Context } from "./context.js";
import { actions, builtinFactory, errorsOf, inputs, loadConfig, planAndApply, scenarioSteps, stateAttributes, withoutIds } from "./core.testkit.js";
import type { Hooks } from "./hooks.js";

/** Runs every step of a scenario; returns the actions and state attributes after each. */
async function runScenario(name: string): Promise<Array<{ actions: Record<string, string>; attrs: Record<string, unknown> }>> {
  let state = new State();
  const out: Array<{ actions: Record<string, string>; attrs: Record<string, unknown> }> = [];
  for (const files of scenarioSteps(name)) {
    const r = await planAndApply(files, state);
    expect(errorsOf(r.planDiags)).toEqual([]);
    expect(errorsOf(r.applyDiags)).toEqual([]);
    state = r.state;
    out.push({ actions: actions(r.plan), attrs: withoutIds(stateAttributes(state)) });
    // Applying converges: planning again changes nothing.
    const again = await planAndApply(files, state);
    expect(Object.values(actions(again.plan)).every((a) => a === "NoOp")).toBe(true);
    expect(again.plan.changes.outputs.every((o) => o.change.action === "NoOp")).toBe(true);
  }
  return out;
}

const td = (input: unknown, output: unknown = input, triggers: unknown = null) => ({
  id: "<uuid>",
  input: input === null ? null : { value: input, type: typeof input === "string" ? "string" : expect.anything() },
  output: output === null ? null : { value: output, type: typeof output === "string" ? "string" : expect.anything() },
  triggers_replace: triggers,
});

describe("plan and apply terraform_data", () => {
  it("creates, updates in place and deletes an orphan (basic)", async () => {
    const [s1, s2, s3] = await runScenario("basic");
    expect(s1?.actions).toEqual({ "terraform_data.a": "Create", "terraform_data.b": "Create" });
    expect(s1?.attrs["terraform_data.a"]).toEqual(td("hello"));
    expect(s1?.attrs["output.b"]).toEqual({ value: { from: "hello", n: 1 }, sensitive: false });
    expect(s2?.actions).toEqual({ "terraform_data.a": "Update", "terraform_data.b": "Update" });
    expect(s2?.attrs["output.b"]).toEqual({ value: { from: "hello again", n: 1 }, sensitive: false });
    expect(s3?.actions).toEqual({ "terraform_data.a": "NoOp", "terraform_data.b": "Delete" });
    expect(Object.keys(s3?.attrs ?? {}).sort()).toEqual(["output.a", "terraform_data.a"]);
  });

  it("expands count and for_each, and deletes instances that leave the expansion", async () => {
    const [s1, s2] = await runScenario("expansion");
    expect(s1?.actions).toEqual({
      "terraform_data.all": "Create",
      "terraform_data.c[0]": "Create",
      "terraform_data.c[1]": "Create",
      "terraform_data.c[2]": "Create",
      'terraform_data.e["x"]': "Create",
      'terraform_data.e["y"]': "Create",
      'terraform_data.e["z"]': "Create",
    });
    expect((s1?.attrs["terraform_data.all"] as { input: unknown }).input).toEqual({ value: ["x=x-x", "y=y-y", "z=z-z"], type: ["tuple", ["string", "string", "string"]] });
    expect(s1?.attrs["output.counts"]).toEqual({ value: ["c-0", "c-1", "c-2"], sensitive: false });
    expect(s2?.actions).toEqual({
      "terraform_data.all": "Update",
      "terraform_data.c[0]": "NoOp",
      "terraform_data.c[1]": "Delete",
      "terraform_data.c[2]": "Delete",
      'terraform_data.e["x"]': "NoOp",
      'terraform_data.e["y"]': "Delete",
      'terraform_data.e["z"]': "NoOp",
    });
  });

  it("replaces on triggers_replace, create_before_destroy first", async () => {
    const [s1, s2] = await runScenario("replace");
    expect(s1?.actions).toEqual({ "terraform_data.cbd": "Create", "terraform_data.plain": "Create", "terraform_data.user": "Create" });
    expect(s2?.actions).toEqual({ "terraform_data.cbd": "CreateThenDelete", "terraform_data.plain": "DeleteThenCreate", "terraform_data.user": "Update" });
    expect(Object.keys(s2?.attrs ?? {}).sort()).toEqual(["terraform_data.cbd", "terraform_data.plain", "terraform_data.user"]);
  });

  it("keeps sensitive values marked in state and outputs", async () => {
    const [s1, s2] = await runScenario("sensitive");
    expect(s1?.attrs["output.whole"]).toEqual({ value: { password: "s3cr3t", user: "admin" }, sensitive: true });
    expect(s2?.actions).toEqual({ "terraform_data.s": "Update" });
    const plain = await planAndApply(scenarioSteps("sensitive")[0] ?? {});
    const before = plain.plan.changes.resources[0]?.change.after;
    expect(before?.kind).toBe("object");
    if (before?.kind === "object") {
      const input = before.attrs.get("input");
      expect(input?.kind === "object" && input.attrs.get("password")?.marks.has("sensitive")).toBe(true);
    }
  });

  it("orders by references and depends_on; destroys dependents first", async () => {
    const order: string[] = [];
    const hooks: Hooks = { preApply: (addr, _d, action) => order.push(`${action} ${addr.toString()}`) };
    const [step1, step2] = scenarioSteps("dependson");
    const r1 = await planAndApply(step1 ?? {}, new State(), { ctx: { hooks, parallelism: 1 } });
    expect(errorsOf(r1.applyDiags)).toEqual([]);
    expect(order).toEqual(["Create terraform_data.first", "Create terraform_data.second", "Create terraform_data.third"]);
    order.length = 0;
    const r2 = await planAndApply(step2 ?? {}, r1.state, { ctx: { hooks } });
    expect(errorsOf(r2.applyDiags)).toEqual([]);
    expect(order).toEqual(["Delete terraform_data.third", "Delete terraform_data.second"]);
  });

  it("create_before_destroy: the replacement exists and dependents are updated before the old object goes", async () => {
    const order: string[] = [];
    const hooks: Hooks = { preApply: (addr, deposed, action) => order.push(`${action} ${addr.toString()}${deposed ? " (deposed)" : ""}`) };
    const [step1, step2] = scenarioSteps("replace");
    const r1 = await planAndApply(step1 ?? {}, new State());
    await planAndApply(step2 ?? {}, r1.state, { ctx: { hooks, parallelism: 1 } });
    const i = (s: string) => order.indexOf(s);
    // The apply node of a replacement creates (tofu's reducePlan); the destroy is its own node.
    expect(i("Create terraform_data.cbd")).toBeGreaterThanOrEqual(0);
    expect(i("Create terraform_data.cbd")).toBeLessThan(i("Update terraform_data.user"));
    expect(i("Update terraform_data.user")).toBeLessThan(i("Delete terraform_data.cbd (deposed)"));
    expect(i("Delete terraform_data.plain")).toBeGreaterThanOrEqual(0);
    expect(i("Delete terraform_data.plain")).toBeLessThan(i("Create terraform_data.plain"));
  });

  it("plans deletion of everything in destroy mode", async () => {
    const [step1] = scenarioSteps("basic");
    const r1 = await planAndApply(step1 ?? {});
    const r2 = await planAndApply(step1 ?? {}, r1.state, { destroy: true });
    expect(errorsOf(r2.planDiags)).toEqual([]);
    expect(actions(r2.plan)).toEqual({ "terraform_data.a": "Delete", "terraform_data.b": "Delete" });
    expect(r2.plan.changes.outputs.map((o) => o.change.action)).toEqual(["Delete"]);
    expect(r2.state.empty()).toBe(true);
  });

  it("uses root variables, defaults and -var values", async () => {
    const files = { "main.tf": 'variable "v" {\n  default = "d"\n}\nresource "terraform_data" "a" {\n  input = var.v\n}\n' };
    const d = await planAndApply(files);
    expect(withoutIds(stateAttributes(d.state))["terraform_data.a"]).toEqual(td("d"));
    const set = await planAndApply(files, new State(), { variables: inputs({ v: stringVal("given") }) });
    expect(withoutIds(stateAttributes(set.state))["terraform_data.a"]).toEqual(td("given"));
  });

  it("evaluates modules with count and their outputs", async () => {
    const files = {
      "main.tf": 'module "m" {\n  source = "./mod"\n  count  = 2\n  name   = "n${count.index}"\n}\noutput "names" {\n  value = module.m[*].out\n}\n',
      "mod/main.tf": 'variable "name" {}\nresource "terraform_data" "r" {\n  input = var.name\n}\noutput "out" {\n  value = terraform_data.r.output\n}\n',
    };
    const r = await planAndApply(files);
    expect(errorsOf(r.planDiags)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "module.m[0].terraform_data.r": "Create", "module.m[1].terraform_data.r": "Create" });
    expect(stateAttributes(r.state)["output.names"]).toEqual({ value: ["n0", "n1"], sensitive: false });
  });

  it("reports a dependency cycle naming its nodes", async () => {
    const files = {
      "main.tf": 'resource "terraform_data" "a" {\n  input = terraform_data.b.output\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n',
    };
    const r = await planAndApply(files);
    const errs = errorsOf(r.planDiags);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^Cycle: terraform_data\.[ab] \(expand\), terraform_data\.[ab] \(expand\)/);
  });

  it("refuses an unknown for_each at plan time with OpenTofu's text", async () => {
    const files = {
      "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\nresource "terraform_data" "b" {\n  for_each = toset([terraform_data.a.output])\n}\n',
    };
    const r = await planAndApply(files);
    const e = r.planDiags.find((d) => d.severity === "error");
    expect(e?.summary).toBe("Invalid for_each argument");
    expect(e?.detail).toMatch(/^The "for_each" set includes values derived from resource attributes that cannot be determined until apply/);
  });

  it("refuses an unknown count with OpenTofu's text", async () => {
    const files = {
      "main.tf": 'resource "terraform_data" "a" {\n  input = 2\n}\nresource "terraform_data" "b" {\n  count = terraform_data.a.output\n}\n',
    };
    const r = await planAndApply(files);
    const e = r.planDiags.find((d) => d.severity === "error");
    expect(e?.summary).toBe("Invalid count argument");
  });

  it("configures each provider configuration once per run and closes it", async () => {
    const factory = builtinFactory();
    const config = loadConfig({ "main.tf": 'resource "terraform_data" "a" {\n  count = 5\n}\n' });
    const ctx = new Context({ providers: factory });
    const p = await ctx.plan(config, new State());
    expect(hasErrors(p.diagnostics)).toBe(false);
    // One instance for schemas, reused as the configured one.
    expect(factory.started()).toBe(1);
  });

  it("selects provider instances per resource instance with provider for_each", async () => {
    const files = {
      "main.tf":
        'provider "terraform" {\n  alias    = "by"\n  for_each = toset(["a", "b"])\n}\nresource "terraform_data" "r" {\n  for_each = toset(["a", "b"])\n  provider = terraform.by[each.key]\n  input    = each.key\n}\n',
    };
    const r = await planAndApply(files);
    expect(errorsOf(r.planDiags)).toEqual([]);
    expect(r.plan.changes.resources.map((c) => `${c.addr.toString()} ${c.providerAddr.instanceString(c.providerKey)}`)).toEqual([
      'terraform_data.r["a"] provider["terraform.io/builtin/terraform"].by["a"]',
      'terraform_data.r["b"] provider["terraform.io/builtin/terraform"].by["b"]',
    ]);
  });

  it("reports a null provider instance key with OpenTofu's text", async () => {
    const files = {
      "main.tf":
        'provider "terraform" {\n  alias    = "by"\n  for_each = toset(["a"])\n}\nresource "terraform_data" "r" {\n  provider = terraform.by[null]\n}\n',
    };
    const config = loadConfig(files);
    const p = await new Context({ providers: builtinFactory() }).plan(config, new State());
    const e = p.diagnostics.find((d) => d.severity === "error");
    expect(e?.summary).toBe("Invalid provider instance key");
    expect(e?.detail).toBe("A provider instance key must not be null.");
  });

  it("keeps created objects when a later resource fails", async () => {
    const files = {
      "main.tf": 'resource "terraform_data" "ok" {\n  input = "x"\n}\nresource "terraform_data" "bad" {\n  input = terraform_data.ok.output\n  id    = "not-allowed"\n}\n',
    };
    const r = await planAndApply(files);
    // terraform_data refuses a configured id at validation, so nothing is planned for "bad".
    expect(errorsOf(r.planDiags).length).toBeGreaterThan(0);
  });

  it("skips refresh with refresh=false and still finds no changes", async () => {
    const [step1] = scenarioSteps("basic");
    const r1 = await planAndApply(step1 ?? {});
    const config = loadConfig(step1 ?? {});
    const p = await new Context({ providers: builtinFactory() }).plan(config, r1.state, { refresh: false });
    expect(Object.values(actions(p.plan))).toEqual(["NoOp", "NoOp"]);
  });
});

/** Root outputs as `name: value` (as state files write them), for the prior-state tests below. */
function outputsOf(state: State): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stateAttributes(state))) if (k.startsWith("output.")) out[k.slice("output.".length)] = (v as { value: unknown }).value;
  return out;
}

describe("the plan's prior state", () => {
  const v1 = { "main.tf": 'resource "terraform_data" "a" { input = "x" }\noutput "old" { value = "v1" }\noutput "new" { value = "v2" }\noutput "gone" { value = "g" }\noutput "later" { value = "l" }\n' };
  // terraform 1.11's `show -json` prior_state.values.outputs for the same two steps.
  const v2 = {
    "main.tf":
      'resource "terraform_data" "a" { input = "y" }\noutput "old" { value = "v1-changed" }\noutput "added" { value = 3 }\noutput "gone" { value = null }\noutput "later" { value = terraform_data.a.output }\n',
  };

  it("holds the root outputs evaluated while planning: wholly known values set, null ones removed, unknown ones left", async () => {
    const applied = await planAndApply(v1);
    const p = await new Context({ providers: builtinFactory() }).plan(loadConfig(v2), applied.state);
    expect(errorsOf(p.diagnostics)).toEqual([]);
    // `new` is no longer declared: its delete is planned, but the refreshed state still has it.
    expect(outputsOf(p.plan.priorState)).toEqual({ added: 3, later: "l", new: "v2", old: "v1-changed" });
    expect(outputsOf(p.plan.prevRunState)).toEqual({ gone: "g", later: "l", new: "v2", old: "v1" });
    // The changes still compare against the previous outputs.
    expect(p.plan.changes.outputs.map((o) => `${o.addr.outputValue.name} ${o.change.action}`)).toEqual(["added Create", "gone Update", "later Update", "new Delete", "old Update"]);
  });

  it("is not empty for a configuration of outputs only", async () => {
    const p = await new Context({ providers: builtinFactory() }).plan(loadConfig({ "main.tf": 'output "o" { value = "v" }\n' }), new State());
    expect(p.plan.priorState.empty()).toBe(false);
    expect(outputsOf(p.plan.priorState)).toEqual({ o: "v" });
  });

  it("drops the previous run's check results, which the previous-run state keeps", async () => {
    const files = { "main.tf": 'resource "terraform_data" "a" { input = 1 }\ncheck "c" {\n  assert {\n    condition     = terraform_data.a.input == 1\n    error_message = "bad"\n  }\n}\n' };
    const applied = await planAndApply(files);
    expect(applied.state.checkResults?.configResults.map((c) => c.configAddr)).toEqual(["check.c"]);
    const p = await new Context({ providers: builtinFactory() }).plan(loadConfig(files), applied.state);
    expect(p.plan.priorState.checkResults).toBeUndefined();
    expect(p.plan.prevRunState.checkResults?.configResults.map((c) => c.configAddr)).toEqual(["check.c"]);
    expect(p.plan.checks?.configResults.map((c) => c.configAddr)).toEqual(["check.c"]);
  });
});

describe("a refresh-only apply", () => {
  it("stores an output that is still unknown as null (UnknownAsNull), beside the known ones", async () => {
    const files = { "main.tf": 'resource "terraform_data" "b" { input = "x" }\noutput "o" { value = terraform_data.b.output }\noutput "p" { value = "plain" }\n' };
    const config = loadConfig(files);
    const ctx = new Context({ providers: builtinFactory() });
    const p = await ctx.plan(config, new State(), { mode: "refresh-only" });
    expect(outputsOf(p.plan.priorState)).toEqual({ p: "plain" });
    const a = await ctx.apply(p.plan, config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(outputsOf(a.state)).toEqual({ o: null, p: "plain" });
    const o = a.state.rootModule().outputValues.get("o");
    expect(o?.value.kind).toBe("null");
    expect(o?.value.type.kind).toBe("dynamic");
  });
});
