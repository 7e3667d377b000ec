// The lifecycle options through the CLI (cli/plan.ts, cli/apply.ts): -replace, -refresh-only and
// their argument errors, with the texts tofu prints (checked against terraform 1.11 on the same
// terraform_data configuration, product name aside).
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { planCommand } from "../cli/plan.js";

const MAIN = 'resource "terraform_data" "a" {\n  input = "x"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n';

describe("plan and apply options for lifecycle", () => {
  it("-replace plans a requested replacement, and apply carries it out", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode", "-replace=terraform_data.a"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("  # terraform_data.a will be replaced, as requested\n-/+ resource \"terraform_data\" \"a\" {");
    expect(p.stdout).toContain("Plan: 1 to add, 1 to change, 1 to destroy.");
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-replace=terraform_data.a"], dir);
    expect(a.code).toBe(0);
    // b's planned update (input from a's unknown output) came out unchanged: a NoOp at apply,
    // not counted, as in tofu and terraform.
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
  });

  it("-refresh-only with nothing changed outside reports no changes", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode", "-refresh-only"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("No changes. Your infrastructure still matches the configuration.");
  });

  it("rejects bad addresses and incompatible options with OpenTofu's texts", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const bad = await runCommand(planCommand, ["-no-color", "-replace=data.terraform_remote_state.x"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Error: Invalid force-replace address "data.terraform_remote_state.x"');
    expect(bad.stderr).toContain("Only managed resources can be used with the -replace=... option.");
    const both = await runCommand(planCommand, ["-no-color", "-target=terraform_data.a", "-exclude=terraform_data.b"], dir);
    expect(both.stderr).toContain("The target and exclude planning options are mutually-exclusive.");
    const modes = await runCommand(planCommand, ["-no-color", "-destroy", "-refresh-only"], dir);
    expect(modes.stderr).toContain("The -destroy and -refresh-only options are mutually-exclusive.");
    const norefresh = await runCommand(planCommand, ["-no-color", "-refresh-only", "-refresh=false"], dir);
    expect(norefresh.stderr).toContain("Error: Incompatible refresh options");
  });
});
