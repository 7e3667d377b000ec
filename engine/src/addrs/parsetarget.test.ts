import { describe, expect, it } from "vitest";
import {
  AbsResourceInstance,
  ConfigResource,
  DataResourceMode,
  EphemeralResourceMode,
  ManagedResourceMode,
  Module,
  Resource,
  RootModuleInstance,
  intKey,
  mustParseModuleInstanceStr,
  parseAbsResourceInstanceStr,
  parseAbsResourceStr,
  parseConfigResourceStr,
  parseTargetStr,
  resourceInstanceIn,
  resourceModeBlockName,
  resourceModeLess,
  stringKey,
  targetContains,
  targetModuleAddr,
  type Targetable,
} from "./index.js";

const errs = (r: { diagnostics: { summary: string; detail: string }[] }) => r.diagnostics.map((d) => [d.summary, d.detail]);

function target(s: string): Targetable {
  const r = parseTargetStr(s);
  if (!r.result) throw new Error(`bad target ${s}`);
  return r.result.subject;
}

describe("parseTargetStr", () => {
  // input, subject kind (the printed form must round-trip)
  const ok: [string, string][] = [
    ["module.foo", "ModuleInstance"],
    ["module.foo[2]", "ModuleInstance"],
    ["module.foo[2].module.bar", "ModuleInstance"],
    ["aws_instance.foo", "AbsResource"],
    ["aws_instance.foo[1]", "AbsResourceInstance"],
    ["data.aws_instance.foo", "AbsResource"],
    ["data.aws_instance.foo[1]", "AbsResourceInstance"],
    ["ephemeral.aws_secret.foo", "AbsResource"],
    ["module.foo.aws_instance.bar", "AbsResource"],
    ["module.foo.module.bar.aws_instance.baz", "AbsResource"],
    ['module.foo.module.bar.aws_instance.baz["hello"]', "AbsResourceInstance"],
    ["module.foo.data.aws_instance.bar", "AbsResource"],
    ["module.foo.module.bar.data.aws_instance.baz", "AbsResource"],
    ["module.foo.module.bar[0].data.aws_instance.baz", "AbsResource"],
    ['module.foo.module.bar["a"].data.aws_instance.baz["hello"]', "AbsResourceInstance"],
    ['module.foo.module.bar.data.aws_instance.baz["hello"]', "AbsResourceInstance"],
  ];
  it.each(ok)("%s", (src, kind) => {
    const r = parseTargetStr(src);
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.subject.kind).toBe(kind);
    expect(r.result?.subject.toString()).toBe(src);
    expect([r.result?.sourceRange?.start.byte, r.result?.sourceRange?.end.byte, r.result?.sourceRange?.end.column]).toEqual([0, src.length, src.length + 1]);
  });

  const bad: [string, string, string][] = [
    ["aws_instance", "Invalid address", "Resource specification must include a resource type and name."],
    ["module", "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ['module["baz"]', "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ["module.baz.bar", "Invalid address", "Resource specification must include a resource type and name."],
    ["aws_instance.foo.bar", "Invalid address", "Resource instance key must be given in square brackets."],
    ["aws_instance.foo[1].baz", "Invalid address", "Unexpected extra operators after address."],
    ['aws_instance["foo"]', "Invalid address", "A resource name is required."],
    ["data", "Invalid address", "Resource specification must include a resource type and name."],
    ["aws_instance.foo[1.5]", "Invalid address", "Invalid resource instance key: value must be a whole number, between -9223372036854775808 and 9223372036854775807."],
    ["module.a[1.5]", "Invalid address operator", "Invalid module index: value must be a whole number, between -9223372036854775808 and 9223372036854775807."],
    ["aws_instance.", "Attribute name required", "Dot must be followed by attribute name."],
  ];
  it.each(bad)("%s -> %s", (src, summary, detail) => {
    const r = parseTargetStr(src);
    expect(r.result).toBeUndefined();
    expect(errs(r)).toEqual([[summary, detail]]);
  });

  it("gives the module instance of a target", () => {
    expect(targetModuleAddr(target('module.a["x"].aws_instance.b[0]')).toString()).toBe('module.a["x"]');
    expect(targetModuleAddr(target("module.a")).toString()).toBe("module.a");
    expect(targetModuleAddr(new Module(["m"])).toString()).toBe("module.m");
    expect(targetModuleAddr(new ConfigResource(new Module(["m"]), new Resource("managed", "a", "b"))).toString()).toBe("module.m");
  });
});

describe("parseAbsResourceStr / parseAbsResourceInstanceStr", () => {
  it("parses", () => {
    expect(parseAbsResourceStr("module.a.aws_instance.b").result?.toString()).toBe("module.a.aws_instance.b");
    expect(parseAbsResourceInstanceStr("aws_instance.b").result?.toString()).toBe("aws_instance.b");
    expect(parseAbsResourceInstanceStr('aws_instance.b["x"]').result?.resource.key).toEqual(stringKey("x"));
  });
  it("explains what is missing", () => {
    expect(errs(parseAbsResourceStr("aws_instance.b[0]"))).toEqual([
      ["Invalid address", "A resource address is required. This instance key identifies a specific resource instance, which is not expected here."],
    ]);
    expect(parseAbsResourceStr("aws_instance.b[0]").diagnostics[0]?.subject?.start.byte).toBe(14);
    expect(errs(parseAbsResourceStr("module.a"))).toEqual([
      ["Invalid address", "A resource address is required here. The module path must be followed by a resource specification."],
    ]);
    expect(errs(parseAbsResourceInstanceStr("module.a[0]"))).toEqual([
      ["Invalid address", "A resource instance address is required here. The module path must be followed by a resource instance specification."],
    ]);
  });
});

