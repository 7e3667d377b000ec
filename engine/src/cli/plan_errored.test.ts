// A plan that fails part-way is shown before its errors when it planned anything (OpenTofu's
// local backend renders the partial plan: "planned the following actions, but then encountered a
// problem"), in plan, apply and -json; with nothing to show but child module outputs, only the
// "Planning failed" header; `plan -out` saves the errored plan, which `show` shows and `apply`
// refuses. The expected texts are what terraform 1.11 prints for the same configurations, with
// OpenTofu's name.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { validateCommand } from "./validate.js";

const FAILING = {
  "main.tf": `resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  input = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.input == "z"
      error_message = "nope."
    }
  }
}
output "o" { value = "x" }
`,
};

const PARTIAL_PLAN = `
OpenTofu used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create

OpenTofu planned the following actions, but then encountered a problem:

  # terraform_data.a will be created
  + resource "terraform_data" "a" {
      + id     = (known after apply)
      + input  = "a"
      + output = (known after apply)
    }

Plan: 1 to add, 0 to change, 0 to destroy.

Changes to Outputs:
  + o = "x"
`;

const PRECONDITION_ERROR = `
Error: Resource precondition failed

  on main.tf line 8, in resource "terraform_data" "b":
   8:       condition     = terraform_data.a.input == "z"
    ├────────────────
    │ terraform_data.a.input is "a"

nope.
`;

async function dir(files: Record<string, string>): Promise<string> {
  const { dir } = workDir(files);
  expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
  return dir;
}

