// Applying a saved plan with variables, as OpenTofu 1.11 does: an ephemeral variable's value is
// never written into the plan file, so apply must be given it again; other values given to apply
// must agree with what the plan recorded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { builtinSchemas } from "../plans/fromtf.testkit.js";
import { decodeTfplan, resourceTypeLookup } from "../plans/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";

const CONFIG = {
  "main.tf": `variable "token" {
  type      = string
  ephemeral = true
}
variable "plain" {
  type    = string
  default = "p"
}
locals {
  token_length = length(var.token)
}
resource "terraform_data" "a" {
  input = var.plain
}
`,
};

describe("applying a saved plan with variables", () => {
  it("leaves an ephemeral variable's value out of the plan file and needs it again to apply", async () => {
    const { dir } = workDir(CONFIG);
    const p = await runCommand(planCommand, ["-no-color", "-out=p.tfplan", "-var=token=very-secret"], dir);
    expect(p.code).toBe(0);
    const bytes = readFileSync(path.join(dir, "p.tfplan"));
    expect(Buffer.from(bytes).includes("very-secret")).toBe(false);
    const tfplan = unzipSync(bytes)["tfplan"];
    expect(tfplan).toBeDefined();
    const decoded = decodeTfplan(tfplan as Uint8Array, resourceTypeLookup(builtinSchemas));
    expect(decoded.plan.ephemeralVariables).toEqual(["token"]);
    expect([...decoded.plan.variableValues.keys()]).toEqual([]);

    const missing = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      '\nError: No value for required variable\n\n  on main.tf line 1:\n   1: variable "token" {\n\nVariable "token" is configured as ephemeral. This type of variables need to\nbe given a value during `tofu plan` and also during `tofu apply`.\n',
    );
    const applied = await runCommand(applyCommand, ["-no-color", "-var=token=another", "p.tfplan"], dir);
    expect(applied.stderr).toBe("");
    expect(applied.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
  });

  it("refuses a value that differs from the one the plan recorded, and one for a variable the configuration lacks", async () => {
    const { dir } = workDir(CONFIG);
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan", "-var=token=t", "-var=plain=q"], dir)).code).toBe(0);
    const r = await runCommand(applyCommand, ["-no-color", "-var=token=t", "-var=plain=other", "p.tfplan"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("\nError: Mismatch between input and plan variable value\n\nValue saved in the plan file for variable \"plain\" is different from the one\ngiven to the current command.\n");
    const undeclared = await runCommand(applyCommand, ["-no-color", "-var=token=t", "-var=nope=1", "p.tfplan"], dir);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain("Error: Value for undeclared variable");
    const same = await runCommand(applyCommand, ["-no-color", "-var=token=t", "-var=plain=q", "p.tfplan"], dir);
    expect(same.stdout).toContain("Apply complete!");
  });

  it("records the schema's sensitive attributes on a replacement only once applied, as OpenTofu plans them", async () => {
    const { dir } = workDir({
      "main.tf": 'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}\nvariable "l" {\n  default = 10\n}\nresource "random_password" "p" {\n  length = var.l\n}\n',
    });
    const { initCommand } = await import("./init.js");
    const { showCommand } = await import("./show.js");
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const sensitive = async (file: string): Promise<unknown[]> => {
      const doc = JSON.parse((await runCommand(showCommand, ["-json", file], dir)).stdout) as {
        planned_values: { root_module: { resources: Array<{ sensitive_values: unknown }> } };
        resource_changes: Array<{ change: { after_sensitive: unknown } }>;
      };
      return [doc.planned_values.root_module.resources[0]?.sensitive_values, doc.resource_changes[0]?.change.after_sensitive];
    };
    expect((await runCommand(planCommand, ["-no-color", "-out=create.tfplan"], dir)).code).toBe(0);
    expect(await sensitive("create.tfplan")).toEqual([{ bcrypt_hash: true, result: true }, { bcrypt_hash: true, result: true }]);
    expect((await runCommand(applyCommand, ["-no-color", "create.tfplan"], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color", "-var=l=12", "-out=replace.tfplan"], dir)).code).toBe(0);
    // terraform 1.11 shows its own plan for this replacement the same way.
    expect(await sensitive("replace.tfplan")).toEqual([{}, { bcrypt_hash: true, result: true }]);
  }, 60_000);
});
