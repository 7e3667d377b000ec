// Area E, replacement and lifecycle arguments (cases 050–062, 064, 067): -replace,
// replace_triggered_by, lifecycle validation, ignore_changes, tainted and deposed objects,
// provider RequiresReplace, `removed` blocks.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../configs/index.js";
import type { Diagnostic } from "../../hcl/index.js";
import type { State } from "../../states/index.js";
import { stringVal } from "../../values/index.js";
import {
  UNKNOWN,
  actions,
  after,
  changes,
  configFiles,
  errors,
  loadConfig,
  mustLoadConfig,
  newRun,
  plain,
  plan,
  readState,
  stateObjects,
  warnings,
  type Checks,
} from "./kit.js";
import { incompleteForceReplace } from "./texts.js";

function prior(dir: string): State {
  return readState(path.join(dir, "prior.tfstate"));
}

const cfg = (dir: string): Config => mustLoadConfig(configFiles(dir));

export async function case050(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir), { replace: ["test_object.a"] });
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), {
    "test_object.a": { action: "DeleteThenCreate", reason: "ReplaceByRequest", prevRunAddr: "test_object.a", providerKey: "" },
    "test_object.b": { action: "NoOp", reason: "None", prevRunAddr: "test_object.b", providerKey: "" },
  });
}

export async function case051(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir), { replace: ["test_object.a"] });
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("warnings", warnings(p.diagnostics), [incompleteForceReplace("test_object.a", ["test_object.a[0]", "test_object.a[1]"])]);
  t.eq("actions", actions(p.plan), { "test_object.a[0]": "NoOp", "test_object.a[1]": "NoOp" });
}

export async function case052(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir), { replace: ["module.child.test_object.foo"] });
  t.eq("errors", errors(p.diagnostics), []);
  const details = warnings(p.diagnostics)
    .filter((w) => w.summary === "Incompletely-matched force-replace resource instance")
    .map((w) => w.detail);
  t.that("a warning for module.child.test_object.foo", details.some((d) => d.includes("Your force-replace request for module.child.test_object.foo doesn't match")), details);
  t.that("no warning for the root test_object.foo", !details.some((d) => d.includes("Your force-replace request for test_object.foo doesn't match")), details);
}

export async function case053(t: Checks, dir: string): Promise<void> {
  for (const syntax of ["hcl", "json"]) {
    const d = path.join(dir, syntax);
    const p = await plan(newRun(), cfg(d), prior(d));
    t.eq(`${syntax}: errors`, errors(p.diagnostics), []);
    t.eq(`${syntax}: changes`, changes(p.plan), {
      "test_object.a[0]": { action: "Update", reason: "None", prevRunAddr: "test_object.a[0]", providerKey: "" },
      "test_object.b[0]": { action: "DeleteThenCreate", reason: "ReplaceByTriggers", prevRunAddr: "test_object.b[0]", providerKey: "" },
    });
  }
}

export async function case054(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), {
    "test_object.a": { action: "Create", reason: "None", prevRunAddr: "test_object.a", providerKey: "" },
    "test_object.b": { action: "DeleteThenCreate", reason: "ReplaceByTriggers", prevRunAddr: "test_object.b", providerKey: "" },
  });
}

/**
 * `tofu validate` through the core. No validate entry point is agreed yet: the harness uses
 * `Context.validate(config)` (OpenTofu's Context.Validate) when it exists, and fails the check
 * naming it otherwise.
 */
interface ValidateCapable {
  validate(config: Config): Promise<{ diagnostics: Diagnostic[] }>;
}

function canValidate(x: object): x is ValidateCapable {
  return typeof (x as Partial<ValidateCapable>).validate === "function";
}

