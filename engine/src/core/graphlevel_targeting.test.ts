// -target / -exclude: which objects a plan covers, the warnings, and the check that a pending
// move is not split by targeting (case 042's table).
import { describe, expect, it } from "vitest";
import { parseTargetStr, type AbsResourceInstance, type Targetable } from "../addrs/index.js";
import { hasErrors } from "../hcl/index.js";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { actions, builtinFactory, errorsOf, loadConfig, planAndApply } from "./core.testkit.js";
import { verifyTargetedMoves } from "./targeting.js";

function target(s: string): Targetable {
  const r = parseTargetStr(s);
  if (!r.result) throw new Error(`bad target ${s}`);
  return r.result.subject;
}

function instance(s: string): AbsResourceInstance {
  const t = target(s);
  if (t.kind === "AbsResourceInstance") return t;
  if (t.kind === "AbsResource") return t.instance({ kind: "NoKey" });
  throw new Error(`not an instance: ${s}`);
}

const CONFIG = {
  "main.tf": `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = terraform_data.a.output }
resource "terraform_data" "c" { input = "c" }
resource "terraform_data" "n" {
  count = 3
  input = count.index
}
module "m" {
  source = "./m"
}
output "b" { value = terraform_data.b.output }
output "c" { value = terraform_data.c.output }
`,
  "m/main.tf": `
resource "terraform_data" "x" { input = "x" }
output "x" { value = terraform_data.x.output }
`,
};

async function plan(opts: { targets?: string[]; excludes?: string[] }, state = new State()) {
  const config = loadConfig(CONFIG);
  const ctx = new Context({ providers: builtinFactory() });
  const r = await ctx.plan(config, state, { targets: (opts.targets ?? []).map(target), excludes: (opts.excludes ?? []).map(target) });
  return { ...r, config, ctx };
}

