// Area E, `moved` statements and implied moves (cases 040–046).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../../hcl/index.js";
import type { State } from "../../states/index.js";
import { changes, configFiles, errors, mustLoadConfig, newRun, plan, readState, warnings, type ChangeView, type Checks, type ProfileFor } from "./kit.js";
import { TARGETING_WARNING, movedExcludedByTargeting, unresolvedMoves } from "./texts.js";

const noop = (prevRunAddr: string): ChangeView => ({ action: "NoOp", reason: "None", prevRunAddr, providerKey: "" });

function prior(dir: string): State {
  return readState(path.join(dir, "prior.tfstate"));
}

export async function case040(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), mustLoadConfig(configFiles(dir)), prior(dir), { replace: ["test_object.a"] });
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("changes", changes(p.plan), { "test_object.b": noop("test_object.a") });
}

export async function case041(t: Checks, dir: string): Promise<void> {
  const p = await plan(newRun(), mustLoadConfig(configFiles(dir)), prior(dir), { mode: "refresh-only" });
  t.eq("errors", errors(p.diagnostics), []);
  t.eq("plan mode", p.plan.uiMode, "refresh-only");
  t.eq("changes for a or b", Object.keys(changes(p.plan)).filter((k) => k === "test_object.a" || k === "test_object.b"), []);
  t.eq(
    "drifted resources",
    p.plan.driftedResources.map((d) => ({ addr: d.addr.toString(), prevRunAddr: d.prevRunAddr.toString(), action: d.change.action })),
    [{ addr: "test_object.b", prevRunAddr: "test_object.a", action: "NoOp" }],
  );
}

function sortedDiags(diags: readonly Diagnostic[]): string[] {
  return diags.map((d) => JSON.stringify({ severity: d.severity, summary: d.summary, detail: d.detail ?? "" })).sort();
}

export async function case042(t: Checks, dir: string): Promise<void> {
  const config = mustLoadConfig(configFiles(dir));
  const rows: Array<[string, { targets?: string[]; excludes?: string[] }, { summary: string; detail: string } | undefined]> = [
    ["-target=test_object.b", { targets: ["test_object.b"] }, movedExcludedByTargeting("-target", ["test_object.a"])],
    ["-target=test_object.a", { targets: ["test_object.a"] }, movedExcludedByTargeting("-target", ["test_object.b"])],
    ["-target=test_object.unrelated", { targets: ["test_object.unrelated"] }, movedExcludedByTargeting("-target", ["test_object.a", "test_object.b"])],
    ["-target=a -target=b", { targets: ["test_object.a", "test_object.b"] }, undefined],
    ["-exclude=test_object.a", { excludes: ["test_object.a"] }, movedExcludedByTargeting("-exclude", ["test_object.a"])],
    ["-exclude=test_object.b", { excludes: ["test_object.b"] }, movedExcludedByTargeting("-exclude", ["test_object.b"])],
    ["-exclude=a -exclude=b", { excludes: ["test_object.a", "test_object.b"] }, movedExcludedByTargeting("-exclude", ["test_object.a", "test_object.b"])],
    ["-exclude=test_object.unrelated", { excludes: ["test_object.unrelated"] }, undefined],
  ];
  // One provider process per row would dominate the case's time; the rows are independent.
  const results = await Promise.all(rows.map(([, opts]) => plan(newRun(), config, prior(dir), opts)));
  rows.forEach(([name, , err], i) => {
    const want = [{ severity: "warning", ...TARGETING_WARNING }, ...(err ? [{ severity: "error", ...err }] : [])];
    t.eq(`${name}: diagnostics`, sortedDiags(results[i]?.diagnostics ?? []), want.map((d) => JSON.stringify(d)).sort());
  });
}

export async function case043(t: Checks, dir: string): Promise<void> {
  const config = mustLoadConfig(configFiles(dir));
  const warning = unresolvedMoves(["test_object.a[0] could not move to test_object.a"]);
  const [normal, destroy] = await Promise.all([plan(newRun(), config, prior(dir)), plan(newRun(), config, prior(dir), { mode: "destroy" })]);
  t.eq("normal: errors", errors(normal.diagnostics), []);
  t.eq("normal: warnings", warnings(normal.diagnostics), [warning]);
  t.eq("normal: changes", changes(normal.plan), {
    "test_object.a": noop("test_object.a"),
    "test_object.a[0]": { action: "Delete", reason: "DeleteBecauseWrongRepetition", prevRunAddr: "test_object.a[0]", providerKey: "" },
  });
  t.eq("destroy: errors", errors(destroy.diagnostics), []);
  t.eq("destroy: warnings (once)", warnings(destroy.diagnostics), [warning]);
  t.eq("destroy: changes", changes(destroy.plan), {
    "test_object.a": { action: "Delete", reason: "None", prevRunAddr: "test_object.a", providerKey: "" },
    "test_object.a[0]": { action: "Delete", reason: "None", prevRunAddr: "test_object.a[0]", providerKey: "" },
  });
}

