// Importing through the core against in-process MockProviders: `terrace import` (Context.import,
// case 016's cli-import: the provider instance each resource instance binds to) and `import`
// blocks (planned with `importing`, applied, then planned again with nothing to do), with
// OpenTofu's error texts.
import { describe, expect, it } from "vitest";
import { parseAbsResourceInstanceStr, type AbsResourceInstance } from "../addrs/index.js";
import type { ImportResourceStateRequest, ImportResourceStateResponse, ReadResourceRequest, ReadResourceResponse } from "../providers/index.js";
import { State, newFile, writeStateFile } from "../states/index.js";
import { StringType, nullVal, objectVal, stringVal, type Value } from "../values/index.js";
import { configSchema } from "../sdk/index.js";
import { Context } from "./context.js";
import { actions, errorsOf, loadConfig, stateAttributes } from "./core.testkit.js";
import { MockProvider, buildState, conformanceCase, schemaOf } from "./lifecycle.testkit.js";
import type { ProviderFactory } from "./providers.js";

const EMPTY = new Uint8Array();
const THING = schemaOf({
  block: { attributes: { id: { type: StringType, computed: true }, import_marker: { type: StringType, computed: true }, refresh_marker: { type: StringType, computed: true } } },
});

function str(v: Value | undefined): string | undefined {
  return v?.kind === "string" ? v.value : undefined;
}

/**
 * Case 016's provider: each instance is told apart by the `marker` it was configured with;
 * ImportResourceState and ReadResource fail before ConfigureProvider. An id starting with
 * "gone" imports an object the provider then cannot read.
 */
class MarkerProvider extends MockProvider {
  private readonly configured: { marker?: string };
  constructor() {
    const configured: { marker?: string } = {};
    super(new Map([["test_thing", THING]]), {
      importState: (req: ImportResourceStateRequest): ImportResourceStateResponse => {
        if (configured.marker === undefined) return { importedResources: [], diagnostics: [{ severity: "error", summary: "ImportResourceState before ConfigureProvider", detail: "" }] };
        const state = objectVal({ id: stringVal(req.id), import_marker: stringVal(configured.marker), refresh_marker: nullVal(StringType) });
        return { importedResources: [{ typeName: req.typeName, state, private: EMPTY }], diagnostics: [] };
      },
      read: (req: ReadResourceRequest): ReadResourceResponse => {
        if (configured.marker === undefined) return { newState: req.priorState, private: EMPTY, diagnostics: [{ severity: "error", summary: "ReadResource before ConfigureProvider", detail: "" }] };
        const prior = req.priorState.kind === "object" ? req.priorState.attrs : new Map<string, Value>();
        if (str(prior.get("id"))?.startsWith("gone")) return { newState: nullVal(req.priorState.type), private: EMPTY, diagnostics: [] };
        const state = objectVal({ id: prior.get("id") ?? nullVal(StringType), import_marker: prior.get("import_marker") ?? nullVal(StringType), refresh_marker: stringVal(configured.marker) });
        return { newState: state, private: EMPTY, diagnostics: [] };
      },
    });
    this.configured = configured;
  }
  override async getProviderSchema() {
    const s = await super.getProviderSchema();
    return { ...s, provider: configSchema({ block: { attributes: { marker: { type: StringType, required: true } } } }) };
  }
  override async configureProvider(req?: { config: Value }) {
    this.configured.marker = req?.config.kind === "object" ? str(req.config.attrs.get("marker")) : undefined;
    return { diagnostics: [] };
  }
}

/** A real factory: every provider instance is its own MarkerProvider. */
function markerFactory(): ProviderFactory & { instances: MarkerProvider[] } {
  const instances: MarkerProvider[] = [];
  const f: ProviderFactory = async () => {
    const p = new MarkerProvider();
    instances.push(p);
    return { ok: true, provider: p };
  };
  return Object.assign(f, { instances });
}

