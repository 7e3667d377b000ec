// Area B: provider `for_each` at run time (cases 010–016). Each function restates its case's
// expect.md as checks; the provider instance an object belongs to is read back from the state as
// the v4 writer records it (instance-level `"provider"`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseAbsResourceInstanceStr, type AbsResourceInstance } from "../../addrs/index.js";
import type { Config } from "../../configs/index.js";
import type { Diagnostic } from "../../hcl/index.js";
import type { Importing } from "../../plans/index.js";
import type { Value } from "../../values/index.js";
import { readStateFile, type State } from "../../states/index.js";
import {
  changes,
  configFiles,
  errors,
  mustLoadConfig,
  newRun,
  plain,
  plan,
  planAndApply,
  readState,
  rpcs,
  stateJSON,
  stateObjects,
  warnings,
  type Checks,
  type StateResourceJSON,
} from "./kit.js";
import { TARGETING_WARNING } from "./texts.js";

const TEST = 'provider["registry.opentofu.org/hashicorp/test"]';

/** Provider instance recorded per object, and whether any resource-level provider was written. */
function providersInState(state: State): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [addr, o] of Object.entries(stateObjects(state))) out[addr] = o.resourceProvider !== undefined ? `resource-level ${o.resourceProvider}` : (o.provider ?? "(none)");
  return out;
}

function keyRemovedDetail(inst: string, provider: string): string {
  return `To work with ${inst} its original provider instance at ${provider} is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy ${inst}, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.`;
}

function configRemovedDetail(node: string, provider: string): string {
  return `To work with ${node} its original provider configuration at ${provider} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${node}, after which you can remove the provider configuration again.`;
}

function details(diags: readonly Diagnostic[], summary: string): string[] {
  return diags.filter((d) => d.severity === "error" && d.summary === summary).map((d) => d.detail ?? "");
}

/**
 * Cases 010 and 011 share their scenarios: apply `complete`, then destroy it, or apply `removed`,
 * `partial` (then destroy), `missing-key` or the empty configuration.
 */
async function providerIteration(
  t: Checks,
  dir: string,
  want: { providers: Record<string, string>; removedGone: string[]; partialGone: string[]; partialKept: string[]; missingKey: string; orphanNode: string },
): Promise<void> {
  const cfg = (sub: string): Config => mustLoadConfig(configFiles(path.join(dir, sub)));
  const complete = cfg("complete");
  const run = () => newRun("region-check");
  const base = await planAndApply(run(), complete, readState(""));
  t.eq("apply complete: errors", errors(base.diagnostics), []);
  t.eq("apply complete: provider instance of each object", providersInState(base.state), want.providers);

  // The scenarios after the first apply are independent, so they run at once.
  const scenarios: Array<(t: Checks) => Promise<void>> = [
    async (t) => {
      const destroyed = await planAndApply(run(), complete, base.state, { mode: "destroy" });
      t.eq("destroy complete: errors", errors(destroyed.diagnostics), []);
      t.eq("destroy complete: managed objects left", Object.keys(stateObjects(destroyed.state)).filter((a) => !a.includes("data.")), []);
    },
    async (t) => {
      const removed = await planAndApply(run(), cfg("removed"), base.state);
      t.eq("apply removed: errors", errors(removed.diagnostics), []);
      t.eq("apply removed: destroyed objects left", want.removedGone.filter((a) => a in stateObjects(removed.state)), []);
    },
    async (t) => {
      const partial = await planAndApply(run(), cfg("partial"), base.state);
      t.eq("apply partial: errors", errors(partial.diagnostics), []);
      const afterPartial = stateObjects(partial.state);
      t.eq("apply partial: destroyed objects left", want.partialGone.filter((a) => a in afterPartial), []);
      t.eq("apply partial: kept objects", want.partialKept.filter((a) => a in afterPartial), want.partialKept);
      const partialDestroy = await planAndApply(run(), cfg("partial"), partial.state, { mode: "destroy" });
      t.eq("destroy partial: errors", errors(partialDestroy.diagnostics), []);
    },
    async (t) => {
      const missing = await planAndApply(run(), cfg("missing-key"), base.state);
      t.that("apply missing-key: Provider instance not present", details(missing.diagnostics, "Provider instance not present").includes(want.missingKey), errors(missing.diagnostics));
    },
    async (t) => {
      const empty = await planAndApply(run(), mustLoadConfig({}), base.state);
      t.that(
        "apply empty: Provider configuration not present",
        details(empty.diagnostics, "Provider configuration not present").includes(configRemovedDetail(want.orphanNode, `${TEST}.al`)),
        errors(empty.diagnostics),
      );
    },
  ];
  await t.each(scenarios, (t, scenario) => scenario(t));
}

