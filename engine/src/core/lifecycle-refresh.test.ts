// Refresh, drift and create_before_destroy from OpenTofu's conformance cases (047-049, 062,
// 063, 065, 066, 068-070), run from their directories in shared/conformance against the
// in-process MockProvider with each case's provider overrides.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import type { State } from "../states/index.js";
import { StringType, numberIntVal, objectVal, rawEquals, stringVal, unknownVal, type Path, type Value } from "../values/index.js";
import { Context, type PlanOptions } from "./context.js";
import { actions, errorsOf, inputs, loadConfig, stateAttributes } from "./core.testkit.js";
import {
  LEGACY_BEHAVIOUR,
  LEGACY_INSTANCE,
  MockProvider,
  SIMPLE,
  buildState,
  conformanceCase,
  mockFactory,
  schemaOf,
  testApplyFn,
  testDiffFn,
  type MockBehaviour,
} from "./lifecycle.testkit.js";

const ARG_SCHEMA = schemaOf({ block: { attributes: { arg: { type: StringType, optional: true } } } });

/** Case 047's overrides: UpgradeResourceState says "upgraded", ReadResource says "current". */
function argProvider(): MockProvider {
  return new MockProvider(new Map([["test_object", ARG_SCHEMA]]), {
    upgrade: (req) => {
      const raw = new TextDecoder().decode(req.rawStateJSON);
      if (!raw.includes("before") && !raw.includes("current")) throw new Error(`unexpected raw state ${raw}`);
      return { upgradedState: objectVal({ arg: stringVal("upgraded") }), diagnostics: [] };
    },
    read: (req) => ({ newState: objectVal({ arg: stringVal("current") }), private: req.private ?? new Uint8Array(), diagnostics: [] }),
  });
}

async function planCase(name: string, p: MockProvider, opts: PlanOptions = {}): Promise<{ plan: Plan; diagnostics: Diagnostic[]; ctx: Context; files: Record<string, string>; prior: State }> {
  const { files, prior } = conformanceCase(name);
  const ctx = new Context({ providers: mockFactory(p) });
  const r = await ctx.plan(loadConfig(files), prior, opts);
  return { plan: r.plan, diagnostics: r.diagnostics, ctx, files, prior };
}

const attrsOf = (s: State) => stateAttributes(s);
const outputAfter = (p: Plan, name: string): Value | undefined => p.changes.outputs.find((o) => o.addr.outputValue.name === name)?.change.after;

