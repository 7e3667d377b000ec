// `lifecycle { destroy = false }` (OpenTofu 1.12): objects are forgotten instead of destroyed, and
// each object records `skip_destroy` in state so it stays protected after its block is gone. The
// tables are OpenTofu's TestSkipDestroy_* cases (internal/tofu/context_skip_destroy_test.go),
// against the in-process MockProvider with the LEGACY `aws_instance` schema and testDiffFn
// (`require_new` forces replacement).
import { describe, expect, it } from "vitest";
import { NoKey, parseAbsResourceInstanceStr } from "../addrs/index.js";
import { hasErrors } from "../hcl/index.js";
import { State, SyncState, newObjectSrc } from "../states/index.js";
import { Context, type PlanOptions } from "./context.js";
import { actions, errorsOf, loadConfig } from "./core.testkit.js";
import { LEGACY_BEHAVIOUR, LEGACY_INSTANCE, MockProvider, mockFactory, rootProvider } from "./lifecycle.testkit.js";

interface Obj {
  addr: string;
  skipDestroy?: boolean;
  deposed?: string;
  attrs?: Record<string, unknown>;
}

function stateOf(objects: Obj[]): State {
  const s = new SyncState(new State());
  for (const o of objects) {
    const a = parseAbsResourceInstanceStr(o.addr);
    if (hasErrors(a.diagnostics) || !a.result) throw new Error(`bad address ${o.addr}`);
    const src = newObjectSrc({ attrsJSON: JSON.stringify(o.attrs ?? { id: "baz", type: "aws_instance" }), skipDestroy: o.skipDestroy ?? false });
    if (o.deposed) s.setResourceInstanceDeposed(a.result, o.deposed, src, rootProvider("aws"), NoKey);
    else s.setResourceInstanceCurrent(a.result, src, rootProvider("aws"), NoKey);
  }
  return s.close();
}

function context(): Context {
  return new Context({ providers: mockFactory(new MockProvider(new Map([["aws_instance", LEGACY_INSTANCE]]), LEGACY_BEHAVIOUR)) });
}

async function planOf(config: string, objects: Obj[], opts: PlanOptions = {}) {
  const ctx = context();
  const cfg = loadConfig({ "main.tf": config });
  const r = await ctx.plan(cfg, stateOf(objects), opts);
  expect(errorsOf(r.diagnostics)).toEqual([]);
  return { ctx, cfg, plan: r.plan, diagnostics: r.diagnostics };
}

const res = (lifecycle: string, extra = "") => `resource "aws_instance" "foo" {\n${extra}  lifecycle {\n${lifecycle}  }\n}\n`;
const KEEP = res("    destroy = false\n");
const DROP = res("    destroy = true\n");
const EMPTY = "# Empty\n";

function skipFlag(state: State, addr: string, deposed = ""): boolean | undefined {
  const a = parseAbsResourceInstanceStr(addr).result;
  if (!a) throw new Error(addr);
  return new SyncState(state).resourceInstanceObject(a, deposed)?.skipDestroy;
}

describe("destroy = false in a destroy plan", () => {
  const cases: Array<[string, string, Obj[], Record<string, string>]> = [
    ["config and state both say keep: forget", KEEP, [{ addr: "aws_instance.foo", skipDestroy: true }], { "aws_instance.foo": "Forget" }],
    ["the config alone says keep: forget", KEEP, [{ addr: "aws_instance.foo" }], { "aws_instance.foo": "Forget" }],
    ["the config says destroy: it overrides the object's record", DROP, [{ addr: "aws_instance.foo", skipDestroy: true }], { "aws_instance.foo": "Delete" }],
    [
      "deposed objects with no block keep their own records",
      EMPTY,
      [
        { addr: "aws_instance.foo", deposed: "00000001" },
        { addr: "aws_instance.foo", deposed: "00000002", skipDestroy: true },
      ],
      { "aws_instance.foo (deposed 00000001)": "Delete", "aws_instance.foo (deposed 00000002)": "Forget" },
    ],
    [
      "deposed objects: keep in config forgets both",
      KEEP,
      [
        { addr: "aws_instance.foo", deposed: "00000001" },
        { addr: "aws_instance.foo", deposed: "00000002", skipDestroy: true },
      ],
      { "aws_instance.foo (deposed 00000001)": "Forget", "aws_instance.foo (deposed 00000002)": "Forget" },
    ],
    [
      "deposed objects: destroy in config does not override a record",
      DROP,
      [
        { addr: "aws_instance.foo", deposed: "00000001" },
        { addr: "aws_instance.foo", deposed: "00000002", skipDestroy: true },
      ],
      { "aws_instance.foo (deposed 00000001)": "Delete", "aws_instance.foo (deposed 00000002)": "Forget" },
    ],
  ];
  for (const [name, config, objects, want] of cases) {
    it(name, async () => {
      const r = await planOf(config, objects, { mode: "destroy" });
      expect(actions(r.plan)).toEqual(want);
    });
  }

  it("applying forgets the objects, leaves an empty state and fails the destroy", async () => {
    const r = await planOf(KEEP, [{ addr: "aws_instance.foo", skipDestroy: true }], { mode: "destroy" });
    const a = await r.ctx.apply(r.plan, r.cfg);
    expect(a.state.empty()).toBe(true);
    expect(errorsOf(a.diagnostics)).toEqual([
      "Destroy was successful but left behind forgotten instances: As requested, OpenTofu has not deleted some remote objects that are no longer managed by this configuration. Those objects continue to exist in their remote system and so may continue to incur charges. Refer to the original plan for more information.\nTo suppress this error for the future 'destroy' runs, you can add the CLI flag \"-suppress-forget-errors\".",
    ]);
    const quiet = await r.ctx.apply(r.plan, r.cfg, { suppressForgetErrors: true });
    expect(errorsOf(quiet.diagnostics)).toEqual([]);
  });

  it("a destroy that destroys everything succeeds", async () => {
    const r = await planOf(DROP, [{ addr: "aws_instance.foo" }], { mode: "destroy" });
    const a = await r.ctx.apply(r.plan, r.cfg);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(a.state.empty()).toBe(true);
  });
});

