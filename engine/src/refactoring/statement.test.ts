import { describe, expect, it } from "vitest";
import { findMoveStatements, impliedMoveStatements, statementName, type MoveStatement } from "./index.js";
import { casesPresent, caseConfig, caseState, loadFiles, stateWith } from "./refactoring.testkit.js";

const names = (stmts: readonly MoveStatement[]) => stmts.map(statementName);

describe("findMoveStatements", () => {
  const config = loadFiles({
    "main.tf": `
moved {
  from = test.a
  to   = test.b
}
moved {
  from = module.x
  to   = module.y[0]
}
module "y" {
  count  = 1
  source = "./child"
}
`,
    "child/main.tf": `
resource "test" "c" {
  count = 2
}
moved {
  from = test.old
  to   = test.c[1]
}
`,
  });

  it("makes every endpoint a pattern over the declaring module and unifies the pair", () => {
    const r = findMoveStatements(config);
    expect(r.diagnostics).toEqual([]);
    expect(names(r.statements)).toEqual([
      // whole resources are wildcards over their instances
      "test.a[*]->test.b[*]",
      // a keyless module call unified with an instance becomes an instance
      "module.x->module.y[0]",
      // statements in a child apply to every instance of it
      "module.y[*].test.old->module.y[*].test.c[1]",
    ]);
    expect(r.statements.every((s) => !s.implied)).toBe(true);
  });

  it("keeps the moved block's range for messages", () => {
    const [first, , child] = findMoveStatements(config).statements;
    expect(first?.declRange.filename).toBe("main.tf");
    expect(first?.declRange.start.line).toBe(2);
    expect(child?.declRange.filename).toBe("child/main.tf");
    expect(child?.declRange.start.line).toBe(5);
  });
});

describe("impliedMoveStatements", () => {
  it("moves a no-key instance to [0] when count is added, and [0] back when it is removed", () => {
    const config = loadFiles({
      "main.tf": `
resource "test" "counted" {
  count = 2
}
resource "test" "single" {
}
resource "test" "each" {
  for_each = {}
}
`,
    });
    const stmts = impliedMoveStatements(config, stateWith(["test.counted", "test.single[0]", "test.each", "test.gone[0]"]), []);
    expect(names(stmts)).toEqual(["test.counted->test.counted[0]", "test.single[0]->test.single"]);
    expect(stmts.every((s) => s.implied)).toBe(true);
    // The count expression is the range an implied statement points at.
    expect(stmts[0]?.declRange.start).toMatchObject({ line: 3, column: 11 });
  });

  it("leaves alone a resource that an explicit statement names", () => {
    const config = loadFiles({ "main.tf": `resource "test" "single" {}\nmoved {\n  from = test.single[0]\n  to = test.single\n}\n` });
    const explicit = findMoveStatements(config).statements;
    expect(impliedMoveStatements(config, stateWith(["test.single[0]"]), explicit)).toEqual([]);
  });

  it("does not infer moves for an existing key or for for_each", () => {
    const config = loadFiles({ "main.tf": `resource "test" "a" {\n  count = 1\n}\nresource "test" "b" {\n  for_each = {}\n}\n` });
    expect(impliedMoveStatements(config, stateWith(["test.a[0]", "test.b[0]", "test.b"]), [])).toEqual([]);
  });
});

describe.skipIf(!casesPresent)("impliedMoveStatements: module calls (case 045)", () => {
  const cases: Array<[string, string[]]> = [
    ["a-count-mod-single-to-plain-mod-single", ["module.child[0]->module.child"]],
    // the module's state instances are matched by path whatever their key, so the resource
    // statement is in the old module instance; applyMoves runs it before the module move
    ["b-count-mod-single-to-plain-mod-count", ["module.child[0]->module.child", "module.child[0].test_object.a->module.child[0].test_object.a[0]"]],
    ["e-plain-mod-single-to-count-mod-single", ["module.child->module.child[0]"]],
    ["f-plain-mod-single-to-count-mod-count", ["module.child->module.child[0]", "module.child.test_object.a->module.child.test_object.a[0]"]],
    ["i-nested-grandchild-to-count", ["module.child.module.grandchild->module.child.module.grandchild[0]"]],
    // modules with lifecycle { enabled } keep their no-key address: only the resource gains [0]
    ["j-nested-enabled-modules-resource-gains-count", ["module.parent.module.child.module.grandchild1.test_object.a->module.parent.module.child.module.grandchild1.test_object.a[0]"]],
  ];
  for (const [sub, want] of cases) {
    it(sub, () => {
      const dir = `045-module-implicit-move-count-enabled/${sub}`;
      expect(names(impliedMoveStatements(caseConfig(dir), caseState(dir), []))).toEqual(want);
    });
  }
});
