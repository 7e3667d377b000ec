// When apply shows the plan's warnings (backend_apply.go): before the approval question when it is
// asked; with -auto-approve after the apply, without the check blocks' reports from the plan
// (the apply reports those again), in the human output and in the -json stream alike.
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";

const CHECKED = `variable "x" {
  default = 20
}
resource "terraform_data" "a" {
  input = var.x
}
check "c1" {
  assert {
    condition     = var.x < 10
    error_message = "x should be < 10."
  }
}
`;

/** Line numbers (0-based) of the lines matching each pattern. */
function linesOf(text: string, pattern: RegExp): number[] {
  return text.split("\n").flatMap((l, i) => (pattern.test(l) ? [i] : []));
}

describe("apply: the plan's diagnostics", () => {
  it("-auto-approve shows a failed check once, after the apply", async () => {
    const { dir } = workDir({ "main.tf": CHECKED });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(r.code).toBe(0);
    const warnings = linesOf(r.stdout, /^Warning: Check block assertion failed/);
    expect(warnings).toHaveLength(1);
    const [created] = linesOf(r.stdout, /terraform_data\.a: Creation complete/);
    const [complete] = linesOf(r.stdout, /^Apply complete!/);
    expect(warnings[0]).toBeGreaterThan(created ?? Infinity);
    expect(warnings[0]).toBeLessThan(complete ?? -1);
  });

  it("-json -auto-approve: one diagnostic message for the check, after the apply's hooks", async () => {
    const { dir } = workDir({ "main.tf": CHECKED });
    const r = await runCommand(applyCommand, ["-json", "-auto-approve"], dir);
    expect(r.code).toBe(0);
    const types = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; diagnostic?: { summary: string } })
      .map((m) => (m.type === "diagnostic" ? `diagnostic:${m.diagnostic?.summary}` : m.type));
    expect(types.filter((t) => t.startsWith("diagnostic:"))).toEqual(["diagnostic:Check block assertion failed"]);
    expect(types.indexOf("diagnostic:Check block assertion failed")).toBeGreaterThan(types.lastIndexOf("apply_complete"));
  });

  it("asked for approval, the plan's warnings come before the question", async () => {
    const { dir } = workDir({ "main.tf": CHECKED });
    const r = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "no\n" });
    expect(r.code).toBe(1);
    const [warning] = linesOf(r.stdout, /^Warning: Check block assertion failed/);
    const [question] = linesOf(r.stdout, /Do you want to perform these actions\?/);
    expect(warning).toBeLessThan(question ?? -1);
  });
  // A check block's data source that cannot be read fails the block, whose assertions are then
  // skipped, also when they would wait for the apply (they wait for the read); its warnings are
  // the block's reports, shown once after an auto-approved apply. terraform 1.11 prints the same.
  it("a check block's unreadable data source: its warning once, its assertions skipped", async () => {
    const { dir } = workDir({
      "main.tf": `resource "terraform_data" "a" {
  input = "a"
}
check "health" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config = {
      path = "nope.tfstate"
    }
  }
  assert {
    condition     = terraform_data.a.output == "b"
    error_message = "a is not b."
  }
}
`,
    });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(linesOf(r.stdout, /^Warning: Unable to find remote state/)).toHaveLength(1);
    expect(r.stdout).not.toContain("more similar warning");
    expect(r.stdout).not.toContain("Check block assertion");
  });
});
