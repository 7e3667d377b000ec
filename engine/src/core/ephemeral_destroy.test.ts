// Ephemeral resources in destroy plans and in the apply of a destroy plan (ephemeral_graph.ts):
// opened again for the provider configurations the destroy needs, closed afterwards, and only
// those (terraform 1.11's destroy walk opens no others; the refresh before it opens them all).
import { describe, expect, it } from "vitest";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { actions, errorsOf, loadConfig } from "./core.testkit.js";
import { ephemFactory } from "./ephemeral.testkit.js";

const CONFIGURED_FROM_SECRET = `
ephemeral "ephem_secret" "a" {
  name = "a"
}
ephemeral "ephem_secret" "unused" {
  name = "unused"
}
locals {
  token = "<\${ephemeral.ephem_secret.a.value}>"
}
provider "ephem" {
  alias = "cfg"
  token = local.token
}
resource "ephem_thing" "t" {
  provider = ephem.cfg
  plain    = "p"
}
`;

/** Applies the configuration, then plans its destroy and applies that, recording each step's calls. */
async function createThenDestroy(files: Record<string, string>, destroyOpts: { refresh?: boolean } = {}) {
  const factory = ephemFactory();
  const ctx = new Context({ providers: factory });
  const config = loadConfig(files);
  const p = await ctx.plan(config, new State(), {});
  expect(errorsOf(p.diagnostics)).toEqual([]);
  const a = await ctx.apply(p.plan, config);
  expect(errorsOf(a.diagnostics)).toEqual([]);
  const calls = () => factory.ephem.calls.splice(0).filter((c) => c !== "configure token=null");
  calls();
  const dp = await ctx.plan(config, a.state, { mode: "destroy", ...destroyOpts });
  const planCalls = calls();
  const da = errorsOf(dp.diagnostics).length === 0 ? await ctx.apply(dp.plan, config) : undefined;
  return { destroyPlan: dp, planCalls, destroyApply: da, applyCalls: calls(), configuredToken: factory.ephem.configuredToken };
}

describe("ephemeral resources while destroying", () => {
  it("are opened for the provider configuration a destroy plan needs, and closed after it", async () => {
    const r = await createThenDestroy({ "main.tf": CONFIGURED_FROM_SECRET });
    expect(errorsOf(r.destroyPlan.diagnostics)).toEqual([]);
    expect(actions(r.destroyPlan.plan)).toEqual({ "ephem_thing.t": "Delete" });
    // The refresh the destroy plan starts with is a normal plan: it opens every ephemeral
    // resource, the unused one too (terraform 1.11 prints both opening). The destroy walk after it
    // opens only what the provider configuration needs, and the provider got the real value, not
    // an unknown one. Validation runs once, before the refresh.
    expect(r.planCalls).toEqual([
      "validate ephem_secret name=a",
      "validate ephem_secret name=unused",
      "validate ephem_secret name=a",
      "validate ephem_secret name=unused",
      "open ephem_secret name=a",
      "open ephem_secret name=unused",
      "close unused",
      "configure token=<secret-a>",
      "close a",
      "validate ephem_secret name=a",
      "open ephem_secret name=a",
      "configure token=<secret-a>",
      "close a",
    ]);
  });

  it("are opened again in the apply of a destroy plan, and closed after the destroy", async () => {
    const r = await createThenDestroy({ "main.tf": CONFIGURED_FROM_SECRET });
    expect(errorsOf(r.destroyApply?.diagnostics ?? [])).toEqual([]);
    expect(r.applyCalls).toEqual(["validate ephem_secret name=a", "open ephem_secret name=a", "configure token=<secret-a>", "close a"]);
    expect(r.destroyApply?.state.rootModule().resources.size).toBe(0);
  });

  it("are opened without refreshing too, every instance of count", async () => {
    const r = await createThenDestroy(
      {
        "main.tf": `
ephemeral "ephem_secret" "s" {
  count = 2
  name  = "s\${count.index}"
}
provider "ephem" {
  alias = "cfg"
  token = join("+", ephemeral.ephem_secret.s[*].value)
}
resource "ephem_thing" "t" {
  provider = ephem.cfg
}
`,
      },
      { refresh: false },
    );
    expect(errorsOf(r.destroyPlan.diagnostics)).toEqual([]);
    expect(r.planCalls.filter((c) => c.startsWith("open")).sort()).toEqual(["open ephem_secret name=s0", "open ephem_secret name=s1"]);
    expect(r.planCalls).toContain("configure token=secret-s0+secret-s1");
    expect(r.applyCalls).toContain("configure token=secret-s0+secret-s1");
    expect(r.applyCalls.filter((c) => c.startsWith("close")).sort()).toEqual(["close s0", "close s1"]);
  });

  it("are not opened when there is nothing to destroy", async () => {
    const factory = ephemFactory();
    const ctx = new Context({ providers: factory });
    const dp = await ctx.plan(loadConfig({ "main.tf": CONFIGURED_FROM_SECRET }), new State(), { mode: "destroy" });
    expect(errorsOf(dp.diagnostics)).toEqual([]);
    // Validated by the validate walk, never opened.
    expect(factory.ephem.calls).toEqual(["validate ephem_secret name=a", "validate ephem_secret name=unused"]);
  });
});
