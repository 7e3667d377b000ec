// Ephemeral resources through the CLI with the bundled `hashicorp/random` provider as a real
// plugin process (gRPC): `ephemeral "random_password"` is opened and closed in plan and again in
// apply with OpenTofu's UiHook lines, feeds a provisioner (whose output is then suppressed), and
// neither the saved plan nor the state holds anything of it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, useProvidersFromSource, workDir } from "../cli/clitest.testkit.js";
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
  useProvidersFromSource();

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

  it("reports opening and closing in -json output with OpenTofu's message types", { timeout: 30_000 }, async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const p = await runCommand(planCommand, ["-json"], dir);
    expect(p.code).toBe(0);
    const msgs = p.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { "@level": string; "@message": string; type: string; hook?: { resource: { addr: string; resource_type: string }; Msg: string } })
      .filter((m) => m.type.startsWith("ephemeral_"));
    expect(msgs.map((m) => [m.type, m["@message"], m.hook?.Msg])).toEqual([
      ["ephemeral_action_started", "ephemeral.random_password.db: Opening...", "Opening..."],
      ["ephemeral_action_complete", "ephemeral.random_password.db: Open complete", "Open complete"],
      ["ephemeral_action_started", "ephemeral.random_password.db: Closing...", "Closing..."],
      ["ephemeral_action_complete", "ephemeral.random_password.db: Close complete", "Close complete"],
    ]);
    expect(msgs.every((m) => m["@level"] === "info" && m.hook?.resource.addr === "ephemeral.random_password.db" && m.hook.resource.resource_type === "random_password")).toBe(true);
    // The payload keeps Go's field order: the resource, then the step's words.
    const line = p.stdout.split("\n").find((l) => l.includes('"ephemeral_action_started"')) ?? "";
    expect(line).toMatch(/"hook":\{"resource":\{"addr":"ephemeral\.random_password\.db",.*\},"Msg":"Opening\.\.\."\}/);
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
        "Error: Ephemeral value used in non-ephemeral context",
        "",
        "  with terraform_data.user,",
        '  on main.tf line 13, in resource "terraform_data" "user":',
        "  13:   input = ephemeral.random_password.db.result",
        "",
        'Attribute ".input" is referencing an ephemeral value but ephemeral values can',
        "be referenced only by other ephemeral attributes or by write-only ones.",
      ].join("\n"),
    );
  });
});