describe("destroy = false for objects whose block or instance is gone", () => {
  const counted = (destroy: boolean) => res(`    destroy = ${destroy}\n`, "  count = 2\n");
  const each = (destroy: boolean) => res(`    destroy = ${destroy}\n`, '  for_each = toset(["a", "b"])\n');
  const idx = (i: number, skipDestroy: boolean): Obj => ({ addr: `aws_instance.foo[${i}]`, skipDestroy });
  const key = (k: string, skipDestroy: boolean): Obj => ({ addr: `aws_instance.foo["${k}"]`, skipDestroy });
  const cases: Array<[string, string, Obj[], Record<string, string>, Record<string, string>?]> = [
    ["the object's record forgets it", EMPTY, [{ addr: "aws_instance.foo", skipDestroy: true }], { "aws_instance.foo": "Forget" }, { "aws_instance.foo": "ForgotBecauseLifecycleDestroyInState" }],
    ["without a record it is destroyed", EMPTY, [{ addr: "aws_instance.foo" }], { "aws_instance.foo": "Delete" }, { "aws_instance.foo": "DeleteBecauseNoResourceConfig" }],
    [
      "a removed block overrides the record either way",
      'removed {\n  from = aws_instance.a\n  lifecycle {\n    destroy = true\n  }\n}\nremoved {\n  from = aws_instance.b\n  lifecycle {\n    destroy = false\n  }\n}\n',
      [
        { addr: "aws_instance.a", skipDestroy: true },
        { addr: "aws_instance.b", skipDestroy: false },
      ],
      { "aws_instance.a": "Delete", "aws_instance.b": "Forget" },
    ],
    [
      "deposed objects: a removed block decides for all of them",
      'removed {\n  from = aws_instance.foo\n  lifecycle {\n    destroy = true\n  }\n}\n',
      [
        { addr: "aws_instance.foo", deposed: "00000001", skipDestroy: true },
        { addr: "aws_instance.foo", deposed: "00000002" },
      ],
      { "aws_instance.foo (deposed 00000001)": "Delete", "aws_instance.foo (deposed 00000002)": "Delete" },
    ],
    ["count reduced, keep in config: forget", counted(false), [idx(0, false), idx(1, false), idx(2, false)], { "aws_instance.foo[0]": "NoOp", "aws_instance.foo[1]": "NoOp", "aws_instance.foo[2]": "Forget" }, {
      "aws_instance.foo[0]": "None",
      "aws_instance.foo[1]": "None",
      "aws_instance.foo[2]": "ForgotBecauseLifecycleDestroyInConfig",
    }],
    ["count reduced, destroy in config: each object's record decides", counted(true), [idx(0, false), idx(1, false), idx(2, true), idx(3, false)], {
      "aws_instance.foo[0]": "NoOp",
      "aws_instance.foo[1]": "NoOp",
      "aws_instance.foo[2]": "Forget",
      "aws_instance.foo[3]": "Delete",
    }],
    ["for_each keys changed, keep in config: the old keys are forgotten", each(false), [key("x", true), key("y", false)], {
      'aws_instance.foo["a"]': "Create",
      'aws_instance.foo["b"]': "Create",
      'aws_instance.foo["x"]': "Forget",
      'aws_instance.foo["y"]': "Forget",
    }],
    ["for_each keys changed, destroy in config: records decide", each(true), [key("x", true), key("y", false)], {
      'aws_instance.foo["a"]': "Create",
      'aws_instance.foo["b"]': "Create",
      'aws_instance.foo["x"]': "Forget",
      'aws_instance.foo["y"]': "Delete",
    }],
  ];
  for (const [name, config, objects, want, reasons] of cases) {
    it(name, async () => {
      const r = await planOf(config, objects);
      expect(actions(r.plan)).toEqual(want);
      if (reasons) expect(Object.fromEntries(r.plan.changes.resources.map((c) => [c.addr.toString(), c.actionReason]))).toEqual(reasons);
    });
  }

  it("forgetting by lifecycle warns about nothing; a removed block keeps its warning", async () => {
    const r = await planOf(EMPTY, [{ addr: "aws_instance.foo", skipDestroy: true }]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("destroy = false for objects still configured", () => {
  it("a replacement forgets the old object and creates the new one, which records skip_destroy", async () => {
    const config = res("    destroy = false\n", '  require_new = "yes"\n');
    const r = await planOf(config, [{ addr: "aws_instance.foo", attrs: { id: "baz", require_new: "old", type: "aws_instance" } }]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "ForgetThenCreate" });
    expect(r.plan.changes.resources[0]?.actionReason).toBe("ReplaceBecauseCannotUpdate");
    const a = await r.ctx.apply(r.plan, r.cfg);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    const s = new SyncState(a.state);
    const foo = parseAbsResourceInstanceStr("aws_instance.foo").result;
    if (!foo) throw new Error("address");
    expect(s.resourceInstance(foo)?.deposed.size).toBe(0);
    expect(skipFlag(a.state, "aws_instance.foo")).toBe(true);
    const again = await r.ctx.plan(r.cfg, a.state);
    expect(actions(again.plan)).toEqual({ "aws_instance.foo": "NoOp" });
  });

  it("destroy in config replaces as usual, whatever the record", async () => {
    const config = res("    destroy = true\n", '  require_new = "yes"\n');
    const r = await planOf(config, [{ addr: "aws_instance.foo", skipDestroy: true, attrs: { id: "baz", require_new: "old", type: "aws_instance" } }]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "DeleteThenCreate" });
  });

  it("a forget-replacement is not stopped by prevent_destroy", async () => {
    const config = res("    destroy = false\n    prevent_destroy = true\n", '  require_new = "yes"\n');
    const r = await planOf(config, [{ addr: "aws_instance.foo", attrs: { id: "baz", require_new: "old", type: "aws_instance" } }]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "ForgetThenCreate" });
  });

  it("records the setting in state on create, and clears it when the setting goes", async () => {
    const r = await planOf(KEEP, []);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "Create" });
    const a = await r.ctx.apply(r.plan, r.cfg);
    expect(skipFlag(a.state, "aws_instance.foo")).toBe(true);
    const cfg2 = loadConfig({ "main.tf": 'resource "aws_instance" "foo" {\n}\n' });
    const p2 = await r.ctx.plan(cfg2, a.state);
    expect(actions(p2.plan)).toEqual({ "aws_instance.foo": "NoOp" });
    const a2 = await r.ctx.apply(p2.plan, cfg2);
    expect(errorsOf(a2.diagnostics)).toEqual([]);
    expect(skipFlag(a2.state, "aws_instance.foo")).toBe(false);
  });

  it("deposed objects: a record or keep in config forgets, otherwise destroyed", async () => {
    const cases: Array<[string, boolean, boolean, string]> = [
      [DROP, true, false, "Forget"],
      [KEEP, false, true, "Forget"],
      [KEEP, true, false, "Forget"],
      [DROP, false, false, "Delete"],
    ];
    for (const [config, deposedFlag, currentFlag, want] of cases) {
      const r = await planOf(config, [
        { addr: "aws_instance.foo", deposed: "00000001", skipDestroy: deposedFlag },
        { addr: "aws_instance.foo", skipDestroy: currentFlag },
      ]);
      expect(actions(r.plan)).toEqual({ "aws_instance.foo": "NoOp", "aws_instance.foo (deposed 00000001)": want });
    }
  });

  it("an orphaned deposed object follows its record", async () => {
    const keep = await planOf(EMPTY, [{ addr: "aws_instance.foo", deposed: "00000001", skipDestroy: true }]);
    expect(actions(keep.plan)).toEqual({ "aws_instance.foo (deposed 00000001)": "Forget" });
    const drop = await planOf(EMPTY, [{ addr: "aws_instance.foo", deposed: "00000001" }]);
    expect(actions(drop.plan)).toEqual({ "aws_instance.foo (deposed 00000001)": "Delete" });
  });
});
