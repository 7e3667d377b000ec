// Context.validate's lifecycle path checks: case 055 (replace_triggered_by attribute paths
// against the referenced resource's schema) with an in-process MockProvider, StaticValidateTraversal's
// texts on nested blocks, and ignore_changes paths on terraform_data, whose texts match
// `terraform validate` 1.11 (which has the ignore_changes half; replace_triggered_by paths are
// OpenTofu's own).
import { describe, expect, it } from "vitest";
import type { Provider as ProviderAddr } from "../addrs/index.js";
import { parseExpression, type Diagnostic } from "../hcl/index.js";
import { configBlock } from "../sdk/index.js";
import { NumberType, StringType } from "../values/index.js";
import { Context } from "./context.js";
import { builtinFactory, loadConfig } from "./core.testkit.js";
import { MockProvider, schemaOf } from "./lifecycle.testkit.js";
import type { ProviderFactory } from "./providers.js";
import { staticValidateTraversal } from "./validate_paths.js";

const TEST_INSTANCE = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, value: { type: StringType, optional: true } } } });

/** One MockProvider per provider type, so each provider's schema is its own. */
function byType(providers: Record<string, MockProvider>): ProviderFactory {
  return async (p: ProviderAddr) => {
    const provider = providers[p.type];
    if (!provider) return { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };
    return { ok: true, provider };
  };
}

async function validate(main: string, providers: Record<string, MockProvider> = { test: new MockProvider(new Map([["test_instance", TEST_INSTANCE]])) }): Promise<Diagnostic[]> {
  return (await new Context({ providers: byType(providers) }).validate(loadConfig({ "main.tf": main }))).diagnostics;
}

const summaries = (d: Diagnostic[]) => d.map((x) => `${x.severity}: ${x.summary}: ${x.detail}`);

function rtb(trigger: string, a = "", b = ""): string {
  return `resource "test_instance" "a" {\n${a}  value = "hello"\n}\nresource "test_instance" "b" {\n${b}  lifecycle {\n    replace_triggered_by = [${trigger}]\n  }\n}\n`;
}

describe("Context.validate: replace_triggered_by paths (case 055)", () => {
  it("accepts attributes the referenced resource has, whole resources, and count/each keys", async () => {
    expect(await validate(rtb("test_instance.a.value"))).toEqual([]);
    expect(await validate(rtb("test_instance.a"))).toEqual([]);
    expect(await validate(rtb("test_instance.a[0].value", "  count = 2\n"))).toEqual([]);
    expect(await validate(rtb("test_instance.a[count.index].value", "  count = 2\n", "  count = 2\n"))).toEqual([]);
    expect(await validate(rtb("test_instance.a[each.key].value", "  for_each = toset([])\n", "  for_each = toset([])\n"))).toEqual([]);
  });

  it("rejects attributes it does not have, at the first unknown step", async () => {
    const nested = await validate(rtb("test_instance.a.foo.bar.baz"));
    expect(summaries(nested)).toEqual(['error: Unsupported attribute: This object has no argument, nested block, or exported attribute named "foo".']);
    // The step's range starts at its dot, as HCL's TraverseAttr ranges do.
    expect(nested[0]?.subject?.start).toMatchObject({ line: 6, column: 44 });
    expect(summaries(await validate(rtb("test_instance.a.nonexistent")))).toEqual(['error: Unsupported attribute: This object has no argument, nested block, or exported attribute named "nonexistent".']);
    expect(summaries(await validate(rtb("test_instance.a[0].valeu", "  count = 2\n")))).toEqual([
      'error: Unsupported attribute: This object has no argument, nested block, or exported attribute named "valeu". Did you mean "value"?',
    ]);
  });

  it("uses the referenced resource's type and provider, not the referring one's", async () => {
    const main = 'resource "test_instance" "a" {\n  value = "x"\n}\nresource "test_resource" "b" {\n  lifecycle {\n    replace_triggered_by = [test_instance.a.value]\n  }\n}\n';
    const resource = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, output: { type: StringType, optional: true } } } });
    const test = new MockProvider(new Map([["test_instance", TEST_INSTANCE], ["test_resource", resource]]));
    expect(await validate(main, { test })).toEqual([]);
    // test_instance bound to a second provider whose type has value2 instead of value.
    const other = 'terraform {\n  required_providers {\n    test2 = { source = "hashicorp/test2" }\n  }\n}\nresource "test_instance" "a" {\n  provider = test2\n}\nresource "test_instance" "b" {\n  lifecycle {\n    replace_triggered_by = [test_instance.a.value]\n  }\n}\n';
    const test2 = new MockProvider(new Map([["test_instance", schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, value2: { type: StringType, optional: true } } } })]]));
    expect(summaries(await validate(other, { test, test2 }))).toEqual(['error: Unsupported attribute: This object has no argument, nested block, or exported attribute named "value". Did you mean "value2"?']);
  });
});