export async function case044(t: Checks, dir: string): Promise<void> {
  type Want = { old: string; addr: string; action?: string; error?: string };
  const rows: Record<string, Want> = {
    "a-basic": { old: "test_object0.old", addr: "test_object.new", action: "NoOp" },
    "b-attributes-unchanged": { old: "test_object0.old", addr: "test_object.new", action: "NoOp" },
    "c-attribute-changed": { old: "test_object0.old", addr: "test_object.new", action: "Update" },
    "d-old-attr-not-in-new-schema": { old: "test_object0.old", addr: "test_object.new", error: 'unsupported attribute "test_string"' },
    "e-provider-move-failure": { old: "test_object0.old", addr: "test_object.new", error: "move failed" },
    "f-different-provider-same-schema": { old: "provider1_object.old", addr: "provider2_object.new", action: "NoOp" },
    "g-different-provider-schema-change": { old: "provider1_object.old", addr: "provider2_object.new", action: "Update" },
    "h-same-type-different-provider-explicit": { old: "provider_object.old", addr: "provider_object.new[0]", action: "NoOp" },
    "i-same-type-different-provider-implicit": { old: "provider_object.old", addr: "provider_object.new[0]", error: "Showing Upgrade instead of moved: contrived test" },
  };
  await t.each(Object.entries(rows), async (t, [sub, want]) => {
    const d = path.join(dir, sub);
    const run = newRun(`move-${sub.slice(0, 1)}`);
    const p = await plan(run, mustLoadConfig(configFiles(d)), prior(d));
    if (want.error) {
      const text = errors(p.diagnostics).join("\n");
      t.that(`${sub}: an error containing ${JSON.stringify(want.error)}`, text.includes(want.error), errors(p.diagnostics));
      return;
    }
    t.eq(`${sub}: errors`, errors(p.diagnostics), []);
    t.eq(`${sub}: changes`, changes(p.plan), { [want.addr]: { action: want.action, reason: "None", prevRunAddr: want.old, providerKey: "" } });
  });
  const j = path.join(dir, "j-same-type-provider-namespace-change");
  const run = newRun("move-j");
  const p = await plan(run, mustLoadConfig(configFiles(j)), prior(j));
  t.eq("j: errors", errors(p.diagnostics), []);
  t.eq(
    "j: MoveResourceState called on the new provider",
    run.calls.filter((c) => c.rpc === "MoveResourceState").map((c) => c.provider),
    ["registry.opentofu.org/opentofu/test"],
  );
}

export async function case045(t: Checks, dir: string): Promise<void> {
  const rows: Record<string, [string, string]> = {
    a: ["module.child[0].test_object.a", "module.child.test_object.a"],
    b: ["module.child[0].test_object.a", "module.child.test_object.a[0]"],
    c: ["module.child[0].test_object.a[0]", "module.child.test_object.a"],
    d: ["module.child[0].test_object.a[0]", "module.child.test_object.a[0]"],
    e: ["module.child.test_object.a", "module.child[0].test_object.a"],
    f: ["module.child.test_object.a", "module.child[0].test_object.a[0]"],
    g: ["module.child.test_object.a[0]", "module.child[0].test_object.a[0]"],
    h: ["module.child.test_object.a[0]", "module.child[0].test_object.a"],
    i: ["module.child.module.grandchild.test_object.a", "module.child.module.grandchild[0].test_object.a"],
    j: ["module.parent.module.child.module.grandchild1.test_object.a", "module.parent.module.child.module.grandchild1.test_object.a[0]"],
  };
  const subs = readdirSync(dir).filter((n) => /^[a-j]-/.test(n)).sort();
  t.eq("sub-cases present", subs.map((s) => s.slice(0, 1)), Object.keys(rows));
  await t.each(subs, async (t, sub) => {
    const [old, addr] = rows[sub.slice(0, 1)] ?? ["", ""];
    const d = path.join(dir, sub);
    const p = await plan(newRun(), mustLoadConfig(configFiles(d)), prior(d));
    t.eq(`${sub}: errors`, errors(p.diagnostics), []);
    t.eq(`${sub}: change at ${addr}`, changes(p.plan)[addr], noop(old));
  });
}

