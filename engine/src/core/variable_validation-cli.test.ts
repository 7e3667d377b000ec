// Child module variables' validation rules, which may refer to the module's other variables and
// local values: they run in a node of their own (OpenTofu's nodeVariableValidation) after the
// variable and everything the rules refer to, in each module instance, and a failure points at
// the module call's argument. The single-rule case prints what terraform 1.11 prints for it; two
// rules referring to each other's variables are a dependency cycle in terraform 1.11, and are
// checked here. A root variable's rules that refer to more than variables run in the walk too
// (terraform 1.11 lets the root case below pass unseen: its rule sees the local unknown).
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { planCommand } from "../cli/plan.js";

async function plan(files: Record<string, string>) {
  const { dir } = workDir(files);
  expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
  return runCommand(planCommand, ["-no-color"], dir);
}

/** A module whose variable a must be below its variable b. */
const A_BELOW_B = `variable "a" {
  type = number
  validation {
    condition     = var.a < var.b
    error_message = "a must be less than b."
  }
}
variable "b" {
  type = number
}
output "sum" { value = var.a + var.b }
`;

describe("child module variable validation", () => {
  it("sees the module's other variables once they are set, and points at the call's argument", async () => {
    const r = await plan({
      "main.tf": `module "c" {
  source = "./child"
  a      = 5
  b      = 3
}
`,
      "child/main.tf": A_BELOW_B,
    });
    expect(r.code).toBe(1);
    // terraform 1.11's text, byte for byte.
    expect(r.stderr).toBe(`
Error: Invalid value for variable

  on main.tf line 3, in module "c":
   3:   a      = 5
    ├────────────────
    │ var.a is 5
    │ var.b is 3

a must be less than b.

This was checked by the validation rule at child/main.tf:3,3-13.
`);
  });

  it("checks each module instance with its own values, against locals too, and allows rules that refer to each other", async () => {
    const r = await plan({
      "main.tf": `module "ok" {
  source = "./child"
  a      = 1
  b      = 2
}
module "each" {
  source   = "./child"
  for_each = { x = 5, y = 0 }
  a        = each.value
  b        = 3
}
`,
      "child/main.tf": `variable "a" {
  type = number
  validation {
    condition     = var.a < var.b
    error_message = "a (\${var.a}) must be less than b."
  }
  validation {
    condition     = var.a <= local.limit
    error_message = "a must be at most \${local.limit}."
  }
}
variable "b" {
  type = number
  validation {
    condition     = var.b > var.a
    error_message = "b must be greater than a."
  }
}
locals {
  limit = var.b + 1
}
`,
    });
    expect(r.code).toBe(1);
    const failures = [...r.stderr.matchAll(/^Error: Invalid value for variable\n\n {2}on main\.tf line (\d+)[\s\S]*?\n\n(.*)\n\nThis was checked/gm)].map((m) => `${m[1]}: ${m[2]}`);
    // Only module.each["x"] (a = 5, b = 3) fails: its a against b and its b against a, while
    // a <= local.limit (4) fails too; module.ok and module.each["y"] pass.
    expect(failures.sort()).toEqual(["10: b must be greater than a.", "9: a (5) must be less than b.", "9: a must be at most 4."]);
    expect(r.stderr).not.toContain("Cycle");
  });

  it("passes values that satisfy the rules", async () => {
    const r = await plan({
      "main.tf": `module "c" {
  source = "./child"
  a      = 1
  b      = 3
}
output "sum" {
  value = module.c.sum
}
`,
      "child/main.tf": A_BELOW_B,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("+ sum = 4");
  });

  it("checks a root variable's rule that refers to a local value in the walk, once the local is known", async () => {
    const files = {
      "main.tf": `variable "r" {
  type    = number
  default = 5
  validation {
    condition     = var.r < local.limit
    error_message = "r must be less than \${local.limit}."
  }
  validation {
    condition     = var.r > 0
    error_message = "r must be positive."
  }
}
locals {
  limit = 3
}
`,
    };
    const r = await plan(files);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`
Error: Invalid value for variable

  on main.tf line 1:
   1: variable "r" {
    ├────────────────
    │ local.limit is 3
    │ var.r is 5

r must be less than 3.

This was checked by the validation rule at main.tf:4,3-13.
`);
    // The rule on the variable alone still runs before the walk, with the root variables.
    const { dir } = workDir(files);
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const neg = await runCommand(planCommand, ["-no-color", "-var", "r=-1"], dir);
    expect(neg.code).toBe(1);
    expect(neg.stderr).toContain("r must be positive.");
    expect(neg.stderr).not.toContain("r must be less than");
    expect((await runCommand(planCommand, ["-no-color", "-var", "r=2"], dir)).code).toBe(0);
  });
});
