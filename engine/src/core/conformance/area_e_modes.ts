// Area E, refresh-only and destroy planning (cases 047–049, 069). The provider profile
// "refresh-arg" upgrades every stored object to arg = "upgraded" and reads it back as "current".
import path from "node:path";
import type { State } from "../../states/index.js";
import { UNKNOWN, configFiles, errors, mustLoadConfig, newRun, outputAfter, plan, readState, rpcs, stateObjects, type Checks } from "./kit.js";

const PROFILE = "refresh-arg";

/** `arg` of every object in a state, by address. */
function args(state: State): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [addr, o] of Object.entries(stateObjects(state))) out[addr] = o.attributes["arg"];
  return out;
}

async function refreshOnly(dir: string) {
  const run = newRun(PROFILE);
  const p = await plan(run, mustLoadConfig(configFiles(dir)), readState(path.join(dir, "prior.tfstate")), { mode: "refresh-only" });
  return { run, ...p };
}

function called(t: Checks, calls: ReturnType<typeof newRun>["calls"]): void {
  const seen = rpcs(calls, "test_object");
  t.eq("UpgradeResourceState called", seen.includes("UpgradeResourceState"), true);
  t.eq("ReadResource called", seen.includes("ReadResource"), true);
}

export async function case047(t: Checks, dir: string): Promise<void> {
  const { run, plan: p, diagnostics } = await refreshOnly(dir);
  t.eq("errors", errors(diagnostics), []);
  called(t, run.calls);
  t.eq("resource changes", p.changes.resources.length, 0);
  t.eq("PriorState (refreshed)", args(p.priorState), { "test_object.a": "current" });
  t.eq("PrevRunState (upgraded)", args(p.prevRunState), { "test_object.a": "upgraded" });
  t.eq("output.out After", outputAfter(p, "out"), "current");
}

export async function case048(t: Checks, dir: string): Promise<void> {
  const { run, plan: p, diagnostics } = await refreshOnly(dir);
  t.eq("errors", errors(diagnostics), []);
  called(t, run.calls);
  t.eq("resource changes", p.changes.resources.length, 0);
  t.eq("PriorState (refreshed)", args(p.priorState), { "test_object.a (deposed byebye00)": "current" });
  t.eq("PrevRunState (upgraded)", args(p.prevRunState), { "test_object.a (deposed byebye00)": "upgraded" });
  t.eq("output.out After", outputAfter(p, "out"), UNKNOWN);
  t.eq("drifted resources", p.driftedResources.length, 0);
}

export async function case049(t: Checks, dir: string): Promise<void> {
  const { plan: p, diagnostics } = await refreshOnly(dir);
  t.eq("errors", errors(diagnostics), []);
  t.eq("resource changes", p.changes.resources.length, 0);
  t.eq("PriorState (refreshed)", args(p.priorState), { "test_object.a[0]": "current", "test_object.a[1]": "current" });
  t.eq("PrevRunState (upgraded)", args(p.prevRunState), { "test_object.a[0]": "upgraded", "test_object.a[1]": "upgraded" });
  t.eq("output.out After", outputAfter(p, "out"), ["current", "current"]);
}

export async function case069(t: Checks, dir: string): Promise<void> {
  const config = mustLoadConfig(configFiles(dir));
  const prior = readState(path.join(dir, "prior.tfstate"));
  for (const refresh of [true, false]) {
    const name = refresh ? "destroy" : "destroy -refresh=false";
    const run = newRun(PROFILE);
    const p = await plan(run, config, prior, { mode: "destroy", refresh });
    t.eq(`${name}: errors`, errors(p.diagnostics), []);
    const seen = rpcs(run.calls, "test_object");
    t.eq(`${name}: UpgradeResourceState called`, seen.includes("UpgradeResourceState"), true);
    t.eq(`${name}: ReadResource called`, seen.includes("ReadResource"), refresh);
    t.eq(`${name}: actions`, [...new Set(p.plan.changes.resources.map((r) => r.change.action))], ["Delete"]);
    t.eq(`${name}: PrevRunState`, args(p.plan.prevRunState), { "test_object.a": "upgraded" });
    t.eq(`${name}: PriorState`, args(p.plan.priorState), { "test_object.a": refresh ? "current" : "upgraded" });
  }
}
