import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { FakeBackend } from "../states/httpbackend.testkit.js";
import { initCommand } from "./init.js";
import { applyCommand, destroyCommand } from "./apply.js";
import { outputCommand } from "./output.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { stateCommand } from "./state.js";
import { workspaceCommand } from "./workspace_command.js";

const MAIN = `resource "terraform_data" "a" {
  input = "a"
}
`;
const flat = (s: string): string => s.replace(/\s+/g, " ");

describe("terrace workspace", () => {
  it("lists, creates, selects and deletes local workspaces, and state commands follow the selection", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect(await runCommand(workspaceCommand, ["list"], dir)).toEqual({ code: 0, stdout: "* default\n\n", stderr: "" });
    expect(await runCommand(workspaceCommand, ["show"], dir)).toEqual({ code: 0, stdout: "default\n", stderr: "" });
    const created = await runCommand(workspaceCommand, ["new", "dev"], dir);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(
      'Created and switched to workspace "dev"!\n\nYou\'re now on a new, empty workspace. Workspaces isolate their state,\nso if you run "terrace plan" OpenTofu will not see any existing state\nfor this configuration.\n',
    );
    expect(readFileSync(path.join(dir, ".terraform/environment"), "utf8")).toBe("dev");
    expect(existsSync(path.join(dir, "terraform.tfstate.d/dev"))).toBe(true);
    expect(await runCommand(workspaceCommand, ["new", "dev"], dir)).toEqual({ code: 1, stdout: "", stderr: 'Workspace "dev" already exists\n' });
    expect((await runCommand(workspaceCommand, ["new", "bad name"], dir)).stderr).toContain('The workspace name "bad name" is not allowed.');
    expect((await runCommand(workspaceCommand, ["list"], dir)).stdout).toBe("  default\n* dev\n\n");

    // A state pushed in "dev" lands in terraform.tfstate.d/dev, and `state list` reads it there.
    const { dir: other } = workDir({ "main.tf": MAIN });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], other)).code).toBe(0);
    expect((await runCommand(stateCommand, ["push", path.join(other, "terraform.tfstate")], dir)).code).toBe(0);
    expect(existsSync(path.join(dir, "terraform.tfstate.d/dev/terraform.tfstate"))).toBe(true);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    expect((await runCommand(stateCommand, ["list"], dir)).stdout).toBe("terraform_data.a\n");

    expect(await runCommand(workspaceCommand, ["select", "default"], dir)).toEqual({ code: 0, stdout: 'Switched to workspace "default".\n', stderr: "" });
    expect((await runCommand(stateCommand, ["list"], dir)).stderr).toContain("No state file was found!");
    const nope = await runCommand(workspaceCommand, ["select", "nope"], dir);
    expect(nope.code).toBe(1);
    expect(nope.stderr).toContain('Workspace "nope" doesn\'t exist.');
    expect((await runCommand(workspaceCommand, ["select", "-or-create", "nope"], dir)).stdout).toContain('Created and switched to workspace "nope"!');
    const current = await runCommand(workspaceCommand, ["delete", "nope"], dir);
    expect(current.stderr).toBe('\nWorkspace "nope" is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch\nto another workspace and try again.\n');
    expect((await runCommand(workspaceCommand, ["select", "default"], dir)).code).toBe(0);
    const notEmpty = await runCommand(workspaceCommand, ["delete", "-no-color", "dev"], dir);
    expect(notEmpty.code).toBe(1);
    expect(flat(notEmpty.stderr)).toContain('Error: Workspace is not empty Workspace "dev" is currently tracking the following resource instances: - terraform_data.a');
    const forced = await runCommand(workspaceCommand, ["delete", "-force", "dev"], dir);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Deleted workspace "dev"!\nWARNING: "dev" was non-empty.');
    expect(existsSync(path.join(dir, "terraform.tfstate.d/dev"))).toBe(false);
    expect((await runCommand(workspaceCommand, ["delete", "nope"], dir)).stdout).toBe('Deleted workspace "nope"!\n');
    expect((await runCommand(workspaceCommand, ["list"], dir)).stdout).toBe("* default\n\n");
  });

  it("plan, apply, destroy, show and output work on the selected workspace's state", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = terraform.workspace\n}\noutput "ws" {\n  value = terraform_data.a.output\n}\n' });
    expect((await runCommand(workspaceCommand, ["new", "dev"], dir)).code).toBe(0);
    const applied = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('ws = "dev"');
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const st = JSON.parse(readFileSync(path.join(dir, "terraform.tfstate.d/dev/terraform.tfstate"), "utf8")) as { outputs: Record<string, { value: unknown }> };
    expect(st.outputs["ws"]?.value).toBe("dev");
    expect((await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir)).code).toBe(0);
    expect((await runCommand(outputCommand, ["-raw", "ws"], dir)).stdout).toBe("dev");
    expect((await runCommand(showCommand, ["-no-color"], dir)).stdout).toContain('input  = "dev"');
    // The default workspace has nothing yet: a plan there creates the object again.
    expect((await runCommand(workspaceCommand, ["select", "default"], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color"], dir)).stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect((await runCommand(workspaceCommand, ["select", "dev"], dir)).code).toBe(0);
    expect((await runCommand(destroyCommand, ["-auto-approve", "-no-color"], dir)).stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  }, 60_000);

  it("plan and apply read and write an http backend's state, holding its lock while applying", async () => {
    const backend = new FakeBackend();
    const url = await backend.start();
    onTestFinished(() => backend.stop());
    const { dir } = workDir({
      "main.tf": `terraform {\n  backend "http" {\n    address        = "${url}/state"\n    lock_address   = "${url}/state/lock"\n    unlock_address = "${url}/state/lock"\n  }\n}\n${MAIN}`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const applied = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const stored = JSON.parse(backend.state ?? "{}") as { resources?: Array<{ name: string }> };
    expect(stored.resources?.map((r) => r.name)).toEqual(["a"]);
    expect(backend.seen.map((r) => r.method)).toEqual(expect.arrayContaining(["LOCK", "GET", "POST", "UNLOCK"]));
    expect(backend.lock).toBeUndefined();
    expect((await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir)).code).toBe(0);
    expect((await runCommand(workspaceCommand, ["new", "dev"], dir)).stderr).toContain("workspaces not supported");
  }, 60_000);

  it("honours TF_WORKSPACE", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const env = { TF_WORKSPACE: "ci" };
    expect((await runCommand(workspaceCommand, ["show"], dir, { env })).stdout).toBe("ci\n");
    expect((await runCommand(workspaceCommand, ["select", "default"], dir, { env })).stderr).toContain("The selected workspace is currently overridden using the TF_WORKSPACE");
    expect((await runCommand(workspaceCommand, ["new", "other"], dir, { env })).stderr).toContain("You cannot create a new workspace when using this setting.");
    expect((await runCommand(workspaceCommand, ["new", "ci"], dir, { env })).code).toBe(0);
    expect((await runCommand(workspaceCommand, ["list"], dir, { env })).stdout).toContain("* ci\n\n\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n");
  });

  it("prints the usage for no or unknown subcommands", async () => {
    const { dir } = workDir({});
    const r = await runCommand(workspaceCommand, [], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("new, list, show, select and delete OpenTofu workspaces.");
    expect((await runCommand(workspaceCommand, ["new"], dir)).stderr).toBe("Expected a single argument: NAME.\n\n");
  });
});
