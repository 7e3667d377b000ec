// A deposed object that refreshes to null (deleted outside OpenTofu): it leaves the state and the
// plan records a NoOp change for it (OpenTofu's planDestroy of a null object), so consumers of
// the plan see it was checked; refresh-only and destroy plans record nothing for it.
import { describe, expect, it } from "vitest";
import type { ReadResourceRequest } from "../providers/index.js";
import { marshalPlanJSON, newSchemas } from "../plans/index.js";
import { nullVal, type Value } from "../values/index.js";
import { Context, type PlanOptions } from "./context.js";
import { actions, errorsOf, loadConfig } from "./core.testkit.js";
import { LEGACY_BEHAVIOUR, LEGACY_INSTANCE, MockProvider, buildState, mockFactory } from "./lifecycle.testkit.js";

const FILES = { "main.tf": 'resource "test_instance" "a" {\n  ami = "new"\n}\n' };

/** The remote object of the deposed "old" instance is gone; everything else still exists. */
function provider(): MockProvider {
  const read = (req: ReadResourceRequest) => {
    const id = attr(req.priorState, "id");
    return { newState: id === "old" ? nullVal(req.priorState.type) : req.priorState, private: req.private ?? new Uint8Array(), diagnostics: [] };
  };
  return new MockProvider(new Map([["test_instance", LEGACY_INSTANCE]]), { ...LEGACY_BEHAVIOUR, read });
}

function attr(v: Value, name: string): string | undefined {
  if (v.kind !== "object") return undefined;
  const a = v.attrs.get(name);
  return a?.kind === "string" ? a.value : undefined;
}

const prior = () =>
  buildState([
    { addr: "test_instance.a", attrs: { id: "new", ami: "new", type: "test_instance" } },
    { addr: "test_instance.a", deposed: "00000001", attrs: { id: "old", ami: "old", type: "test_instance" } },
  ]);

async function planWith(opts: PlanOptions = {}) {
  const ctx = new Context({ providers: mockFactory(provider()) });
  const r = await ctx.plan(loadConfig(FILES), prior(), opts);
  expect(errorsOf(r.diagnostics)).toEqual([]);
  return r;
}

describe("a deposed object deleted outside OpenTofu", () => {
  it("leaves the state and gets a NoOp change", async () => {
    const r = await planWith();
    expect(actions(r.plan)).toEqual({ "test_instance.a": "NoOp", "test_instance.a (deposed 00000001)": "NoOp" });
    const gone = r.plan.changes.resources.find((c) => c.deposedKey === "00000001");
    expect(gone?.change.before.kind).toBe("null");
    expect(gone?.change.after.kind).toBe("null");
    expect(r.plan.priorState.rootModule().resources.get("test_instance.a")?.instances.values().next().value?.deposed.size).toBe(0);
    expect(r.plan.applyable).toBe(false);
  });

  it("shows as a no-op with the deposed key in the JSON plan's resource_changes", async () => {
    const r = await planWith();
    const m = marshalPlanJSON(r.plan, { schemas: newSchemas(r.schemas), terraformVersion: "1.12.0" });
    if (!m.ok) throw new Error(m.error);
    const doc = JSON.parse(m.json) as { resource_changes: unknown[] };
    expect(doc.resource_changes).toContainEqual({
      address: "test_instance.a",
      mode: "managed",
      type: "test_instance",
      name: "a",
      deposed: "00000001",
      provider_name: "registry.opentofu.org/hashicorp/test",
      change: { actions: ["no-op"], before: null, after: null, after_unknown: {}, before_sensitive: false, after_sensitive: false },
    });
  });

  it("is only dropped from state by a refresh-only plan", async () => {
    const r = await planWith({ mode: "refresh-only" });
    expect(actions(r.plan)).toEqual({});
    expect(r.plan.priorState.rootModule().resources.get("test_instance.a")?.instances.values().next().value?.deposed.size).toBe(0);
  });

  it("is left out of a destroy plan", async () => {
    const r = await planWith({ mode: "destroy" });
    expect(actions(r.plan)).toEqual({ "test_instance.a": "Delete" });
  });

  it("applies to a state without it, with nothing left to do", async () => {
    const r = await planWith();
    const ctx = new Context({ providers: mockFactory(provider()) });
    const a = await ctx.apply(r.plan, loadConfig(FILES));
    expect(errorsOf(a.diagnostics)).toEqual([]);
    const again = await ctx.plan(loadConfig(FILES), a.state);
    expect(actions(again.plan)).toEqual({ "test_instance.a": "NoOp" });
  });
});
