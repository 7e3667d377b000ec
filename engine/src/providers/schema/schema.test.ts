// Schemas from the protocol, implied types, and the DynamicValue codec at byte level
// (../shared/conformance/opentofu/cases/081-msgpack-unknown-value-encoding/expect.md and
// 080-tfplugin6-protocol/expect.md).

import { describe, expect, it } from "vitest";
import {
  BoolType,
  BigFloat,
  True,
  DynamicPseudoType,
  DynamicVal,
  NumberType,
  StringType,
  formatValue,
  fromHex,
  hex,
  listOf,
  mapOf,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  refine,
  setOf,
  setVal,
  stringVal,
  typeString,
  unknownVal,
  type Type,
  type Value,
} from "../../values/index.js";
import { pluginServices } from "../proto/index.js";
import type { ProtoSchema } from "../proto/types.js";
import {
  attribute,
  block,
  blockFromProto,
  decodeDynamicValue,
  encodeDynamicValue,
  impliedType,
  nestedBlock,
  schemaFromProto,
  schemaToProto,
  type Block,
} from "./index.js";

const te = (s: string): Uint8Array => new TextEncoder().encode(s);

const protoSchema: ProtoSchema = {
  version: "3",
  block: {
    attributes: [
      { name: "id", type: te('"string"'), computed: true },
      { name: "tags", type: te('["map","string"]'), optional: true, description: "Tags", description_kind: "MARKDOWN" },
      { name: "password", type: te('"string"'), optional: true, sensitive: true, write_only: true },
      { name: "old", type: te('"number"'), optional: true, deprecated: true },
      {
        name: "disks",
        optional: true,
        nested_type: { nesting: "LIST", attributes: [{ name: "size", type: te('"number"'), required: true }, { name: "kind", type: te('"string"'), optional: true, computed: true }] },
      },
    ],
    block_types: [
      { type_name: "rule", nesting: "SET", min_items: "1", max_items: "0", block: { attributes: [{ name: "port", type: te('"number"'), required: true }] } },
      { type_name: "timeouts", nesting: "SINGLE", block: { attributes: [{ name: "create", type: te('"string"'), optional: true }] } },
      { type_name: "settings", nesting: "GROUP", block: { attributes: [{ name: "x", type: te('"bool"'), optional: true }] } },
      { type_name: "labels", nesting: "MAP", block: { attributes: [{ name: "v", type: te('"string"'), optional: true }] } },
      { type_name: "dyn", nesting: "LIST", block: { attributes: [{ name: "any", type: te('"dynamic"'), optional: true }] } },
    ],
  },
};

describe("schemas from the protocol", () => {
  const s = schemaFromProto(protoSchema);
  it("keeps every flag", () => {
    expect(s.version).toBe(3);
    const b = s.block;
    expect(b.attributes.get("id")).toMatchObject({ type: StringType, computed: true, optional: false, required: false });
    expect(b.attributes.get("tags")).toMatchObject({ description: "Tags", descriptionKind: "markdown", optional: true });
    expect(b.attributes.get("password")).toMatchObject({ sensitive: true, writeOnly: true });
    expect(b.attributes.get("old")?.deprecated).toBe(true);
    expect(b.attributes.get("disks")?.nestedType?.nesting).toBe("list");
    expect(b.blockTypes.get("rule")).toMatchObject({ nesting: "set", minItems: 1, maxItems: 0 });
    expect(b.blockTypes.get("settings")?.nesting).toBe("group");
  });

  it("implies configschema's object type", () => {
    expect(typeString(impliedType(s.block))).toBe(
      typeString(
        objectOf({
          id: StringType,
          tags: mapOf(StringType),
          password: StringType,
          old: NumberType,
          disks: listOf(objectOf({ size: NumberType, kind: StringType })),
          rule: setOf(objectOf({ port: NumberType })),
          timeouts: objectOf({ create: StringType }),
          settings: objectOf({ x: BoolType }),
          labels: mapOf(objectOf({ v: StringType })),
          // a list of blocks with dynamic attributes is a tuple: its type is not known statically
          dyn: DynamicPseudoType,
        }),
      ),
    );
  });

  it("round-trips through the protocol (what the SDK sends)", () => {
    const again = schemaFromProto(schemaToProto(s, 6));
    expect(typeString(impliedType(again.block))).toBe(typeString(impliedType(s.block)));
    // Protocol 5 has no nested attribute types: they travel as their implied type.
    const v5 = schemaFromProto(schemaToProto(s, 5));
    expect(v5.block.attributes.get("disks")?.nestedType).toBeUndefined();
    expect(typeString(impliedType(v5.block))).toBe(typeString(impliedType(s.block)));
  });

  it("round-trips through real protobuf bytes", () => {
    const svc = pluginServices().provider6.service["GetProviderSchema"];
    if (!svc) throw new Error("missing");
    const bytes = svc.responseSerialize({ resource_schemas: { t: schemaToProto(s, 6) } });
    const back = svc.responseDeserialize(bytes) as { resource_schemas: Record<string, ProtoSchema> };
    const t = back.resource_schemas["t"];
    expect(typeString(impliedType(schemaFromProto(t).block))).toBe(typeString(impliedType(s.block)));
  });

  it("rejects an attribute without a type", () => {
    expect(() => blockFromProto({ attributes: [{ name: "x" }] })).toThrow(/\.x: no type/);
  });
});

