import { describe, expect, it } from "vitest";
import { NumberType, StringType, listOf, mapOf, setOf, typeString } from "../values/index.js";
import { schemaToProto } from "../providers/schema/index.js";
import { schemaToJSON } from "./export.js";
import { configBlock, configSchema, impliedType, validateSchema, type Block } from "./schema.js";

const block: Block = {
  attributes: {
    name: { type: StringType, required: true, description: "The name." },
    tags: { type: mapOf(StringType), optional: true },
    id: { type: StringType, computed: true, sensitive: true },
    nested: { nested: { nesting: "list", attributes: { a: { type: StringType, optional: true }, b: { type: NumberType, required: true } } }, optional: true },
  },
  blocks: {
    rule: { nesting: "set", minItems: 1, block: { attributes: { port: { type: NumberType, required: true } } } },
    single: { nesting: "single", block: { attributes: { x: { type: StringType, optional: true } } } },
  },
};

describe("schema", () => {
  it("derives the implied type, blocks and nested attributes included", () => {
    expect(typeString(impliedType(block))).toBe(
      "object({id=string,name=string,nested=list(object({a=string,b=number})),rule=set(object({port=number})),single=object({x=string}),tags=map(string)})",
    );
    // Converted once per declaration, so the implied type is computed once too.
    expect(impliedType(block)).toBe(impliedType(block));
  });

  it("converts declarations into providers/schema's model", () => {
    const c = configBlock({
      attributes: { z: { type: StringType, optional: true, deprecated: "use y" }, y: { type: StringType, computed: true, deprecated: true } },
      deprecated: "gone soon",
    });
    expect([...c.attributes.keys()]).toEqual(["y", "z"]);
    expect(c.attributes.get("z")).toMatchObject({ optional: true, required: false, deprecated: true, deprecationMessage: "use y", descriptionKind: "plain" });
    expect(c.attributes.get("y")?.deprecationMessage).toBeUndefined();
    expect(c).toMatchObject({ deprecated: true, deprecationMessage: "gone soon", description: "" });
  });

  it("builds the tfplugin6 Schema message with sorted attributes and cty JSON types", () => {
    const p = schemaToProto(configSchema({ version: 3, block }));
    expect(p.version).toBe(3);
    expect(p.block?.attributes?.map((a) => a.name)).toEqual(["id", "name", "nested", "tags"]);
    const tags = p.block?.attributes?.find((a) => a.name === "tags");
    expect(new TextDecoder().decode(tags?.type ?? new Uint8Array())).toBe('["map","string"]');
    const nested = p.block?.attributes?.find((a) => a.name === "nested");
    expect(nested?.type).toBeUndefined();
    expect(nested?.nested_type?.nesting).toBe("LIST");
    expect(p.block?.block_types?.map((b) => [b.type_name, b.nesting, b.min_items])).toEqual([
      ["rule", "SET", 1],
      ["single", "SINGLE", 0],
    ]);
  });

  it("prints the JSON `terraform providers schema -json` prints", () => {
    const j = schemaToJSON({ block: { attributes: { id: { type: setOf(listOf(StringType)), computed: true, description: "x" } } } });
    expect(JSON.stringify(j)).toBe(
      '{"version":0,"block":{"attributes":{"id":{"type":["set",["list","string"]],"description":"x","description_kind":"plain","computed":true}},"description_kind":"plain"}}',
    );
  });

  it("reports schema mistakes", () => {
    expect(
      validateSchema(
        {
          attributes: {
            a: { type: StringType },
            b: { type: StringType, required: true, computed: true },
            c: { type: StringType, optional: true, default: undefined },
            d: { type: StringType, optional: true, default: undefined, computed: false },
          },
        },
        "r",
      ),
    ).toEqual(["r.a: must be required, or optional and/or computed", "r.b: must be required, or optional and/or computed", "r.b: cannot be both required and computed"]);
  });
});
