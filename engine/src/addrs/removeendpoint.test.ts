import { describe, expect, it } from "vitest";
import { parseRemoveEndpoint, parseTraversalAbs } from "./index.js";

const KEYED_RESOURCE = [
  "Resource instance address with keys is not allowed",
  'Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").',
];
const KEYED_MODULE = [
  "Module instance address with keys is not allowed",
  'Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").',
];
const NEEDS_TYPE = ["Invalid address", "Resource specification must include a resource type and name."];
const NEEDS_NAME = ["Invalid address", "A resource name is required."];

function parse(src: string) {
  return parseRemoveEndpoint(parseTraversalAbs(src).traversal);
}

describe("parseRemoveEndpoint", () => {
  const ok: [string, string][] = [
    ["foo.bar", "ConfigResource"],
    ["module.boop", "Module"],
    ["module.boop.foo.bar", "ConfigResource"],
    ["module.foo.module.bar", "Module"],
    ["module.boop.module.bip.foo.bar", "ConfigResource"],
  ];
  it.each(ok)("%s", (src, kind) => {
    const r = parse(src);
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.relSubject.kind).toBe(kind);
    expect(r.result?.toString()).toBe(src);
  });

  const bad: [string, string[]][] = [
    ["foo.bar[0]", KEYED_RESOURCE],
    ['foo.bar["a"]', KEYED_RESOURCE],
    ["module.boop.foo.bar[0]", KEYED_RESOURCE],
    ['module.boop.foo.bar["a"]', KEYED_RESOURCE],
    [
      "data.foo.bar",
      [
        "Data source address is not allowed",
        "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
      ],
    ],
    ["data.foo.bar[0]", KEYED_RESOURCE],
    ['data.foo.bar["a"]', KEYED_RESOURCE],
    ["module.boop.data.foo.bar[0]", KEYED_RESOURCE],
    ['module.boop.data.foo.bar["a"]', KEYED_RESOURCE],
    ["module.foo[0]", KEYED_MODULE],
    ['module.foo["a"]', KEYED_MODULE],
    ["module.foo[1].module.bar", KEYED_MODULE],
    ["module.foo.module.bar[1]", KEYED_MODULE],
    ["module.foo[0].module.bar[1]", KEYED_MODULE],
    ["module", ["Invalid address operator", 'Prefix "module." must be followed by a module name.']],
    ["module[0]", ["Invalid address operator", 'Prefix "module." must be followed by a module name.']],
    ["module.foo.data", NEEDS_TYPE],
    ["module.foo.data.bar", NEEDS_TYPE],
    ["module.foo.data[0]", NEEDS_TYPE],
    ["module.foo.data.bar[0]", NEEDS_NAME],
    ["module.foo.bar", NEEDS_TYPE],
    ["module.foo.bar[0]", NEEDS_NAME],
    [
      "ephemeral.foo.bar",
      [
        "Ephemeral resource address is not allowed",
        "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.",
      ],
    ],
    ["ephemeral.foo.bar[0]", KEYED_RESOURCE],
    ['ephemeral.foo.bar["a"]', KEYED_RESOURCE],
    ["module.boop.ephemeral.foo.bar[0]", KEYED_RESOURCE],
    ['module.boop.ephemeral.foo.bar["a"]', KEYED_RESOURCE],
    ["module.foo.ephemeral", NEEDS_TYPE],
    ["module.foo.ephemeral.bar", NEEDS_TYPE],
    ["module.foo.ephemeral[0]", NEEDS_TYPE],
    ["module.foo.ephemeral.bar[0]", NEEDS_NAME],
  ];
  it.each(bad)("%s", (src, want) => {
    const r = parse(src);
    expect(r.result).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([want]);
  });

  it("compares by text and place", () => {
    const a = parse("foo.bar").result;
    const b = parse("foo.bar").result;
    expect(a && b && a.equal(b)).toBe(true);
  });
});
