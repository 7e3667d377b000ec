import { describe, expect, it } from "vitest";
import { BuiltinTerraformProvider, type ApplyResourceChangeRequest, type ApplyResourceChangeResponse } from "../providers/index.js";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { actions, errorsOf, loadConfig, stateAttributes, withoutIds } from "./core.testkit.js";
import type { ProviderFactory } from "./providers.js";

/** terraform_data that fails to apply any object whose input is "fail" (returning nothing, or a partial object). */
class FailingProvider extends BuiltinTerraformProvider {
  constructor(private readonly partial: boolean) {
    super({ newId: () => "fixed-id" });
  }

  override async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    const input = req.plannedState.kind === "object" ? req.plannedState.attrs.get("input") : undefined;
    if (input?.kind === "string" && input.value === "fail") {
      const r = await super.applyResourceChange(req);
      return { ...r, newState: this.partial ? r.newState : { ...req.priorState }, diagnostics: [{ severity: "error", summary: "Boom", detail: "the remote API failed" }] };
    }
    return super.applyResourceChange(req);
  }
}

const factory =
  (partial: boolean): ProviderFactory =>
  async () => ({ ok: true, provider: new FailingProvider(partial) });

const files = {
  "main.tf": 'resource "terraform_data" "ok" {\n  input = "x"\n}\nresource "terraform_data" "bad" {\n  input = "fail"\n  depends_on = [terraform_data.ok]\n}\nresource "terraform_data" "after" {\n  input = terraform_data.bad.output\n}\n',
};

describe("apply errors leave state correct", () => {
  it("keeps objects created before the failure and skips dependents", async () => {
    const config = loadConfig(files);
    const ctx = new Context({ providers: factory(false) });
    const p = await ctx.plan(config, new State());
    expect(errorsOf(p.diagnostics)).toEqual([]);
    const snapshots: State[] = [];
    const a = await ctx.apply(p.plan, config, { persist: async (s) => (snapshots.push(s), []), persistIntervalMs: 0 });
    expect(errorsOf(a.diagnostics)).toEqual(["Boom: the remote API failed"]);
    expect(Object.keys(stateAttributes(a.state))).toEqual(["terraform_data.ok"]);
    // Persisted while running, not only at the end.
    expect(snapshots.length).toBeGreaterThan(0);
    expect(Object.keys(stateAttributes(snapshots[snapshots.length - 1] as State))).toContain("terraform_data.ok");
  });

  it("keeps a partly created object as tainted, and replaces it next time", async () => {
    const config = loadConfig(files);
    const ctx = new Context({ providers: factory(true) });
    const p = await ctx.plan(config, new State());
    const a = await ctx.apply(p.plan, config);
    expect(errorsOf(a.diagnostics)).toEqual(["Boom: the remote API failed"]);
    const bad = p.plan.changes.resources.find((c) => c.addr.toString() === "terraform_data.bad");
    expect(bad && a.state.resourceInstance(bad.addr)?.current?.status).toBe("tainted");
    expect(withoutIds(Object.keys(stateAttributes(a.state)))).toEqual(["terraform_data.bad", "terraform_data.ok"]);
    const again = await ctx.plan(config, a.state);
    expect(actions(again.plan)["terraform_data.bad"]).toBe("DeleteThenCreate");
    expect(again.plan.changes.resources.find((c) => c.addr.toString() === "terraform_data.bad")?.actionReason).toBe("ReplaceBecauseTainted");
  });
});
