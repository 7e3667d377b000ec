// The generator of `plan -generate-config-out` on its own: OpenTofu's genconfig cases (nested
// blocks, nulls, jsonencode, sensitive values, provider lines) and the file layout.
import { describe, expect, it } from "vitest";
import { attribute, block, nestedBlock, type Block } from "../providers/index.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  listOf,
  listVal,
  listValEmpty,
  mapOf,
  mapVal,
  mapValEmpty,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  setValEmpty,
  stringVal,
  boolVal,
  BigFloat,
  numberVal,
  type Value,
} from "../values/index.js";
import { generateResourceContents, generatedFileText, wrapResourceContents } from "./genconfig.js";
import { markSensitiveBySchema } from "./schemabody.js";

const optString = attribute({ type: StringType, optional: true });
const computedId = attribute({ type: StringType, computed: true });

function generate(schema: Block, value: Value, provider = { localName: "tfcoremock", alias: "" }, type = "tfcoremock_simple_resource", name = "empty"): string {
  return wrapResourceContents(type, name, generateResourceContents(type, schema, provider, markSensitiveBySchema(schema, value)));
}

const simple = block({ id: computedId, value: optString }, { list_block: nestedBlock(block({ nested_value: optString }), "single") });

describe("generateResourceContents", () => {
  it("writes configurable attributes in name order, then nested blocks, leaving computed-only ones out", () => {
    const v = objectVal({ id: stringVal("D2320658"), value: stringVal("Hello, world!"), list_block: objectVal({ nested_value: stringVal("Hello, solar system!") }) });
    expect(generate(simple, v)).toBe('resource "tfcoremock_simple_resource" "empty" {\n  value = "Hello, world!"\n  list_block {\n    nested_value = "Hello, solar system!"\n  }\n}');
  });

  it("writes null for an attribute the object does not have", () => {
    const v = objectVal({ id: stringVal("D2320658"), list_block: objectVal({ nested_value: stringVal("x") }) });
    expect(generate(simple, v)).toBe('resource "tfcoremock_simple_resource" "empty" {\n  value = null\n  list_block {\n    nested_value = "x"\n  }\n}');
  });

  it("adds a provider argument for another provider or an alias", () => {
    const v = objectVal({ id: stringVal("x"), value: stringVal("v"), list_block: nullVal(objectOf({ nested_value: StringType })) });
    expect(generate(simple, v, { localName: "mock", alias: "" })).toBe('resource "tfcoremock_simple_resource" "empty" {\n  provider = mock\n  value    = "v"\n}');
    expect(generate(simple, v, { localName: "tfcoremock", alias: "alternate" })).toBe(
      'resource "tfcoremock_simple_resource" "empty" {\n  provider = tfcoremock.alternate\n  value    = "v"\n}',
    );
  });

  it("writes null nested attributes, and no blocks for null or empty nested block values", () => {
    const nested = { nested_id: optString };
    const schema = block(
      {
        id: computedId,
        single: attribute({ nestedType: { attributes: new Map(), nesting: "single" }, required: true }),
        list: attribute({ nestedType: { attributes: new Map(Object.entries(nested)), nesting: "list" }, required: true }),
        map: attribute({ nestedType: { attributes: new Map(Object.entries(nested)), nesting: "map" }, required: true }),
      },
      {
        nested_single: nestedBlock(block(nested), "single"),
        nested_list: nestedBlock(block(nested), "list"),
        nested_set: nestedBlock(block(nested), "set"),
        nested_map: nestedBlock(block(nested), "map"),
      },
    );
    const obj = objectOf({ nested_id: StringType });
    const v = objectVal({
      id: stringVal("D2320658"),
      single: nullVal(objectOf({})),
      list: nullVal(listOf(obj)),
      map: nullVal(mapOf(obj)),
      nested_single: nullVal(obj),
      nested_list: listValEmpty(obj),
      nested_set: setValEmpty(obj),
      nested_map: mapValEmpty(obj),
    });
    expect(generate(schema, v)).toBe('resource "tfcoremock_simple_resource" "empty" {\n  list   = null\n  map    = null\n  single = null\n}');
  });

  it("writes nested attributes and repeated blocks from their values", () => {
    const inner = { name: attribute({ type: StringType, required: true }), port: attribute({ type: NumberType, optional: true }), arn: computedId };
    const schema = block(
      { id: computedId, rules: attribute({ nestedType: { attributes: new Map(Object.entries(inner)), nesting: "list" }, optional: true }) },
      { ingress: nestedBlock(block(inner), "list"), labels: nestedBlock(block({ value: optString }), "map") },
    );
    const rule = (name: string, port: number) => objectVal({ name: stringVal(name), port: numberIntVal(port), arn: stringVal("x") });
    const v = objectVal({
      id: stringVal("i"),
      rules: listVal([rule("a", 80), rule("b", 443)]),
      ingress: listVal([rule("web", 8080), rule("ssh", 22)]),
      labels: mapVal({ zeta: objectVal({ value: stringVal("z") }), alpha: objectVal({ value: stringVal("a") }) }),
    });
    expect(generate(schema, v)).toBe(
      [
        'resource "tfcoremock_simple_resource" "empty" {',
        "  rules = [",
        "    {",
        '      name = "a"',
        "      port = 80",
        "    },",
        "    {",
        '      name = "b"',
        "      port = 443",
        "    },",
        "  ]",
        "  ingress {",
        '    name = "web"',
        "    port = 8080",
        "  }",
        "  ingress {",
        '    name = "ssh"',
        "    port = 22",
        "  }",
        '  labels "alpha" {',
        '    value = "a"',
        "  }",
        '  labels "zeta" {',
        '    value = "z"',
        "  }",
        "}",
      ].join("\n"),
    );
  });

  it("wraps JSON objects and arrays in jsonencode and hides sensitive values", () => {
    const schema = block({
      juststr: optString,
      jsonobj: optString,
      jsonarr: optString,
      sensitivejsonobj: attribute({ type: StringType, optional: true, sensitive: true }),
    });
    const v = objectVal({
      juststr: stringVal("{a=b}"),
      jsonobj: stringVal('{"SomeDate":"2012-10-17"}'),
      jsonarr: stringVal('[{"a": 1}]'),
      sensitivejsonobj: stringVal('{"SomePassword":"dontstealplease"}'),
    });
    expect(generate(schema, v, undefined, undefined, "example")).toBe(
      [
        'resource "tfcoremock_simple_resource" "example" {',
        "  jsonarr = jsonencode([{",
        "    a = 1",
        "  }])",
        "  jsonobj = jsonencode({",
        '    SomeDate = "2012-10-17"',
        "  })",
        '  juststr          = "{a=b}"',
        "  sensitivejsonobj = null # sensitive",
        "}",
      ].join("\n"),
    );
  });

  it("writes values as hclwrite does: escapes, map keys, numbers, the empty-string hack", () => {
    const schema = block({
      id: attribute({ type: StringType, optional: true, computed: true }),
      text: optString,
      empty: optString,
      needed: attribute({ type: StringType, required: true }),
      tags: attribute({ type: mapOf(StringType), optional: true }),
      ratio: attribute({ type: NumberType, optional: true }),
      on: attribute({ type: BoolType, optional: true }),
      any: attribute({ type: DynamicPseudoType, optional: true }),
      old: attribute({ type: StringType, optional: true, deprecated: true }),
    });
    const v = objectVal({
      id: stringVal("legacy-sdk-id"),
      text: stringVal('line 1\n"two" ${x} %{y}\t'),
      empty: stringVal(""),
      needed: stringVal(""),
      tags: mapVal({ Name: stringVal("web"), "aws:role": stringVal("x") }),
      ratio: numberVal(BigFloat.parse("1.50") as BigFloat),
      on: boolVal(true),
      any: listVal([numberIntVal(1), numberIntVal(2)]),
      old: stringVal("gone"),
    });
    expect(generate(schema, v)).toBe(
      [
        'resource "tfcoremock_simple_resource" "empty" {',
        "  any    = [1, 2]",
        "  empty  = null",
        '  needed = ""',
        "  on     = true",
        "  ratio  = 1.5",
        "  tags = {",
        '    Name       = "web"',
        '    "aws:role" = "x"',
        "  }",
        '  text = "line 1\\n\\"two\\" $${x} %%{y}\\t"',
        "}",
      ].join("\n"),
    );
  });

  it("marks a sensitive nested block or nested attribute element instead of writing it", () => {
    const schema = block(
      {
        creds: attribute({ nestedType: { attributes: new Map([["user", optString]]), nesting: "single" }, optional: true, sensitive: true }),
      },
      { secret: nestedBlock(block({ key: attribute({ type: StringType, optional: true, sensitive: true }) }), "single") },
    );
    const v = objectVal({ creds: objectVal({ user: stringVal("u") }), secret: objectVal({ key: stringVal("k") }) });
    expect(generate(schema, v)).toBe('resource "tfcoremock_simple_resource" "empty" {\n  creds = {} # sensitive\n  secret {\n    key = null # sensitive\n  }\n}');
  });
});

describe("generatedFileText", () => {
  it("starts with the header and puts each block after a line naming its import ID", () => {
    const text = generatedFileText([
      { importId: "abc", generatedConfig: 'resource "a_b" "c" {\n  x = 1\n}' },
      { importId: "", generatedConfig: "" },
      { importId: "", generatedConfig: 'resource "a_b" "d" {\n}' },
    ]);
    expect(text).toBe(
      '# __generated__ by OpenTofu\n# Please review these resources and move them into your main configuration files.\n\n# __generated__ by OpenTofu from "abc"\nresource "a_b" "c" {\n  x = 1\n}\n\n# __generated__ by OpenTofu\nresource "a_b" "d" {\n}\n',
    );
    expect(generatedFileText([{ importId: "x", generatedConfig: "" }])).toBe("");
  });
});
