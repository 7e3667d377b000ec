import { describe, expect, it } from "vitest";
import {
  AbsResource,
  AbsResourceInstance,
  Module,
  RootModule,
  checkMovedBlockEndpoints,
  absResourceInstanceMoveDestination,
  absResourceMoveDestination,
  impliedMoveStatementEndpoint,
  moduleInstanceMoveDestination,
  mustParseModuleInstanceStr,
  parseAbsResourceInstanceStr,
  parseAbsResourceStr,
  parseMoveEndpoint,
  parseTraversalAbs,
  unifyMoveEndpoints,
  type MoveEndpoint,
} from "./index.js";

function ep(src: string): MoveEndpoint {
  const r = parseMoveEndpoint(parseTraversalAbs(src).traversal);
  if (!r.result) throw new Error(`bad endpoint ${src}: ${r.diagnostics.map((d) => d.detail).join("; ")}`);
  return r.result;
}

function unify(from: string, to: string, module: Module = RootModule) {
  return unifyMoveEndpoints(module, ep(from), ep(to));
}

function mustUnify(from: string, to: string, module: Module = RootModule) {
  const u = unify(from, to, module);
  if (!u) throw new Error(`cannot unify ${from} with ${to}`);
  return u;
}

describe("parseMoveEndpoint", () => {
  const ok: [string, string][] = [
    ["foo.bar", "AbsResourceInstance"],
    ["foo.bar[0]", "AbsResourceInstance"],
    ['foo.bar["a"]', "AbsResourceInstance"],
    ["module.boop.foo.bar", "AbsResourceInstance"],
    ["module.boop.data.foo.bar[0]", "AbsResourceInstance"],
    ["module.foo", "ModuleInstance"],
    ['module.foo["a"]', "ModuleInstance"],
    ["module.foo[0].module.bar[1]", "ModuleInstance"],
  ];
  it.each(ok)("%s", (src, kind) => {
    const e = ep(src);
    expect(e.relSubject.kind).toBe(kind);
    expect(e.toString()).toBe(src);
    expect(e.sourceRange?.end.byte).toBe(src.length);
  });

  const bad: [string, string, string][] = [
    ["module", "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ["module[0]", "Invalid address operator", 'Prefix "module." must be followed by a module name.'],
    ["module.foo.data", "Invalid address", "Resource specification must include a resource type and name."],
    ["module.foo.data.bar", "Invalid address", "Resource specification must include a resource type and name."],
    ["module.foo.data[0]", "Invalid address", "Resource specification must include a resource type and name."],
    ["module.foo.data.bar[0]", "Invalid address", "A resource name is required."],
    ["module.foo.bar", "Invalid address", "Resource specification must include a resource type and name."],
    ["module.foo.bar[0]", "Invalid address", "A resource name is required."],
  ];
  it.each(bad)("%s -> %s", (src, summary, detail) => {
    const r = parseMoveEndpoint(parseTraversalAbs(src).traversal);
    expect(r.result).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([[summary, detail]]);
  });
});

describe("unifyMoveEndpoints", () => {
  const cases: [string, string, Module, string, string][] = [
    ["foo.bar", "foo.baz", RootModule, "foo.bar[*]", "foo.baz[*]"],
    ["foo.bar", "foo.baz", RootModule.child("a"), "module.a[*].foo.bar[*]", "module.a[*].foo.baz[*]"],
    ["foo.bar", "module.b[0].foo.baz", RootModule.child("a"), "module.a[*].foo.bar[*]", "module.a[*].module.b[0].foo.baz[*]"],
    ["foo.bar", 'foo.bar["thing"]', RootModule, "foo.bar", 'foo.bar["thing"]'],
    ['foo.bar["thing"]', "foo.bar", RootModule, 'foo.bar["thing"]', "foo.bar"],
    ['foo.bar["a"]', 'foo.bar["b"]', RootModule, 'foo.bar["a"]', 'foo.bar["b"]'],
    ["module.foo", "module.bar", RootModule, "module.foo[*]", "module.bar[*]"],
    ["module.foo", "module.bar.module.baz", RootModule, "module.foo[*]", "module.bar.module.baz[*]"],
    ["module.foo", "module.bar.module.baz", RootModule.child("bloop"), "module.bloop[*].module.foo[*]", "module.bloop[*].module.bar.module.baz[*]"],
    ["module.foo[0]", 'module.foo["a"]', RootModule, "module.foo[0]", 'module.foo["a"]'],
    ["module.foo", 'module.foo["a"]', RootModule, "module.foo", 'module.foo["a"]'],
    ["module.foo[0]", "module.foo", RootModule, "module.foo[0]", "module.foo"],
    ["module.foo[0]", "module.foo", RootModule.child("bloop"), "module.bloop[*].module.foo[0]", "module.bloop[*].module.foo"],
  ];
  it.each(cases)("%s -> %s in %s", (from, to, module, wantFrom, wantTo) => {
    const u = unify(from, to, module);
    expect(u?.from.toString()).toBe(wantFrom);
    expect(u?.to.toString()).toBe(wantTo);
  });

  const incompatible: [string, string][] = [
    ["module.foo", "foo.bar"],
    ["module.foo[0]", "foo.bar"],
    ["module.foo", "foo.bar[0]"],
    ["module.foo[0]", "foo.bar[0]"],
  ];
  it.each(incompatible)("cannot unify %s with %s", (from, to) => {
    expect(unify(from, to)).toBeUndefined();
    expect(ep(from).mightUnifyWith(ep(to))).toBe(false);
  });
});

describe("MoveEndpoint", () => {
  const cases: [string, Module, string][] = [
    ["foo.bar", RootModule, "foo.bar"],
    ["foo.bar[0]", RootModule, "foo.bar"],
    ["module.foo.bar.baz", RootModule, "module.foo.bar.baz"],
    ["module.foo[0].bar.baz", RootModule, "module.foo.bar.baz"],
    ["foo.bar", new Module(["boop"]), "module.boop.foo.bar"],
    ["module.bloop.foo.bar", new Module(["bleep"]), "module.bleep.module.bloop.foo.bar"],
    ["module.foo", RootModule, "module.foo"],
    ["module.foo[0]", RootModule, "module.foo"],
    ["module.bloop[0]", new Module(["bleep"]), "module.bleep.module.bloop"],
  ];
  it.each(cases)("configMoveable(%s in %s)", (src, module, want) => {
    const got = ep(src).configMoveable(module);
    expect(got.toString()).toBe(want);
    expect(got.kind).toBe(ep(src).relSubject.kind === "ModuleInstance" ? "Module" : "ConfigResource");
  });

  it("refuses ephemeral resources", () => {
    expect(ep("ephemeral.a.b").subjectAllowed()).toBe(false);
    expect(ep("ephemeral.a.b[0]").subjectAllowed()).toBe(false);
    expect(ep("data.a.b").subjectAllowed()).toBe(true);
    expect(ep("a.b").subjectAllowed()).toBe(true);
    expect(ep("module.a").subjectAllowed()).toBe(true);
  });

  it("compares by text and place", () => {
    expect(ep("a.b").equal(ep("a.b"))).toBe(true);
    expect(ep("a.b").equal(ep("a.c"))).toBe(false);
    expect(ep("a.b").objectKind()).toBe("resource");
    expect(ep("module.a").objectKind()).toBe("module");
  });
});

describe("checkMovedBlockEndpoints", () => {
  it("accepts compatible endpoints", () => {
    expect(checkMovedBlockEndpoints(ep("a.b"), ep("a.c"), undefined, false)).toEqual([]);
  });
  it("reports disallowed and missing endpoints", () => {
    const d = checkMovedBlockEndpoints(ep("ephemeral.a.b"), undefined, undefined, false);
    expect(d.map((x) => [x.summary, x.detail])).toEqual([
      ['Invalid "moved" address', 'The resource referenced by the "from" attribute is not allowed to be moved.'],
      ['Invalid "moved" address', 'The resource referenced by the "to" attribute is not allowed to be moved.'],
    ]);
  });
  it("reports incompatible kinds only without earlier errors", () => {
    expect(checkMovedBlockEndpoints(ep("module.a"), ep("a.b"), undefined, false).map((x) => [x.summary, x.detail])).toEqual([
      ['Invalid "moved" addresses', 'The "from" and "to" addresses must either both refer to resources or both refer to modules.'],
    ]);
    expect(checkMovedBlockEndpoints(ep("module.a"), ep("a.b"), undefined, true)).toEqual([]);
  });
});

describe("MoveEndpointInModule", () => {
  const mi = mustParseModuleInstanceStr;
  const ari = (s: string): AbsResourceInstance => parseAbsResourceInstanceStr(s).result as AbsResourceInstance;
  const ar = (s: string): AbsResource => parseAbsResourceStr(s).result as AbsResource;

  it("selects modules and resources", () => {
    const u = unify("foo.bar", "foo.baz", RootModule.child("a"));
    expect(u?.from.selectsModule(mi("module.a[3]"))).toBe(true);
    expect(u?.from.selectsModule(mi("module.b[3]"))).toBe(false);
    expect(u?.from.selectsResource(ar('module.a["x"].foo.bar'))).toBe(true);
    expect(u?.from.selectsResource(ar('module.a["x"].foo.baz'))).toBe(false);
    const m = unify("module.x[0]", "module.y[0]");
    expect(m?.from.selectsModule(mi("module.x[0]"))).toBe(true);
    expect(m?.from.selectsModule(mi("module.x[1]"))).toBe(false);
    expect(m?.from.selectsResource(ar("module.x[0].foo.bar"))).toBe(false);
  });

  it("chains and nests", () => {
    const a = unify("module.a", "module.b");
    const b = unify("module.b", "module.c");
    expect(a?.to.canChainFrom(b?.from ?? a.to)).toBe(true);
    expect(b?.to.canChainFrom(a?.from ?? b.to)).toBe(false);
    const inner = unify("module.b.foo.x", "module.b.foo.y");
    expect(inner?.from.nestedWithin(a?.to ?? inner.from)).toBe(true);
    const r = unify("foo.x", "foo.x[0]");
    const whole = unify("foo.x", "foo.y");
    expect(r?.to.nestedWithin(whole?.from ?? r.to)).toBe(true);
    expect(whole?.from.nestedWithin(r?.to ?? whole.from)).toBe(false);
  });

  it("computes destinations", () => {
    const mod = mustUnify("module.a", "module.b");
    expect(moduleInstanceMoveDestination(mi("module.a[1].module.c"), mod.from, mod.to)?.toString()).toBe("module.b[1].module.c");
    expect(moduleInstanceMoveDestination(mi("module.x"), mod.from, mod.to)).toBeUndefined();
    expect(absResourceInstanceMoveDestination(ari('module.a["k"].foo.bar[0]'), mod.from, mod.to)?.toString()).toBe('module.b["k"].foo.bar[0]');

    const inst = mustUnify("module.a[0]", 'module.a["z"]');
    expect(moduleInstanceMoveDestination(mi("module.a[0]"), inst.from, inst.to)?.toString()).toBe('module.a["z"]');
    expect(moduleInstanceMoveDestination(mi("module.a[1]"), inst.from, inst.to)).toBeUndefined();

    const res = mustUnify("foo.bar", "foo.baz", RootModule.child("m"));
    expect(absResourceMoveDestination(ar("module.m[2].foo.bar"), res.from, res.to)?.toString()).toBe("module.m[2].foo.baz");
    expect(absResourceInstanceMoveDestination(ari("module.m[2].foo.bar[1]"), res.from, res.to)?.toString()).toBe("module.m[2].foo.baz[1]");
    expect(absResourceMoveDestination(ar("foo.bar"), res.from, res.to)).toBeUndefined();

    const ri = mustUnify("foo.bar", "foo.bar[0]");
    expect(absResourceInstanceMoveDestination(ari("foo.bar"), ri.from, ri.to)?.toString()).toBe("foo.bar[0]");
    expect(absResourceInstanceMoveDestination(ari("foo.bar[1]"), ri.from, ri.to)).toBeUndefined();
  });

  it("detects module re-indexing", () => {
    const a = unify("module.a", "module.a[0]");
    expect(a?.from.isModuleReIndex(a.to)).toBe(true);
    const b = unify("module.a", "module.b[0]");
    expect(b?.from.isModuleReIndex(b.to)).toBe(false);
    const c = unify("module.a[0]", "module.a[1]");
    expect(c?.from.isModuleReIndex(c.to)).toBe(true);
  });

  it("builds implied endpoints and concrete examples", () => {
    const e = impliedMoveStatementEndpoint(ari("module.a[0].foo.bar[1]"), undefined);
    expect(e.toString()).toBe("module.a[0].foo.bar[1]");
    const res = unify("foo.bar", "foo.baz", RootModule.child("m"));
    expect(res?.from.inModuleInstance(mi("module.m[4]")).toString()).toBe("module.m[4].foo.bar");
    expect(res?.from.moduleCallTraversals().calls).toEqual([]);
    expect(() => res?.from.inModuleInstance(mi("module.m.module.n"))).toThrow();
  });
});
