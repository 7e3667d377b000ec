import { describe, expect, it } from "vitest";
import { NumberType, StringType, fromHex, objectOf, hex, marshalMsgpack, nullVal, refine, unknownVal, type Type, type Value } from "../values/index.js";
import { decodeDynamic, encodeDynamic } from "./codec.js";
import { fromNative, toNative } from "./native.js";
import { defineProvider } from "./provider.js";
import { impliedType } from "./schema.js";
import { ProviderServer } from "./server.js";
import { thingProvider } from "./testdata/provider.js";

const utf8 = new TextEncoder();

function setup() {
  const def = thingProvider();
  const server = new ProviderServer(def);
  const thing = def.resources?.example_thing;
  if (!thing) throw new Error("missing resource");
  const type = impliedType(thing.schema.block);
  const dv = (n: Parameters<typeof fromNative>[0], t: Type = type) => encodeDynamic(fromNative(n, t), t);
  const val = (d: { msgpack?: Uint8Array | null } | null | undefined, t: Type = type): Value => {
    const r = decodeDynamic(d, t);
    if (!r.ok) throw new Error(r.error);
    return r.value;
  };
  return { server, type, dv, val };
}

const configured = async () => {
  const s = setup();
  const cfgType = impliedType({ attributes: { prefix: { type: StringType, optional: true } } });
  await s.server.configureProvider({ terraform_version: "1.11.4", config: s.dv({ prefix: "x" }, cfgType) });
  return s;
};