describe("-target and -exclude", () => {
  it("-target keeps the target and what it depends on, and outputs that depend only on them", async () => {
    const r = await plan({ targets: ["terraform_data.b"] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "terraform_data.a": "Create", "terraform_data.b": "Create" });
    expect(r.plan.changes.outputs.map((o) => o.addr.toString())).toEqual(["output.b"]);
    const w = r.diagnostics.filter((d) => d.severity === "warning");
    expect(w.map((d) => d.summary)).toEqual(["Resource targeting is in effect"]);
    expect(w[0]?.detail).toBe(
      "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when OpenTofu specifically suggests to use it as part of an error message.",
    );
    expect(r.plan.complete).toBe(false);
  });

  it("-target of one instance plans only that instance; of a module, everything in it", async () => {
    const one = await plan({ targets: ["terraform_data.n[1]"] });
    expect(actions(one.plan)).toEqual({ "terraform_data.n[1]": "Create" });
    const mod = await plan({ targets: ["module.m"] });
    expect(actions(mod.plan)).toEqual({ "module.m.terraform_data.x": "Create" });
  });

  it("-exclude drops the excluded objects and everything depending on them", async () => {
    const r = await plan({ excludes: ["terraform_data.a", "module.m"] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({
      "terraform_data.c": "Create",
      "terraform_data.n[0]": "Create",
      "terraform_data.n[1]": "Create",
      "terraform_data.n[2]": "Create",
    });
    expect(r.plan.changes.outputs.map((o) => o.addr.toString())).toEqual(["output.c"]);
  });

  it("-exclude of one instance keeps its siblings", async () => {
    const r = await plan({ excludes: ["terraform_data.n[1]", "terraform_data.a", "terraform_data.c", "module.m"] });
    expect(actions(r.plan)).toEqual({ "terraform_data.n[0]": "Create", "terraform_data.n[2]": "Create" });
  });

  it("applies only the targeted changes and warns that the result may be incomplete", async () => {
    const r = await plan({ targets: ["terraform_data.c"] });
    const applied = await r.ctx.apply(r.plan, r.config);
    expect(errorsOf(applied.diagnostics)).toEqual([]);
    expect([...applied.state.modules.values()].flatMap((m) => [...m.resources.values()].map((rs) => rs.addr.toString()))).toEqual(["terraform_data.c"]);
    expect(applied.diagnostics.filter((d) => d.severity === "warning").map((d) => d.summary)).toEqual(["Applied changes may be incomplete"]);
    // The untargeted objects are still to be created afterwards.
    const next = await plan({}, applied.state);
    expect(hasErrors(next.diagnostics)).toBe(false);
    expect(actions(next.plan)["terraform_data.c"]).toBe("NoOp");
    expect(actions(next.plan)["terraform_data.a"]).toBe("Create");
  });

  it("targeting a dependency keeps every instance of it (only the target itself is filtered)", async () => {
    const files = {
      "main.tf": `
resource "terraform_data" "dep" {
  count = 2
  input = count.index
}
resource "terraform_data" "user" { input = length(terraform_data.dep) }
`,
    };
    const config = loadConfig(files);
    const r = await new Context({ providers: builtinFactory() }).plan(config, new State(), { targets: [target("terraform_data.user")] });
    expect(actions(r.plan)).toEqual({ "terraform_data.dep[0]": "Create", "terraform_data.dep[1]": "Create", "terraform_data.user": "Create" });
  });

  it("still plans deletions of untargeted orphans only when they are targeted", async () => {
    const first = await planAndApply({ "main.tf": `resource "terraform_data" "old" {}\nresource "terraform_data" "keep" {}` });
    const config = loadConfig({ "main.tf": `resource "terraform_data" "keep" {}` });
    const ctx = new Context({ providers: builtinFactory() });
    const untargeted = await ctx.plan(config, first.state, { targets: [target("terraform_data.keep")] });
    expect(actions(untargeted.plan)).toEqual({ "terraform_data.keep": "NoOp" });
    const targeted = await ctx.plan(config, first.state, { targets: [target("terraform_data.old")] });
    expect(actions(targeted.plan)).toEqual({ "terraform_data.old": "Delete" });
  });
});

describe("moves split by targeting (case 042)", () => {
  const moves = [{ from: instance("test_object.a"), to: instance("test_object.b") }];
  const listed = (d: ReturnType<typeof verifyTargetedMoves>) => (d[0]?.detail.match(/^ {2}-(?:target|exclude)=.*$/gm) ?? []).join("\n");
  const cases: Array<[string[], string[], string]> = [
    [["test_object.b"], [], '  -target="test_object.a"'],
    [["test_object.a"], [], '  -target="test_object.b"'],
    [["test_object.unrelated"], [], '  -target="test_object.a"\n  -target="test_object.b"'],
    [["test_object.a", "test_object.b"], [], ""],
    [[], ["test_object.a"], '  -exclude="test_object.a"'],
    [[], ["test_object.b"], '  -exclude="test_object.b"'],
    [[], ["test_object.a", "test_object.b"], '  -exclude="test_object.a"\n  -exclude="test_object.b"'],
    [[], ["test_object.unrelated"], ""],
  ];
  for (const [targets, excludes, want] of cases) {
    it(`${targets.map((t) => `-target=${t}`).join(" ")}${excludes.map((t) => `-exclude=${t}`).join(" ")}`, () => {
      const d = verifyTargetedMoves(moves, { targets: targets.map(target), excludes: excludes.map(target) });
      if (want === "") {
        expect(d).toEqual([]);
        return;
      }
      expect(d.map((x) => [x.severity, x.summary])).toEqual([["error", "Moved resource instances excluded by targeting"]]);
      expect(listed(d)).toBe(want);
    });
  }

  it("words the target form and the exclude form as OpenTofu does", () => {
    const [t] = verifyTargetedMoves(moves, { targets: [target("test_object.b")], excludes: [] });
    expect(t?.detail).toBe(
      'Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:\n  -target="test_object.a"\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.',
    );
    const [e] = verifyTargetedMoves(moves, { targets: [], excludes: [target("test_object.a")] });
    expect(e?.detail).toBe(
      'Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\nTo create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:\n  -exclude="test_object.a"\n\nNote that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.',
    );
  });
});