export async function case010(t: Checks, dir: string): Promise<void> {
  const al = (k: string) => `${TEST}.al[${JSON.stringify(k)}]`;
  await providerIteration(t, dir, {
    providers: {
      'test_instance.a["primary"]': al("primary"),
      'test_instance.a["secondary"]': al("secondary"),
      'test_instance.a_direct["primary"]': al("primary"),
      'test_instance.a_direct["secondary"]': al("primary"),
      'data.test_data_source.b["primary"]': al("primary"),
      'data.test_data_source.b["secondary"]': al("secondary"),
      'data.test_data_source.b_direct["primary"]': al("primary"),
      'data.test_data_source.b_direct["secondary"]': al("primary"),
    },
    removedGone: ['test_instance.a["primary"]', 'test_instance.a["secondary"]'],
    partialGone: ['test_instance.a["secondary"]'],
    partialKept: ['test_instance.a["primary"]'],
    missingKey: keyRemovedDetail('test_instance.a["secondary"]', al("secondary")),
    orphanNode: 'test_instance.a["primary"] (orphan)',
  });
}

export async function case011(t: Checks, dir: string): Promise<void> {
  const al = (k: string) => `${TEST}.al[${JSON.stringify(k)}]`;
  await providerIteration(t, dir, {
    providers: {
      'module.mod["primary"].test_instance.a': al("primary"),
      'module.mod["secondary"].test_instance.a': al("secondary"),
      'module.mod_direct["primary"].test_instance.a': al("primary"),
      'module.mod_direct["secondary"].test_instance.a': al("primary"),
      'module.mod["primary"].data.test_data_source.b': al("primary"),
      'module.mod["secondary"].data.test_data_source.b': al("secondary"),
      'module.mod_direct["primary"].data.test_data_source.b': al("primary"),
      'module.mod_direct["secondary"].data.test_data_source.b': al("primary"),
    },
    removedGone: ['module.mod["primary"].test_instance.a', 'module.mod["secondary"].test_instance.a'],
    partialGone: ['module.mod["secondary"].test_instance.a'],
    partialKept: ['module.mod["primary"].test_instance.a'],
    missingKey: keyRemovedDetail('module.mod["secondary"].test_instance.a', al("secondary")),
    orphanNode: 'module.mod["primary"].test_instance.a (orphan)',
  });
}

export async function case012(t: Checks, dir: string): Promise<void> {
  const run = newRun("empty-thing");
  const p = await plan(run, mustLoadConfig(configFiles(dir)), readState(path.join(dir, "prior.tfstate")));
  const multi = 'provider["terraform.io/builtin/test"].multi';
  const inst = 'test_thing.a["orphaned"]';
  t.eq(
    "plan: Provider instance not present",
    details(p.diagnostics, "Provider instance not present"),
    [
      `To work with ${inst} its original provider instance at ${multi} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of test_thing.a that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for ${multi} and ensure that ${inst} has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key ["orphaned"].`,
    ],
  );
}

export async function case013(t: Checks, dir: string): Promise<void> {
  const variants = [["", "a"], ["nokey-variant", ""]] as const;
  await t.each(variants, async (t, [sub, key]) => {
    const d = path.join(dir, sub);
    const name = sub || "for_each provider";
    const config = mustLoadConfig(configFiles(d), {});
    const run = newRun();
    const s = await planAndApply(run, config, readState(path.join(d, "prior.tfstate")), { mode: "destroy" });
    t.eq(`${name}: errors`, errors(s.diagnostics), []);
    t.eq(`${name}: planned changes`, changes(s.plan), {
      "test_object.x (deposed 0000abcd)": { action: "Delete", reason: "None", prevRunAddr: "test_object.x", providerKey: key ? `[${JSON.stringify(key)}]` : "" },
    });
    t.eq(`${name}: ApplyResourceChange calls`, rpcs(run.calls, "test_object").filter((r) => r === "ApplyResourceChange").length, 1);
    t.eq(`${name}: objects left`, Object.keys(stateObjects(s.state)), []);
  });
}

export async function case014(t: Checks, dir: string): Promise<void> {
  const run = newRun();
  const s = await planAndApply(run, mustLoadConfig(configFiles(dir)), readState(path.join(dir, "prior.tfstate")));
  t.eq("errors", errors(s.diagnostics), []);
  t.eq("planned changes", changes(s.plan), {
    "aws_instance.baz": { action: "Forget", reason: "DeleteBecauseNoResourceConfig", prevRunAddr: "aws_instance.baz", providerKey: '["a"]' },
    "aws_instance.baz (deposed deposed0)": { action: "Forget", reason: "None", prevRunAddr: "aws_instance.baz", providerKey: '["a"]' },
  });
  t.eq("ApplyResourceChange is never called when forgetting", rpcs(run.calls).filter((r) => r === "ApplyResourceChange"), []);
  t.eq("state after apply", stateJSON(s.state).resources ?? [], []);
}

