// A destroy plan starts with a normal plan that refreshes (OpenTofu's destroyPlan with
// PreDestroyRefresh): data sources are read, a -target's dependencies are refreshed too, a read
// that fails stops the destroy before anything is planned, and a resource condition that now
// fails does not. The outputs compared are what terraform 1.11 prints for the same steps,
// product name aside (checked side by side).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { planCommand } from "../cli/plan.js";

const remote = (x: string) => JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "remote", outputs: { x: { value: x, type: "string" } }, resources: [] });

const MAIN = `data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
}
resource "terraform_data" "a" {
  input = data.terraform_remote_state.s.outputs.x
  lifecycle {
    precondition {
      condition     = data.terraform_remote_state.s.outputs.x == "hello"
      error_message = "x is not hello"
    }
  }
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
resource "terraform_data" "c" {
  input = terraform_data.b.output
}
`;

/** The progress lines before the plan, ids taken out. */
const progress = (stdout: string) =>
  stdout
    .slice(0, stdout.indexOf("OpenTofu used"))
    .trim()
    .split("\n")
    .map((l) => l.replace(/ \[id=[^\]]*\]$/, ""));

describe("the refresh a destroy plan starts with", () => {
  it("reads data sources and refreshes what a -target depends on", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "remote.tfstate": remote("hello") });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const targeted = await runCommand(planCommand, ["-destroy", "-no-color", "-target=terraform_data.c"], dir);
    expect(targeted.code).toBe(0);
    expect(progress(targeted.stdout)).toEqual([
      "data.terraform_remote_state.s: Reading...",
      "data.terraform_remote_state.s: Read complete after 0s",
      "terraform_data.a: Refreshing state...",
      "terraform_data.b: Refreshing state...",
      "terraform_data.c: Refreshing state...",
    ]);
    expect(targeted.stdout).toContain("Plan: 0 to add, 0 to change, 1 to destroy.");
    // The refreshing plan's targeting warning is not shown twice.
    expect(targeted.stdout.split("Warning: Resource targeting is in effect").length).toBe(2);
  });

  it("destroys although a precondition now fails, and the warning is not shown", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "remote.tfstate": remote("hello") });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "remote.tfstate"), remote("bye"));
    const d = await runCommand(destroyCommand, ["-auto-approve", "-no-color"], dir);
    expect(d.stderr).toBe("");
    expect(d.stdout).not.toContain("x is not hello");
    expect(d.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
  });

  it("stops the destroy when a data source cannot be read, changing nothing", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "remote.tfstate": remote("hello") });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    writeFileSync(path.join(dir, "remote.tfstate"), "{");
    const d = await runCommand(destroyCommand, ["-auto-approve", "-no-color"], dir);
    expect(d.code).toBe(1);
    expect(d.stdout).not.toContain("will be destroyed");
    expect(d.stderr).toContain("Error: Error loading state error");
    expect(d.stderr).toContain('on main.tf line 2, in data "terraform_remote_state" "s"');
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    // -refresh=false is the way past it, as in tofu.
    const skip = await runCommand(destroyCommand, ["-auto-approve", "-no-color", "-refresh=false"], dir);
    expect(skip.stderr).toBe("");
    expect(skip.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
  });
});
