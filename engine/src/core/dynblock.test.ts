import { describe, expect, it } from "vitest";
import { nativeBody, jsonBody, parseConfig, parseJSONConfig, type Diagnostic } from "../hcl/index.js";
import { staticFunctionTable } from "../configs/index.js";
import { EvalContext } from "../lang/eval/index.js";
import type { Attribute, Block, NestedBlock } from "../providers/index.js";
import { DynamicVal, SENSITIVE, StringType, listOf, mark, objectVal, stringVal, listVal, type Type, type Value } from "../values/index.js";
import { show } from "../values/testutil.js";
import { blockReferences, decodeBody } from "./schemabody.js";

const attr = (type: Type, extra: Partial<Attribute> = {}): Attribute => ({
  type,
  description: "",
  descriptionKind: "plain",
  required: false,
  optional: true,
  computed: false,
  sensitive: false,
  deprecated: false,
  writeOnly: false,
  ...extra,
});
const block = (attributes: Record<string, Attribute>, blockTypes: Record<string, NestedBlock> = {}): Block => ({
  attributes: new Map(Object.entries(attributes)),
  blockTypes: new Map(Object.entries(blockTypes)),
  description: "",
  descriptionKind: "plain",
  deprecated: false,
});
const nested = (b: Block, nesting: NestedBlock["nesting"], minItems = 0, maxItems = 0): NestedBlock => ({ block: b, nesting, minItems, maxItems });

// A security-group-like resource: list-nested `ingress` (with a set-nested `rule`), a map-nested
// `tag` block and a single `timeouts` block.
const SCHEMA = block(
  { name: attr(StringType) },
  {
    ingress: nested(block({ port: attr(StringType), cidrs: attr(listOf(StringType)) }, { rule: nested(block({ action: attr(StringType) }), "set") }), "list"),
    tag: nested(block({ value: attr(StringType) }), "map"),
    timeouts: nested(block({ create: attr(StringType) }), "single"),
  },
);

function ctxWith(vars: Record<string, Value>): EvalContext {
  return EvalContext.of(new Map([["var", objectVal(new Map(Object.entries(vars)))]]), staticFunctionTable());
}

function decodeNative(src: string, vars: Record<string, Value> = {}): { value: string; diags: Diagnostic[] } {
  const f = parseConfig(src, "main.tf");
  expect(f.diagnostics).toEqual([]);
  const r = decodeBody(nativeBody(f.result.body), SCHEMA, ctxWith(vars));
  return { value: show(r.value), diags: r.diagnostics };
}

