import { describe, expect, it } from "vitest";
import { parseRef, parseRefStr, parseTraversalAbs, referenceDisplayString } from "./index.js";

// input, subject kind, subject string, end byte of the subject's range, display string
const ok: [string, string, string, number, string][] = [
  ["count.index", "CountAttr", "count.index", 11, "count.index"],
  ["count.index.blah", "CountAttr", "count.index", 11, "count.index.blah"],
  ["each.key", "ForEachAttr", "each.key", 8, "each.key"],
  ["each.value.blah", "ForEachAttr", "each.value", 10, "each.value.blah"],
  ["data.external.foo", "Resource", "data.external.foo", 17, "data.external.foo"],
  ["data.external.foo.bar", "ResourceInstance", "data.external.foo", 17, "data.external.foo.bar"],
  ['data.external.foo["baz"].bar', "ResourceInstance", 'data.external.foo["baz"]', 24, 'data.external.foo["baz"].bar'],
  ['data.external.foo["baz"]', "ResourceInstance", 'data.external.foo["baz"]', 24, 'data.external.foo["baz"]'],
  ["ephemeral.random.pw", "Resource", "ephemeral.random.pw", 19, "ephemeral.random.pw"],
  ["ephemeral.random.pw[0].result", "ResourceInstance", "ephemeral.random.pw[0]", 22, "ephemeral.random.pw[0].result"],
  ["local.foo", "LocalValue", "local.foo", 9, "local.foo"],
  ["local.foo.blah", "LocalValue", "local.foo", 9, "local.foo.blah"],
  ['local.foo["blah"]', "LocalValue", "local.foo", 9, 'local.foo["blah"]'],
  ["local.foo[1.50]", "LocalValue", "local.foo", 9, "local.foo[1.5]"],
  ["module.foo", "ModuleCall", "module.foo", 10, "module.foo"],
  ["module.foo.bar", "ModuleCallInstanceOutput", "module.foo.bar", 14, "module.foo.bar"],
  ["module.foo.bar.baz", "ModuleCallInstanceOutput", "module.foo.bar", 14, "module.foo.bar.baz"],
  ['module.foo["baz"]', "ModuleCallInstance", 'module.foo["baz"]', 17, 'module.foo["baz"]'],
  ['module.foo["baz"].bar', "ModuleCallInstanceOutput", 'module.foo["baz"].bar', 21, 'module.foo["baz"].bar'],
  ['module.foo["baz"].bar.boop', "ModuleCallInstanceOutput", 'module.foo["baz"].bar', 21, 'module.foo["baz"].bar.boop'],
  ["path.module", "PathAttr", "path.module", 11, "path.module"],
  ["path.module.blah", "PathAttr", "path.module", 11, "path.module.blah"],
  ["self", "Self", "self", 4, "self"],
  ["self.blah", "Self", "self", 4, "self.blah"],
  ["terraform.workspace", "TerraformAttr", "terraform.workspace", 19, "terraform.workspace"],
  ["terraform.workspace.blah", "TerraformAttr", "terraform.workspace", 19, "terraform.workspace.blah"],
  ["tofu.workspace", "TerraformAttr", "tofu.workspace", 14, "tofu.workspace"],
  ["tofu.workspace.blah", "TerraformAttr", "tofu.workspace", 14, "tofu.workspace.blah"],
  ["var.foo", "InputVariable", "var.foo", 7, "var.foo"],
  ["var.foo.blah", "InputVariable", "var.foo", 7, "var.foo.blah"],
  ["resource.boop_instance.foo", "Resource", "boop_instance.foo", 26, "boop_instance.foo"],
  ["boop_instance.foo", "Resource", "boop_instance.foo", 17, "boop_instance.foo"],
  ["boop_instance.foo.bar", "ResourceInstance", "boop_instance.foo", 17, "boop_instance.foo.bar"],
  ['boop_instance.foo["baz"].bar', "ResourceInstance", 'boop_instance.foo["baz"]', 24, 'boop_instance.foo["baz"].bar'],
  ['boop_instance.foo["baz"]', "ResourceInstance", 'boop_instance.foo["baz"]', 24, 'boop_instance.foo["baz"]'],
  ["boop_instance.foo[0]", "ResourceInstance", "boop_instance.foo[0]", 20, "boop_instance.foo[0]"],
  ["output.value", "Resource", "output.value", 12, "output.value"],
  ["check.health", "Resource", "check.health", 12, "check.health"],
];