describe("a plan that failed part-way", () => {
  it("shows what was planned, then the error, in plan and in apply (which changes nothing)", async () => {
    const d = await dir(FAILING);
    const p = await runCommand(planCommand, ["-no-color"], d);
    expect(p.code).toBe(1);
    expect(p.stdout).toBe(PARTIAL_PLAN);
    expect(p.stderr).toBe(PRECONDITION_ERROR);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], d);
    expect(a.code).toBe(1);
    expect(a.stdout).toBe(PARTIAL_PLAN);
    expect(a.stderr).toBe(PRECONDITION_ERROR);
    expect(a.stdout).not.toContain("Apply complete");
  });

  it("emits the planned changes and the summary before the diagnostic in -json", async () => {
    const d = await dir(FAILING);
    const p = await runCommand(planCommand, ["-json"], d);
    expect(p.code).toBe(1);
    const messages = p.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; "@message": string })
      .map((m) => `${m.type}: ${m["@message"]}`);
    expect(messages.slice(1)).toEqual([
      "planned_change: terraform_data.a: Plan to create",
      "change_summary: Plan: 1 to add, 0 to change, 0 to destroy.",
      "outputs: Outputs: 1",
      "diagnostic: Error: Resource precondition failed",
    ]);
  });

  it("says planning failed when only child module outputs were planned", async () => {
    const d = await dir({
      "main.tf": `module "c" {
  source = "./child"
  a      = 5
}
`,
      "child/main.tf": `variable "a" {
  type = number
  validation {
    condition     = var.a < 3
    error_message = "a must be less than 3."
  }
}
output "double" { value = var.a * 2 }
`,
    });
    const p = await runCommand(planCommand, ["-no-color"], d);
    expect(p.code).toBe(1);
    expect(p.stdout).toBe("\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n");
    expect(p.stderr).toContain("a must be less than 3.");
  });

  it("with nothing planned: plan says planning failed and saves the errored plan, which show shows and apply refuses; apply shows nothing", async () => {
    const d = await dir({
      "main.tf": `variable "v" {
  default = "a"
}
resource "terraform_data" "b" {
  input = "b"
  lifecycle {
    precondition {
      condition     = var.v == "z"
      error_message = "nope."
    }
  }
}
`,
    });
    const FAILED = "\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n";
    const p = await runCommand(planCommand, ["-no-color", "-out=x.tfplan"], d);
    expect(p.code).toBe(1);
    expect(p.stdout).toBe(FAILED);
    expect(p.stderr).toContain("nope.");
    const shown = await runCommand(showCommand, ["-no-color", "x.tfplan"], d);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(FAILED);
    // As terraform 1.11 says of an errored plan: not applyable, and not complete.
    const json = JSON.parse((await runCommand(showCommand, ["-json", "x.tfplan"], d)).stdout) as Record<string, unknown>;
    expect([json["applyable"], json["complete"], json["errored"]]).toEqual([false, false, true]);
    const refused = await runCommand(applyCommand, ["-no-color", "x.tfplan"], d);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe("\nError: Cannot apply incomplete plan\n\nOpenTofu encountered an error when generating this plan, so it cannot be\napplied.\n");
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], d);
    expect(a.code).toBe(1);
    expect(a.stdout).toBe("");
    expect(a.stderr).toContain("nope.");
  });

  it("stops before planning, with validate's messages, when validate would reject a reference; -out writes no plan", async () => {
    const d = await dir({
      "main.tf": `resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = self.input == "x"
      error_message = "no"
    }
  }
}
resource "terraform_data" "b" {
  input = var.nope
}
`,
    });
    const p = await runCommand(planCommand, ["-no-color", "-out=x.tfplan"], d);
    expect(p.code).toBe(1);
    expect(p.stdout).toBe("");
    expect(p.stderr.match(/^Error: .*$/gm)).toEqual(['Error: Invalid "self" reference', "Error: Unknown variable", "Error: Reference to undeclared input variable"]);
    expect(existsSync(join(d, "x.tfplan"))).toBe(false);
  });

  it("a resource whose arguments refer to itself: validate passes, plan fails as the plan walk does (validateSelfRef)", async () => {
    const d = await dir({ "main.tf": 'resource "terraform_data" "a" {\n  input = terraform_data.a.id\n}\n' });
    const v = await runCommand(validateCommand, ["-no-color"], d);
    expect(v.code).toBe(0);
    const p = await runCommand(planCommand, ["-no-color"], d);
    expect(p.code).toBe(1);
    // terraform 1.11's texts: reported twice, as the reference names both the instance being
    // planned and its resource.
    expect(p.stdout).toBe("\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n");
    const one =
      '\nError: Self-referential block\n\n  on main.tf line 2, in resource "terraform_data" "a":\n   2:   input = terraform_data.a.id\n\nConfiguration for terraform_data.a may not refer to itself.\n';
    expect(p.stderr).toBe(one + one);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], d);
    expect(a.code).toBe(1);
    expect(existsSync(join(d, "terraform.tfstate"))).toBe(false);
  });

  it("instances of one resource referring to each other: the referring ones wait, or it is a cycle (terraform 1.11's texts)", async () => {
    const FAILED = "\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n";
    const counted = (input: string) => `resource "terraform_data" "b" {\n  count = 3\n  input = ${input}\n}\n`;
    // b[1] and b[2] wait for b[0], which refers to itself: nothing is planned.
    const waits = await dir({ "main.tf": counted("count.index == 1 ? terraform_data.b[0].id : null") });
    const w = await runCommand(planCommand, ["-no-color"], waits);
    expect([w.code, w.stdout, w.stderr]).toEqual([
      1,
      FAILED,
      '\nError: Self-referential block\n\n  on main.tf line 3, in resource "terraform_data" "b":\n   3:   input = count.index == 1 ? terraform_data.b[0].id : null\n\nConfiguration for terraform_data.b[0] may not refer to itself.\n',
    ]);
    // Two instances referring to each other, or an index only known per instance (the whole resource).
    for (const [input, cycle] of [
      ["[terraform_data.b[1].id, terraform_data.b[2].id]", "terraform_data.b[1], terraform_data.b[2]"],
      ['count.index > 0 ? terraform_data.b[count.index - 1].id : "root"', "terraform_data.b[0], terraform_data.b[1], terraform_data.b[2]"],
      ["length(terraform_data.b)", "terraform_data.b[0], terraform_data.b[1], terraform_data.b[2]"],
    ] as const) {
      const c = await runCommand(planCommand, ["-no-color"], await dir({ "main.tf": counted(input) }));
      expect([c.code, c.stdout, c.stderr]).toEqual([1, FAILED, `\nError: Cycle: ${cycle}\n\n`]);
    }
    // Other resources are unaffected: a chain across resources still plans.
    const chain = await dir({ "main.tf": `resource "terraform_data" "a" {\n  count = 2\n}\n${counted("terraform_data.a[0].id")}` });
    const ok = await runCommand(planCommand, ["-no-color"], chain);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("Plan: 5 to add, 0 to change, 0 to destroy.");
  });

  it("a root variable whose value does not convert or fails its validation rule: planning failed (the walk's first nodes)", async () => {
    const FAILED = "\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n";
    const d = await dir({
      "main.tf": 'variable "req" {\n  type = string\n}\nvariable "n" {\n  type    = number\n  default = 1\n}\noutput "o" {\n  value = "${var.req}-${var.n}"\n}\n',
    });
    const p = await runCommand(planCommand, ["-no-color", "-input=false", "-var", "req=a", "-var", "n=abc"], d);
    expect([p.code, p.stdout, p.stderr]).toEqual([
      1,
      FAILED,
      '\nError: Invalid value for input variable\n\n  on main.tf line 4:\n   4: variable "n" {\n\nUnsuitable value for var.n set using -var="n=...": a number is required.\n',
    ]);
    const v = await dir({
      "main.tf": 'variable "b" {\n  type    = number\n  default = 2\n  validation {\n    condition     = var.b > 5\n    error_message = "b must be > 5, got ${var.b}."\n  }\n}\n',
    });
    const pv = await runCommand(planCommand, ["-no-color", "-input=false"], v);
    expect([pv.code, pv.stdout, pv.stderr]).toEqual([
      1,
      FAILED,
      '\nError: Invalid value for variable\n\n  on main.tf line 1:\n   1: variable "b" {\n    ├────────────────\n    │ var.b is 2\n\nb must be > 5, got 2.\n\nThis was checked by the validation rule at main.tf:4,3-13.\n',
    ]);
  });
  // OpenTofu's NodeRootVariable converts and validates in the walk: what does not refer to the
  // variable is still planned, a -target that does not need it leaves it out, and so does a
  // destroy with nothing that needs it (pruneUnusedNodesTransformer). terraform 1.11 prints the
  // same for each.
  it("a root variable failing its rule stops only what refers to it", async () => {
    const d = await dir({
      "main.tf": 'variable "b" {\n  type    = number\n  default = 2\n  validation {\n    condition     = var.b > 5\n    error_message = "b must be > 5, got ${var.b}."\n  }\n}\nresource "terraform_data" "uses" {\n  input = var.b\n}\nresource "terraform_data" "other" {\n  input = "x"\n}\noutput "o" {\n  value = terraform_data.other.input\n}\n',
    });
    const error = '\nError: Invalid value for variable\n\n  on main.tf line 1:\n   1: variable "b" {\n    ├────────────────\n    │ var.b is 2\n\nb must be > 5, got 2.\n\nThis was checked by the validation rule at main.tf:4,3-13.\n';
    const p = await runCommand(planCommand, ["-no-color", "-input=false"], d);
    expect([p.code, p.stderr]).toEqual([1, error]);
    expect(p.stdout).toContain("OpenTofu planned the following actions, but then encountered a problem:");
    expect(p.stdout).toContain("# terraform_data.other will be created");
    expect(p.stdout).not.toContain("terraform_data.uses");
    expect(p.stdout).toContain('+ o = "x"');
    const targeted = await runCommand(planCommand, ["-no-color", "-input=false", "-target=terraform_data.other"], d);
    expect([targeted.code, targeted.stderr]).toEqual([0, ""]);
    expect(targeted.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    const needed = await runCommand(planCommand, ["-no-color", "-input=false", "-target=terraform_data.uses"], d);
    expect([needed.code, needed.stderr]).toEqual([1, error]);
    const destroy = await runCommand(planCommand, ["-no-color", "-input=false", "-destroy"], d);
    expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
    expect(destroy.stdout).toContain("No changes. No objects need to be destroyed.");
  });
});
