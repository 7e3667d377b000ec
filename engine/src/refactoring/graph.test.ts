import { describe, expect, it } from "vitest";
import { buildMoveStatementGraph, dependenciesFirstOrder, moveGraphCycles, statementDependsOn } from "./graph.js";
import { findMoveStatements, type MoveStatement } from "./index.js";
import { loadFiles } from "./refactoring.testkit.js";

function statements(pairs: Array<[string, string]>): MoveStatement[] {
  const src = pairs.map(([from, to]) => `moved {\n  from = ${from}\n  to   = ${to}\n}\n`).join("");
  return findMoveStatements(loadFiles({ "main.tf": src })).statements;
}

describe("move statement graph", () => {
  it("chains: a statement depends on the one that leaves objects at its from", () => {
    const [bc, ab] = statements([
      ["test.b", "test.c"],
      ["test.a", "test.b"],
    ]) as [MoveStatement, MoveStatement];
    expect(statementDependsOn(bc, ab)).toBe(true);
    expect(statementDependsOn(ab, bc)).toBe(false);
    expect(dependenciesFirstOrder(buildMoveStatementGraph([bc, ab]))).toEqual([1, 0]);
  });

  it("nests: a resource statement inside a module runs before the module's own move", () => {
    const [mod, res] = statements([
      ["module.a", "module.b"],
      ["module.a.test.x", "module.a.test.y"],
    ]) as [MoveStatement, MoveStatement];
    expect(statementDependsOn(mod, res)).toBe(true);
    expect(statementDependsOn(res, mod)).toBe(false);
    expect(dependenciesFirstOrder(buildMoveStatementGraph([mod, res]))).toEqual([1, 0]);
  });

  it("keeps declaration order between independent statements", () => {
    const g = buildMoveStatementGraph(statements([["test.x", "test.y"], ["test.a", "test.b"], ["module.m", "module.n"]]));
    expect(dependenciesFirstOrder(g)).toEqual([0, 1, 2]);
    expect(moveGraphCycles(g)).toEqual([]);
  });

  it("finds each cycle once", () => {
    const g = buildMoveStatementGraph(
      statements([
        ["test.a", "test.b"],
        ["test.q", "test.r"],
        ["test.b", "test.a"],
        ["test.r", "test.q"],
        ["test.z", "test.zz"],
      ]),
    );
    expect(moveGraphCycles(g)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(() => dependenciesFirstOrder(g)).toThrow();
  });
});