export async function case055(t: Checks, dir: string): Promise<void> {
  const rows = readFileSync(path.join(dir, "expected.tsv"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.split("\t"));
  t.eq("rows", rows.length, 8);
  const probe = newRun("rtb-validate");
  t.eq("Context.validate exists", canValidate(probe.context), true);
  if (!canValidate(probe.context)) return;
  for (const [sub = "", , flag = ""] of rows) {
    const run = newRun("rtb-validate");
    if (!canValidate(run.context)) return;
    const r = await run.context.validate(cfg(path.join(dir, sub)));
    t.eq(`${sub}: has errors`, errors(r.diagnostics).length > 0, flag === "wantError=true");
  }
}

export async function case056(t: Checks, dir: string): Promise<void> {
  const load = (f: string) => loadConfig({ [f]: readFileSync(path.join(dir, f), "utf8") }).diagnostics;
  const errs = (diags: Diagnostic[]) => diags.filter((d) => d.severity === "error");
  t.eq("valid-resources-ignorechanges-all.tf: diagnostics", load("valid-resources-ignorechanges-all.tf").map((d) => d.summary), []);
  const wildcard = errs(load("ignore_changes.tf"));
  t.eq(
    "ignore_changes.tf: errors",
    wildcard.map((d) => ({ line: d.subject?.start.line, summary: d.summary, detail: d.detail })),
    [
      {
        line: 3,
        summary: "Invalid ignore_changes wildcard",
        detail: 'The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.',
      },
    ],
  );
  t.that("resources-ignorechanges-all-legacymix.tf: the wildcard error", errs(load("resources-ignorechanges-all-legacymix.tf")).some((d) => d.summary === "Invalid ignore_changes wildcard"), load("resources-ignorechanges-all-legacymix.tf").map((d) => d.summary));
  t.that(
    "triggered-invalid-each.tf: invalid each reference",
    errs(load("triggered-invalid-each.tf")).some((d) => d.summary === "Invalid each reference in replace_triggered_by expression" && d.detail === "Only each.key may be used in replace_triggered_by."),
    load("triggered-invalid-each.tf").map((d) => `${d.summary}: ${d.detail}`),
  );
  t.that("triggered-invalid-expression.tf: has errors", errs(load("triggered-invalid-expression.tf")).length > 0, "no errors");
  t.that("resource-lifecycle-badbool.tf: has errors", errs(load("resource-lifecycle-badbool.tf")).length > 0, "no errors");
}

/** LEGACY-AWS's aws_instance with only the given attributes set. */
function legacyAWS(set: Record<string, unknown>): Record<string, unknown> {
  const names = ["ami", "bar", "compute", "compute_value", "dep", "foo", "id", "instance", "num", "output", "require_new", "type", "unknown", "value", "value_wo", "var", "vpc_id", "write"];
  const out: Record<string, unknown> = {};
  for (const n of names) out[n] = n in set ? set[n] : null;
  return out;
}

export async function case057(t: Checks, dir: string): Promise<void> {
  for (const sub of ["", "sensitive-variant"]) {
    const d = path.join(dir, sub);
    const name = sub || "plain";
    const p = await plan(newRun(), cfg(d), prior(d), { variables: { foo: stringVal("ami-1234abcd") } });
    t.eq(`${name}: errors`, errors(p.diagnostics), []);
    t.eq(`${name}: actions`, actions(p.plan), { "aws_instance.foo": "NoOp" });
    t.eq(`${name}: After`, after(p.plan, "aws_instance.foo"), legacyAWS({ id: "bar", ami: "ami-abcd1234", type: "aws_instance" }));
  }
}

export async function case058(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun("ignore-all"), cfg(dir), prior(dir), { variables: { foo: stringVal("ami-1234abcd"), bar: stringVal("t2.small") } });
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("actions", actions(p.plan), { "aws_instance.foo": "NoOp" });
}

export async function case059(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun("ignore-map"), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("actions", actions(p.plan), { "test_ignore_changes_map.foo": "Update" });
  t.eq("After", after(p.plan, "test_ignore_changes_map.foo"), { tags: { ignored: "from state", other: "from config" } });
}

export async function case060(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), {
    "aws_instance.bar": { action: "DeleteThenCreate", reason: "ReplaceBecauseTainted", prevRunAddr: "aws_instance.bar", providerKey: "" },
    "aws_instance.foo": { action: "NoOp", reason: "None", prevRunAddr: "aws_instance.foo", providerKey: "" },
  });
  t.eq("bar After", after(p.plan, "aws_instance.bar"), legacyAWS({ id: UNKNOWN, foo: "2", type: UNKNOWN }));
}

export async function case061(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun("taint-ignore"), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), {
    "aws_instance.foo": { action: "DeleteThenCreate", reason: "ReplaceBecauseTainted", prevRunAddr: "aws_instance.foo", providerKey: "" },
  });
  const rc = p.plan.changes.resources[0];
  t.eq("Before", rc ? plain(rc.change.before) : undefined, { id: "foo", vars: "foo", type: "aws_instance" });
  t.eq("After", after(p.plan, "aws_instance.foo"), { id: UNKNOWN, vars: "foo", type: UNKNOWN });
}

/** The attributes that are set (legacy String() leaves out nulls), by object address. */
function setAttributes(state: State): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [addr, o] of Object.entries(stateObjects(state))) {
    out[addr] = Object.fromEntries(Object.entries(o.attributes).filter(([, v]) => v !== null));
  }
  return out;
}

export async function case062(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("PriorState", setAttributes(p.plan.priorState), {
    "aws_instance.foo": { id: "baz", type: "aws_instance" },
    "aws_instance.foo (deposed 00000001)": { id: "foo" },
  });
  t.eq("PriorState provider", stateObjects(p.plan.priorState)["aws_instance.foo"]?.resourceProvider, 'provider["registry.opentofu.org/hashicorp/aws"]');
  t.eq("actions", actions(p.plan), { "aws_instance.foo": "NoOp", "aws_instance.foo (deposed 00000001)": "Delete" });
  t.eq("current After", after(p.plan, "aws_instance.foo"), legacyAWS({ id: "baz", type: "aws_instance" }));
}

export async function case064(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun("requires-replace"), cfg(dir), prior(dir));
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), {
    "test_thing.foo": { action: "DeleteThenCreate", reason: "ReplaceBecauseCannotUpdate", prevRunAddr: "test_thing.foo", providerKey: "" },
  });
  t.eq("After", after(p.plan, "test_thing.foo"), { v: "goodbye" });
}

export async function case067(t: Checks, dir: string): Promise<void> {
  for (const [sub, addr] of [["", "test_object.a"], ["module-variant", "module.mod.test_object.a"]] as const) {
    const d = path.join(dir, sub);
    const name = sub || "resource";
    const p = await plan(newRun(), cfg(d), prior(d), { replace: [addr] });
    t.eq(`${name}: errors`, errors(p.diagnostics), []);
    t.eq(`${name}: changes`, changes(p.plan), {
      [addr]: { action: "Forget", reason: "DeleteBecauseNoResourceConfig", prevRunAddr: addr, providerKey: "" },
      [`${addr} (deposed deposed0)`]: { action: "Forget", reason: "None", prevRunAddr: addr, providerKey: "" },
    });
  }
}

/** Sub-directories of a case, sorted. */
export function subdirs(dir: string, re: RegExp): string[] {
  return readdirSync(dir)
    .filter((n) => re.test(n))
    .sort();
}