describe("Context.validate: ignore_changes paths", () => {
  it("reports unknown names and attributes only the provider sets, as terraform validate", async () => {
    const main =
      'resource "terraform_data" "a" {\n  input = "x"\n}\nresource "terraform_data" "b" {\n  input = "y"\n  lifecycle {\n    replace_triggered_by = [terraform_data.a.output.foo]\n    ignore_changes = [output, inptu, input["x"]]\n  }\n}\n';
    const d = (await new Context({ providers: builtinFactory() }).validate(loadConfig({ "main.tf": main }))).diagnostics;
    expect(d.map((x) => [x.severity, x.summary, x.subject?.start.line])).toEqual([
      ["warning", "Redundant ignore_changes element", 4],
      ["error", "Unsupported attribute", 8],
    ]);
    expect(d[0]?.detail).toBe(
      "Adding an attribute name to ignore_changes tells OpenTofu to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute output is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.",
    );
    expect(d[1]?.detail).toBe('This object has no argument, nested block, or exported attribute named "inptu". Did you mean "input"?');
  });
});

describe("staticValidateTraversal", () => {
  const block = configBlock({
    attributes: { name: { type: StringType, optional: true }, port: { type: NumberType, optional: true } },
    blocks: {
      rule: { nesting: "set", block: { attributes: { port: { type: NumberType, optional: true } } } },
      disk: { nesting: "list", block: { attributes: { size: { type: NumberType, optional: true } } } },
      tag: { nesting: "map", block: { attributes: { v: { type: StringType, optional: true } } } },
      single: { nesting: "single", block: { attributes: { x: { type: StringType, optional: true } } } },
    },
  });
  const check = (src: string) => {
    const e = parseExpression(`x${src}`, "t.tf");
    if (e.result.kind !== "ScopeTraversal") throw new Error(`not a traversal: ${src}`);
    return staticValidateTraversal(block, e.result.traversal.slice(1)).map((d) => `${d.summary}: ${d.detail}`);
  };

  it("follows attributes and nested blocks by their nesting", () => {
    expect(check(".name")).toEqual([]);
    expect(check(".disk[0].size")).toEqual([]);
    expect(check(".tag.a.v")).toEqual([]);
    expect(check(".single.x")).toEqual([]);
    expect(check(".single.y")).toEqual(['Unsupported attribute: This object has no argument, nested block, or exported attribute named "y". Did you mean "x"?']);
    expect(check(".rule[0]")).toEqual(['Cannot index a set value: Block type "rule" is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a "for" expression with an "if" clause.']);
    expect(check(".disk.size")).toEqual(['Invalid operation: Block type "disk" is represented by a list of objects, so it must be indexed using a numeric key, like .disk[0].']);
    expect(check('["name"]')).toEqual(['Invalid index operation: Only attribute access is allowed here. Did you mean to access attribute "name" using the dot operator?']);
    expect(check("[0]")).toEqual(["Invalid index operation: Only attribute access is allowed here, using the dot operator."]);
    expect(check(".name.x")).toEqual(["Unsupported attribute: Can't access attributes on a primitive-typed value (string)."]);
  });
});
