// `moved` blocks and implied moves through Context.plan (OpenTofu's conformance cases 040-046):
// objects follow their moves before the walk, changes carry their previous address, objects that
// change type or provider are translated by MoveResourceState, refresh-only plans report moves as
// drift, and invalid statements or blocked moves are reported once. In process, against
// lifecycle.testkit's MockProvider.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAbsResourceInstanceStr, parseTargetStr, type AbsResourceInstance, type Provider as ProviderAddr, type Targetable } from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import type {
  MoveResourceStateRequest,
  MoveResourceStateResponse,
  Provider,
  ProviderDiagnostic,
  Schema,
  UpgradeResourceStateResponse,
} from "../providers/index.js";
import { impliedType } from "../providers/index.js";
import { NumberType, StringType, nullVal, numberIntVal, objectVal, stringVal, unmarshalJSON, type Type } from "../values/index.js";
import type { State } from "../states/index.js";
import { Context, type PlanOptions } from "./context.js";
import { errorsOf, loadConfig } from "./core.testkit.js";
import { MockProvider, SIMPLE, conformanceCase, schemaOf, type MockBehaviour } from "./lifecycle.testkit.js";
import type { ProviderFactory } from "./providers.js";

const EMPTY = new Uint8Array();

function addr(s: string): AbsResourceInstance {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

function target(s: string): Targetable {
  const r = parseTargetStr(s);
  if (!r.result) throw new Error(s);
  return r.result.subject;
}

/**
 * A MockProvider that also answers MoveResourceState: by default as OpenTofu's MockProvider does
 * (the source object decoded with the *source* type's schema, returned as the target state).
 */
class MovingProvider implements Provider {
  readonly moves: MoveResourceStateRequest[] = [];
  readonly mock: MockProvider;

  constructor(
    private readonly types: ReadonlyMap<string, Schema>,
    private readonly move?: (req: MoveResourceStateRequest) => MoveResourceStateResponse,
    behaviour: MockBehaviour = {},
  ) {
    this.mock = new MockProvider(types, behaviour);
  }

  getProviderSchema = () => this.mock.getProviderSchema();
  validateProviderConfig = (req: Parameters<Provider["validateProviderConfig"]>[0]) => this.mock.validateProviderConfig(req);
  validateResourceConfig = () => this.mock.validateResourceConfig();
  validateDataResourceConfig = () => this.mock.validateDataResourceConfig();
  upgradeResourceState = (req: Parameters<Provider["upgradeResourceState"]>[0]) => this.mock.upgradeResourceState(req);
  configureProvider = () => this.mock.configureProvider();
  readResource = (req: Parameters<Provider["readResource"]>[0]) => this.mock.readResource(req);
  planResourceChange = (req: Parameters<Provider["planResourceChange"]>[0]) => this.mock.planResourceChange(req);
  applyResourceChange = (req: Parameters<Provider["applyResourceChange"]>[0]) => this.mock.applyResourceChange(req);
  importResourceState = () => this.mock.importResourceState();
  readDataSource = () => this.mock.readDataSource();
  getFunctions = () => this.mock.getFunctions();
  callFunction = () => this.mock.callFunction();
  stopProvider = () => this.mock.stopProvider();
  close = () => this.mock.close();

  async moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    this.moves.push(req);
    if (this.move) return this.move(req);
    const source = this.types.get(req.sourceTypeName);
    const ty: Type = source ? impliedType(source.block) : impliedType(SIMPLE.block);
    const r = unmarshalJSON(new TextDecoder().decode(req.sourceStateJSON), ty);
    if (!r.ok) return { targetState: nullVal(ty), targetPrivate: EMPTY, diagnostics: [{ severity: "error", summary: "bad state", detail: String(r.error) }] };
    return { targetState: r.value, targetPrivate: EMPTY, diagnostics: [] };
  }
}