/** Written to a v4 snapshot and read back, as the test does between steps. */
function roundTrip(state: State): State {
  const text = JSON.stringify(stateJSON(state));
  const r = readStateFile(text);
  if (r.kind !== "ok") throw new Error("state did not read back");
  return r.file.state;
}

export async function case015(t: Checks, dir: string): Promise<void> {
  const mock = (alias: string, k: string) => `provider["terraform.io/builtin/mock"].${alias}[${JSON.stringify(k)}]`;
  const cfg = (step: string) => mustLoadConfig(configFiles(path.join(dir, step)));
  const step1 = await planAndApply(newRun("mock"), cfg("step1"), readState(""));
  t.eq("step 1: errors", errors(step1.diagnostics), []);
  const wantJSON = JSON.parse(readFileSync(path.join(dir, "expected-state-after-step1.tfstate"), "utf8")) as { resources: StateResourceJSON[] };
  t.eq("step 1: state resources as written", stateJSON(step1.state).resources ?? [], wantJSON.resources);
  const afterStep1 = roundTrip(step1.state);

  const variants: Array<[string, { targets?: string[]; excludes?: string[] }]> = [
    ["-target", { targets: ['mock.first["a"]'] }],
    ["-exclude", { excludes: ['mock.second["a"]', 'mock.second["b"]'] }],
  ];
  await t.each(variants, async (t, [name, opts]) => {
    const step2 = await planAndApply(newRun("mock"), cfg("step2"), afterStep1, opts);
    t.eq(`step 2 (${name}): errors`, errors(step2.diagnostics), []);
    t.eq(`step 2 (${name}): targeting warning`, warnings(step2.diagnostics).filter((w) => w.summary === TARGETING_WARNING.summary), [TARGETING_WARNING]);
    const s2 = roundTrip(step2.state);
    t.eq(`step 2 (${name}): provider instances`, providersInState(s2), {
      'mock.first["a"]': mock("after", "a"),
      'mock.first["b"]': mock("after", "b"),
      'mock.second["a"]': mock("before", "a"),
      'mock.second["b"]': mock("before", "b"),
    });
    const step3 = await planAndApply(newRun("mock"), cfg("step3"), s2);
    t.eq(`step 3 (after ${name}): errors`, errors(step3.diagnostics), []);
    t.eq(`step 3 (after ${name}): provider instances`, providersInState(roundTrip(step3.state)), {
      'mock.second["a"]': mock("after", "a"),
      'mock.second["b"]': mock("after", "b"),
    });
  });
}

/**
 * `tofu import` through the core. No import entry point is agreed yet: the harness uses
 * `Context.import(config, state, {targets: [{addr, id}]})` (OpenTofu's Context.Import) when it
 * exists, and fails the check naming it otherwise.
 */
interface ImportCapable {
  import(config: Config, state: State, opts: { targets: Array<{ addr: AbsResourceInstance; id: string }> }): Promise<{ state: State; diagnostics: Diagnostic[] }>;
}

function canImport(x: object): x is ImportCapable {
  return typeof (x as Partial<ImportCapable>).import === "function";
}

export async function case016(t: Checks, dir: string): Promise<void> {
  const profile = "marker";
  {
    const d = path.join(dir, "cli-import");
    const run = newRun(profile);
    t.eq("cli-import: Context.import exists", canImport(run.context), true);
    if (canImport(run.context)) {
      const addr = parseAbsResourceInstanceStr('test_thing.test["foo"]').result as AbsResourceInstance;
      const r = await run.context.import(mustLoadConfig(configFiles(d)), readState(""), { targets: [{ addr, id: "fake-import-id" }] });
      t.eq("cli-import: errors", errors(r.diagnostics), []);
      const objs = stateObjects(r.state);
      t.eq("cli-import: resulting state", objs, {
        'test_thing.test["foo"]': {
          index_key: "foo",
          provider: 'provider["terraform.io/builtin/test"].multi["a"]',
          schema_version: 0,
          attributes: { id: "fake-import-id", import_marker: "a", refresh_marker: "a" },
          sensitive_attributes: [],
        },
      });
    }
  }
  {
    const d = path.join(dir, "import-block-identity");
    const run = newRun(`${profile}-identity`);
    const p = await plan(run, mustLoadConfig(configFiles(d)), readState(""));
    t.eq("import-block-identity: errors", errors(p.diagnostics), []);
    const first = p.plan.changes.resources[0];
    // plans.Importing has no identity field yet; the check reads one if the model grows it.
    const importing = first?.change.importing as (Importing & { identity?: Value }) | undefined;
    t.eq("import-block-identity: the first change imports", importing !== undefined, true);
    t.eq("import-block-identity: imported by identity", importing?.identity ? plain(importing.identity) : "(no identity)", { name: "my-resource" });
    t.eq("import-block-identity: providerKey of the change", first ? changes(p.plan)[first.addr.toString()]?.providerKey : undefined, '["a"]');
  }
}
