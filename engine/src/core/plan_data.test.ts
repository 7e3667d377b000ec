// Data sources planned and applied through Context with the builtin provider: its
// `terraform_remote_state` data source (backend "local", reading state files from an in-memory
// directory) and `terraform_data` as the managed resources it depends on. The same behaviours are
// checked against terraform 1.11 by the differential scenarios (differential/scenarios/data.ts).
import { describe, expect, it } from "vitest";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import { BuiltinTerraformProvider, attribute, block, localRemoteStateBackend, nestedBlock, type Block } from "../providers/index.js";
import { DynamicPseudoType, StringType, isKnown, listVal, nullVal, objectVal, stringVal, unknownVal, type Value } from "../values/index.js";
import { State } from "../states/index.js";
import { actions, loadConfig, stateAttributes } from "./core.testkit.js";
import { Context } from "./context.js";
import type { Hooks } from "./hooks.js";
import type { ProviderFactory } from "./providers.js";
import { plannedUnknownObject } from "./plan_data.js";

/** A state file (format 4) with root string outputs. */
function stateFile(outputs: Record<string, string>): string {
  const out: Record<string, { value: string; type: string }> = {};
  for (const [k, v] of Object.entries(outputs)) out[k] = { value: v, type: "string" };
  return JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "remote", outputs: out, resources: [] });
}

