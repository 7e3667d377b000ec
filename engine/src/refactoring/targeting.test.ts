import { describe, expect, it } from "vitest";
import { parseTargetStr, type Targetable } from "../addrs/index.js";
import { checkTargetedMoves, prepareMoves } from "./index.js";
import { caseConfig, caseState, casesPresent, loadFiles, stateWith } from "./refactoring.testkit.js";

function targets(...strs: string[]): Targetable[] {
  return strs.map((s) => {
    const r = parseTargetStr(s);
    if (!r.result) throw new Error(s);
    return r.result.subject;
  });
}

const targetDetail = (lines: string) =>
  `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:${lines}\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.`;
const excludeDetail = (lines: string) =>
  `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\nTo create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:${lines}\n\nNote that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.`;

describe.skipIf(!casesPresent)("checkTargetedMoves (case 042)", () => {
  const dir = "042-moved-excluded-by-targeting";
  const rows: Array<[string, string[], string[], string | undefined]> = [
    ["-target=test_object.b", ["test_object.b"], [], targetDetail('\n  -target="test_object.a"')],
    ["-target=test_object.a", ["test_object.a"], [], targetDetail('\n  -target="test_object.b"')],
    ["-target=test_object.unrelated", ["test_object.unrelated"], [], targetDetail('\n  -target="test_object.a"\n  -target="test_object.b"')],
    ["-target both", ["test_object.a", "test_object.b"], [], undefined],
    ["-exclude=test_object.a", [], ["test_object.a"], excludeDetail('\n  -exclude="test_object.a"')],
    ["-exclude=test_object.b", [], ["test_object.b"], excludeDetail('\n  -exclude="test_object.b"')],
    ["-exclude both", [], ["test_object.a", "test_object.b"], excludeDetail('\n  -exclude="test_object.a"\n  -exclude="test_object.b"')],
    ["-exclude=test_object.unrelated", [], ["test_object.unrelated"], undefined],
  ];
  for (const [name, t, e, detail] of rows) {
    it(name, () => {
      const p = prepareMoves(caseConfig(dir), caseState(dir), { targets: targets(...t), excludes: targets(...e) });
      const want = detail === undefined ? [] : [{ severity: "error", summary: "Moved resource instances excluded by targeting", detail }];
      expect(p.diagnostics).toEqual(want);
    });
  }
});

describe("checkTargetedMoves", () => {
  it("lists each resource once, whatever number of its instances moved", () => {
    const config = loadFiles({ "main.tf": `resource "test" "b" {\n  count = 2\n}\nmoved {\n  from = test.a\n  to   = test.b\n}\n` });
    const p = prepareMoves(config, stateWith(["test.a[0]", "test.a[1]"]));
    expect(checkTargetedMoves(p.results, targets("test.b"), []).map((d) => d.detail)).toEqual([targetDetail('\n  -target="test.a"')]);
  });

  it("is satisfied by a module target containing both ends", () => {
    const config = loadFiles({ "main.tf": `moved {\n  from = module.m.test.a\n  to   = module.m.test.b\n}\n` });
    const p = prepareMoves(config, stateWith(["module.m.test.a"]));
    expect(checkTargetedMoves(p.results, targets("module.m"), [])).toEqual([]);
  });

  it("says nothing without targeting or moves", () => {
    const config = loadFiles({ "main.tf": `resource "test" "a" {}\n` });
    const p = prepareMoves(config, stateWith(["test.a"]));
    expect(checkTargetedMoves(p.results, targets("test.x"), [])).toEqual([]);
  });
});
