import { describe, expect, it } from "vitest";
import { errorDiag } from "../hcl/index.js";
import { finishMoves, prepareMoves } from "./index.js";
import { caseConfig, caseState, casesPresent, literalInstances, loadFiles, stateWith } from "./refactoring.testkit.js";

const BLOCKED_043 = {
  severity: "warning",
  summary: "Unresolved resource instance address changes",
  detail:
    "OpenTofu tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:\n" +
    "  - test_object.a[0] could not move to test_object.a\n\n" +
    'OpenTofu has planned to destroy these objects. If OpenTofu\'s proposed changes aren\'t appropriate, you must first resolve the conflicts using the "tofu state" subcommands and then create a new plan.',
};

describe.skipIf(!casesPresent)("finishMoves on the conformance cases", () => {
  it("043: warns once about the blocked implied move when the plan has no errors", () => {
    const dir = "043-implied-move-collision";
    const config = caseConfig(dir);
    const p = prepareMoves(config, caseState(dir));
    expect(finishMoves(p, config, literalInstances(config), [])).toEqual({ invalid: false, diagnostics: [BLOCKED_043] });
  });

  it("043: keeps quiet about blocked moves when planning failed", () => {
    const dir = "043-implied-move-collision";
    const config = caseConfig(dir);
    const p = prepareMoves(config, caseState(dir));
    expect(finishMoves(p, config, literalInstances(config), [errorDiag("Boom", "planning failed")])).toEqual({ invalid: false, diagnostics: [] });
  });

  it("040: a valid move has nothing to say", () => {
    const dir = "040-moved-basic-and-replace-old-addr";
    const config = caseConfig(dir);
    const p = prepareMoves(config, caseState(dir));
    expect(finishMoves(p, config, literalInstances(config), [])).toEqual({ invalid: false, diagnostics: [] });
  });
});

describe("finishMoves", () => {
  it("marks the plan invalid when a moved object is still declared", () => {
    const config = loadFiles({ "main.tf": `resource "test" "a" {}\nresource "test" "b" {}\nmoved {\n  from = test.a\n  to   = test.b\n}\n` });
    const p = prepareMoves(config, stateWith(["test.a"]));
    const f = finishMoves(p, config, literalInstances(config), []);
    expect(f.invalid).toBe(true);
    expect(f.diagnostics.map((d) => `${d.summary}: ${d.detail}`)).toEqual([
      "Moved object still exists: This statement declares a move from test.a, but that resource is still declared at main.tf:1,1.\n\nChange your configuration so that this resource will be declared as test.b instead.",
    ]);
    // the subject is the moved block
    expect(f.diagnostics[0]?.subject?.start.line).toBe(3);
  });
});
