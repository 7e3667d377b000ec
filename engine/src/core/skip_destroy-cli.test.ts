// `lifecycle { destroy = false }` through the CLI with terraform_data: the state records
// skip_destroy, a replacement is "forget and then create", `plan -destroy` forgets with OpenTofu's
// texts, and `destroy` forgets, empties the state and exits 1 with OpenTofu's error unless
// -suppress-forget-errors is given; apply summaries count what was forgotten. (terraform 1.11 has
// no such argument, so there is no oracle run here.)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { planCommand } from "../cli/plan.js";
import { showCommand } from "../cli/show.js";

const config = (trigger: string) =>
  `resource "terraform_data" "a" {\n  input            = "x"\n  triggers_replace = "${trigger}"\n  lifecycle {\n    destroy = false\n  }\n}\n`;

interface StateJSON {
  resources: Array<{ instances: Array<{ attributes: { id: string }; skip_destroy?: boolean }> }>;
}

/** OpenTofu's error for a destroy that forgot objects (context_apply.go), as -no-color prints it. */
const FORGET_ERROR = [
  "Error: Destroy was successful but left behind forgotten instances",
  "",
  "As requested, OpenTofu has not deleted some remote objects that are no longer",
  "managed by this configuration. Those objects continue to exist in their",
  "remote system and so may continue to incur charges. Refer to the original",
  "plan for more information.",
  "To suppress this error for the future 'destroy' runs, you can add the CLI",
  'flag "-suppress-forget-errors".',
].join("\n");

/** The -json stream's messages of one type. */
function messages(stdout: string, type: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m["type"] === type);
}

function state(dir: string): StateJSON {
  return JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")) as StateJSON;
}