describe("refresh-only plans (cases 047-049)", () => {
  it("refreshes, plans no change, and keeps the upgraded previous-run state", async () => {
    const p = argProvider();
    const r = await planCase("047-refresh-only-mode", p, { mode: "refresh-only" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(p.calls).toContain("UpgradeResourceState test_object");
    expect(p.calls).toContain("ReadResource test_object");
    expect(p.calls.some((c) => c.startsWith("PlanResourceChange"))).toBe(false);
    expect(r.plan.changes.resources).toEqual([]);
    expect(r.plan.uiMode).toBe("refresh-only");
    expect(attrsOf(r.plan.priorState)["test_object.a"]).toEqual({ arg: "current" });
    expect(attrsOf(r.plan.prevRunState)["test_object.a"]).toEqual({ arg: "upgraded" });
    expect(outputAfter(r.plan, "out")).toEqual(stringVal("current"));
    // The refresh changed the object: drift, and the plan can be applied to save it.
    expect(r.plan.driftedResources.map((d) => `${d.addr.toString()} ${d.change.action}`)).toEqual(["test_object.a Update"]);
    expect(r.plan.applyable).toBe(true);
  });

  it("refreshes a deposed-only instance without planning anything, and reports no drift for it", async () => {
    const p = argProvider();
    const r = await planCase("048-refresh-only-deposed-only", p, { mode: "refresh-only" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(r.plan.changes.resources).toEqual([]);
    expect(attrsOf(r.plan.priorState)["test_object.a (deposed)"]).toEqual({ arg: "current" });
    expect(attrsOf(r.plan.prevRunState)["test_object.a (deposed)"]).toEqual({ arg: "upgraded" });
    expect(outputAfter(r.plan, "out")).toEqual(unknownVal(StringType));
    expect(r.plan.driftedResources).toEqual([]);
  });

  it("refreshes an orphaned count instance instead of deleting it; the splat sees both", async () => {
    const r = await planCase("049-refresh-only-orphan-count", argProvider(), { mode: "refresh-only" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(r.plan.changes.resources).toEqual([]);
    const prior = attrsOf(r.plan.priorState);
    expect([prior["test_object.a[0]"], prior["test_object.a[1]"]]).toEqual([{ arg: "current" }, { arg: "current" }]);
    const prev = attrsOf(r.plan.prevRunState);
    expect([prev["test_object.a[0]"], prev["test_object.a[1]"]]).toEqual([{ arg: "upgraded" }, { arg: "upgraded" }]);
    const out = outputAfter(r.plan, "out");
    expect(out?.kind === "tuple" && out.elements).toEqual([stringVal("current"), stringVal("current")]);
  });

  it("reports drift in a normal plan too, deletions included", async () => {
    const p = new MockProvider(new Map([["test_object", SIMPLE]]), {
      read: (req) => {
        const s = req.priorState.kind === "object" ? req.priorState.attrs.get("test_string") : undefined;
        const gone = s?.kind === "string" && s.value === "gone";
        return { newState: gone ? { ...req.priorState, kind: "null" } as Value : objectVal({ ...Object.fromEntries(req.priorState.kind === "object" ? req.priorState.attrs : []), test_number: numberIntVal(7) }), private: new Uint8Array(), diagnostics: [] };
      },
    });
    const files = { "main.tf": 'resource "test_object" "a" {\n  test_string = "x"\n}\nresource "test_object" "b" {\n  test_string = "gone"\n}\n' };
    const prior = buildState([{ addr: "test_object.a", attrs: { test_string: "x" } }, { addr: "test_object.b", attrs: { test_string: "gone" } }]);
    const first = await new Context({ providers: mockFactory(p) }).plan(loadConfig(files), prior);
    expect(errorsOf(first.diagnostics)).toEqual([]);
    expect(first.plan.driftedResources.map((d) => `${d.addr.toString()} ${d.change.action}`)).toEqual(["test_object.a Update", "test_object.b Delete"]);
    expect(actions(first.plan)).toEqual({ "test_object.a": "Update", "test_object.b": "Create" });
  });
});

describe("destroy plans (case 069)", () => {
  for (const refresh of [true, false]) {
    it(`deletes everything ${refresh ? "after refreshing" : "without refreshing (prior state still upgraded)"}`, async () => {
      const p = argProvider();
      const r = await planCase("069-destroy-mode-refresh-and-skip-refresh", p, { mode: "destroy", refresh });
      expect(errorsOf(r.diagnostics)).toEqual([]);
      expect(p.calls.includes("ReadResource test_object")).toBe(refresh);
      expect(Object.values(actions(r.plan))).toEqual(["Delete"]);
      expect(attrsOf(r.plan.prevRunState)["test_object.a"]).toEqual({ arg: "upgraded" });
      expect(attrsOf(r.plan.priorState)["test_object.a"]).toEqual({ arg: refresh ? "current" : "upgraded" });
    });
  }
});

/** Case 063's provider: `test` with id computed; PlanResourceChange returns proposed and always names forces_replace. */
function cbdMatrixProvider(): MockProvider {
  const schema = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, parent_id: { type: StringType, optional: true }, forces_replace: { type: StringType, optional: true } } } });
  return new MockProvider(new Map([["test", schema]]), {
    plan: (req, def) => ({ ...def(), plannedState: req.proposedNewState, requiresReplace: [[{ kind: "attr", name: "forces_replace" }]] }),
  });
}

describe("create_before_destroy", () => {
  const rows: Array<[string, string, string]> = [
    ["01-DeleteThenCreate-then-DeleteThenCreate", "DeleteThenCreate", "DeleteThenCreate"],
    ["02-DeleteThenCreate-then-Update", "DeleteThenCreate", "Update"],
    ["03-CreateThenDelete-then-Update", "CreateThenDelete", "Update"],
    ["04-CreateThenDelete-then-DeleteThenCreate", "CreateThenDelete", "DeleteThenCreate"],
    ["05-CreateThenDelete-then-CreateThenDelete", "CreateThenDelete", "CreateThenDelete"],
    ["06-Update-then-DeleteThenCreate", "Update", "DeleteThenCreate"],
    ["07-Update-then-CreateThenDelete", "Update", "CreateThenDelete"],
    ["08-Delete-then-Update", "Delete", "Update"],
    ["09-Delete-then-Update", "Delete", "Update"],
    ["10-Update-then-Delete", "Update", "Delete"],
    ["11-Update-then-Delete", "Update", "Delete"],
  ];
  for (const [row, first, second] of rows) {
    it(`case 063 ${row}: forced onto dependencies, never onto dependents`, async () => {
      const r = await planCase(`063-cbd-action-interactions/${row}`, cbdMatrixProvider());
      expect(r.diagnostics).toEqual([]);
      expect(actions(r.plan)).toEqual({ "test.first": first, "test.second": second });
      // The apply graph of such a plan has no cycle.
      const a = await r.ctx.apply(r.plan, loadConfig(r.files));
      expect(errorsOf(a.diagnostics)).toEqual([]);
    });
  }

  it("case 062: a leftover deposed object is deleted; the current one is kept", async () => {
    const p = new MockProvider(new Map([["aws_instance", LEGACY_INSTANCE]]), LEGACY_BEHAVIOUR);
    const r = await planCase("062-cbd-existing-deposed-object", p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "NoOp", "aws_instance.foo (deposed 00000001)": "Delete" });
    const a = await r.ctx.apply(r.plan, loadConfig(r.files));
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(Object.keys(attrsOf(a.state))).toEqual(["aws_instance.foo"]);
  });

  it("case 065: a dependency forced into create_before_destroy records it in state", async () => {
    const p = new MockProvider(new Map([["test_object", SIMPLE]]), {
      plan: (req, def) => ({ ...def(), plannedState: req.proposedNewState, requiresReplace: [[{ kind: "attr", name: "test_number" }]] }),
    });
    const r = await planCase("065-cbd-propagation-through-non-cbd-update", p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)["test_object.B"]).toBe("CreateThenDelete");
    const a = await r.ctx.apply(r.plan, loadConfig(r.files));
    expect(errorsOf(a.diagnostics)).toEqual([]);
    const b = [...a.state.allResources()].find((rs) => rs.addr.resource.name === "B");
    expect([...(b?.instances.values() ?? [])][0]?.current?.createBeforeDestroy).toBe(true);
  });

  it("case 066: a deposed object the provider reports gone is dropped without error, with a NoOp change", async () => {
    const p = new MockProvider(new Map([["test_object", SIMPLE]]), {
      read: (req) => {
        const s = req.priorState.kind === "object" ? req.priorState.attrs.get("test_string") : undefined;
        const keep = s?.kind === "string" && s.value === "current";
        return { newState: keep ? req.priorState : ({ ...req.priorState, kind: "null" } as Value), private: new Uint8Array(), diagnostics: [] };
      },
    });
    const r = await planCase("066-deposed-object-already-gone", p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    // OpenTofu's planDestroy records a NoOp for an object that is already gone.
    expect(actions(r.plan)).toEqual({ "test_object.a[0]": "Delete", "test_object.a[0] (deposed deposed0)": "NoOp", "test_object.b[0]": "Create" });
    expect(r.plan.changes.resources.find((c) => c.addr.toString() === "test_object.a[0]" && c.deposedKey === "")?.actionReason).toBe("DeleteBecauseNoResourceConfig");
  });

  it("case 068: scaling a count in while CBD dependents are replaced", async () => {
    // The case's overrides: a create gets an unknown id; an update whose require_new changed is
    // a replacement with an unknown id; ApplyResourceChange is MockProvider's (unknown id -> "").
    const p = new MockProvider(new Map([["test_instance", LEGACY_INSTANCE]]), {
      plan: (req, def) => {
        const base = def();
        if (req.proposedNewState.kind !== "object") return { ...base, plannedState: req.proposedNewState, requiresReplace: [] };
        const planned = new Map(req.proposedNewState.attrs);
        let requiresReplace: Path[] = [];
        if (req.priorState.kind === "null") planned.set("id", unknownVal(StringType));
        else {
          const before = req.priorState.kind === "object" ? req.priorState.attrs.get("require_new") : undefined;
          const after = planned.get("require_new");
          if (after?.kind === "unknown" || !before || !after || !rawEquals(before, after)) {
            requiresReplace = [[{ kind: "attr", name: "require_new" }]];
            planned.set("id", unknownVal(StringType));
          }
        }
        return { ...base, plannedState: objectVal(planned), requiresReplace };
      },
    });
    const { files, prior } = conformanceCase("068-scale-in-with-cbd-count-index");
    const ctx = new Context({ providers: mockFactory(p) });
    const config = loadConfig(files);
    const p1 = await ctx.plan(config, prior, { variables: inputs({ ct: numberIntVal(1) }) });
    expect(errorsOf(p1.diagnostics)).toEqual([]);
    expect(actions(p1.plan)["test_instance.a[0]"]).toBe("NoOp");
    expect(actions(p1.plan)["test_instance.a[1]"]).toBe("Delete");
    expect(p1.plan.changes.resources.find((c) => c.addr.toString() === "test_instance.a[1]")?.actionReason).toBe("DeleteBecauseCountIndex");
    const a1 = await ctx.apply(p1.plan, config);
    expect(errorsOf(a1.diagnostics)).toEqual([]);
    expect(stateAttributes(a1.state)["output.out"]).toEqual({ value: "a0", sensitive: false });
    const p2 = await ctx.plan(config, a1.state, { variables: inputs({ ct: numberIntVal(0) }) });
    expect(errorsOf(p2.diagnostics)).toEqual([]);
    expect(actions(p2.plan)["test_instance.a[0]"]).toBe("Delete");
    expect(actions(p2.plan)["test_instance.a[1]"]).toBeUndefined();
    const a2 = await ctx.apply(p2.plan, config);
    expect(errorsOf(a2.diagnostics)).toEqual([]);
    expect(stateAttributes(a2.state)["output.out"]).toEqual({ value: "", sensitive: false });
  });
});

describe("create_before_destroy apply failures (case 070)", () => {
  const fail = (summary: string) => [{ severity: "error" as const, summary, detail: "" }];

  it("restores the old object when creating its replacement fails", async () => {
    const behaviour: MockBehaviour = { plan: (req) => testDiffFn(req), apply: (req) => ({ ...testApplyFn(req), newState: { ...req.priorState, kind: "null" } as Value, diagnostics: fail("placeholder error from ApplyFn") }) };
    const p = new MockProvider(new Map([["aws_instance", LEGACY_INSTANCE]]), behaviour);
    const r = await planCase("070-cbd-apply-failures-deposed-and-tainted/create-fails", p);
    expect(actions(r.plan)).toEqual({ "aws_instance.bar": "CreateThenDelete" });
    const a = await r.ctx.apply(r.plan, loadConfig(r.files));
    expect(errorsOf(a.diagnostics)).toEqual(["placeholder error from ApplyFn: "]);
    const attrs = attrsOf(a.state);
    expect(Object.keys(attrs)).toEqual(["aws_instance.bar"]);
    expect(attrs["aws_instance.bar"]).toMatchObject({ id: "bar", require_new: "abc" });
  });

  it("keeps the old object deposed when destroying it fails", async () => {
    const behaviour: MockBehaviour = {
      plan: (req) => testDiffFn(req),
      apply: (req) => (req.plannedState.kind === "null" ? { ...testApplyFn(req), newState: req.priorState, diagnostics: fail("error") } : testApplyFn(req)),
    };
    const p = new MockProvider(new Map([["aws_instance", LEGACY_INSTANCE]]), behaviour);
    const r = await planCase("070-cbd-apply-failures-deposed-and-tainted/destroy-fails", p);
    const a = await r.ctx.apply(r.plan, loadConfig(r.files));
    expect(errorsOf(a.diagnostics).length).toBeGreaterThan(0);
    const attrs = attrsOf(a.state);
    expect(attrs["aws_instance.bar"]).toMatchObject({ id: "foo", require_new: "xyz" });
    expect(attrs["aws_instance.bar (deposed)"]).toMatchObject({ id: "bar" });
  });

  it("tainted replacements: destroy-first keeps the tainted object; CBD keeps the new one (or restores the old)", async () => {
    const schema = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, foo: { type: StringType, optional: true } } } });
    const behaviour: MockBehaviour = {
      plan: (req) => testDiffFn(req),
      apply: (req) => {
        if (req.plannedState.kind === "null") return { ...testApplyFn(req), newState: req.priorState, diagnostics: fail("failure") };
        const foo = req.plannedState.kind === "object" ? req.plannedState.attrs.get("foo") : undefined;
        if (foo?.kind === "string" && foo.value === "c") return { ...testApplyFn(req), newState: { ...req.priorState, kind: "null" } as Value, diagnostics: fail("failure") };
        return testApplyFn(req);
      },
    };
    const p = new MockProvider(new Map([["test_instance", schema]]), behaviour);
    const r = await planCase("070-cbd-apply-failures-deposed-and-tainted/tainted-destroy-fails", p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "test_instance.a": "DeleteThenCreate", "test_instance.b": "CreateThenDelete", "test_instance.c": "CreateThenDelete" });
    const a = await r.ctx.apply(r.plan, loadConfig(r.files));
    expect(errorsOf(a.diagnostics).length).toBeGreaterThan(0);
    const inst = (name: string) => [...([...a.state.allResources()].find((rs) => rs.addr.resource.name === name)?.instances.values() ?? [])][0];
    expect(inst("a")?.current?.status).toBe("tainted");
    expect(inst("b")?.current?.status).toBe("ready");
    expect(inst("b")?.deposed.size).toBe(1);
    expect(inst("c")?.current?.status).toBe("tainted");
    expect(inst("c")?.deposed.size).toBe(0);
    expect(JSON.parse(inst("c")?.current?.attrsJSON ?? "{}")).toEqual({ foo: "old", id: "c" });
  });
});