describe("dynamic blocks", () => {
  it("expands one block per element, in source order with static blocks, iterator as {key, value}", () => {
    const r = decodeNative(
      `
ingress { port = "22" }
dynamic "ingress" {
  for_each = var.ports
  content {
    port  = ingress.value
    cidrs = ["10.0.\${ingress.key}.0/24"]
  }
}
ingress { port = "443" }
`,
      { ports: listVal([stringVal("80"), stringVal("8080")]) },
    );
    expect(r.diags).toEqual([]);
    expect(r.value.match(/port: "(\d+)"/g)).toEqual(['port: "22"', 'port: "80"', 'port: "8080"', 'port: "443"']);
    expect(r.value).toContain('"10.0.1.0/24"');
  });

  it("uses a named iterator, labels for map-nested blocks, and nests dynamic blocks with the outer iterator", () => {
    const r = decodeNative(
      `
dynamic "tag" {
  for_each = { a = "x", b = "y" }
  iterator = t
  labels   = [t.key]
  content { value = upper(t.value) }
}
dynamic "ingress" {
  for_each = ["80"]
  iterator = port
  content {
    port = port.value
    dynamic "rule" {
      for_each = ["allow", "log"]
      content { action = "\${rule.value}-\${port.value}" }
    }
  }
}
`,
    );
    expect(r.diags).toEqual([]);
    expect(r.value).toContain('tag: map{"a": object{value: "X"}, "b": object{value: "Y"}}');
    expect(r.value).toContain('"allow-80"');
    expect(r.value).toContain('"log-80"');
  });

  it("makes the whole block type unknown when for_each is unknown", () => {
    const r = decodeNative(`dynamic "ingress" {\n  for_each = var.ports\n  content { port = ingress.value }\n}\n`, { ports: DynamicVal });
    expect(r.diags).toEqual([]);
    expect(r.value).toMatch(/ingress: unknown\(list\(/);
  });

  it("marks every value produced from a sensitive for_each", () => {
    const r = decodeNative(`dynamic "ingress" {\n  for_each = var.ports\n  content { port = ingress.value }\n}\n`, { ports: mark(listVal([stringVal("22")]), SENSITIVE) });
    expect(r.diags).toEqual([]);
    expect(r.value).toMatch(/port: "22"@sensitive/);
  });

  it("reports dynblock's errors with their ranges", () => {
    const cases: Array<[string, string, string]> = [
      [`dynamic "nope" {\n  for_each = []\n  content {}\n}\n`, "Unsupported block type", 'Blocks of type "nope" are not expected here.'],
      [`dynamic "ingress" {\n  for_each = "x"\n  content {}\n}\n`, "Invalid dynamic for_each value", "Cannot use a string value in for_each. An iterable collection is required."],
      [`dynamic "ingress" {\n  for_each = null\n  content {}\n}\n`, "Invalid dynamic for_each value", "Cannot use a null value in for_each."],
      [`dynamic "ingress" {\n  for_each = [1]\n}\n`, "Missing dynamic content block", 'A dynamic block must have a nested block of type "content" to describe the body of each generated block.'],
      [`dynamic "ingress" {\n  for_each = [1]\n  content {}\n  content {}\n}\n`, "Extraneous dynamic content block", "Only one nested content block is allowed for each dynamic block."],
      [`dynamic "ingress" {\n  for_each = [1]\n  iterator = a.b\n  content {}\n}\n`, "Invalid dynamic iterator name", "Dynamic iterator must be a single variable name."],
      [`dynamic "tag" {\n  for_each = [1]\n  labels = ["a", "b"]\n  content {}\n}\n`, "Extraneous dynamic block label", 'Blocks of type "tag" require 1 label(s).'],
      [`dynamic "tag" {\n  for_each = [1]\n  labels = [null]\n  content {}\n}\n`, "Invalid dynamic block label", "Cannot use a null value as a dynamic block label."],
      [`dynamic "ingress" {\n  for_each = [1]\n  labels = ["a"]\n  content {}\n}\n`, "Unsupported argument", 'An argument named "labels" is not expected here.'],
    ];
    for (const [src, summary, detail] of cases) {
      const r = decodeNative(src);
      const errs = r.diags.filter((d) => d.severity === "error").map((d) => [d.summary, d.detail]);
      expect(errs, src).toEqual([[summary, detail]]);
      expect(r.diags[0]?.subject?.start.line, src).toBeGreaterThan(0);
    }
  });

  it("works in JSON syntax", () => {
    const src = JSON.stringify({ dynamic: { ingress: { for_each: "${var.ports}", content: { port: "${ingress.value}" } } } });
    const f = parseJSONConfig(src, "main.tf.json");
    const r = decodeBody(jsonBody(f.result.root), SCHEMA, ctxWith({ ports: listVal([stringVal("80")]) }));
    expect(r.diagnostics).toEqual([]);
    expect(show(r.value)).toContain('port: "80"');
  });

  it("reports what a dynamic block refers to, without its own iterator", () => {
    const f = parseConfig(
      `dynamic "ingress" {\n  for_each = var.ports\n  iterator = p\n  content {\n    port = p.value\n    cidrs = local.cidrs\n  }\n}\n`,
      "main.tf",
    );
    const refs = blockReferences(nativeBody(f.result.body), SCHEMA).map((t) => t.map((x) => (x.kind === "Index" ? "[]" : x.name)).join("."));
    expect(refs.sort()).toEqual(["local.cidrs", "var.ports"]);
  });
});

