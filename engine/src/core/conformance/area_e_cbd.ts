// Area E, create_before_destroy and apply-time behaviour (cases 063, 065, 066, 068, 070, 071).
import path from "node:path";
import type { Config } from "../../configs/index.js";
import type { State } from "../../states/index.js";
import { numberIntVal } from "../../values/index.js";
import { UNKNOWN, actions, after, apply, changes, configFiles, errors, mustLoadConfig, newRun, plan, planAndApply, readState, rpcs, stateJSON, stateObjects, type Checks } from "./kit.js";
import { subdirs } from "./area_e_lifecycle.js";

function prior(dir: string): State {
  return readState(path.join(dir, "prior.tfstate"));
}

const cfg = (dir: string): Config => mustLoadConfig(configFiles(dir));

export async function case063(t: Checks, dir: string): Promise<void> {
  const want: Record<string, [string, string]> = {
    "01": ["DeleteThenCreate", "DeleteThenCreate"],
    "02": ["DeleteThenCreate", "Update"],
    "03": ["CreateThenDelete", "Update"],
    "04": ["CreateThenDelete", "DeleteThenCreate"],
    "05": ["CreateThenDelete", "CreateThenDelete"],
    "06": ["Update", "DeleteThenCreate"],
    "07": ["Update", "CreateThenDelete"],
    "08": ["Delete", "Update"],
    "09": ["Delete", "Update"],
    "10": ["Update", "Delete"],
    "11": ["Update", "Delete"],
  };
  const subs = subdirs(dir, /^\d\d-/);
  t.eq("rows", subs.map((s) => s.slice(0, 2)), Object.keys(want).sort());
  await t.each(subs, async (t, sub) => {
    const d = path.join(dir, sub);
    const p = await plan(newRun("cbd-matrix"), cfg(d), prior(d));
    t.eq(`${sub}: diagnostics`, p.diagnostics.map((x) => `${x.severity}: ${x.summary}`), []);
    const [first, second] = want[sub.slice(0, 2)] ?? ["", ""];
    t.eq(`${sub}: actions`, actions(p.plan), { "test.first": first, "test.second": second });
  });
}

export async function case065(t: Checks, dir: string): Promise<void> {
  const s = await planAndApply(newRun("replace-number"), cfg(dir), prior(dir));
  t.eq("errors", errors(s.diagnostics), []);
  t.eq("test_object.B action", actions(s.plan)["test_object.B"], "CreateThenDelete");
  t.eq("test_object.B create_before_destroy in state", stateObjects(s.state)["test_object.B"]?.create_before_destroy, true);
}

export async function case066(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun("read-gone"), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
}

export async function case068(t: Checks, dir: string): Promise<void> {
  const config = cfg(dir);
  const step1 = await plan(newRun("scale-in"), config, prior(dir), { variables: { ct: numberIntVal(1) } });
  t.eq("step 1: plan errors", errors(step1.diagnostics), []);
  const c1 = changes(step1.plan);
  t.eq("step 1: a[0]", c1["test_instance.a[0]"], { action: "NoOp", reason: "None", prevRunAddr: "test_instance.a[0]", providerKey: "" });
  t.eq("step 1: a[1]", c1["test_instance.a[1]"], { action: "Delete", reason: "DeleteBecauseCountIndex", prevRunAddr: "test_instance.a[1]", providerKey: "" });
  t.eq("step 1: b and c replaced", [c1["test_instance.b"]?.action, c1["test_instance.c"]?.action], ["CreateThenDelete", "CreateThenDelete"]);
  const a1 = await apply(newRun("scale-in"), step1.plan, config);
  t.eq("step 1: apply errors", errors(a1.diagnostics), []);
  t.eq("step 1: output.out", stateJSON(a1.state).outputs?.["out"]?.value, "a0");

  const step2 = await plan(newRun("scale-in"), config, a1.state, { variables: { ct: numberIntVal(0) } });
  t.eq("step 2: plan errors", errors(step2.diagnostics), []);
  const c2 = changes(step2.plan);
  t.eq("step 2: a[0]", c2["test_instance.a[0]"], { action: "Delete", reason: "DeleteBecauseCountIndex", prevRunAddr: "test_instance.a[0]", providerKey: "" });
  t.eq("step 2: no change for a[1]", c2["test_instance.a[1]"], undefined);
  const a2 = await apply(newRun("scale-in"), step2.plan, config);
  t.eq("step 2: apply errors", errors(a2.diagnostics), []);
  t.eq("step 2: output.out", stateJSON(a2.state).outputs?.["out"]?.value, "");
}

