import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";

const MAIN = `variable "name" {
  default = "world"
}

resource "terraform_data" "a" {
  input = "hello \${var.name}"
}

resource "terraform_data" "b" {
  count = 2
  input = "\${terraform_data.a.output}-\${count.index}"
}

output "greeting" {
  value = terraform_data.a.output
}
`;

function stateOf(dir: string): { resources: Array<{ name: string; instances: Array<{ attributes: { input: { value: string } } }> }>; outputs: Record<string, { value: unknown }> } {
  return JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
}

describe("terrace plan / apply / destroy", () => {
  it("plans, applies with -auto-approve, then plans no changes", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("  # terraform_data.a will be created");
    expect(p.stdout).toContain("Plan: 3 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain(`Note: You didn't use the -out option to save this plan`);

    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("terraform_data.a: Creating...");
    expect(a.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
    expect(a.stdout).toContain('greeting = "hello world"');
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello world");

    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("terraform_data.a: Refreshing state... [id=");
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");
    const noRefresh = await runCommand(planCommand, ["-no-color", "-refresh=false"], dir);
    expect(noRefresh.stdout).not.toContain("Refreshing state");
  });

  it("asks for approval and only 'yes' applies", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const no = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "no\n" });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain("Do you want to perform these actions?");
    expect(no.stdout).toContain("Apply cancelled.");
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const yes = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "yes\n" });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("Apply complete! Resources: 3 added");
  });

  it("saves a plan with -out and applies exactly that plan", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const p = await runCommand(planCommand, ["-no-color", "-out=p.tfplan", "-var", "name=saved"], dir);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("Saved the plan to: p.tfplan");
    // The saved plan carries its configuration: later edits do not change what it applies.
    writeFileSync(path.join(dir, "main.tf"), MAIN.replace('"hello ', '"bye '));
    const a = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello saved");
  });

  it("refuses a saved plan once the state has changed since it was made, as tofu does", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(planCommand, ["-no-color", "-out=first.tfplan", "-var", "name=a"], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color", "-out=second.tfplan", "-var", "name=a"], dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-no-color", "first.tfplan"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const stale = await runCommand(applyCommand, ["-no-color", "second.tfplan"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      "\nError: Saved plan is stale\n\nThe given plan file can no longer be applied because the state was changed by\nanother operation after the plan was created.\n",
    );
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    // A plan made from this state applies; one made from another state's lineage does not.
    expect((await runCommand(planCommand, ["-no-color", "-out=third.tfplan", "-var", "name=b"], dir)).code).toBe(0);
    const st = JSON.parse(before) as { lineage: string };
    writeFileSync(path.join(dir, "terraform.tfstate"), before.replace(st.lineage, "00000000-0000-0000-0000-000000000000"));
    const other = await runCommand(applyCommand, ["-no-color", "third.tfplan"], dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("Error: Saved plan does not match the given state");
  });

  it("takes -var-file values and destroys everything", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "x.tfvars": 'name = "file"\n' });
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-var-file=x.tfvars"], dir);
    expect(a.code).toBe(0);
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello file");
    const d = await runCommand(destroyCommand, ["-no-color", "-auto-approve", "-var-file=x.tfvars"], dir);
    expect(d.stderr).toBe("");
    expect(d.code).toBe(0);
    expect(d.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    expect(stateOf(dir).resources).toEqual([]);
  });

  it("reports configuration errors with exit status 1", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = var.missing\n}\n' });
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Reference to undeclared input variable");
  });
});

describe("a bundled provider over the plugin protocol", () => {
  it("init locks it, apply creates through gRPC, and a second plan has no changes", async () => {
    const { initCommand } = await import("./init.js");
    const { dir } = workDir({
      "main.tf": [
        'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}',
        'resource "random_id" "x" {\n  byte_length = 4\n}',
        'output "hex" {\n  value = random_id.x.hex\n}',
        "",
      ].join("\n"),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const hex = (stateOf(dir).outputs.hex?.value ?? "") as string;
    expect(hex).toMatch(/^[0-9a-f]{8}$/);
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("No changes. Your infrastructure matches the configuration.");
  }, 120_000);
});
