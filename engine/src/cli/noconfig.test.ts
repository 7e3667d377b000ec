// plan and apply in a directory without configuration files: the local backend refuses them
// (tofu's opPlan/opApply "No configuration files"), so a state is never planned away by mistake.
import { existsSync, readFileSync, renameSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { refreshCommand } from "./refresh.js";

const PLAN_NO_CONFIG = `
Error: No configuration files

Plan requires configuration to be present. Planning without a configuration
would mark everything for destruction, which is normally not what is desired.
If you would like to destroy everything, run plan with the -destroy option.
Otherwise, create a OpenTofu configuration file (.tf file) and try again.
`;

const APPLY_NO_CONFIG = `
Error: No configuration files

Apply requires configuration to be present. Applying without a configuration
would mark everything for destruction, which is normally not what is desired.
If you would like to destroy everything, run 'terrace destroy' instead.
`;

/** A directory whose state holds terraform_data.a, with main.tf moved away into moved/. */
async function appliedThenMovedAway(): Promise<string> {
  const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = 1\n}\n' });
  const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
  expect(a.code).toBe(0);
  mkdirSync(path.join(dir, "moved"));
  renameSync(path.join(dir, "main.tf"), path.join(dir, "moved", "main.tf"));
  return dir;
}

describe("plan and apply without configuration files", () => {
  it("apply -auto-approve fails and destroys nothing", async () => {
    const dir = await appliedThenMovedAway();
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(r).toEqual({ code: 1, stdout: "", stderr: APPLY_NO_CONFIG });
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
  });

  it("plan fails with tofu's error, also in an empty directory, and writes no state", async () => {
    const dir = await appliedThenMovedAway();
    expect(await runCommand(planCommand, ["-no-color"], dir)).toEqual({ code: 1, stdout: "", stderr: PLAN_NO_CONFIG });
    const { dir: empty } = workDir({ "README.md": "nothing here\n" });
    expect(await runCommand(planCommand, ["-no-color"], empty)).toEqual({ code: 1, stdout: "", stderr: PLAN_NO_CONFIG });
    expect(await runCommand(applyCommand, ["-no-color", "-auto-approve"], empty)).toEqual({ code: 1, stdout: "", stderr: APPLY_NO_CONFIG });
    expect(existsSync(path.join(empty, "terraform.tfstate"))).toBe(false);
  });

  it("refresh-only is refused too; -json reports the error as a diagnostic message", async () => {
    const { dir } = workDir();
    expect((await runCommand(planCommand, ["-no-color", "-refresh-only"], dir)).stderr).toBe(PLAN_NO_CONFIG);
    const j = await runCommand(planCommand, ["-json"], dir);
    expect(j.code).toBe(1);
    const messages = j.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; diagnostic?: { summary: string } });
    expect(messages.filter((m) => m.type === "diagnostic").map((m) => m.diagnostic?.summary)).toEqual(["No configuration files"]);
  });

  it("destroy mode and refresh go on, as tofu's opPlan/opApply exempt destroy and opRefresh has no check", async () => {
    const dir = await appliedThenMovedAway();
    const plan = await runCommand(planCommand, ["-no-color", "-destroy"], dir);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("Plan: 0 to add, 0 to change, 1 to destroy.");
    const refresh = await runCommand(refreshCommand, ["-no-color"], dir);
    expect(refresh.stderr).toBe("");
    expect(refresh.code).toBe(0);
    const destroy = await runCommand(destroyCommand, ["-no-color", "-auto-approve"], dir);
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  });
});
