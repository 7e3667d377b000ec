// The apply progress lines of imports and provisioners, as tofu prints them (views/hook_ui.go and
// views/apply.go): "Importing..."/"Import complete", "Provisioning with '…'...", the provisioner's
// output prefixed with "(local-exec)", and imports counted in "Apply complete!".
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";

const MAIN = `import {
  to = terraform_data.b
  id = "abc"
}
resource "terraform_data" "b" {
}
resource "terraform_data" "a" {
  input = "x"
  provisioner "local-exec" {
    command = "echo hi \${self.input}; echo; echo there"
  }
}
`;

describe("apply progress lines", () => {
  it("prints import and provisioner lines and counts imports", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-parallelism=1"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    const lines = a.stdout.split("\n");
    const from = lines.indexOf("terraform_data.b: Importing... [id=abc]");
    expect(from).toBeGreaterThan(0);
    expect(lines[from + 1]).toBe("terraform_data.b: Import complete [id=abc]");
    const prov = lines.indexOf("terraform_data.a: Provisioning with 'local-exec'...");
    expect(lines.slice(prov, prov + 6)).toEqual([
      "terraform_data.a: Provisioning with 'local-exec'...",
      `terraform_data.a (local-exec): Executing: ["/bin/sh" "-c" "echo hi x; echo; echo there"]`,
      "terraform_data.a (local-exec): hi x",
      "",
      "terraform_data.a (local-exec): there",
      expect.stringMatching(/^terraform_data\.a: Creation complete after \ds \[id=/),
    ]);
    expect(a.stdout).toContain("Apply complete! Resources: 1 imported, 1 added, 0 changed, 0 destroyed.");
  });

  it("a failing provisioner reports its error and no completion line", async () => {
    const { dir } = workDir({ "main.tf": `resource "terraform_data" "a" {\n  provisioner "local-exec" {\n    command = "exit 2"\n  }\n}\n` });
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(1);
    expect(a.stdout).not.toContain("Creation complete");
    expect(a.stderr).toContain("Error: local-exec provisioner error");
    expect(a.stderr).toContain("Error running command 'exit 2': exit status 2. Output:");
  });
});

// An update planned with unknowns (b follows a's replacement) that come out as b's prior values
// is a NoOp at apply (tofu's plan at apply, reducePlan): not announced, applied or counted. A
// replacement is reported as a create beside its destroy, in text and in -json.
describe("apply re-plans each change", () => {
  const CHAIN = `variable "t" {\n  default = 1\n}\nresource "terraform_data" "a" {\n  input            = "same"\n  triggers_replace = var.t\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n`;

  it("skips an update whose unknowns resolved to the prior values", async () => {
    const { dir } = workDir({ "main.tf": CHAIN });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-var=t=2"], dir);
    expect(a.code).toBe(0);
    // With -auto-approve the progress follows the summary line at once, as tofu prints it.
    expect(a.stdout).toContain("Plan: 1 to add, 1 to change, 1 to destroy.\nterraform_data.a: Destroying...");
    expect(a.stdout).not.toContain("terraform_data.b: Modifying");
    expect(a.stdout).not.toContain("terraform_data.b: Modifications complete");
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
  });

  it("reports a replacement as a destroy and a create in -json, counted once each", async () => {
    const { dir } = workDir({ "main.tf": CHAIN });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-json", "-auto-approve", "-replace=terraform_data.a"], dir);
    expect(a.code).toBe(0);
    const msgs = a.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; hook?: { action?: string; resource: { addr: string } }; changes?: Record<string, number> });
    const hooks = msgs.filter((m) => m.type === "apply_start" || m.type === "apply_complete").map((m) => `${m.type} ${m.hook?.resource.addr} ${m.hook?.action}`);
    expect(hooks).toEqual(["apply_start terraform_data.a delete", "apply_complete terraform_data.a delete", "apply_start terraform_data.a create", "apply_complete terraform_data.a create"]);
    const summary = msgs.find((m) => m.type === "change_summary" && m.changes && "remove" in m.changes && msgs.indexOf(m) > msgs.findIndex((x) => x.type === "apply_start"));
    expect(summary?.changes).toMatchObject({ add: 1, change: 0, remove: 1 });
  });
});