/** The builtin provider reading `backend = "local"` state files from `files` (changeable between steps). */
function factory(files: Map<string, string>): ProviderFactory {
  const read = async (p: string) => {
    const text = files.get(p.replace(/^\.\//, ""));
    return text === undefined ? undefined : new TextEncoder().encode(text);
  };
  let n = 0;
  const remoteStateBackends = new Map([["local", localRemoteStateBackend(read, ".")]]);
  return async (p) =>
    p.isBuiltIn() && p.type === "terraform"
      ? { ok: true, provider: new BuiltinTerraformProvider({ remoteStateBackends, newId: () => `id-${++n}` }) }
      : { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };
}

const remote = (name: string, path = `"remote.tfstate"`, extra = "") =>
  `data "terraform_remote_state" "${name}" {\n  backend = "local"\n  config = {\n    path = ${path}\n  }\n${extra}}\n`;

interface Run {
  files: Map<string, string>;
  state: State;
  plan(main: string | Record<string, string>, opts?: { mode?: "normal" | "refresh-only" | "destroy"; hooks?: Hooks }): Promise<{ plan: Plan; diagnostics: Diagnostic[] }>;
  apply(main: string | Record<string, string>, opts?: { hooks?: Hooks }): Promise<{ plan: Plan; planDiags: Diagnostic[]; applyDiags: Diagnostic[] }>;
}

/** Plans and applies configurations in turn, the state carried from one apply to the next. */
function run(x = "a"): Run {
  const files = new Map([["remote.tfstate", stateFile({ x })]]);
  const r: Run = {
    files,
    state: new State(),
    async plan(main, opts = {}) {
      const config = loadConfig(typeof main === "string" ? { "main.tf": main } : main);
      const ctx = new Context({ providers: factory(files), ...(opts.hooks ? { hooks: opts.hooks } : {}) });
      return ctx.plan(config, r.state, { mode: opts.mode ?? "normal" });
    },
    async apply(main, opts = {}) {
      const config = loadConfig(typeof main === "string" ? { "main.tf": main } : main);
      const ctx = new Context({ providers: factory(files), ...(opts.hooks ? { hooks: opts.hooks } : {}) });
      const p = await ctx.plan(config, r.state);
      if (hasErrors(p.diagnostics)) return { plan: p.plan, planDiags: p.diagnostics, applyDiags: [] };
      const a = await ctx.apply(p.plan, config);
      r.state = a.state;
      return { plan: p.plan, planDiags: p.diagnostics, applyDiags: a.diagnostics };
    },
  };
  return r;
}

function reasons(plan: Plan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of plan.changes.resources) out[c.addr.toString()] = c.actionReason === "None" ? c.change.action : `${c.change.action} ${c.actionReason}`;
  return out;
}

function after(plan: Plan, addr: string): Value {
  const c = plan.changes.resources.find((r) => r.addr.toString() === addr);
  if (!c) throw new Error(`no change for ${addr}`);
  return c.change.after;
}

function attr(v: Value, name: string): Value {
  if (v.kind !== "object") throw new Error(`not an object: ${v.kind}`);
  const a = v.attrs.get(name);
  if (!a) throw new Error(`no attribute ${name}`);
  return a;
}

const summaries = (ds: readonly Diagnostic[], severity: "error" | "warning") => ds.filter((d) => d.severity === severity).map((d) => d.summary);

const dependsOn = (input: string) =>
  `resource "terraform_data" "x" {\n  input = "${input}"\n}\n${remote("s", `"remote.tfstate"`, "  depends_on = [terraform_data.x]\n")}resource "terraform_data" "use" {\n  input = data.terraform_remote_state.s.outputs.x\n}\n`;

describe("data sources read while planning", () => {
  it("reads a data source with a known configuration and nothing pending, with no change planned", async () => {
    const r = run("a");
    const main = `${remote("s")}resource "terraform_data" "use" {\n  input = data.terraform_remote_state.s.outputs.x\n}\n`;
    const first = await r.apply(main);
    expect(first.planDiags).toEqual([]);
    expect(actions(first.plan)).toEqual({ "terraform_data.use": "Create" });
    expect(attr(after(first.plan, "terraform_data.use"), "input")).toEqual(stringVal("a"));
    r.files.set("remote.tfstate", stateFile({ x: "b" }));
    const second = await r.apply(main);
    expect(actions(second.plan)).toEqual({ "terraform_data.use": "Update" });
    expect(stateAttributes(r.state)["data.terraform_remote_state.s"]).toMatchObject({ outputs: { value: { x: "b" } } });
  });

  it("fails the plan when the read fails", async () => {
    const r = run();
    const p = await r.plan(remote("s", `"missing.tfstate"`));
    expect(summaries(p.diagnostics, "error")).toEqual(["Unable to find remote state"]);
  });
});

describe("data sources deferred to apply", () => {
  it("defers the read while a depends_on resource has changes, and dependents see unknown values", async () => {
    const r = run("a");
    const first = await r.apply(dependsOn("one"));
    expect(first.planDiags).toEqual([]);
    expect(reasons(first.plan)).toEqual({
      "data.terraform_remote_state.s": "Read ReadBecauseDependencyPending",
      "terraform_data.use": "Create",
      "terraform_data.x": "Create",
    });
    // The planned value: the configuration, with what the read computes unknown.
    const planned = after(first.plan, "data.terraform_remote_state.s");
    expect(attr(planned, "backend")).toEqual(stringVal("local"));
    expect(isKnown(attr(planned, "outputs"))).toBe(false);
    expect(isKnown(attr(after(first.plan, "terraform_data.use"), "input"))).toBe(false);
    // Read at apply, after the dependency.
    expect(first.applyDiags).toEqual([]);
    expect(stateAttributes(r.state)["terraform_data.use"]).toMatchObject({ input: { value: "a" } });

    const again = await r.apply(dependsOn("one"));
    expect(actions(again.plan)).toEqual({ "terraform_data.use": "NoOp", "terraform_data.x": "NoOp" });

    const changed = await r.apply(dependsOn("two"));
    expect(reasons(changed.plan)).toEqual({
      "data.terraform_remote_state.s": "Read ReadBecauseDependencyPending",
      "terraform_data.use": "Update",
      "terraform_data.x": "Update",
    });
  });

  it("drops the stale object from the prior state until apply reads it again", async () => {
    const r = run("a");
    await r.apply(dependsOn("one"));
    const p = await r.plan(dependsOn("two"));
    expect(Object.keys(stateAttributes(p.plan.priorState))).not.toContain("data.terraform_remote_state.s");
    expect(Object.keys(stateAttributes(r.state))).toContain("data.terraform_remote_state.s");
  });

  it("gives an unknown configuration precedence, and treats known references to changing resources as pending, but not through locals", async () => {
    const r = run("a");
    const main =
      `resource "terraform_data" "p" {\n  input = "remote.tfstate"\n}\nlocals {\n  path = terraform_data.p.input\n}\n` +
      remote("direct", "terraform_data.p.input") +
      remote("unknown", "terraform_data.p.output", "  depends_on = [terraform_data.p]\n") +
      remote("via_local", "local.path");
    const first = await r.apply(main);
    expect(first.applyDiags).toEqual([]);
    expect(reasons(first.plan)).toEqual({
      "data.terraform_remote_state.direct": "Read ReadBecauseDependencyPending",
      "data.terraform_remote_state.unknown": "Read ReadBecauseConfigUnknown",
      "terraform_data.p": "Create",
    });
    expect(Object.keys(stateAttributes(r.state)).sort()).toEqual([
      "data.terraform_remote_state.direct",
      "data.terraform_remote_state.unknown",
      "data.terraform_remote_state.via_local",
      "terraform_data.p",
    ]);
  });

  it("with custom conditions, waits for any upstream change", async () => {
    const r = run("a");
    const condition = '  lifecycle {\n    postcondition {\n      condition     = self.outputs.x != ""\n      error_message = "empty."\n    }\n  }\n';
    const main =
      `resource "terraform_data" "p" {\n  input = "remote.tfstate"\n}\nlocals {\n  path = terraform_data.p.input\n}\n` + remote("plain", "local.path") + remote("checked", "local.path", condition);
    const p = await r.plan(main);
    expect(p.diagnostics).toEqual([]);
    expect(reasons(p.plan)).toEqual({ "data.terraform_remote_state.checked": "Read ReadBecauseDependencyPending", "terraform_data.p": "Create" });
  });

  it("waits for the depends_on of its module call, in its own module instance only", async () => {
    const r = run("a");
    const mod = `variable "v" {\n  type = string\n}\nresource "terraform_data" "r" {\n  input = var.v\n}\n${remote("s", `"remote.tfstate"`, "  depends_on = [terraform_data.r]\n")}`;
    const root = (a: string) => `module "m" {\n  source   = "./mod"\n  for_each = { a = "${a}", b = "fixed" }\n  v        = each.value\n}\n`;
    const caller = `resource "terraform_data" "x" {\n  input = var.v\n}\nvariable "v" {\n  default = "one"\n}\nmodule "c" {\n  source     = "./leaf"\n  depends_on = [terraform_data.x]\n}\n`;
    const leaf = remote("s");
    const first = await r.apply({ "main.tf": root("one") + caller, "mod/main.tf": mod, "leaf/main.tf": leaf });
    expect(first.applyDiags).toEqual([]);
    expect(reasons(first.plan)).toMatchObject({
      'module.m["a"].data.terraform_remote_state.s': "Read ReadBecauseDependencyPending",
      'module.m["b"].data.terraform_remote_state.s': "Read ReadBecauseDependencyPending",
      "module.c.data.terraform_remote_state.s": "Read ReadBecauseDependencyPending",
    });
    const second = await r.plan({ "main.tf": root("two") + caller, "mod/main.tf": mod, "leaf/main.tf": leaf });
    expect(reasons(second.plan)).toEqual({
      'module.m["a"].data.terraform_remote_state.s': "Read ReadBecauseDependencyPending",
      'module.m["a"].terraform_data.r': "Update",
      'module.m["b"].terraform_data.r': "NoOp",
      "terraform_data.x": "NoOp",
    });
  });

  it("fails the apply when a deferred read fails, keeping what was created", async () => {
    const r = run();
    const a = await r.apply(`resource "terraform_data" "x" {\n  input = "x"\n}\n${remote("s", `"missing.tfstate"`, "  depends_on = [terraform_data.x]\n")}`);
    expect(a.planDiags).toEqual([]);
    expect(summaries(a.applyDiags, "error")).toEqual(["Unable to find remote state"]);
    expect(Object.keys(stateAttributes(r.state))).toEqual(["terraform_data.x"]);
  });

  it("plans nothing in a refresh-only plan, leaving the data source out of state", async () => {
    const r = run();
    const p = await r.plan(`resource "terraform_data" "p" {\n  input = "remote.tfstate"\n}\n${remote("s", "terraform_data.p.output")}`, { mode: "refresh-only" });
    expect(p.diagnostics).toEqual([]);
    expect(reasons(p.plan)).toEqual({});
    expect(Object.keys(stateAttributes(p.plan.priorState))).toEqual([]);
  });

  it("reports reads to the UI as Read actions, during plan and apply", async () => {
    const r = run();
    const seen: string[] = [];
    const hooks: Hooks = {
      preApply: (addr, _d, action) => seen.push(`pre ${action} ${addr.toString()}`),
      postApply: (addr, _d, action, _v, failed) => seen.push(`post ${action} ${addr.toString()}${failed ? " failed" : ""}`),
    };
    const main = dependsOn("one") + remote("now");
    await r.plan(main, { hooks });
    expect(seen).toEqual(["pre Read data.terraform_remote_state.now", "post Read data.terraform_remote_state.now"]);
    seen.length = 0;
    await r.apply(main, { hooks });
    const applied = seen.slice(seen.indexOf("post Read data.terraform_remote_state.now") + 1);
    expect(applied.filter((l) => l.includes("terraform_remote_state.s") || l.endsWith("terraform_data.x"))).toEqual([
      "pre Create terraform_data.x",
      "post Create terraform_data.x",
      "pre Read data.terraform_remote_state.s",
      "post Read data.terraform_remote_state.s",
    ]);
  });
});

describe("data sources nested in check blocks", () => {
  const check = (path: string) =>
    `check "c" {\n  ${remote("n", `"${path}"`).replace(/\n(?=.)/g, "\n  ")}\n  assert {\n    condition     = data.terraform_remote_state.n.outputs.x == "a"\n    error_message = "x is not a."\n  }\n}\n`;

  it("reads during plan and again at apply (read_because_check_nested)", async () => {
    const r = run("a");
    const a = await r.apply(check("remote.tfstate"));
    expect(a.planDiags).toEqual([]);
    expect(reasons(a.plan)).toEqual({ "data.terraform_remote_state.n": "Read ReadBecauseCheckNested" });
    // Read during plan: the planned value is known.
    expect(attr(after(a.plan, "data.terraform_remote_state.n"), "outputs")).toEqual(objectVal({ x: stringVal("a") }));
    expect(a.plan.checks?.configResults).toEqual([{ objectKind: "check", configAddr: "check.c", status: "pass", objects: [{ objectAddr: "check.c", status: "pass", failureMessages: [] }] }]);
    r.files.set("remote.tfstate", stateFile({ x: "b" }));
    const b = await r.apply(check("remote.tfstate"));
    expect(summaries(b.planDiags, "warning")).toEqual(["Check block assertion failed"]);
    expect(summaries(b.applyDiags, "warning")).toEqual(["Check block assertion failed"]);
  });

  it("turns a failed read into a warning that fails the check and skips its assertions", async () => {
    const r = run("a");
    const a = await r.apply(check("missing.tfstate"));
    expect(summaries(a.planDiags, "error")).toEqual([]);
    expect(summaries(a.planDiags, "warning")).toEqual(["Unable to find remote state"]);
    expect(reasons(a.plan)).toEqual({ "data.terraform_remote_state.n": "Read ReadBecauseCheckNested" });
    expect(isKnown(attr(after(a.plan, "data.terraform_remote_state.n"), "outputs"))).toBe(false);
    expect(summaries(a.applyDiags, "warning")).toEqual(["Unable to find remote state"]);
    const failed = { status: "fail", failureMessages: ["Unable to find remote state: No stored state was found for the given workspace in the given backend."] };
    expect(a.plan.checks?.configResults[0]).toMatchObject({ configAddr: "check.c", status: "fail", objects: [{ objectAddr: "check.c", ...failed }] });
    // State keeps the object planned for it, with nulls for what could not be read (as terraform).
    expect(stateAttributes(r.state)["data.terraform_remote_state.n"]).toMatchObject({ outputs: null });
  });
});

describe("orphaned data sources", () => {
  it("leave the state without a change when their block is removed, and in a destroy plan", async () => {
    const r = run();
    await r.apply(`${remote("s")}${remote("t")}resource "terraform_data" "x" {\n  input = "x"\n}\n`);
    const removed = await r.apply(`${remote("t")}resource "terraform_data" "x" {\n  input = "x"\n}\n`);
    expect(actions(removed.plan)).toEqual({ "terraform_data.x": "NoOp" });
    expect(Object.keys(stateAttributes(r.state)).sort()).toEqual(["data.terraform_remote_state.t", "terraform_data.x"]);
    const destroy = await r.plan(`${remote("t")}resource "terraform_data" "x" {\n  input = "x"\n}\n`, { mode: "destroy" });
    expect(actions(destroy.plan)).toEqual({ "terraform_data.x": "Delete" });
    expect(Object.keys(stateAttributes(destroy.plan.priorState))).toEqual(["terraform_data.x"]);
  });
});

describe("plannedUnknownObject", () => {
  const schema: Block = block(
    {
      given: attribute({ type: StringType, optional: true }),
      computed: attribute({ type: StringType, computed: true }),
      either: attribute({ type: StringType, optional: true, computed: true }),
      any: attribute({ type: DynamicPseudoType, computed: true }),
    },
    { item: nestedBlock(block({ name: attribute({ type: StringType, required: true }), id: attribute({ type: StringType, computed: true }) }), "list") },
  );

  it("keeps configured values and makes unset computed attributes unknown, in nested list blocks too", () => {
    const config = objectVal({
      given: stringVal("g"),
      computed: nullVal(StringType),
      either: stringVal("set"),
      any: nullVal(DynamicPseudoType),
      item: listVal([objectVal({ name: stringVal("n"), id: nullVal(StringType) })]),
    });
    const got = plannedUnknownObject(schema, config);
    expect(got).toEqual(
      objectVal({
        given: stringVal("g"),
        computed: unknownVal(StringType),
        either: stringVal("set"),
        any: unknownVal(DynamicPseudoType),
        item: listVal([objectVal({ name: stringVal("n"), id: unknownVal(StringType) })]),
      }),
    );
  });
});
