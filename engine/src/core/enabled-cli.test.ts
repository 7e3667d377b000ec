// OpenTofu 1.11's `lifecycle { enabled = ... }` on resources and module calls, through the CLI:
// true (or absent) is one instance without a key, false is none and the object evaluates to
// null, a disabled object in state is destroyed "because enabled is false", moving from
// `count = cond ? 1 : 0` needs no moved block, and evalchecks' errors for values that cannot
// decide (terraform 1.11 has no `enabled`, so the texts are OpenTofu's, from its source).
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir, writeFiles } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { outputCommand } from "../cli/output.js";
import { planCommand } from "../cli/plan.js";
import { showCommand } from "../cli/show.js";

const MAIN = `variable "on" {
  type    = bool
  default = true
}

resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    enabled = var.on
  }
}

module "m" {
  source = "./mod"
  lifecycle {
    enabled = var.on
  }
}

output "a" {
  value = terraform_data.a == null ? "none" : terraform_data.a.output
}

output "m" {
  value = module.m == null ? "none" : module.m.v
}
`;

const MOD = `resource "terraform_data" "b" {
  input = "y"
}

output "v" {
  value = terraform_data.b.output
}
`;

async function outputs(dir: string): Promise<Record<string, unknown>> {
  const r = await runCommand(outputCommand, ["-json"], dir);
  return Object.fromEntries(Object.entries(JSON.parse(r.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
}

describe("lifecycle enabled", () => {
  it("creates the single instance when true and destroys it when false, for resources and module calls", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "mod/main.tf": MOD });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.stdout).toContain("terraform_data.a: Creation complete");
    expect(a.stdout).toContain("module.m.terraform_data.b: Creation complete");
    expect(await outputs(dir)).toEqual({ a: "x", m: "y" });

    const p = await runCommand(planCommand, ["-no-color", "-var", "on=false", "-out=off.tfplan"], dir);
    expect(p.stderr).toBe("");
    expect(p.stdout).toContain("  # terraform_data.a will be destroyed\n  # (because enabled is false)");
    expect(p.stdout).toContain("Plan: 0 to add, 0 to change, 2 to destroy.");
    const show = JSON.parse((await runCommand(showCommand, ["-json", "off.tfplan"], dir)).stdout) as { resource_changes: { address: string; action_reason?: string }[] };
    expect(show.resource_changes.find((c) => c.address === "terraform_data.a")?.action_reason).toBe("delete_because_enabled_false");

    expect((await runCommand(applyCommand, ["-no-color", "off.tfplan"], dir)).code).toBe(0);
    // Disabled objects are null.
    expect(await outputs(dir)).toEqual({ a: "none", m: "none" });
  });

  it("takes over an instance made with count = cond ? 1 : 0 without a moved block", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  count = 1\n  input = "x"\n}\n' });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    writeFiles(dir, { "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n  lifecycle {\n    enabled = true\n  }\n}\n' });
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.stdout).toContain("  # terraform_data.a[0] has moved to terraform_data.a");
    expect(p.stdout).toContain("Plan: 0 to add, 0 to change, 0 to destroy.");
  });

  it("refuses count or for_each beside it, and values that cannot decide", async () => {
    const { dir } = workDir({
      "main.tf": `resource "terraform_data" "c" {
  count = 1
  lifecycle {
    enabled = true
  }
}

module "f" {
  source   = "./mod"
  for_each = toset(["a"])
  lifecycle {
    enabled = true
  }
}
`,
      "mod/main.tf": MOD,
    });
    const bad = await runCommand(planCommand, ["-no-color"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`Error: Invalid combination of "count" and "enabled"

  on main.tf line 4, in resource "terraform_data" "c":
   4:     enabled = true

The "count" and "enabled" meta-arguments are mutually-exclusive. Only one
should be used to be explicit about the number of resources to be created.`);
    expect(bad.stderr).toContain(`Error: Invalid combination of "for_each" and "enabled"`);
    expect(bad.stderr.replace(/\s+/g, " ")).toContain("the number of module instances to be created.");

    const cases: Array<[string, string]> = [
      // OpenTofu's newer go-cty adds ", but have number"; Terrace's conversion messages are
      // terraform 1.11's everywhere.
      ["1", 'The given "enabled" argument value is unsuitable: bool required'],
      ["null", 'The given "enabled" argument value is unsuitable: the given value is null.'],
      ['terraform_data.src.output == "a"', 'The given "enabled" argument value is derived from a value that won\'t be known until the apply phase, so OpenTofu cannot determine whether an instance of this object is declared or not.'],
      ["sensitive(true)", 'Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.'],
    ];
    for (const [expr, detail] of cases) {
      writeFiles(dir, {
        "main.tf": `resource "terraform_data" "src" {
  input = "a"
}

resource "terraform_data" "d" {
  lifecycle {
    enabled = ${expr}
  }
}
`,
      });
      const r = await runCommand(planCommand, ["-no-color"], dir);
      expect(r.code, expr).toBe(1);
      expect(r.stderr, expr).toContain("Error: Invalid enabled argument");
      expect(r.stderr.replace(/\n/g, " ").replace(/ +/g, " "), expr).toContain(detail);
    }
  });
});