/** Status, set attributes and deposed count per current object (legacy String()'s content). */
function legacyView(state: State): Record<string, { status: string; attributes: Record<string, unknown>; deposed: number }> {
  const objs = stateObjects(state);
  const out: Record<string, { status: string; attributes: Record<string, unknown>; deposed: number }> = {};
  for (const [addr, o] of Object.entries(objs)) {
    if (o.deposed) continue;
    out[addr] = {
      status: o.status ?? "ready",
      attributes: Object.fromEntries(Object.entries(o.attributes).filter(([, v]) => v !== null)),
      deposed: Object.keys(objs).filter((k) => k.startsWith(`${addr} (deposed `)).length,
    };
  }
  return out;
}

function deposedAttributes(state: State, addr: string): Array<Record<string, unknown>> {
  return Object.entries(stateObjects(state))
    .filter(([k]) => k.startsWith(`${addr} (deposed `))
    .map(([, o]) => Object.fromEntries(Object.entries(o.attributes).filter(([, v]) => v !== null)));
}

export async function case070(t: Checks, dir: string): Promise<void> {
  {
    const d = path.join(dir, "create-fails");
    const p = await plan(newRun("apply-fails"), cfg(d), prior(d));
    t.eq("create-fails: plan errors", errors(p.diagnostics), []);
    t.eq("create-fails: actions", actions(p.plan), { "aws_instance.bar": "CreateThenDelete" });
    const a = await apply(newRun("apply-fails"), p.plan, cfg(d));
    t.eq("create-fails: apply errors", errors(a.diagnostics), ["error: placeholder error from ApplyFn"]);
    t.eq("create-fails: final state", legacyView(a.state), {
      "aws_instance.bar": { status: "ready", attributes: { id: "bar", require_new: "abc", type: "aws_instance" }, deposed: 0 },
    });
  }
  {
    const d = path.join(dir, "destroy-fails");
    const s = await planAndApply(newRun("destroy-fails"), cfg(d), prior(d));
    t.that("destroy-fails: apply has errors", errors(s.diagnostics).length > 0, "no errors");
    t.eq("destroy-fails: final state", legacyView(s.state), {
      "aws_instance.bar": { status: "ready", attributes: { id: "foo", require_new: "xyz", type: "aws_instance" }, deposed: 1 },
    });
    t.eq("destroy-fails: deposed object", deposedAttributes(s.state, "aws_instance.bar"), [{ id: "bar", require_new: "abc" }]);
  }
  {
    const d = path.join(dir, "tainted-destroy-fails");
    const p = await plan(newRun("tainted-destroy-fails"), cfg(d), prior(d));
    t.eq("tainted-destroy-fails: plan errors", errors(p.diagnostics), []);
    const a = await apply(newRun("tainted-destroy-fails"), p.plan, cfg(d));
    t.that("tainted-destroy-fails: apply has errors", errors(a.diagnostics).length > 0, "no errors");
    const v = legacyView(a.state);
    t.eq("tainted-destroy-fails: a", v["test_instance.a"]?.status, "tainted");
    t.eq("tainted-destroy-fails: b", [v["test_instance.b"]?.status, v["test_instance.b"]?.deposed], ["ready", 1]);
    t.eq("tainted-destroy-fails: c", v["test_instance.c"], { status: "tainted", attributes: { foo: "old", id: "c" }, deposed: 0 });
  }
}

export async function case071(t: Checks, dir: string): Promise<void> {
  const run = newRun();
  const p = await plan(run, cfg(dir), readState(""));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("actions", actions(p.plan), { "aws_instance.bar": "Create", "aws_instance.foo": "Create" });
  const foo = after(p.plan, "aws_instance.foo") as Record<string, unknown>;
  const bar = after(p.plan, "aws_instance.bar") as Record<string, unknown>;
  t.eq("foo After.num", foo["num"], 2);
  t.eq("bar After.foo", bar["foo"], "2");
  t.eq("computed attributes unknown", [foo["id"], foo["type"], bar["id"], bar["type"]], [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]);
  const seen = rpcs(run.calls);
  t.eq("ValidateProviderConfig called before ConfigureProvider", seen.indexOf("ValidateProviderConfig") >= 0 && seen.indexOf("ValidateProviderConfig") < seen.indexOf("ConfigureProvider"), true);
}