/** `file:line,col` of each moved block in a statements file, as OpenTofu prints DeclRange. */
function movedLocations(file: string, text: string): string[] {
  return text.split("\n").flatMap((l, i) => (l.startsWith("moved {") ? [`${file}:${i + 1},1`] : []));
}

export async function case046(t: Checks, dir: string): Promise<void> {
  const zoo = configFiles(path.join(dir, "zoo"));
  const stmts = path.join(dir, "statements");
  const root = "move-validate-root.tf";
  const cyc = "Cyclic dependency in move statements";
  const cycleDetail = (lines: string[]) =>
    `The following chained move statements form a cycle, and so there is no final location to move objects to:\n${lines.map((l) => `  - ${l}`).join("\n")}\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.`;
  const still = (from: string, what: string, at: string, to: string) => {
    const kind = what === "module call" ? "call" : what === "resource" ? "resource" : "instance";
    return `This statement declares a move from ${from}, but that ${what} is still declared at ${at}.\n\nChange your configuration so that this ${kind} will be declared as ${to} instead.`;
  };
  const want: Record<string, (loc: string[]) => Array<{ summary: string; detail: string | RegExp[] }>> = {
    "01-valid-grab-bag": () => [],
    "02-moving-nowhere": () => [{ summary: "Redundant move statement", detail: "This statement declares a move from module.a to the same address, which is the same as not declaring this move at all." }],
    "03-cyclic-chain": (loc) => [{ summary: cyc, detail: cycleDetail([`${loc[0]}: module.a[*] → module.b[*]`, `${loc[1]}: module.b[*] → module.c[*]`, `${loc[2]}: module.c[*] → module.a[*]`]) }],
    "04-module-call-still-exists": () => [{ summary: "Moved object still exists", detail: still("module.single", "module call", `${root}:6,1`, "module.other") }],
    "05-module-instance-still-exists": () => [{ summary: "Moved object still exists", detail: still("module.count[0]", "module instance", `${root}:12,12`, "module.other") }],
    "06-resource-still-exists": () => [{ summary: "Moved object still exists", detail: still("test.single", "resource", `${root}:27,1`, "test.other") }],
    "07-resource-instance-still-exists": () => [{ summary: "Moved object still exists", detail: still("test.single", "resource instance", `${root}:27,1`, "test.other[0]") }],
    "08-two-moves-from-same": (loc) => [
      { summary: "Ambiguous move statements", detail: `A statement at ${loc[0]} declared that test.nonexist moved to test.other1, but this statement instead declares that it moved to test.other2.\n\nEach resource can move to only one destination resource.` },
    ],
    "09-two-moves-to-same": (loc) => [
      { summary: "Ambiguous move statements", detail: `A statement at ${loc[0]} declared that test.other1 moved to test.single, but this statement instead declares that test.other2 moved there.\n\nEach resource can have moved from only one source resource.` },
    ],
    "10-crossing-nested": () => [{ summary: cyc, detail: [/module\.nonexist → module\.count\[0\]/, /module\.nonexist\.test\.single → module\.count\[0\]\.test\.count\[0\]/] }],
  };
  const files = readdirSync(stmts).filter((f) => f.endsWith(".tf")).sort();
  t.eq("statement files", files.map((f) => f.replace(/\.tf$/, "")), Object.keys(want));
  // Resource types `test` and `other` belong to providers of those names: one empty-schema mock each.
  const profile: ProfileFor = () => "zoo";
  await t.each(files, async (t, f) => {
    const text = readFileSync(path.join(stmts, f), "utf8");
    const p = await plan(newRun(profile), mustLoadConfig({ ...zoo, [f]: text }), readState(""));
    const got = p.diagnostics.filter((d) => d.severity === "error").map((d) => ({ summary: d.summary, detail: d.detail ?? "" }));
    const expected = (want[f.replace(/\.tf$/, "")] ?? (() => []))(movedLocations(f, text));
    t.eq(
      `${f}: errors`,
      got.map((g, i) => {
        const w = expected[i]?.detail;
        return Array.isArray(w) ? { summary: g.summary, detail: w.every((re) => re.test(g.detail)) ? "(matches)" : g.detail } : g;
      }),
      expected.map((e) => (Array.isArray(e.detail) ? { summary: e.summary, detail: "(matches)" } : e)),
    );
  });
}