/** Serves a provider per provider type (`test`, `provider1`, ...), or per full address when listed so. */
function factory(byType: Record<string, Provider>): ProviderFactory {
  return async (p: ProviderAddr) => {
    const provider = byType[p.toString()] ?? byType[p.type];
    if (provider) return { ok: true, provider };
    return { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: `No provider ${p.toString()} in tests.` }] };
  };
}

function simpleProvider(): MovingProvider {
  return new MovingProvider(new Map([["test_object", SIMPLE]]));
}

/** A case's .tf files at any depth (lifecycle.testkit's conformanceCase reads one level of modules). */
function caseFiles(name: string): Record<string, string> {
  const root = join(import.meta.dirname, "..", "..", "..", "..", "shared", "conformance", "opentofu", "cases", name);
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const f of readdirSync(dir, { withFileTypes: true })) {
      if (f.isDirectory()) walk(join(dir, f.name), `${prefix}${f.name}/`);
      else if (f.name.endsWith(".tf")) files[prefix + f.name] = readFileSync(join(dir, f.name), "utf8");
    }
  };
  walk(root, "");
  return files;
}

async function planCase(name: string, providers: ProviderFactory, opts: PlanOptions = {}): Promise<{ plan: Plan; diagnostics: Diagnostic[]; ctx: Context; files: Record<string, string>; prior: State }> {
  const { prior } = conformanceCase(name);
  const files = caseFiles(name);
  const ctx = new Context({ providers });
  const r = await ctx.plan(loadConfig(files), prior, opts);
  return { plan: r.plan, diagnostics: r.diagnostics, ctx, files, prior };
}

/** Each change as "action reason (from prevRunAddr)", by address. */
function changes(p: Plan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of p.changes.resources) {
    const from = c.prevRunAddr.equal(c.addr) ? "" : ` (from ${c.prevRunAddr.toString()})`;
    out[c.addr.toString() + (c.deposedKey ? ` deposed ${c.deposedKey}` : "")] = `${c.change.action} ${c.actionReason}${from}`;
  }
  return out;
}

const warnings = (d: Diagnostic[]) => d.filter((x) => x.severity === "warning").map((x) => `${x.summary}: ${x.detail}`);