describe("ProviderServer", () => {
  it("answers GetProviderSchema and GetMetadata", () => {
    const { server } = setup();
    const s = server.getProviderSchema();
    expect(Object.keys(s.resource_schemas ?? {})).toEqual(["example_thing"]);
    expect(s.resource_schemas?.example_thing?.version).toBe(2);
    expect(Object.keys(s.functions ?? {})).toEqual(["upper", "join_all"]);
    expect(s.server_capabilities).toEqual({ plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false });
    expect(server.getMetadata().data_sources).toEqual([{ type_name: "example_echo" }]);
  });

  it("plans a create: computed attributes unknown, defaults applied, write-only null, msgpack as cty writes it", async () => {
    const { server, dv, val } = await configured();
    const config = { name: "web", secret: "pw", rule: [{ port: 80 }] };
    const res = await server.planResourceChange({ type_name: "example_thing", proposed_new_state: dv(config), config: dv(config) });
    expect(res.diagnostics).toEqual([]);
    const planned = toNative(val(res.planned_state));
    expect(planned).toMatchObject({ name: "web", kind: "small", secret: null, labels: null, size: null });
    expect(typeof planned === "object" && planned !== null && !Array.isArray(planned) && typeof (planned as Record<string, unknown>).id).toBe("symbol");
    // Keys sorted, every attribute present, unknowns as d4 00 00.
    expect(hex(res.planned_state?.msgpack ?? new Uint8Array()).startsWith("88 a2 69 64 d4 00 00 a4 6b 69 6e 64 a5 73 6d 61 6c 6c")).toBe(true);
  });

  it("creates, reads, updates (keeping computed values), replaces on name change, deletes", async () => {
    const { server, dv, val, type } = await configured();
    const config = { name: "web", size: 1, rule: [{ port: 80 }] };
    const plan = await server.planResourceChange({ type_name: "example_thing", proposed_new_state: dv(config), config: dv(config) });
    const created = await server.applyResourceChange({ type_name: "example_thing", planned_state: plan.planned_state, config: dv(config), planned_private: plan.planned_private });
    expect(created.diagnostics).toEqual([]);
    const state = val(created.new_state);
    expect(toNative(state)).toMatchObject({ id: "x-1", serial: "s-x-1", kind: "small", rule: [{ port: 80, open: false }] });
    expect(new TextDecoder().decode(created.private ?? new Uint8Array())).toBe('{"created":true}');

    const read = await server.readResource({ type_name: "example_thing", current_state: created.new_state, private: created.private });
    expect(toNative(val(read.new_state))).toEqual(toNative(state));
    expect(new TextDecoder().decode(read.private ?? new Uint8Array())).toBe('{"created":true}');

    // Update: size changes; id keeps its value (use-state-for-unknown), serial becomes unknown.
    const next = { ...toNative(state) as object, size: 2 };
    const upd = await server.planResourceChange({ type_name: "example_thing", prior_state: created.new_state, proposed_new_state: dv(next), config: dv({ ...config, size: 2 }) });
    expect(upd.requires_replace).toEqual([]);
    expect(toNative(val(upd.planned_state))).toMatchObject({ id: "x-1", size: 2 });
    const updated = await server.applyResourceChange({ type_name: "example_thing", prior_state: created.new_state, planned_state: upd.planned_state, config: dv({ ...config, size: 2 }) });
    expect(toNative(val(updated.new_state))).toMatchObject({ id: "x-1", size: 2, serial: "u-x-1" });

    // No change: the plan equals the prior state exactly.
    const same = await server.planResourceChange({ type_name: "example_thing", prior_state: updated.new_state, proposed_new_state: updated.new_state, config: dv({ ...config, size: 2 }) });
    expect(hex(same.planned_state?.msgpack ?? new Uint8Array())).toBe(hex(updated.new_state?.msgpack ?? new Uint8Array()));

    const renamed = { ...toNative(val(updated.new_state)) as object, name: "db" };
    const rep = await server.planResourceChange({ type_name: "example_thing", prior_state: updated.new_state, proposed_new_state: dv(renamed), config: dv({ ...config, name: "db" }) });
    expect(rep.requires_replace).toEqual([{ steps: [{ attribute_name: "name" }] }]);

    const del = await server.applyResourceChange({ type_name: "example_thing", prior_state: updated.new_state, planned_state: encodeDynamic(nullVal(type), type) });
    expect(hex(del.new_state?.msgpack ?? new Uint8Array())).toBe("c0");
    const gone = await server.readResource({ type_name: "example_thing", current_state: updated.new_state });
    expect(val(gone.new_state).kind).toBe("null");
  });

  it("rejects unknown values left after apply", async () => {
    const { server, dv, val } = await configured();
    const prior = dv({ name: "a", id: "i", kind: "small", serial: "s", rule: [{ port: 1, open: true }] });
    const res = await server.applyResourceChange({
      type_name: "example_thing",
      prior_state: prior,
      planned_state: dv({ name: "a", kind: "small", id: "i", serial: unknownVal(StringType), rule: [{ port: 1, open: unknownVal(StringType) }] }),
      config: dv({ name: "a", rule: [{ port: 1 }] }),
    });
    expect(res.diagnostics).toEqual([]);
    expect(toNative(val(res.new_state))).toMatchObject({ serial: "u-i", rule: [{ port: 1, open: false }] });

    const { server: s2, dv: dv2, val: val2 } = await configured();
    const bad = await s2.applyResourceChange({
      type_name: "example_thing",
      prior_state: prior,
      planned_state: dv2({ name: "a", kind: "small", id: "i", serial: "s", labels: unknownVal(StringType) }),
      config: dv2({ name: "a" }),
    });
    expect(bad.diagnostics?.[0]?.summary).toBe("Provider returned invalid result object after apply");
    expect(bad.diagnostics?.[0]?.detail).toContain("example_thing.labels");
    expect(toNative(val2(bad.new_state))).toMatchObject({ serial: "s" });
  });

  it("decodes refined unknowns (extension 12) from newer clients", async () => {
    const { server, type } = await configured();
    const refined = refine(unknownVal(StringType)).notNull().newValue();
    const cfg = marshalMsgpack(fromNative({ name: refined }, type), type);
    if (!cfg.ok) throw new Error("encode");
    expect(hex(cfg.value)).toContain("c7 03 0c 81 01 c2");
    const res = await server.planResourceChange({ type_name: "example_thing", proposed_new_state: { msgpack: cfg.value }, config: { msgpack: cfg.value } });
    expect(res.diagnostics).toEqual([]);
    expect(res.requires_replace).toEqual([]);
  });

  it("validates attributes and reports paths", async () => {
    const { server, dv } = setup();
    const res = await server.validateResourceConfig({ type_name: "example_thing", config: dv({ name: "much-too-long-name", kind: "huge" }) });
    expect(res.diagnostics?.map((d) => [d.summary, d.detail, d.attribute?.steps?.[0]?.attribute_name])).toEqual([
      ["Invalid Attribute Value Match", 'Attribute kind value must be one of: ["small" "big"], got: "huge"', "kind"],
      ["Invalid Attribute Value Length", "Attribute name string length must be between 1 and 10, got: 18", "name"],
    ]);
  });

  it("imports by passthrough id and upgrades stored state", async () => {
    const { server, val } = await configured();
    const imp = await server.importResourceState({ type_name: "example_thing", id: "x-9" });
    expect(toNative(val(imp.imported_resources?.[0]?.state))).toMatchObject({ id: "x-9", name: null });

    // Same version: attributes the schema dropped are ignored, missing ones become null.
    const same = await server.upgradeResourceState({ type_name: "example_thing", version: 2, raw_state: { json: utf8.encode('{"id":"a","name":"n","gone":1}') } });
    expect(same.diagnostics).toEqual([]);
    expect(toNative(val(same.upgraded_state))).toMatchObject({ id: "a", name: "n", serial: null });
    // Old version through the upgrader.
    const old = await server.upgradeResourceState({ type_name: "example_thing", version: 1, raw_state: { json: utf8.encode('{"id":"a","title":"old"}') } });
    expect(toNative(val(old.upgraded_state))).toMatchObject({ id: "a", name: "old", serial: "upgraded" });
    // No upgrader for version 0, and a future version.
    expect((await server.upgradeResourceState({ type_name: "example_thing", version: 0, raw_state: { json: utf8.encode("{}") } })).diagnostics?.[0]?.summary).toBe("Unable to Upgrade Resource State");
    expect((await server.upgradeResourceState({ type_name: "example_thing", version: 3, raw_state: { json: utf8.encode("{}") } })).diagnostics?.[0]?.detail).toContain("newer than");
    // Legacy flatmap.
    const flat = await server.upgradeResourceState({ type_name: "example_thing", version: 2, raw_state: { flatmap: { id: "f", name: "n", "labels.%": "1", "labels.a": "b", "rule.#": "1", "rule.0.port": "22" } } });
    expect(toNative(val(flat.upgraded_state))).toMatchObject({ id: "f", labels: { a: "b" }, rule: [{ port: 22, open: null }] });
  });

  it("reads data sources and calls functions", async () => {
    const { server } = await configured();
    const def = thingProvider().dataSources?.example_echo;
    if (!def) throw new Error("missing");
    const t = impliedType(def.schema.block);
    const r = await server.readDataSource({ type_name: "example_echo", config: encodeDynamic(fromNative({ input: "hi" }, t), t) });
    const d = decodeDynamic(r.state, t);
    expect(d.ok && toNative(d.value)).toEqual({ input: "hi", output: "HI", items: ["a", "b"] });
    const failed = await server.readDataSource({ type_name: "example_echo", config: encodeDynamic(fromNative({ input: "fail" }, t), t) });
    expect(failed.diagnostics?.[0]?.summary).toBe("Echo failed");

    const arg = (s: string | null) => encodeDynamic(fromNative(s, StringType), StringType);
    const up = await server.callFunction({ name: "upper", arguments: [arg("abc")] });
    expect(hex(up.result?.msgpack ?? new Uint8Array())).toBe(hex(fromHex("a3 41 42 43")));
    expect((await server.callFunction({ name: "upper", arguments: [arg("boom")] })).error).toEqual({ text: "no booms", function_argument: 0 });
    expect((await server.callFunction({ name: "upper", arguments: [arg(null)] })).error).toEqual({ text: "argument must not be null", function_argument: 0 });
    const joined = await server.callFunction({ name: "join_all", arguments: [arg("-"), arg("a"), arg(null), arg("c")] });
    expect(hex(joined.result?.msgpack ?? new Uint8Array())).toBe("a4 61 2d 2d 63");
  });

  it("offers the functions a configuration defines through GetFunctions once configured, not in the schema", async () => {
    const arg = (v: string) => encodeDynamic(fromNative(v, StringType), StringType);
    const before = setup().server;
    expect(Object.keys(before.getFunctions().functions ?? {}).sort()).toEqual(["join_all", "upper"]);
    expect((await before.callFunction({ name: "prefixed", arguments: [arg("a")] })).error?.text).toBe('Function "prefixed" not found in the provider.');
    const { server } = await configured();
    expect(Object.keys(server.getProviderSchema().functions ?? {}).sort()).toEqual(["join_all", "upper"]);
    const listed = server.getFunctions();
    expect(listed.diagnostics).toEqual([]);
    expect(Object.keys(listed.functions ?? {}).sort()).toEqual(["join_all", "prefixed", "upper"]);
    expect(listed.functions?.["prefixed"]?.summary).toBe("Prefixes a name with the configured id prefix");
    const r = await server.callFunction({ name: "prefixed", arguments: [arg("web")] });
    expect(r.error).toBeUndefined();
    // "x" is the configured prefix.
    expect(hex(r.result?.msgpack ?? new Uint8Array())).toBe("a5 78 2d 77 65 62");
  });

  it("moves state: encoded against the target type, or sent raw as JSON when a mock asks for it", async () => {
    const schema = { block: { attributes: { n: { type: NumberType, optional: true } } } };
    const def = defineProvider({
      name: "mv",
      schema: { block: {} },
      resources: {
        mv_typed: { schema, create: () => undefined, moveState: () => ({ state: { n: 1 } }) },
        mv_raw: { schema, create: () => undefined, moveState: (r) => ({ raw: { json: r.rawStateJSON } }) },
      },
    });
    const server = new ProviderServer(def);
    const req = { source_provider_address: "registry.opentofu.org/hashicorp/mv", source_type_name: "mv_old", source_state: { json: utf8.encode('{"n":2,"s":"x"}') } };
    const typed = await server.moveResourceState({ ...req, target_type_name: "mv_typed" });
    expect(typed.diagnostics).toEqual([]);
    expect(hex(typed.target_state?.msgpack ?? new Uint8Array())).toBe("81 a1 6e 01");
    // The source's extra attribute goes through untouched: the host is the one to reject it.
    const raw = await server.moveResourceState({ ...req, target_type_name: "mv_raw" });
    expect(raw.diagnostics).toEqual([]);
    expect(raw.target_state?.msgpack).toBeUndefined();
    expect(new TextDecoder().decode(raw.target_state?.json ?? new Uint8Array())).toBe('{"n":2,"s":"x"}');
  });

  it("serves identity schemas and imports by identity", async () => {
    const def = defineProvider({
      name: "idp",
      schema: { block: {} },
      resources: {
        idp_thing: {
          schema: { block: { attributes: { id: { type: StringType, computed: true } } } },
          identity: { version: 2, attributes: { name: { type: StringType, requiredForImport: true }, region: { type: StringType, optionalForImport: true } } },
          create: () => undefined,
          importState: ({ id, identity }) => ({ state: { id: identity ? `by-identity-${toNative(identity) === null ? "" : JSON.stringify(toNative(identity))}` : id } }),
        },
        idp_plain: { schema: { block: { attributes: { id: { type: StringType, computed: true } } } }, create: () => undefined },
      },
    });
    const server = new ProviderServer(def);
    const schemas = server.getResourceIdentitySchemas();
    expect(Object.keys(schemas.identity_schemas)).toEqual(["idp_thing"]);
    expect(schemas.identity_schemas.idp_thing?.version).toBe(2);
    expect(
      schemas.identity_schemas.idp_thing?.identity_attributes.map((a) => [a.name, new TextDecoder().decode(a.type), a.required_for_import, a.optional_for_import]),
    ).toEqual([
      ["name", '"string"', true, false],
      ["region", '"string"', false, true],
    ]);
    const identityType = objectOf({ name: StringType, region: StringType });
    const identity = { identity_data: encodeDynamic(fromNative({ name: "n1", region: null }, identityType), identityType) };
    const r = await server.importResourceState({ type_name: "idp_thing", id: "", identity });
    expect(r.diagnostics).toEqual([]);
    const type = impliedType({ attributes: { id: { type: StringType, computed: true } } });
    const st = decodeDynamic(r.imported_resources?.[0]?.state, type);
    expect(st.ok && toNative(st.value)).toEqual({ id: 'by-identity-{"name":"n1","region":null}' });
    // Without identity the ID is used.
    const byId = await server.importResourceState({ type_name: "idp_thing", id: "x" });
    const st2 = decodeDynamic(byId.imported_resources?.[0]?.state, type);
    expect(st2.ok && toNative(st2.value)).toEqual({ id: "x" });
  });
});
