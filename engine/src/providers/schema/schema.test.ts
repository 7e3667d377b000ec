// Schemas from the protocol, implied types, and the DynamicValue codec; the byte-level cases
// (../shared/conformance/opentofu/cases/080-tfplugin6-protocol and 081-msgpack-unknown-value-encoding)
// through the shared conformance harness.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  formatValue,
  listOf,
  mapOf,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  refine,
  setOf,
  typeString,
  unknownVal,
} from "../../values/index.js";
import { protocolCaseChecks } from "../conformance.harness.js";
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

// Cases 080 and 081 (field numbers, RPC lists, DynamicValue bytes and decoding rules, the client's
// behaviours against a real plugin) are checked by ../conformance.harness.ts, which
// `npm run conformance` runs too; here they run in place from ../shared/conformance.
const CASES = path.resolve(import.meta.dirname, "../../../../../shared/conformance/opentofu/cases");
const present = existsSync(CASES);
if (!present) console.log(`skipping protocol conformance cases 080/081: ${CASES} is absent`);

describe.skipIf(!present)("conformance F: protocol encoding (cases 080, 081)", () => {
  it.each(["080", "081"])("case %s", { timeout: 60_000 }, async (id) => {
    const name = readdirSync(CASES).find((n) => n.startsWith(`${id}-`));
    expect(name, `case ${id} directory`).toBeDefined();
    const checks = (await protocolCaseChecks(path.join(CASES, name ?? ""))) ?? [];
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) expect({ check: c.name, value: c.got }).toEqual({ check: c.name, value: c.want });
  });
});

// ---------------------------------------------------------------------------------------------
// DynamicValue

describe("DynamicValue codec", () => {
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
