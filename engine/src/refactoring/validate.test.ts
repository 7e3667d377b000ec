import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../hcl/index.js";
import { Module, MoveEndpointInModule, AbsResourceInstance, ModuleInstance, Resource, NoKey, intKey, RootModule, RootModuleInstance } from "../addrs/index.js";
import { applyMoves, findMoveStatements, validateMoves, type MoveStatement } from "./index.js";
import { CASES_DIR, caseFiles, casesPresent, literalInstances, loadFiles, stateObjects, stateWith } from "./refactoring.testkit.js";

const CASE = "046-moved-validation-errors";

/** The zoo configuration with one statements file added to its root (and extra files). */
function zooWith(statementsFile: string, extra: Record<string, string> = {}) {
  const files = { ...caseFiles(`${CASE}/zoo`, CASE), ...extra };
  files[`zoo/${statementsFile}`] = readFileSync(path.join(CASES_DIR, CASE, "statements", statementsFile), "utf8");
  return loadFiles(files, "zoo");
}

function validate(statementsFile: string, extra: Record<string, string> = {}): Diagnostic[] {
  const config = zooWith(statementsFile, extra);
  const { statements, diagnostics } = findMoveStatements(config);
  expect(diagnostics).toEqual([]);
  return validateMoves(statements, config, literalInstances(config));
}

/** severity, summary, detail and where the subject starts. */
function show(diags: Diagnostic[]): string[] {
  return diags.map((d) => {
    const at = d.subject ? `${d.subject.filename}:${d.subject.start.line},${d.subject.start.column}` : "(no subject)";
    return `${d.severity} @ ${at}: ${d.summary}: ${d.detail}`;
  });
}