describe("parseConfigResourceStr", () => {
  it("parses", () => {
    expect(parseConfigResourceStr("module.a.data.x.y").result?.toString()).toBe("module.a.data.x.y");
  });
  const bad: [string, string, string][] = [
    ["module.a", "Module address is not allowed", "Expected reference to either resource or data block. Provided reference appears to be a module."],
    ["x.y[0]", "Resource instance address with keys is not allowed", 'Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").'],
    ["module.a[0].x.y", "Module instance address with keys is not allowed", 'Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").'],
    ["x.y.z.w", "Invalid address", "Unexpected extra operators after address."],
  ];
  it.each(bad)("%s -> %s", (src, summary, detail) => {
    expect(errs(parseConfigResourceStr(src))).toEqual([[summary, detail]]);
  });
});

describe("resources", () => {
  it("prints every mode", () => {
    expect(new Resource(ManagedResourceMode, "aws_instance", "x").toString()).toBe("aws_instance.x");
    expect(new Resource(DataResourceMode, "x", "y").toString()).toBe("data.x.y");
    expect(new Resource(EphemeralResourceMode, "x", "y").toString()).toBe("ephemeral.x.y");
    expect(resourceInstanceIn(mustParseModuleInstanceStr("module.a"), "managed", "aws_instance", "x", stringKey("k")).toString()).toBe(
      'module.a.aws_instance.x["k"]',
    );
    expect(resourceModeBlockName("managed")).toBe("resource");
    expect(resourceModeBlockName("ephemeral")).toBe("ephemeral");
    expect(new Resource("managed", "aws_instance", "x").impliedProvider()).toBe("aws");
    expect(new Resource("managed", "random", "x").impliedProvider()).toBe("random");
  });

  it("sorts as OpenTofu does", () => {
    expect(resourceModeLess("ephemeral", "data")).toBe(true);
    expect(resourceModeLess("data", "managed")).toBe(true);
    expect(resourceModeLess("managed", "data")).toBe(false);
    const addrs = [
      'b.x["a"]',
      "b.x[1]",
      "b.x",
      "a.y",
      "data.z.z",
      "ephemeral.z.z",
      "module.m.a.a",
      "module.a.a.a",
      "a.x",
    ].map((s) => parseAbsResourceInstanceStr(s).result as AbsResourceInstance);
    addrs.sort((a, b) => a.compare(b));
    expect(addrs.map(String)).toEqual(["ephemeral.z.z", "data.z.z", "a.x", "a.y", "b.x", "b.x[1]", 'b.x["a"]', "module.a.a.a", "module.m.a.a"]);
  });

  it("relates the forms", () => {
    const ri = resourceInstanceIn(mustParseModuleInstanceStr("module.a[0]"), "managed", "t", "n", intKey(2));
    expect(ri.containingResource().toString()).toBe("module.a[0].t.n");
    expect(ri.configResource().toString()).toBe("module.a.t.n");
    expect(ri.containingResource().config().toString()).toBe("module.a.t.n");
    expect(ri.containingResource().instance(intKey(2)).equal(ri)).toBe(true);
    expect(new Resource("managed", "t", "n").inModule(new Module(["a"])).absolute(RootModuleInstance).toString()).toBe("t.n");
    expect(new Resource("managed", "t", "n").absolute(RootModuleInstance).less(new Resource("managed", "t", "o").absolute(RootModuleInstance))).toBe(true);
  });
});

describe("targetContains", () => {
  const cases: [string, string, boolean][] = [
    ["module.a", "module.a", true],
    ["module.a", "module.a[0]", true],
    ["module.a", "module.a[0].module.b.x.y[1]", true],
    ["module.a[0]", "module.a[1]", false],
    ["module.a[0]", "module.a[0].x.y", true],
    ["module.a[0]", "module.a", false],
    ["module.a[0].module.b", "module.a[0].module.b[3]", true],
    ["module.a.module.b", "module.a[0].module.b", false],
    ["x.y", "x.y", true],
    ["x.y", "x.y[0]", true],
    ["x.y", "module.a.x.y", false],
    ["x.y[0]", "x.y[0]", true],
    ["x.y[0]", "x.y[1]", false],
    ["x.y[0]", "x.y", false],
    ["module.a", "x.y", false],
  ];
  it.each(cases)("%s contains %s: %s", (a, b, want) => {
    expect(targetContains(target(a), target(b))).toBe(want);
  });

  it("handles static modules and config resources", () => {
    const m = new Module(["a"]);
    expect(targetContains(m, target("module.a[2].x.y"))).toBe(true);
    expect(targetContains(m, new Module(["a", "b"]))).toBe(true);
    expect(targetContains(m, new Module(["b"]))).toBe(false);
    expect(targetContains(target("module.a"), m)).toBe(true);
    expect(targetContains(target("module.a[0]"), m)).toBe(false);
    const cr = new ConfigResource(m, new Resource("managed", "x", "y"));
    expect(targetContains(cr, target("module.a[1].x.y[0]"))).toBe(true);
    expect(targetContains(cr, target("module.a[1].x.z"))).toBe(false);
    expect(targetContains(cr, m)).toBe(false);
    expect(targetContains(target("module.a.x.y"), cr)).toBe(true);
  });
});
