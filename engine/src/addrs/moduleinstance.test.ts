import { describe, expect, it } from "vitest";
import {
  AbsModuleCall,
  Module,
  ModuleCall,
  ModuleInstance,
  NoKey,
  RootModule,
  RootModuleInstance,
  intKey,
  mustParseModuleInstanceStr,
  parseModule,
  parseModuleInstanceStr,
  parseTraversalAbs,
  stringKey,
  uniqueKey,
  Resource,
  ResourceInstance,
} from "./index.js";

const mi = mustParseModuleInstanceStr;

function moduleOf(src: string) {
  return parseModule(parseTraversalAbs(src).traversal);
}

describe("parseModuleInstanceStr", () => {
  const ok: string[] = ["module.a", 'module.a["x"].module.b[0]', "module.a[0]", 'module.a["with \\"quote\\""]', "module.a.module.b.module.c"];
  it.each(ok)("round-trips %s", (s) => {
    const r = parseModuleInstanceStr(s);
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.toString()).toBe(s);
  });

  it("keeps keys", () => {
    const m = mi('module.a["x"].module.b[0]');
    expect(m.steps).toEqual([
      { name: "a", key: stringKey("x") },
      { name: "b", key: intKey(0) },
    ]);
  });

  const bad: [string, string, string][] = [
    ["foo", "Invalid module instance address", 'A module instance address must begin with "module.".'],
    ["module.a.foo", "Invalid module instance address", "The module instance address is followed by additional invalid content."],
    ["module", "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ['module["a"]', "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ["module.a[1.5]", "Invalid address operator", "Invalid module index: value must be a whole number, between -9223372036854775808 and 9223372036854775807."],
    ["module.a.", "Attribute name required", "Dot must be followed by attribute name."],
  ];
  it.each(bad)("%s -> %s", (s, summary, detail) => {
    const r = parseModuleInstanceStr(s);
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toContainEqual([summary, detail]);
  });

  it("gives a range to the invalid content", () => {
    const r = parseModuleInstanceStr("module.a.foo.bar");
    expect([r.diagnostics[0]?.subject?.start.byte, r.diagnostics[0]?.subject?.end.byte]).toEqual([8, 16]); // an attribute step's range includes its dot
  });

  it("mustParseModuleInstanceStr throws on bad input", () => {
    expect(() => mi("nope")).toThrow(/must begin with/);
  });
});

describe("ModuleInstance", () => {
  it("builds and navigates", () => {
    const m = RootModuleInstance.child("a", stringKey("x")).child("b", intKey(0));
    expect(m.toString()).toBe('module.a["x"].module.b[0]');
    expect(m.parent().toString()).toBe('module.a["x"]');
    expect(RootModuleInstance.parent().isRoot()).toBe(true);
    expect(RootModuleInstance.toString()).toBe("");
    expect(m.module().toString()).toBe("module.a.module.b");
    expect(m.ancestors().map(String)).toEqual(["", 'module.a["x"]', 'module.a["x"].module.b[0]']);
    expect(m.call().call.toString()).toBe("module.b");
    expect(m.callInstance().call.toString()).toBe("module.b[0]");
    expect(m.callInstance().parent.equal(mi('module.a["x"]'))).toBe(true);
    expect(() => RootModuleInstance.call()).toThrow();
  });

  it("compares", () => {
    expect(mi("module.a[0]").equal(mi("module.a[0]"))).toBe(true);
    expect(mi("module.a[0]").equal(mi('module.a["0"]'))).toBe(false);
    expect(mi("module.a").equal(mi("module.a[0]"))).toBe(false);
    const sorted = ["module.b", "module.a.module.a", 'module.a["x"]', "module.a[1]", "module.a", ""].map((s) => (s === "" ? RootModuleInstance : mi(s)));
    sorted.sort((x, y) => x.compare(y));
    expect(sorted.map(String)).toEqual(["", "module.a", "module.a[1]", 'module.a["x"]', "module.b", "module.a.module.a"]);
    expect(mi("module.a").less(mi("module.b"))).toBe(true);
  });

  it("knows ancestors and modules", () => {
    expect(mi("module.a").isAncestor(mi("module.a[0].module.b"))).toBe(true);
    expect(mi("module.a[1]").isAncestor(mi("module.a[0].module.b"))).toBe(false);
    expect(mi("module.a[0]").isAncestor(mi("module.a[0]"))).toBe(false);
    expect(RootModuleInstance.isAncestor(mi("module.a"))).toBe(true);
    expect(mi("module.a[0].module.b").hasSameModule(mi('module.a["k"].module.b[2]'))).toBe(true);
    expect(mi("module.a[0]").isForModule(new Module(["a"]))).toBe(true);
    expect(mi("module.a[0]").isForModule(new Module(["b"]))).toBe(false);
  });
});

describe("Module", () => {
  it("prints and navigates", () => {
    const m = RootModule.child("a").child("b");
    expect(m.toString()).toBe("module.a.module.b");
    expect(m.parent().toString()).toBe("module.a");
    expect(RootModule.parent().isRoot()).toBe(true);
    expect(m.call().call.name).toBe("b");
    expect(m.ancestors().map(String)).toEqual(["", "module.a", "module.a.module.b"]);
    expect(m.equal(new Module(["a", "b"]))).toBe(true);
    expect(m.equal(new Module(["a"]))).toBe(false);
    expect(m.unkeyedInstanceShim().toString()).toBe("module.a.module.b");
    expect(() => RootModule.call()).toThrow();
  });

  it("parses", () => {
    expect(moduleOf("module.a.module.b").result?.toString()).toBe("module.a.module.b");
    expect(moduleOf("module.a[0]").diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      ["Module instance address with keys is not allowed", 'Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").'],
    ]);
    expect(moduleOf("module.a.aws_instance.b").diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      ["Module address expected", "It's not allowed to reference anything other than module here."],
    ]);
  });
});

describe("module calls", () => {
  it("prints and relates calls and instances", () => {
    const call = new ModuleCall("net");
    expect(call.toString()).toBe("module.net");
    expect(call.instance(stringKey("a")).toString()).toBe('module.net["a"]');
    expect(call.instance(NoKey).toString()).toBe("module.net");
    expect(call.instance(intKey(1)).output("id").toString()).toBe("module.net[1].id");
    expect(call.instance(intKey(1)).output("id").moduleCallOutput().toString()).toBe("module.net.id");
    const abs = new AbsModuleCall(mi("module.a[0]"), call);
    expect(abs.toString()).toBe("module.a[0].module.net");
    expect(call.absolute(RootModuleInstance).toString()).toBe("module.net");
    expect(abs.instance(intKey(2)).toString()).toBe("module.a[0].module.net[2]");
    expect(abs.declares(mi('module.a[0].module.net["x"]'))).toBe(true);
    expect(abs.declares(mi("module.a[1].module.net"))).toBe(false);
    expect(abs.declares(mi("module.a[0]"))).toBe(false);
    expect(call.instance(intKey(1)).output("id").absOutputValue(mi("module.p")).toString()).toBe("module.p.module.net[1].output.id");
  });
});

describe("uniqueKey", () => {
  it("tells apart addresses that print the same", () => {
    const r = new Resource("managed", "a", "b");
    expect(uniqueKey(r)).not.toBe(uniqueKey(new ResourceInstance(r)));
    expect(uniqueKey(mi("module.a[0]"))).toBe(uniqueKey(mi("module.a[0]")));
    expect(mi("module.a[0].module.b").isDeclaredByCall(new AbsModuleCall(mi("module.a[0]"), new ModuleCall("b")))).toBe(true);
  });
});
