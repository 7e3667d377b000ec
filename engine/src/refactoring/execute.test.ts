import { describe, expect, it } from "vitest";
import { mustParseModuleInstanceStr, parseAbsResourceInstanceStr, providerConfigDefault, newDefaultProvider, RootModuleInstance } from "../addrs/index.js";
import { applyMoves, findMoveStatements, prepareMoves, type MoveResults } from "./index.js";
import { caseConfig, caseState, casesPresent, loadFiles, stateObjects, stateWith } from "./refactoring.testkit.js";

/** `new <- old` for every move, in the order they were recorded. */
function moves(results: MoveResults): string[] {
  return [...results.changes.values()].map((c) => `${c.to.toString()} <- ${c.from.toString()}`);
}

function blocked(results: MoveResults): string[] {
  return [...results.blocked.values()].map((b) => `${b.actual.toString()} -/-> ${b.wanted.toString()}`);
}

function addr(s: string) {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

function movedBlocks(pairs: Array<[string, string]>): string {
  return pairs.map(([from, to]) => `moved {\n  from = ${from}\n  to   = ${to}\n}\n`).join("");
}

describe.skipIf(!casesPresent)("applyMoves on the conformance cases", () => {
  it("040/041/042: the object at test_object.a follows the moved block to test_object.b", () => {
    const dir = "040-moved-basic-and-replace-old-addr";
    const prior = caseState(dir);
    const p = prepareMoves(caseConfig(dir), prior);
    expect(p.diagnostics).toEqual([]);
    expect(moves(p.results)).toEqual(["test_object.b <- test_object.a"]);
    expect(stateObjects(p.state)).toEqual(["test_object.b"]);
    expect(p.results.oldAddr(addr("test_object.b")).toString()).toBe("test_object.a");
    // an address that did not move is its own previous address
    expect(p.results.oldAddr(addr("test_object.a")).toString()).toBe("test_object.a");
    // the caller's state is left alone
    expect(stateObjects(prior)).toEqual(["test_object.a"]);
  });

  it("043: an implied move onto an occupied address is blocked and both objects stay", () => {
    const dir = "043-implied-move-collision";
    const p = prepareMoves(caseConfig(dir), caseState(dir));
    expect(moves(p.results)).toEqual([]);
    expect(blocked(p.results)).toEqual(["test_object.a[0] -/-> test_object.a"]);
    expect(stateObjects(p.state)).toEqual(["test_object.a", "test_object.a[0]"]);
  });

  const sub045: Array<[string, string, string]> = [
    ["a-count-mod-single-to-plain-mod-single", "module.child.test_object.a", "module.child[0].test_object.a"],
    ["b-count-mod-single-to-plain-mod-count", "module.child.test_object.a[0]", "module.child[0].test_object.a"],
    ["c-count-mod-count-to-plain-mod-single", "module.child.test_object.a", "module.child[0].test_object.a[0]"],
    ["d-count-mod-count-to-plain-mod-count", "module.child.test_object.a[0]", "module.child[0].test_object.a[0]"],
    ["e-plain-mod-single-to-count-mod-single", "module.child[0].test_object.a", "module.child.test_object.a"],
    ["f-plain-mod-single-to-count-mod-count", "module.child[0].test_object.a[0]", "module.child.test_object.a"],
    ["g-plain-mod-count-to-count-mod-count", "module.child[0].test_object.a[0]", "module.child.test_object.a[0]"],
    ["h-plain-mod-count-to-count-mod-single", "module.child[0].test_object.a", "module.child.test_object.a[0]"],
    ["i-nested-grandchild-to-count", "module.child.module.grandchild[0].test_object.a", "module.child.module.grandchild.test_object.a"],
    [
      "j-nested-enabled-modules-resource-gains-count",
      "module.parent.module.child.module.grandchild1.test_object.a[0]",
      "module.parent.module.child.module.grandchild1.test_object.a",
    ],
  ];
  for (const [sub, now, was] of sub045) {
    it(`045 ${sub}: ${was} -> ${now}`, () => {
      const dir = `045-module-implicit-move-count-enabled/${sub}`;
      const p = prepareMoves(caseConfig(dir), caseState(dir));
      expect(p.diagnostics).toEqual([]);
      expect(moves(p.results)).toEqual([`${now} <- ${was}`]);
      expect(blocked(p.results)).toEqual([]);
      expect(stateObjects(p.state)).toEqual([now]);
      // implied moves never ask the provider to translate state
      expect(p.providerMoves).toEqual([]);
      expect([...p.results.changes.values()].every((c) => c.implied)).toBe(true);
    });
  }
});

describe("applyMoves", () => {
  it("follows a chain of statements to its end, whatever order they are written in", () => {
    const config = loadFiles({ "main.tf": `resource "test" "c" {}\n` + movedBlocks([["test.b", "test.c"], ["test.a", "test.b"]]) });
    const state = stateWith(["test.a"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual(["test.c <- test.a"]);
    expect(stateObjects(state)).toEqual(["test.c (was test.a)"]);
  });

  it("lets the object already at a chain's end win; the other stops where it was blocked", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["test.a", "test.b"], ["test.b", "test.c"]]) });
    const state = stateWith(["test.a", "test.c"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual(["test.b <- test.a"]);
    expect(blocked(results)).toEqual(["test.b -/-> test.c"]);
    expect(stateObjects(state)).toEqual(["test.b (was test.a)", "test.c"]);
  });

  it("moves every instance of a renamed module call, nested modules included", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["module.old", "module.new"]]) });
    const state = stateWith(["module.old[0].test.x", "module.old[1].test.x[\"k\"]", "module.old[1].module.inner.test.y", "module.other.test.z"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(stateObjects(state)).toEqual([
      "module.new[0].test.x (was module.old[0].test.x)",
      'module.new[1].test.x["k"] (was module.old[1].test.x["k"])',
      "module.other.test.z",
      "module.new[1].module.inner.test.y (was module.old[1].module.inner.test.y)",
    ]);
    expect(moves(results)).toHaveLength(3);
    expect(state.module(mustParseModuleInstanceStr("module.old[0]"))).toBeUndefined();
  });

  it("blocks a module move onto an existing module instance", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["module.a", "module.b"]]) });
    const state = stateWith(["module.a.test.x", "module.b.test.y"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(blocked(results)).toEqual(["module.a -/-> module.b"]);
    expect(stateObjects(state)).toEqual(["module.a.test.x", "module.b.test.y"]);
  });

  it("moves a whole resource with its provider and prunes the emptied module", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["module.a.test.x", "test.x"]]) });
    const state = stateWith(["module.a.test.x[0]", "module.a.test.x[1]"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual(["test.x[0] <- module.a.test.x[0]", "test.x[1] <- module.a.test.x[1]"]);
    expect(state.module(mustParseModuleInstanceStr("module.a"))).toBeUndefined();
    expect(state.resource(addr("test.x").containingResource())?.providerConfig?.toString()).toBe('provider["registry.opentofu.org/hashicorp/test"]');
  });

  it("moves one instance into an existing resource, which keeps its own provider", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["other.a", "test.b[1]"]]) });
    const state = stateWith(["other.a", "test.b[0]"]);
    const otherProvider = providerConfigDefault(RootModuleInstance, newDefaultProvider("other"));
    state.rootModule().setResourceProvider(addr("other.a").resource.resource, otherProvider);
    applyMoves(findMoveStatements(config).statements, state);
    expect(stateObjects(state)).toEqual(["test.b[0]", "test.b[1] (was other.a)"]);
    expect(state.resource(addr("test.b").containingResource())?.providerConfig?.toString()).toBe('provider["registry.opentofu.org/hashicorp/test"]');
  });

  it("runs a statement inside a re-indexed module after the module move, without a cycle", () => {
    // module.m gains count: the module move and a statement declared inside the module itself
    const config = loadFiles({
      "main.tf": `module "m" {\n  source = "./m"\n  count  = 1\n}\n` + movedBlocks([["module.m", "module.m[0]"]]),
      "m/main.tf": `resource "test" "new" {}\n` + movedBlocks([["test.old", "test.new"]]),
    });
    const state = stateWith(["module.m.test.old"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual(["module.m[0].test.new <- module.m.test.old"]);
    expect(stateObjects(state)).toEqual(["module.m[0].test.new (was module.m.test.old)"]);
  });

  it("moves nothing when the statements form a cycle", () => {
    const config = loadFiles({ "main.tf": movedBlocks([["test.a", "test.b"], ["test.b", "test.a"]]) });
    const state = stateWith(["test.a"]);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual([]);
    expect(stateObjects(state)).toEqual(["test.a"]);
  });

  it("moves a single instance between keys of one resource", () => {
    const config = loadFiles({ "main.tf": `resource "test" "a" {\n  for_each = {}\n}\n` + movedBlocks([['test.a["x"]', 'test.a["y"]']]) });
    const state = stateWith(['test.a["x"]', 'test.a["z"]']);
    const results = applyMoves(findMoveStatements(config).statements, state);
    expect(moves(results)).toEqual(['test.a["y"] <- test.a["x"]']);
    expect(stateObjects(state)).toEqual(['test.a["y"] (was test.a["x"])', 'test.a["z"]']);
  });
});