function addr(s: string): AbsResourceInstance {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

/** The v4 state file's resources, parsed. */
function stateResources(state: State): Array<{ instances: Array<Record<string, unknown>> } & Record<string, unknown>> {
  const w = writeStateFile(newFile(state, "lineage", 1));
  if (!w.ok) throw new Error("state did not serialize");
  return (JSON.parse(w.text) as { resources: Array<{ instances: Array<Record<string, unknown>> } & Record<string, unknown>> }).resources;
}

const REQUIRED = 'terraform {\n  required_providers {\n    test = {\n      source = "terraform.io/builtin/test"\n    }\n  }\n}\n';
// hashicorp/test, as buildState records it.
const SINGLE = 'provider "test" {\n  marker = "m"\n}\nresource "test_thing" "a" {\n}\n';

describe("terrace import (Context.import)", () => {
  it("imports through the provider instance the resource instance binds to (case 016 cli-import)", async () => {
    const { files } = conformanceCase("016-import-into-resource-with-dynamic-provider-instance/cli-import");
    const ctx = new Context({ providers: markerFactory() });
    const r = await ctx.import(loadConfig(files), new State(), { targets: [{ addr: addr('test_thing.test["foo"]'), id: "fake-import-id" }] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    const resources = stateResources(r.state);
    expect(resources).toHaveLength(1);
    expect(resources[0]?.instances).toEqual([
      {
        index_key: "foo",
        provider: 'provider["terraform.io/builtin/test"].multi["a"]',
        schema_version: 0,
        attributes: { id: "fake-import-id", import_marker: "a", refresh_marker: "a" },
        sensitive_attributes: [],
      },
    ]);
  });

  it("refuses an address already in state, after asking the provider", async () => {
    const prior = buildState([{ addr: "test_thing.a", attrs: { id: "x", import_marker: "m", refresh_marker: "m" }, provider: "test" }]);
    const factory = markerFactory();
    const r = await new Context({ providers: factory }).import(loadConfig({ "main.tf": SINGLE }), prior, { targets: [{ addr: addr("test_thing.a"), id: "y" }] });
    expect(errorsOf(r.diagnostics)).toEqual([
      "Resource already managed by OpenTofu: OpenTofu is already managing a remote object for test_thing.a. To import to this address you must first remove the existing object from the state.",
    ]);
    expect(factory.instances.flatMap((p) => p.calls)).toContain("ImportResourceState test_thing");
  });

  it("reports an object the provider cannot read back", async () => {
    const r = await new Context({ providers: markerFactory() }).import(loadConfig({ "main.tf": SINGLE }), new State(), { targets: [{ addr: addr("test_thing.a"), id: "gone-1" }] });
    expect(errorsOf(r.diagnostics)).toEqual([
      'Cannot import non-existent remote object: While attempting to import an existing object to "test_thing.a", the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider\'s configured region or endpoint, or use "tofu apply" to create a new remote object for this resource.',
    ]);
    expect(stateResources(r.state) ?? []).toEqual([]);
  });

  it("writes the root outputs as an apply does (unknown ones as null) and drops the previous check results", async () => {
    const files = { "main.tf": `${SINGLE}resource "test_thing" "b" {\n}\noutput "o" {\n  value = "v"\n}\noutput "u" {\n  value = test_thing.b.id\n}\n` };
    const prior = new State();
    prior.checkResults = { configResults: [{ objectKind: "check", configAddr: "check.gone", status: "pass", objects: [] }] };
    const r = await new Context({ providers: markerFactory() }).import(loadConfig(files), prior, { targets: [{ addr: addr("test_thing.a"), id: "x" }] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    // terraform 1.11's `import` state for the same configuration.
    expect(stateAttributes(r.state)["output.o"]).toEqual({ value: "v", sensitive: false });
    expect(stateAttributes(r.state)["output.u"]).toEqual({ value: null, sensitive: false });
    expect(r.state.checkResults).toBeUndefined();
  });

  it("requires the instance to exist in the configuration's expansion", async () => {
    const files = { "main.tf": 'provider "test" {\n  marker = "m"\n}\nresource "test_thing" "a" {\n  count = 1\n}\n' };
    const r = await new Context({ providers: markerFactory() }).import(loadConfig(files), new State(), { targets: [{ addr: addr("test_thing.a[3]"), id: "x" }] });
    expect(errorsOf(r.diagnostics)).toEqual([
      "Configuration for import target does not exist: The configuration for the given import test_thing.a[3] does not exist. All target instances must have an associated configuration to be imported.",
    ]);
  });
});

describe("import blocks", () => {
  const withImport = (imports: string, resource = 'resource "test_thing" "a" {\n}\n') =>
    `provider "test" {\n  marker = "m"\n}\n${resource}${imports}`;

  it("imports during plan, carries `importing` in the change, and applies to a state that plans clean", async () => {
    const files = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = "abc"\n}\n') };
    const ctx = new Context({ providers: markerFactory() });
    const config = loadConfig(files);
    const p = await ctx.plan(config, new State());
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(actions(p.plan)).toEqual({ "test_thing.a": "NoOp" });
    expect(p.plan.changes.resources[0]?.change.importing).toEqual({ id: "abc" });
    // The imported object is in the prior state and is no drift.
    expect(stateAttributes(p.plan.priorState)).toEqual({ "test_thing.a": { id: "abc", import_marker: "m", refresh_marker: "m" } });
    expect(p.plan.driftedResources).toEqual([]);
    const a = await ctx.apply(p.plan, config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(stateAttributes(a.state)).toEqual({ "test_thing.a": { id: "abc", import_marker: "m", refresh_marker: "m" } });
    const again = await ctx.plan(config, a.state);
    expect(errorsOf(again.diagnostics)).toEqual([]);
    expect(actions(again.plan)).toEqual({ "test_thing.a": "NoOp" });
    expect(again.plan.changes.resources[0]?.change.importing).toBeUndefined();
  });

  it("reports the refresh of the imported object to the hooks, start and completion (as importState's refresh does)", async () => {
    const files = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = "abc"\n}\n') };
    const seen: string[] = [];
    const hooks = {
      prePlanImport: (a: AbsResourceInstance, id: string) => seen.push(`import ${a.toString()} ${id}`),
      preRefresh: (a: AbsResourceInstance) => seen.push(`refresh ${a.toString()}`),
      postRefresh: (a: AbsResourceInstance, _d: string, _prior: Value, v: Value) =>
        seen.push(`refreshed ${a.toString()} ${v.kind === "object" ? str(v.attrs.get("refresh_marker")) : v.kind}`),
    };
    const p = await new Context({ providers: markerFactory(), hooks }).plan(loadConfig(files), new State());
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(seen).toEqual(["import test_thing.a abc", "refresh test_thing.a", "refreshed test_thing.a m"]);
  });

  it("expands for_each on the block, with each.key in `to` and `id`, through the bound provider instance (case 016)", async () => {
    const resource = 'resource "test_thing" "t" {\n  for_each = { x = "a", y = "b" }\n  provider = test.multi[each.value]\n}\n';
    const files = {
      "main.tf": `${REQUIRED}provider "test" {\n  alias = "multi"\n  for_each = { a = {}, b = {} }\n  marker = each.key\n}\n${resource}locals {\n  ids = { x = "id-x", y = "id-y" }\n}\nimport {\n  for_each = local.ids\n  to = test_thing.t[each.key]\n  id = each.value\n  provider = test.multi["a"]\n}\n`,
    };
    const ctx = new Context({ providers: markerFactory() });
    const p = await ctx.plan(loadConfig(files), new State());
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(p.plan.changes.resources.map((c) => [c.addr.toString(), c.change.importing?.id, c.providerKey.kind === "StringKey" ? c.providerKey.value : ""])).toEqual([
      ['test_thing.t["x"]', "id-x", "a"],
      ['test_thing.t["y"]', "id-y", "b"],
    ]);
    expect(stateAttributes(p.plan.priorState)).toEqual({
      'test_thing.t["x"]': { id: "id-x", import_marker: "a", refresh_marker: "a" },
      'test_thing.t["y"]': { id: "id-y", import_marker: "b", refresh_marker: "b" },
    });
  });

  it("plans normally, without importing, when the target is already in state", async () => {
    const files = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = "abc"\n}\n') };
    const prior = buildState([{ addr: "test_thing.a", attrs: { id: "old", import_marker: "m", refresh_marker: "m" }, provider: "test" }]);
    const factory = markerFactory();
    const p = await new Context({ providers: factory }).plan(loadConfig(files), prior);
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(p.plan.changes.resources[0]?.change.importing).toBeUndefined();
    expect(factory.instances.flatMap((x) => x.calls)).not.toContain("ImportResourceState test_thing");
  });

  it("is ignored by destroy and refresh-only plans", async () => {
    const files = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = "abc"\n}\n') };
    for (const mode of ["destroy", "refresh-only"] as const) {
      const factory = markerFactory();
      const p = await new Context({ providers: factory }).plan(loadConfig(files), new State(), { mode });
      expect(errorsOf(p.diagnostics)).toEqual([]);
      expect(factory.instances.flatMap((x) => x.calls)).not.toContain("ImportResourceState test_thing");
    }
  });

  it("reports targets the configuration does not declare, or whose key it does not expand to", async () => {
    const missing = { "main.tf": withImport('import {\n  to = test_thing.b\n  id = "abc"\n}\n') };
    const p1 = await new Context({ providers: markerFactory() }).plan(loadConfig(missing), new State());
    expect(errorsOf(p1.diagnostics)).toEqual([
      "Configuration for import target does not exist: The configuration for the given import test_thing.b does not exist. All target instances must have an associated configuration to be imported.",
    ]);
    expect(p1.diagnostics[0]?.subject?.start.line).toBe(6);
    const badKey = { "main.tf": withImport('import {\n  to = test_thing.a["k"]\n  id = "abc"\n}\n', 'resource "test_thing" "a" {\n  for_each = toset(["j"])\n}\n') };
    const p2 = await new Context({ providers: markerFactory() }).plan(loadConfig(badKey), new State());
    expect(errorsOf(p2.diagnostics)).toEqual([
      'Configuration for import target does not exist: The configuration for the given import test_thing.a["k"] does not exist. All target instances must have an associated configuration to be imported.',
    ]);
  });

  it("reports two blocks resolving to the same instance", async () => {
    const files = {
      "main.tf": withImport(
        'import {\n  for_each = toset(["k", "j"])\n  to = test_thing.a["k"]\n  id = each.key\n}\n',
        'resource "test_thing" "a" {\n  for_each = toset(["k"])\n}\n',
      ),
    };
    const p = await new Context({ providers: markerFactory() }).plan(loadConfig(files), new State());
    expect(errorsOf(p.diagnostics)).toEqual([
      'Duplicate import configuration for "test_thing.a[\\"k\\"]": An import block for the resource "test_thing.a[\\"k\\"]" was already declared at main.tf:7,1-7. A resource can have only one import block.',
    ]);
  });

  it("rejects null, unknown-free but wrong, and non-existent ids with OpenTofu's texts", async () => {
    const nullId = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = null\n}\n') };
    const p1 = await new Context({ providers: markerFactory() }).plan(loadConfig(nullId), new State());
    expect(errorsOf(p1.diagnostics)).toEqual(["Invalid import id argument: The import ID cannot be null."]);
    const gone = { "main.tf": withImport('import {\n  to = test_thing.a\n  id = "gone-2"\n}\n') };
    const p2 = await new Context({ providers: markerFactory() }).plan(loadConfig(gone), new State());
    expect(errorsOf(p2.diagnostics)).toEqual([
      'Cannot import non-existent remote object: While attempting to import an existing object to "test_thing.a", the provider detected that no object exists with the given id or identity. Only pre-existing objects can be imported; check that the id or identity is correct and that it is associated with the provider\'s configured region or endpoint, or use "tofu apply" to create a new remote object for this resource.',
    ]);
  });
});
