// OpenTofu conformance cases 033 (init with a module source from a variable) and 034 (static
// variables across every command, tofu's e2e TestStaticPlanVariables), run in place from
// ../shared/conformance with the same harness as scripts/conformance.mjs; skipped with a note
// when the cases are absent.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkStep, runCLICase, sanitizeStderr, STATIC_PLAN_STEPS } from "./conformance.harness.js";

const CASES = path.resolve(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");

function caseDir(prefix: string): string | undefined {
  if (!existsSync(CASES)) return undefined;
  const name = readdirSync(CASES).find((n) => n.startsWith(prefix));
  return name ? path.join(CASES, name) : undefined;
}

describe("CLI conformance (static evaluation end to end)", () => {
  for (const id of ["033", "034"]) {
    it(`case ${id}`, async () => {
      const dir = caseDir(`${id}-`);
      if (!dir) {
        console.log(`skipped: ${CASES}/${id}-* is absent`);
        return;
      }
      const r = await runCLICase(dir);
      expect(r.message).toBe("every invocation behaved as expected");
      expect(r.ok).toBe(true);
    }, 120_000);
  }

  it("judges a step as tofu's e2e test does: exit status, then the text on the stream it names", () => {
    const step = STATIC_PLAN_STEPS.find((s) => s.args.join(" ") === "state list");
    if (!step) throw new Error("no state list step");
    const err = "╷\n│ Error: Unable to compute static value\n│\n│ backend.local depends on var.state_path which is not\n│ available\n╵\n";
    // A wrapped diagnostic still matches once the rule characters and line breaks are gone.
    expect(sanitizeStderr(err)).toContain("backend.local depends on var.state_path which is not available");
    expect(checkStep(step, { code: 1, stdout: "", stderr: err })).toBeUndefined();
    expect(checkStep(step, { code: 0, stdout: "", stderr: err })).toContain("want failure, got success");
    expect(checkStep(step, { code: 1, stdout: err, stderr: "" })).toContain("on stderr");
  });
});