describe("parseRef", () => {
  it.each(ok)("%s", (input, kind, subject, endByte, display) => {
    const r = parseRefStr(input);
    expect(r.diagnostics).toEqual([]);
    const ref = r.result;
    expect(ref?.subject.kind).toBe(kind);
    expect(ref?.subject.toString()).toBe(subject);
    expect(ref?.sourceRange?.start.byte).toBe(0);
    expect(ref?.sourceRange?.end.byte).toBe(endByte);
    expect(ref && referenceDisplayString(ref)).toBe(display);
  });

  it("returns the remaining steps with their ranges", () => {
    const ref = parseRefStr("count.index.blah").result;
    expect(ref?.remaining).toHaveLength(1);
    expect(ref?.remaining[0]).toMatchObject({ kind: "Attr", name: "blah" });
    expect([ref?.remaining[0]?.range.start.byte, ref?.remaining[0]?.range.end.byte]).toEqual([11, 16]);
  });

  const RESERVED = (s: string) =>
    `The symbol name "${s}" is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix "resource." to force interpretation as a resource type name.`;
  const bad: [string, string, string][] = [
    ["count", "Invalid reference", 'The "count" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['count["hello"]', "Invalid reference", 'The "count" object does not support this operation.'],
    ["each", "Invalid reference", 'The "each" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['each["hello"]', "Invalid reference", 'The "each" object does not support this operation.'],
    ["data", "Invalid reference", 'The "data" object must be followed by two attribute names: the data source type and the resource name.'],
    ["data.external", "Invalid reference", 'The "data" object must be followed by two attribute names: the data source type and the resource name.'],
    ['data["x"].y', "Invalid reference", 'The "data" object does not support this operation.'],
    ['data.x["y"]', "Invalid reference", "A reference to a data source must be followed by at least one attribute access, specifying the resource name."],
    ["ephemeral.x", "Invalid reference", 'The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name.'],
    ['ephemeral.x["y"]', "Invalid reference", "A reference to an ephemeral resource must be followed by at least one attribute access, specifying the resource name."],
    ["resource.x", "Invalid reference", 'The "resource" object must be followed by two attribute names: the resource type and the resource name.'],
    ["local", "Invalid reference", 'The "local" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['local["foo"]', "Invalid reference", 'The "local" object does not support this operation.'],
    ["module", "Invalid reference", 'The "module" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['module["foo"]', "Invalid reference", 'The "module" object does not support this operation.'],
    ["module.foo[1.5]", "Invalid index key", "Invalid index for module instance: value must be a whole number, between -9223372036854775808 and 9223372036854775807."],
    ["module.foo[0][1]", "Invalid reference", "Module instance objects do not support this operation."],
    ["path", "Invalid reference", 'The "path" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['path["module"]', "Invalid reference", 'The "path" object does not support this operation.'],
    ["terraform", "Invalid reference", 'The "terraform" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['terraform["workspace"]', "Invalid reference", 'The "terraform" object does not support this operation.'],
    ["tofu", "Invalid reference", 'The "tofu" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['tofu["workspace"]', "Invalid reference", 'The "tofu" object does not support this operation.'],
    ["var", "Invalid reference", 'The "var" object cannot be accessed directly. Instead, access one of its attributes.'],
    ['var["foo"]', "Invalid reference", 'The "var" object does not support this operation.'],
    ["template.foo", "Reserved symbol name", RESERVED("template")],
    ["lazy.foo", "Reserved symbol name", RESERVED("lazy")],
    ["arg.foo", "Reserved symbol name", RESERVED("arg")],
    ["boop_instance", "Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."],
    ['boop_instance["x"]', "Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."],
    ["boop_instance.foo[1.5]", "Invalid index key", "Invalid index for resource instance: value must be a whole number, between -9223372036854775808 and 9223372036854775807."],
  ];
  it.each(bad)("%s -> %s", (input, summary, detail) => {
    const r = parseRefStr(input);
    expect(r.diagnostics.map((d) => [d.severity, d.summary, d.detail])).toEqual([["error", summary, detail]]);
  });

  it("keeps OpenTofu's empty-named subject for malformed single-attribute references", () => {
    const r = parseRefStr("var");
    expect(r.result?.subject.toString()).toBe("var.");
    expect(r.result?.sourceRange).toBeUndefined();
    expect(parseRefStr("boop_instance").result).toBeUndefined();
  });

  it("points errors at the offending step", () => {
    const r = parseRefStr('var["foo"]');
    expect([r.diagnostics[0]?.subject?.start.byte, r.diagnostics[0]?.subject?.end.byte]).toEqual([3, 10]);
    const whole = parseRefStr("data.external");
    expect([whole.diagnostics[0]?.subject?.start.byte, whole.diagnostics[0]?.subject?.end.byte]).toEqual([0, 13]);
  });

  it("parses provider function roots", () => {
    // Namespaced names never come out of the traversal parser, so build the root step directly.
    const range = parseTraversalAbs("x").traversal[0]?.range;
    if (!range) throw new Error("no range");
    const root = (name: string) => [{ kind: "Root" as const, name, range }];
    const r = parseRef(root("provider::aws::arn_parse"));
    expect(r.result?.subject.toString()).toBe("provider::aws::arn_parse");
    const aliased = parseRef(root("provider::aws::west::arn_parse"));
    expect(aliased.result?.subject.toString()).toBe("provider::aws::west::arn_parse");
    const bad = parseRef(root("provider::arn_parse"));
    expect(bad.diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      [
        "Unable to parse provider function",
        'invalid provider function "provider::arn_parse": expected provider::<name>::<function> or provider::<name>::<alias>::<function>',
      ],
    ]);
  });

  it("passes traversal syntax errors through", () => {
    expect(parseRefStr("var.").diagnostics[0]?.summary).toBe("Attribute name required");
    expect(() => parseRef([])).toThrow();
  });
});