describe("tfplugin6 wire format (case 080)", () => {
  const svc = pluginServices().provider6.service;
  const field = (method: string, which: "req" | "res", msg: object): string => {
    const def = svc[method];
    if (!def) throw new Error(method);
    return hex(new Uint8Array(which === "req" ? def.requestSerialize(msg) : def.responseSerialize(msg)));
  };
  it("uses upstream's field numbers", () => {
    // ValidateProviderConfig.Response.diagnostics = 2 (tag 0x12), not 1.
    expect(field("ValidateProviderConfig", "res", { diagnostics: [{ summary: "x" }] })).toBe("12 03 12 01 78");
    // PlanResourceChange.Request: prior_state 2, proposed_new_state 3, config 4.
    expect(field("PlanResourceChange", "req", { prior_state: { msgpack: [0xc0] }, proposed_new_state: { msgpack: [0xc0] }, config: { msgpack: [0xc0] } })).toBe(
      "12 03 0a 01 c0 1a 03 0a 01 c0 22 03 0a 01 c0",
    );
    // PlanResourceChange.Response: planned_state 1, requires_replace 2, planned_private 3, diagnostics 4.
    expect(field("PlanResourceChange", "res", { planned_state: { msgpack: [0xc0] }, requires_replace: [{ steps: [{ attribute_name: "a" }] }], planned_private: [1], diagnostics: [{ summary: "d" }] })).toBe(
      "0a 03 0a 01 c0 12 05 0a 03 0a 01 61 1a 01 01 22 03 12 01 64",
    );
    // ApplyResourceChange: request prior 2, planned 3, config 4; response new_state 1, private 2, diagnostics 3.
    expect(field("ApplyResourceChange", "req", { prior_state: { json: [0x7b] }, planned_state: { json: [0x7b] }, config: { json: [0x7b] } })).toBe("12 03 12 01 7b 1a 03 12 01 7b 22 03 12 01 7b");
    expect(field("ApplyResourceChange", "res", { new_state: { msgpack: [0xc0] }, private: [2], diagnostics: [{ summary: "d" }] })).toBe("0a 03 0a 01 c0 12 01 02 1a 03 12 01 64");
    // ConfigureProvider.Request client_capabilities = 3 with write_only_attributes_allowed = 2.
    expect(field("ConfigureProvider", "req", { terraform_version: "1", client_capabilities: { write_only_attributes_allowed: true } })).toBe("0a 01 31 1a 02 10 01");
    // Schema.Attribute.write_only = 11, nested_type = 10.
    const attr = field("GetProviderSchema", "res", { provider: { block: { attributes: [{ name: "p", write_only: true }] } } });
    expect(attr).toBe("0a 09 12 07 12 05 0a 01 70 58 01");
  });
});

// ---------------------------------------------------------------------------------------------
// DynamicValue

const objTy = objectOf({ a: StringType, n: NumberType, tags: setOf(StringType), d: DynamicPseudoType });

const enc = (v: Value, t: Type): string => {
  const r = encodeDynamicValue(v, t);
  if (!r.ok) throw new Error(r.error);
  return hex(r.value.msgpack ?? new Uint8Array());
};

