import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { taintCommand, untaintCommand } from "./taint.js";

const MAIN = `resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = "b"
}
`;

const flat = (s: string): string => s.replace(/\s+/g, " ");
const status = (dir: string, name: string): Array<string | undefined> =>
  (JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")) as { resources: Array<{ name: string; instances: Array<{ status?: string }> }> }).resources
    .find((r) => r.name === name)
    ?.instances.map((i) => i.status) ?? [];

describe("terrace taint / untaint", () => {
  it("marks an instance tainted so the next plan replaces it, and back", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    expect(await runCommand(taintCommand, ["terraform_data.a"], dir)).toEqual({ code: 0, stdout: "Resource instance terraform_data.a has been marked as tainted.\n", stderr: "" });
    expect(status(dir, "a")).toEqual(["tainted"]);
    expect(readFileSync(path.join(dir, "terraform.tfstate.backup"), "utf8")).not.toContain("tainted");
    const plan = await runCommand(planCommand, ["-no-color"], dir);
    expect(plan.stdout).toContain("# terraform_data.a is tainted, so it must be replaced");
    expect((await runCommand(taintCommand, ["terraform_data.b[1]"], dir)).code).toBe(0);
    expect(status(dir, "b")).toEqual([undefined, "tainted"]);
    expect(await runCommand(untaintCommand, ["terraform_data.a"], dir)).toEqual({ code: 0, stdout: "Resource instance terraform_data.a has been successfully untainted.\n", stderr: "" });
    expect(status(dir, "a")).toEqual([undefined]);
    const again = await runCommand(untaintCommand, ["-no-color", "terraform_data.a"], dir);
    expect(again.code).toBe(1);
    expect(flat(again.stderr)).toContain("Error: Resource instance is not tainted Resource instance terraform_data.a is not currently tainted, and so it cannot be untainted.");
  });

  it("reports missing instances, or warns with -allow-missing", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const empty = await runCommand(taintCommand, ["-no-color", "terraform_data.a"], dir);
    expect(empty.code).toBe(1);
    expect(flat(empty.stderr)).toContain("The state currently contains no resource instances whatsoever.");
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    // -no-color may follow the address (tofu's Meta.process takes it from anywhere).
    const whole = await runCommand(taintCommand, ["terraform_data.b", "-no-color"], dir);
    expect(whole.code).toBe(1);
    expect(whole.stderr).not.toContain("│");
    expect(flat(whole.stderr)).toContain(
      'There is no resource instance in the state with the address terraform_data.b. If the resource configuration has just been added, you must run "terrace apply" once',
    );
    const allowed = await runCommand(taintCommand, ["-no-color", "-allow-missing", "terraform_data.zz"], dir);
    expect(allowed.code).toBe(0);
    expect(flat(allowed.stdout)).toContain("Warning: No such resource instance Resource instance terraform_data.zz was not found, but this is not an error because -allow-missing was set.");
    const data = await runCommand(taintCommand, ["data.terraform_remote_state.x"], dir);
    expect(data).toEqual({ code: 1, stdout: "", stderr: "Resource instance data.terraform_remote_state.x cannot be tainted\n" });
    const mod = await runCommand(taintCommand, ["-no-color", "module.m"], dir);
    expect(flat(mod.stderr)).toContain("A resource instance address is required here.");
    const none = await runCommand(untaintCommand, [], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("The untaint command expects exactly one argument.\nUsage: terrace [global options] untaint [options] name");
  });
});