describe.skipIf(!casesPresent)("validateMoves (case 046)", () => {
  it("01 valid grab bag: no diagnostics, including a statement declared in every instance of a child", () => {
    const child = `moved {\n  from = test.nonexist1\n  to   = test.target1\n}\n`;
    expect(show(validate("01-valid-grab-bag.tf", { "zoo/child/moved.tf": child }))).toEqual([]);
  });

  it("02 moving nowhere", () => {
    expect(show(validate("02-moving-nowhere.tf"))).toEqual([
      "error @ zoo/02-moving-nowhere.tf:1,1: Redundant move statement: This statement declares a move from module.a to the same address, which is the same as not declaring this move at all.",
    ]);
  });

  it("03 cyclic chain: one sourceless error listing the statements", () => {
    expect(show(validate("03-cyclic-chain.tf"))).toEqual([
      "error @ (no subject): Cyclic dependency in move statements: The following chained move statements form a cycle, and so there is no final location to move objects to:\n" +
        "  - zoo/03-cyclic-chain.tf:1,1: module.a[*] → module.b[*]\n" +
        "  - zoo/03-cyclic-chain.tf:5,1: module.b[*] → module.c[*]\n" +
        "  - zoo/03-cyclic-chain.tf:9,1: module.c[*] → module.a[*]\n\n" +
        "A chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.",
    ]);
  });

  it("04 module call still exists", () => {
    expect(show(validate("04-module-call-still-exists.tf"))).toEqual([
      "error @ zoo/04-module-call-still-exists.tf:1,1: Moved object still exists: This statement declares a move from module.single, but that module call is still declared at zoo/move-validate-root.tf:6,1.\n\nChange your configuration so that this call will be declared as module.other instead.",
    ]);
  });

  it("05 module instance still exists: blames the count expression", () => {
    expect(show(validate("05-module-instance-still-exists.tf"))).toEqual([
      "error @ zoo/05-module-instance-still-exists.tf:1,1: Moved object still exists: This statement declares a move from module.count[0], but that module instance is still declared at zoo/move-validate-root.tf:12,12.\n\nChange your configuration so that this instance will be declared as module.other instead.",
    ]);
  });

  it("06 resource still exists", () => {
    expect(show(validate("06-resource-still-exists.tf"))).toEqual([
      "error @ zoo/06-resource-still-exists.tf:1,1: Moved object still exists: This statement declares a move from test.single, but that resource is still declared at zoo/move-validate-root.tf:27,1.\n\nChange your configuration so that this resource will be declared as test.other instead.",
    ]);
  });

  it("07 resource instance still exists", () => {
    expect(show(validate("07-resource-instance-still-exists.tf"))).toEqual([
      "error @ zoo/07-resource-instance-still-exists.tf:1,1: Moved object still exists: This statement declares a move from test.single, but that resource instance is still declared at zoo/move-validate-root.tf:27,1.\n\nChange your configuration so that this instance will be declared as test.other[0] instead.",
    ]);
  });

  it("08 two moves from the same address", () => {
    expect(show(validate("08-two-moves-from-same.tf"))).toEqual([
      "error @ zoo/08-two-moves-from-same.tf:5,1: Ambiguous move statements: A statement at zoo/08-two-moves-from-same.tf:1,1 declared that test.nonexist moved to test.other1, but this statement instead declares that it moved to test.other2.\n\nEach resource can move to only one destination resource.",
    ]);
  });

  it("09 two moves to the same address", () => {
    expect(show(validate("09-two-moves-to-same.tf"))).toEqual([
      "error @ zoo/09-two-moves-to-same.tf:5,1: Ambiguous move statements: A statement at zoo/09-two-moves-to-same.tf:1,1 declared that test.other1 moved to test.single, but this statement instead declares that test.other2 moved there.\n\nEach resource can have moved from only one source resource.",
    ]);
  });

  it("10 crossing nested statements form a cycle", () => {
    expect(show(validate("10-crossing-nested.tf"))).toEqual([
      "error @ (no subject): Cyclic dependency in move statements: The following chained move statements form a cycle, and so there is no final location to move objects to:\n" +
        "  - zoo/10-crossing-nested.tf:1,1: module.nonexist.test.single → module.count[0].test.count[0]\n" +
        "  - zoo/10-crossing-nested.tf:5,1: module.nonexist → module.count[0]\n\n" +
        "A chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.",
    ]);
  });

  it("allows moves into and out of another module package and between resource types", () => {
    const extra = {
      "zoo/extra.tf": `moved {\n  from = module.fake_external.test.nonexist\n  to   = test.nonexist_here\n}\nmoved {\n  from = test.nonexist_type\n  to   = other.single\n}\n`,
    };
    const config = loadFiles({ ...caseFiles(`${CASE}/zoo`, CASE), ...extra }, "zoo");
    expect(show(validateMoves(findMoveStatements(config).statements, config, literalInstances(config)))).toEqual([]);
  });

  it("a module move containing a resource move declared in that module is not a cycle", () => {
    const config = loadFiles(caseFiles(`${CASE}/zoo`, CASE), "zoo");
    const outer: MoveStatement = {
      from: new MoveEndpointInModule(RootModule, new ModuleInstance([{ name: "count", key: NoKey }]), undefined),
      to: new MoveEndpointInModule(RootModule, new ModuleInstance([{ name: "count", key: intKey(0) }]), undefined),
      declRange: range(1),
      implied: false,
    };
    const inModule = new Module(["count"]);
    const inner: MoveStatement = {
      from: new MoveEndpointInModule(inModule, new AbsResourceInstance(RootModuleInstance, new Resource("managed", "test", "count").instance(NoKey)), undefined),
      to: new MoveEndpointInModule(inModule, new AbsResourceInstance(RootModuleInstance, new Resource("managed", "test", "count").instance(intKey(0))), undefined),
      declRange: range(2),
      implied: false,
    };
    expect(show(validateMoves([outer, inner], config, literalInstances(config)))).toEqual([]);
    // and applying them moves the object through both
    const state = stateWith(["module.count.test.count"]);
    applyMoves([outer, inner], state);
    expect(stateObjects(state)).toEqual(["module.count[0].test.count[0] (was module.count.test.count)"]);
  });
});

function range(line: number) {
  return { filename: "test", start: { line, column: 1, byte: 0 }, end: { line, column: 2, byte: 1 } };
}
