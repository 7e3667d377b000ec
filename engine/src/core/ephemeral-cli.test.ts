// Ephemeral resources through the CLI with the bundled `hashicorp/random` provider as a real
// plugin process (gRPC): `ephemeral "random_password"` is opened and closed in plan and again in
// apply with OpenTofu's UiHook lines, feeds a provisioner (whose output is then suppressed), and
// neither the saved plan nor the state holds anything of it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { planCommand } from "../cli/plan.js";
import { showCommand } from "../cli/show.js";
import { validateCommand } from "../cli/validate.js";

const MAIN = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

ephemeral "random_password" "db" {
  length  = 24
  special = false
}

resource "terraform_data" "user" {
  input = "app"
  provisioner "local-exec" {
    command = "printf %s '\${ephemeral.random_password.db.result}' > password.txt"
  }
}
`;

/** The lines about the ephemeral resource, as -no-color prints them. */
function ephemeralLines(stdout: string): string[] {
  return stdout.split("\n").filter((l) => l.startsWith("ephemeral."));
}

describe("ephemeral random_password through the CLI", () => {
  // The plugin from these sources, not from a dist/ that may predate its ephemeral resource.
  const before = process.env.TERRACE_PROVIDERS_FROM_SOURCE;
  beforeAll(() => {
    process.env.TERRACE_PROVIDERS_FROM_SOURCE = "1";
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TERRACE_PROVIDERS_FROM_SOURCE;
    else process.env.TERRACE_PROVIDERS_FROM_SOURCE = before;
  });

  // Three commands, each starting the plugin: slow on a loaded machine.
  it("opens and closes in plan and apply, and leaves nothing in the plan file or the state", { timeout: 60_000 }, async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.stderr).toBe("");
    expect(v.stdout).toContain("Success! The configuration is valid.");

    const p = await runCommand(planCommand, ["-no-color", "-out=saved.tfplan"], dir);
    expect(p.stderr).toBe("");
    expect(ephemeralLines(p.stdout)).toEqual([
      "ephemeral.random_password.db: Opening...",
      "ephemeral.random_password.db: Open complete after 0s",
      "ephemeral.random_password.db: Closing...",
      "ephemeral.random_password.db: Close complete after 0s",
    ]);
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).not.toContain("random_password.db will be");

    const a = await runCommand(applyCommand, ["-no-color", "saved.tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(ephemeralLines(a.stdout)).toEqual(ephemeralLines(p.stdout));
    expect(a.stdout).toContain("terraform_data.user (local-exec): (output suppressed due to ephemeral value in config)");
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");

    const password = readFileSync(path.join(dir, "password.txt"), "utf8");
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    // Dependencies name the ephemeral resource (as terraform's do); nothing of its value is kept.
    const state = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    expect(state).not.toContain(password);
    expect((JSON.parse(state) as { resources: Array<{ mode: string }> }).resources.map((r) => r.mode)).toEqual(["managed"]);
    const shown = await runCommand(showCommand, ["-json", "saved.tfplan"], dir);
    const plan = JSON.parse(shown.stdout) as { resource_changes: Array<{ address: string }>; planned_values: unknown };
    expect(plan.resource_changes.map((c) => c.address)).toEqual(["terraform_data.user"]);
    expect(JSON.stringify(plan.planned_values)).not.toContain("random_password");
  });

  it("refuses the password in an argument that is stored", { timeout: 30_000 }, async () => {
    const { dir } = workDir({
      "main.tf": MAIN.replace('input = "app"', "input = ephemeral.random_password.db.result"),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(
      [
        "Error: Invalid use of ephemeral value",
        "",
        "  with terraform_data.user,",
        '  on main.tf line 13, in resource "terraform_data" "user":',
        "  13:   input = ephemeral.random_password.db.result",
        "",
        'Ephemeral values are not valid for "input", because it is not a write-only',
        "attribute and must be persisted to state.",
      ].join("\n"),
    );
  });
});