describe("DynamicValue codec (case 081)", () => {
  it.each<[string, Value, Type, string]>([
    ["null", nullVal(StringType), StringType, "c0"],
    ["string", stringVal("hi"), StringType, "a2 68 69"],
    ["0", numberIntVal(0), NumberType, "00"],
    ["-1", numberIntVal(-1), NumberType, "ff"],
    ["300", numberIntVal(300), NumberType, "cd 01 2c"],
    ["wholly unknown", unknownVal(StringType), StringType, "d4 00 00"],
    ["unknown string, not null", refine(unknownVal(StringType)).notNull().newValue(), StringType, "c7 03 0c 81 01 c2"],
    ["unknown string, not null, prefix", refine(unknownVal(StringType)).notNull().stringPrefixFull("foo-").newValue(), StringType, "c7 09 0c 82 01 c2 02 a4 66 6f 6f 2d"],
    ["unknown number >= 0", refine(unknownVal(NumberType)).numberRangeLowerBound(BigFloat.fromInt(0), true).newValue(), NumberType, "c7 05 0c 81 03 92 00 c3"],
    ["unknown list, length >= 1", refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(1).newValue(), listOf(StringType), "c7 03 0c 81 05 01"],
    ["string under dynamic", stringVal("hi"), DynamicPseudoType, "92 c4 08 22 73 74 72 69 6e 67 22 a2 68 69"],
    ["unknown string under dynamic", unknownVal(StringType), DynamicPseudoType, "92 c4 08 22 73 74 72 69 6e 67 22 d4 00 00"],
    ["DynamicVal under dynamic", DynamicVal, DynamicPseudoType, "d4 00 00"],
    [
      "object: sorted keys, every attribute, sets sorted",
      objectVal({ n: numberIntVal(1), a: stringVal("x"), tags: setVal([stringVal("b"), stringVal("a")]), d: nullVal(DynamicPseudoType) }),
      objTy,
      "84 a1 61 a1 78 a1 64 c0 a1 6e 01 a4 74 61 67 73 92 a1 61 a1 62",
    ],
  ])("%s", (_n, v, t, want) => expect(enc(v, t)).toBe(want));

  it("refuses marked values", () => {
    const r = encodeDynamicValue({ ...stringVal("s"), marks: new Set(["sensitive"]) }, StringType);
    expect(r.ok).toBe(false);
  });

  it("decodes msgpack, then JSON, else null", () => {
    const show = (dv: Parameters<typeof decodeDynamicValue>[0], t: Type): string => {
      const r = decodeDynamicValue(dv, t);
      if (!r.ok) return `error: ${r.error}`;
      return formatValue(r.value);
    };
    expect(show({ msgpack: fromHex("c7 03 0c 81 01 c2") }, StringType)).toBe(formatValue(refine(unknownVal(StringType)).notNull().newValue()));
    expect(show({ msgpack: fromHex("d4 00 00") }, StringType)).toBe(formatValue(unknownVal(StringType)));
    expect(show({ json: te('{"a":"x","n":2,"tags":["b","a"],"d":{"value":true,"type":"bool"}}') }, objTy)).toBe(
      formatValue(objectVal({ a: stringVal("x"), n: numberIntVal(2), tags: setVal([stringVal("a"), stringVal("b")]), d: True })),
    );
    expect(show(null, objTy)).toBe(formatValue(nullVal(objTy)));
    expect(show({}, objTy)).toBe(formatValue(nullVal(objTy)));
    expect(show({ msgpack: fromHex("c7 02 05 00 00") }, StringType)).toBe("error: unsupported extension type 0x05 with len 2");
  });

  it("round-trips a resource object with unknowns against a schema", () => {
    const b: Block = block(
      { id: attribute({ type: StringType, computed: true }), tags: attribute({ type: mapOf(StringType), optional: true }) },
      { rule: nestedBlock(block({ port: attribute({ type: NumberType, required: true }) }), "list") },
    );
    const t = impliedType(b);
    const v = objectVal({
      id: refine(unknownVal(StringType)).notNull().newValue(),
      tags: nullVal(mapOf(StringType)),
      rule: { kind: "list", type: listOf(objectOf({ port: NumberType })), marks: new Set(), elements: [objectVal({ port: numberIntVal(80) })] },
    });
    const r = encodeDynamicValue(v, t);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const back = decodeDynamicValue(r.value, t);
    expect(back.ok && formatValue(back.value)).toBe(formatValue(v));
  });
});