describe("destroy = false through the CLI", () => {
  it("records skip_destroy, forgets on replacement, and forgets (failing) on destroy", async () => {
    const { dir } = workDir({ "main.tf": config("1") });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const first = state(dir).resources[0]?.instances[0];
    expect(first?.skip_destroy).toBe(true);

    writeFileSync(path.join(dir, "main.tf"), config("2"));
    const p = await runCommand(planCommand, ["-no-color", "-out=replace.tfplan"], dir);
    expect(p.stderr).toBe("");
    expect(p.stdout).toContain("./+ forget and then create replacement");
    expect(p.stdout).toContain("  # terraform_data.a must be replaced - older instance will not be destroyed (lifecycle.destroy = false)\n./+ resource \"terraform_data\" \"a\" {");
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy, 1 to forget.");
    const shown = await runCommand(showCommand, ["-json", "replace.tfplan"], dir);
    const changes = (JSON.parse(shown.stdout) as { resource_changes: Array<{ address: string; change: { actions: string[] }; action_reason?: string }> }).resource_changes;
    expect(changes.map((c) => [c.address, c.change.actions, c.action_reason])).toEqual([["terraform_data.a", ["forget", "create"], "replace_because_cannot_update"]]);
    expect((await runCommand(applyCommand, ["-no-color", "replace.tfplan"], dir)).code).toBe(0);
    const second = state(dir).resources[0]?.instances;
    expect(second?.length).toBe(1);
    expect(second?.[0]?.attributes.id).not.toBe(first?.attributes.id);
    expect(second?.[0]?.skip_destroy).toBe(true);

    const d = await runCommand(planCommand, ["-no-color", "-destroy"], dir);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain("  . forget\n");
    expect(d.stdout).toContain(
      "  # terraform_data.a will be removed from the OpenTofu state but will not be destroyed \n (because lifecycle.destroy = false is set in the configuration)\n  . resource \"terraform_data\" \"a\" {",
    );
    expect(d.stdout).toContain("Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget.");
    const shownDestroy = await runCommand(planCommand, ["-no-color", "-destroy", "-out=destroy.tfplan"], dir);
    expect(shownDestroy.code).toBe(0);
    const dj = await runCommand(showCommand, ["-json", "destroy.tfplan"], dir);
    const dchanges = (JSON.parse(dj.stdout) as { resource_changes: Array<{ change: { actions: string[] }; action_reason?: string }> }).resource_changes;
    expect(dchanges.map((c) => [c.change.actions, c.action_reason])).toEqual([[["forget"], "forgot_because_lifecycle_destroy_in_config"]]);

    const destroyed = await runCommand(destroyCommand, ["-no-color", "-auto-approve"], dir);
    expect(destroyed.code).toBe(1);
    expect(destroyed.stderr).toContain(FORGET_ERROR);
    expect(destroyed.stdout).not.toContain("Destroy complete!");
    expect(state(dir).resources).toEqual([]);
  });

  it("destroy -suppress-forget-errors succeeds, counting only what it destroyed", async () => {
    const { dir } = workDir({ "main.tf": `${config("1")}resource "terraform_data" "b" {\n  input = "y"\n}\n` });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const d = await runCommand(destroyCommand, ["-no-color", "-auto-approve", "-suppress-forget-errors"], dir);
    expect(d.stderr).toBe("");
    expect(d.code).toBe(0);
    expect(d.stdout).toContain("Plan: 0 to add, 0 to change, 1 to destroy, 1 to forget.");
    expect(d.stdout).toContain("\nDestroy complete! Resources: 1 destroyed.\n");
    // Forgetting prints no progress line (tofu's UiHook has no forget hooks).
    expect(d.stdout).not.toMatch(/terraform_data\.a: (?!Refreshing state)/);
    expect(state(dir).resources).toEqual([]);
    // plan has no such flag (arguments.ParsePlan).
    const p = await runCommand(planCommand, ["-no-color", "-destroy", "-suppress-forget-errors"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Failed to parse command-line flags");
  });

  it("-json destroy reports the forgotten count in its change summary", async () => {
    const { dir } = workDir({ "main.tf": `${config("1")}resource "terraform_data" "b" {\n  input = "y"\n}\n` });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const failing = await runCommand(destroyCommand, ["-json", "-auto-approve"], dir);
    expect(failing.code).toBe(1);
    const diags = messages(failing.stdout, "diagnostic").map((m) => (m["diagnostic"] as { summary: string }).summary);
    expect(diags).toEqual(["Destroy was successful but left behind forgotten instances"]);
    expect(messages(failing.stdout, "change_summary").map((m) => m["@message"])).toEqual(["Plan: 0 to add, 0 to change, 1 to destroy, 1 to forget."]);

    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const d = await runCommand(destroyCommand, ["-json", "-auto-approve", "-suppress-forget-errors"], dir);
    expect(d.code).toBe(0);
    const summaries = messages(d.stdout, "change_summary").map((m) => [m["@message"], m["changes"]]);
    expect(summaries).toEqual([
      ["Plan: 0 to add, 0 to change, 1 to destroy, 1 to forget.", { add: 0, change: 0, import: 0, remove: 1, forget: 1, operation: "plan" }],
      ["Destroy complete! Resources: 1 destroyed.", { add: 0, change: 0, import: 0, remove: 1, forget: 1, operation: "destroy" }],
    ]);
  });

  it("forgets an object whose block is gone when the state recorded skip_destroy", async () => {
    const { dir } = workDir({ "main.tf": config("1") });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "main.tf"), "");
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.code).toBe(2);
    expect(p.stdout).toContain(
      "  # terraform_data.a will be removed from the OpenTofu state but will not be destroyed \n (because lifecycle.destroy = false was configured before this resource was removed from the configuration)",
    );
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("\nApply complete! Resources: 0 added, 0 changed, 0 destroyed, 1 forgotten.\n");
    expect(state(dir).resources).toEqual([]);
  });

  it("-json apply counts what a removed block forgot", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\n' });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "main.tf"), "removed {\n  from = terraform_data.a\n}\n");
    const a = await runCommand(applyCommand, ["-json", "-auto-approve"], dir);
    expect(a.code).toBe(0);
    expect(messages(a.stdout, "change_summary").map((m) => [m["@message"], m["changes"]])).toEqual([
      ["Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget.", { add: 0, change: 0, import: 0, remove: 0, forget: 1, operation: "plan" }],
      ["Apply complete! Resources: 0 added, 0 changed, 0 destroyed, 1 forgotten.", { add: 0, change: 0, import: 0, remove: 0, forget: 1, operation: "apply" }],
    ]);
    // Forgetting has no progress messages of its own (tofu's jsonHook has no forget hooks).
    expect(messages(a.stdout, "apply_start")).toEqual([]);
    expect(state(dir).resources).toEqual([]);
  });
});
