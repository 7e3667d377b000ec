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