describe("explicit moves (case 040)", () => {
  it("plans the object at its new address, and -replace of the old address matches nothing", async () => {
    const p = simpleProvider();
    const r = await planCase("040-moved-basic-and-replace-old-addr", factory({ test: p }), { replace: [addr("test_object.a")] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(changes(r.plan)).toEqual({ "test_object.b": "NoOp None (from test_object.a)" });
    // The plan's previous-run state has the moves applied; the caller's state is untouched.
    expect([...r.plan.prevRunState.allResources()].map((rs) => rs.addr.toString())).toEqual(["test_object.b"]);
    expect([...r.prior.allResources()].map((rs) => rs.addr.toString())).toEqual(["test_object.a"]);
    expect(p.moves).toEqual([]);
  });

  it("applies the move to state, after which nothing is left to do", async () => {
    const r = await planCase("040-moved-basic-and-replace-old-addr", factory({ test: simpleProvider() }));
    expect(r.plan.applyable).toBe(true);
    const config = loadConfig(r.files);
    const a = await r.ctx.apply(r.plan, config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect([...a.state.allResources()].map((rs) => rs.addr.toString())).toEqual(["test_object.b"]);
    const again = await r.ctx.plan(config, a.state);
    expect(changes(again.plan)).toEqual({ "test_object.b": "NoOp None" });
    expect(again.plan.applyable).toBe(false);
  });

  it("deletes an object moved to an address nothing declares, saying why", async () => {
    const files = { "main.tf": 'moved {\n  from = test_object.a\n  to   = test_object.gone\n}\n' };
    const { prior } = conformanceCase("040-moved-basic-and-replace-old-addr");
    const r = await new Context({ providers: factory({ test: simpleProvider() }) }).plan(loadConfig(files), prior);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(changes(r.plan)).toEqual({ "test_object.gone": "Delete DeleteBecauseNoMoveTarget (from test_object.a)" });
  });
});

describe("refresh-only plans (case 041)", () => {
  it("plans no change and reports the move as drift", async () => {
    const r = await planCase("041-moved-refresh-only", factory({ test: simpleProvider() }), { mode: "refresh-only" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(changes(r.plan)).toEqual({});
    expect(r.plan.driftedResources.map((d) => [d.addr.toString(), d.prevRunAddr.toString(), d.change.action])).toEqual([["test_object.b", "test_object.a", "NoOp"]]);
    // As in OpenTofu (Plan.CanApply), a move alone leaves nothing for a refresh-only apply.
    expect(r.plan.applyable).toBe(false);
  });
});

describe("targeting (case 042)", () => {
  const rows: Array<[string, Partial<PlanOptions>, string[]]> = [
    ["-target on the new address only", { targets: [target("test_object.b")] }, ['  -target="test_object.a"']],
    ["-exclude on the old address", { excludes: [target("test_object.a")] }, ['  -exclude="test_object.a"']],
    ["both ends targeted", { targets: [target("test_object.a"), target("test_object.b")] }, []],
  ];
  for (const [name, opts, lines] of rows) {
    it(name, async () => {
      const r = await planCase("042-moved-excluded-by-targeting", factory({ test: simpleProvider() }), opts);
      const errs = r.diagnostics.filter((d) => d.severity === "error");
      expect(warnings(r.diagnostics).map((w) => w.split(":")[0])).toEqual(["Resource targeting is in effect"]);
      if (lines.length === 0) {
        expect(errs).toEqual([]);
        expect(changes(r.plan)).toEqual({ "test_object.b": "NoOp None (from test_object.a)" });
        return;
      }
      expect(errs.map((e) => e.summary)).toEqual(["Moved resource instances excluded by targeting"]);
      for (const l of lines) expect(errs[0]?.detail).toContain(`\n${l}\n`);
      expect(r.plan.errored).toBe(true);
      expect(r.plan.changes.resources).toEqual([]);
    });
  }
});

describe("blocked implied moves (case 043)", () => {
  const warning =
    "Unresolved resource instance address changes: OpenTofu tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:\n  - test_object.a[0] could not move to test_object.a\n\nOpenTofu has planned to destroy these objects. If OpenTofu's proposed changes aren't appropriate, you must first resolve the conflicts using the \"tofu state\" subcommands and then create a new plan.";

  it("warns once and deletes the object that could not move", async () => {
    const r = await planCase("043-implied-move-collision", factory({ test: simpleProvider() }));
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(warnings(r.diagnostics)).toEqual([warning]);
    expect(changes(r.plan)).toEqual({ "test_object.a": "NoOp None", "test_object.a[0]": "Delete DeleteBecauseWrongRepetition" });
  });

  it("warns once in a destroy plan too", async () => {
    const r = await planCase("043-implied-move-collision", factory({ test: simpleProvider() }), { mode: "destroy" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(warnings(r.diagnostics)).toEqual([warning]);
    expect(changes(r.plan)).toEqual({ "test_object.a": "Delete None", "test_object.a[0]": "Delete None" });
  });
});

describe("moves to another resource type or provider (case 044)", () => {
  const num = (required: boolean) => schemaOf({ block: { attributes: { test_number: required ? { type: NumberType, required: true } : { type: NumberType, optional: true } } } });
  const fixed = (v: ReturnType<typeof objectVal>) => (): MoveResourceStateResponse => ({ targetState: v, targetPrivate: EMPTY, diagnostics: [] });
  const moveFailed = (): MoveResourceStateResponse => ({ targetState: nullVal(impliedType(num(false).block)), targetPrivate: EMPTY, diagnostics: [{ severity: "error", summary: "move failed", detail: "" }] });
  const sameProvider = (source: Schema, target: Schema, move?: () => MoveResourceStateResponse) =>
    new MovingProvider(
      new Map([
        ["test_object0", source],
        ["test_object", target],
      ]),
      move,
    );
  const dir = "044-moved-to-different-resource-type";

  it("a/b/c: the target's provider translates the object, which is then planned as usual", async () => {
    for (const [sub, schema, want] of [
      ["a-basic", num(false), "NoOp"],
      ["b-attributes-unchanged", num(true), "NoOp"],
      ["c-attribute-changed", num(true), "Update"],
    ] as const) {
      const p = sameProvider(schema, schema);
      const r = await planCase(`${dir}/${sub}`, factory({ test: p }));
      expect(errorsOf(r.diagnostics), sub).toEqual([]);
      expect(changes(r.plan), sub).toEqual({ "test_object.new": `${want} None (from test_object0.old)` });
      expect(p.moves.map((m) => [m.sourceProviderAddress, m.sourceTypeName, m.sourceSchemaVersion, m.targetTypeName]), sub).toEqual([["test", "test_object0", 0, "test_object"]]);
      expect(p.mock.calls.filter((c) => c.startsWith("UpgradeResourceState")), sub).toEqual([]);
    }
  });

  it("d: a translated object that does not conform to the target schema is an error", async () => {
    const old = schemaOf({ block: { attributes: { test_number: { type: NumberType, required: true }, test_string: { type: StringType, required: true } } } });
    const r = await planCase(`${dir}/d-old-attr-not-in-new-schema`, factory({ test: sameProvider(old, num(true)) }));
    expect(errorsOf(r.diagnostics)).toEqual([
      'Invalid resource state transformation: The test provider changed the state for test_object.new from a previous version, but produced an invalid result: unsupported attribute "test_string".',
    ]);
    expect(r.plan.errored).toBe(true);
  });

  it("e: the provider's error stops the plan", async () => {
    const r = await planCase(`${dir}/e-provider-move-failure`, factory({ test: sameProvider(num(false), num(false), moveFailed) }));
    expect(errorsOf(r.diagnostics)).toEqual(["move failed: "]);
  });

  it("f/g: across providers, the target provider answers", async () => {
    for (const [sub, target, state, want] of [
      ["f-different-provider-same-schema", num(true), objectVal({ test_number: numberIntVal(1) }), "NoOp"],
      ["g-different-provider-schema-change", schemaOf({ block: { attributes: { test_string: { type: StringType, required: true } } } }), objectVal({ test_string: stringVal("1") }), "Update"],
    ] as const) {
      const p1 = new MovingProvider(new Map([["provider1_object", num(true)]]));
      const p2 = new MovingProvider(new Map([["provider2_object", target]]), fixed(state));
      const r = await planCase(`${dir}/${sub}`, factory({ provider1: p1, provider2: p2 }));
      expect(errorsOf(r.diagnostics), sub).toEqual([]);
      expect(changes(r.plan), sub).toEqual({ "provider2_object.new": `${want} None (from provider1_object.old)` });
      expect(p1.moves, sub).toEqual([]);
      expect(p2.moves.map((m) => [m.sourceProviderAddress, m.sourceTypeName, m.targetTypeName]), sub).toEqual([["provider1", "provider1_object", "provider2_object"]]);
    }
  });

  it("h/i: a provider change is a MoveResourceState only for an explicit moved block", async () => {
    const upgradeFails = (): UpgradeResourceStateResponse => ({
      upgradedState: nullVal(impliedType(num(true).block)),
      diagnostics: [{ severity: "error", summary: "Showing Upgrade instead of moved", detail: "contrived test" } satisfies ProviderDiagnostic],
    });
    const types = new Map([["provider_object", num(true)]]);
    const h = new MovingProvider(types, fixed(objectVal({ test_number: numberIntVal(1) })), { upgrade: upgradeFails });
    const rh = await planCase(`${dir}/h-same-type-different-provider-explicit`, factory({ provider: h }));
    expect(errorsOf(rh.diagnostics)).toEqual([]);
    expect(changes(rh.plan)).toEqual({ "provider_object.new[0]": "NoOp None (from provider_object.old)" });

    const i = new MovingProvider(types, undefined, { upgrade: upgradeFails });
    const ri = await planCase(`${dir}/i-same-type-different-provider-implicit`, factory({ provider: i }));
    expect(errorsOf(ri.diagnostics)).toEqual(["Showing Upgrade instead of moved: contrived test"]);
    expect(i.moves).toEqual([]);
  });

  it("j: a provider namespace change asks the new provider", async () => {
    const oldNs = simpleProvider();
    const newNs = simpleProvider();
    const r = await planCase(`${dir}/j-same-type-provider-namespace-change`, factory({ "registry.opentofu.org/hashicorp/test": oldNs, "registry.opentofu.org/opentofu/test": newNs }));
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(oldNs.moves).toEqual([]);
    expect(newNs.moves.map((m) => m.targetTypeName)).toEqual(["test_object"]);
    expect(changes(r.plan)).toEqual({ "test_object.new": "NoOp None (from test_object.old)" });
  });
});

describe("implied moves of modules gaining or losing count (case 045)", () => {
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
  const subs: Record<string, string> = {
    a: "a-count-mod-single-to-plain-mod-single",
    b: "b-count-mod-single-to-plain-mod-count",
    c: "c-count-mod-count-to-plain-mod-single",
    d: "d-count-mod-count-to-plain-mod-count",
    e: "e-plain-mod-single-to-count-mod-single",
    f: "f-plain-mod-single-to-count-mod-count",
    g: "g-plain-mod-count-to-count-mod-count",
    h: "h-plain-mod-count-to-count-mod-single",
    i: "i-nested-grandchild-to-count",
    j: "j-nested-enabled-modules-resource-gains-count",
  };
  for (const [k, [from, to]] of Object.entries(rows)) {
    it(`${k}: ${from} → ${to}`, async () => {
      const r = await planCase(`045-module-implicit-move-count-enabled/${subs[k]}`, factory({ test: simpleProvider() }));
      expect(errorsOf(r.diagnostics)).toEqual([]);
      const moved = Object.entries(changes(r.plan)).filter(([, c]) => !c.startsWith("Create "));
      expect(moved).toEqual([[to, `NoOp None (from ${from})`]]);
    });
  }
});

describe("invalid move statements (case 046)", () => {
  const empty = schemaOf({ block: { attributes: {} } });
  const zoo = () => factory({ test: new MovingProvider(new Map([["test", empty]])), other: new MovingProvider(new Map([["other", empty]])) });
  const plan = async (statements: string) => {
    const { files } = conformanceCase("046-moved-validation-errors/zoo");
    return new Context({ providers: zoo() }).plan(loadConfig({ ...files, "moved.tf": statements }), conformanceCase("046-moved-validation-errors/zoo").prior);
  };

  it("accepts moves from addresses the configuration no longer declares", async () => {
    const r = await plan(conformanceCase("046-moved-validation-errors/statements").files["01-valid-grab-bag.tf"] ?? "");
    expect(r.diagnostics).toEqual([]);
  });

  it("reports a statement whose source is still declared, and only that", async () => {
    const r = await plan('moved {\n  from = test.single\n  to   = test.other\n}\n');
    expect(r.diagnostics.map((d) => [d.severity, d.summary, d.detail])).toEqual([
      [
        "error",
        "Moved object still exists",
        "This statement declares a move from test.single, but that resource is still declared at move-validate-root.tf:27,1.\n\nChange your configuration so that this resource will be declared as test.other instead.",
      ],
    ]);
    expect(r.plan.errored).toBe(true);
  });

  it("reports chains that form a cycle", async () => {
    const r = await plan("moved {\n  from = module.a\n  to   = module.b\n}\nmoved {\n  from = module.b\n  to   = module.a\n}\n");
    expect(errorsOf(r.diagnostics)).toEqual([
      "Cyclic dependency in move statements: The following chained move statements form a cycle, and so there is no final location to move objects to:\n  - moved.tf:1,1: module.a[*] → module.b[*]\n  - moved.tf:5,1: module.b[*] → module.a[*]\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.",
    ]);
  });
});
