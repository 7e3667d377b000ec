// `removed` blocks: forget by default, destroy on request, for resources and whole modules, and
// the error when the block still names something configured.
import { describe, expect, it } from "vitest";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { actions, builtinFactory, errorsOf, loadConfig, planAndApply } from "./core.testkit.js";
import type { Hooks } from "./hooks.js";

async function created(files: Record<string, string>): Promise<State> {
  const r = await planAndApply(files);
  expect(errorsOf([...r.planDiags, ...r.applyDiags])).toEqual([]);
  return r.state;
}

function addresses(state: State): string[] {
  return [...state.modules.values()].flatMap((m) => [...m.resources.values()].flatMap((rs) => [...rs.instances.values()].map((is) => rs.addr.instance(is.key).toString())));
}

describe("removed blocks", () => {
  it("forgets the object (Forget, no provider call at apply) and warns", async () => {
    const state = await created({ "main.tf": `resource "terraform_data" "a" {\n  count = 2\n}` });
    const config = loadConfig({ "main.tf": `removed {\n  from = terraform_data.a\n}` });
    const applied: string[] = [];
    const hooks: Hooks = { preApply: (addr) => void applied.push(addr.toString()) };
    const ctx = new Context({ providers: builtinFactory(), hooks });
    const p = await ctx.plan(config, state);
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(actions(p.plan)).toEqual({ "terraform_data.a[0]": "Forget", "terraform_data.a[1]": "Forget" });
    expect(p.plan.changes.resources.map((c) => c.actionReason)).toEqual(["DeleteBecauseNoResourceConfig", "DeleteBecauseNoResourceConfig"]);
    const warnings = p.diagnostics.filter((d) => d.severity === "warning");
    expect(warnings.map((d) => d.summary)).toEqual(["Resource going to be removed from the state", "Resource going to be removed from the state"]);
    expect(warnings[0]?.detail).toBe(
      "After this plan gets applied, the resource terraform_data.a[0] will not be managed anymore by OpenTofu.\n\nIn case you want to manage the resource again, you will have to import it.",
    );
    const a = await ctx.apply(p.plan, config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(addresses(a.state)).toEqual([]);
    expect(applied).toEqual([]);
  });

  it("destroys the object with lifecycle { destroy = true }", async () => {
    const state = await created({ "main.tf": `resource "terraform_data" "a" {}` });
    const r = await planAndApply({ "main.tf": `removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = true\n  }\n}` }, state);
    expect(errorsOf(r.planDiags)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "terraform_data.a": "Delete" });
    expect(r.planDiags.filter((d) => d.severity === "warning")).toEqual([]);
    expect(addresses(r.state)).toEqual([]);
  });

  it("forgets everything in a removed module", async () => {
    const state = await created({ "main.tf": `module "mod" {\n  source = "./m"\n}`, "m/main.tf": `resource "terraform_data" "x" {}` });
    const r = await planAndApply({ "main.tf": `removed {\n  from = module.mod\n}` }, state);
    expect(errorsOf(r.planDiags)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "module.mod.terraform_data.x": "Forget" });
    expect(addresses(r.state)).toEqual([]);
  });

  it("without a removed block an orphan is still deleted", async () => {
    const state = await created({ "main.tf": `resource "terraform_data" "a" {}\nresource "terraform_data" "b" {}` });
    const r = await planAndApply({ "main.tf": `removed {\n  from = terraform_data.b\n}` }, state);
    expect(actions(r.plan)).toEqual({ "terraform_data.a": "Delete", "terraform_data.b": "Forget" });
  });

  it("refuses a removed block for a resource or module still in the configuration", async () => {
    const config = loadConfig({
      "main.tf": `resource "terraform_data" "a" {}\nmodule "mod" {\n  source = "./m"\n}\nremoved {\n  from = terraform_data.a\n}\nremoved {\n  from = module.mod\n}`,
      "m/main.tf": ``,
    });
    const p = await new Context({ providers: builtinFactory() }).plan(config, new State());
    expect(errorsOf(p.diagnostics)).toEqual([
      "Removed resource block still exists: This statement declares a removal of the resource terraform_data.a, but this resource block still exists in the configuration. Please remove the resource block.",
      "Removed module block still exists: This statement declares a removal of the module module.mod, but this module block still exists in the configuration. Please remove the module block.",
    ]);
    expect(p.plan.errored).toBe(true);
  });

  it("a destroy plan deletes what a removed block would forget", async () => {
    const state = await created({ "main.tf": `resource "terraform_data" "a" {}` });
    const r = await planAndApply({ "main.tf": `removed {\n  from = terraform_data.a\n}` }, state, { destroy: true });
    expect(actions(r.plan)).toEqual({ "terraform_data.a": "Delete" });
  });
});
