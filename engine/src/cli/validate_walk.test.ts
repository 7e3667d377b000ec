// validate evaluates the configuration as OpenTofu's validate walk does (core/validate_scope.ts):
// every input variable unknown, local values computed from each other, count and for_each
// checked where their values are known, module call arguments converted to the child's types,
// root outputs checked for sensitive values, and the graph checked for cycles. plan runs the same
// walk first. The expected texts are what terraform 1.11 prints for the same configurations.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { planCommand } from "./plan.js";
import { validateCommand } from "./validate.js";

async function initialised(files: Record<string, string>): Promise<string> {
  const { dir } = workDir(files);
  expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
  return dir;
}

async function refused(files: Record<string, string>, stderr: string): Promise<void> {
  const dir = await initialised(files);
  const v = await runCommand(validateCommand, ["-no-color"], dir);
  expect([v.code, v.stderr]).toEqual([1, stderr]);
  const p = await runCommand(planCommand, ["-no-color", "-input=false"], dir);
  expect([p.code, p.stdout, p.stderr]).toEqual([1, "", stderr]);
  expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
}

describe("the validate walk", () => {
  it("reports a negative count", async () => {
    await refused({"main.tf": "resource \"terraform_data\" \"a\" {\n  count = -1\n}\n"}, "\nError: Invalid count argument\n\n  on main.tf line 2, in resource \"terraform_data\" \"a\":\n   2:   count = -1\n\nThe given \"count\" argument value is unsuitable: must be greater than or equal\nto zero.\n");
  });

  it("reports a sensitive for_each, unknown as validate sees every variable", async () => {
    await refused({"main.tf": "variable \"s\" {\n  type      = set(string)\n  sensitive = true\n  default   = [\"a\"]\n}\nresource \"terraform_data\" \"a\" {\n  for_each = var.s\n}\n"}, "\nError: Invalid for_each argument\n\n  on main.tf line 7, in resource \"terraform_data\" \"a\":\n   7:   for_each = var.s\n    ├────────────────\n    │ var.s has a sensitive value\n\nSensitive values, or values derived from sensitive values, cannot be used as\nfor_each arguments. If used, the sensitive value could be exposed as a\nresource instance key.\n");
  });

  it("reports a local value computed from another one", async () => {
    await refused({"main.tf": "locals {\n  a = 1\n  b = local.a.x\n}\n"}, "\nError: Unsupported attribute\n\n  on main.tf line 3, in locals:\n   3:   b = local.a.x\n    ├────────────────\n    │ local.a is 1\n\nCan't access attributes on a primitive-typed value (number).\n");
  });

  it("reports a module call argument of the wrong type for the child's variable", async () => {
    await refused({"m/main.tf": "variable \"n\" {\n  type = number\n}\n", "main.tf": "module \"m\" {\n  source = \"./m\"\n  n      = \"abc\"\n}\n"}, "\nError: Invalid value for input variable\n\n  on main.tf line 3, in module \"m\":\n   3:   n      = \"abc\"\n\nThe given value is not suitable for module.m.var.n declared at\nm/main.tf:1,1-13: a number is required.\n");
  });

  it("reports an attribute of a module call with count, a list of objects", async () => {
    await refused({"m/main.tf": "output \"x\" {\n  value = 1\n}\n", "main.tf": "module \"m\" {\n  source = \"./m\"\n  count  = 2\n}\noutput \"o\" {\n  value = module.m.x\n}\n"}, "\nError: Unsupported attribute\n\n  on main.tf line 6, in output \"o\":\n   6:   value = module.m.x\n    ├────────────────\n    │ module.m is a list of object\n\nCan't access attributes on a list of objects. Did you mean to access\nattribute \"x\" for a specific element of the list, or across all elements of\nthe list?\n");
  });

  it("reports a missing key of a map local", async () => {
    await refused({"main.tf": "locals {\n  m = { a = 1 }\n}\noutput \"o\" {\n  value = local.m[\"b\"]\n}\n"}, "\nError: Invalid index\n\n  on main.tf line 5, in output \"o\":\n   5:   value = local.m[\"b\"]\n    ├────────────────\n    │ local.m is object with 1 attribute \"a\"\n\nThe given key does not identify an element in this collection value.\n");
  });

  it("reports a module call's for_each of the wrong type", async () => {
    await refused({"m/main.tf": "", "main.tf": "module \"m\" {\n  source   = \"./m\"\n  for_each = [\"a\"]\n}\n"}, "\nError: Invalid for_each argument\n\n  on main.tf line 3, in module \"m\":\n   3:   for_each = [\"a\"]\n\nThe given \"for_each\" argument value is unsuitable: the \"for_each\" argument\nmust be a map, or set of strings, and you have provided a value of type\ntuple.\n");
  });

  it("reports a cycle between local values before evaluating anything", async () => {
    const dir = await initialised({ "main.tf": "locals {\n  a = local.b\n  b = local.a\n}\n" });
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    // terraform lists the members in either order.
    expect(v.stderr).toMatch(/^\nError: Cycle: local\.(a|b) \(expand\), local\.(a|b) \(expand\)\n\n$/);
  });

  it("reports a root output holding a sensitive variable's value", async () => {
    const dir = await initialised({ "main.tf": 'variable "s" {\n  default   = "x"\n  sensitive = true\n}\noutput "o" {\n  value = var.s\n}\n' });
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('\nError: Output refers to sensitive values\n\n  on main.tf line 5:\n   5: output "o" {\n');
  });

  it("passes what only the inputs' values could make wrong, and reports a failed local once", async () => {
    const ok = await initialised({
      "main.tf": 'variable "n" {\n  type = number\n}\nvariable "m" {\n  type = map(string)\n}\nlocals {\n  twice = var.n * 2\n}\nresource "terraform_data" "a" {\n  count = local.twice\n}\nresource "terraform_data" "b" {\n  for_each = var.m\n}\n',
    });
    const v = await runCommand(validateCommand, ["-no-color"], ok);
    expect([v.code, v.stdout, v.stderr]).toEqual([0, "Success! The configuration is valid.\n\n", ""]);
    const bad = await initialised({ "main.tf": 'locals {\n  a = 1 + "x"\n  b = local.a * 2\n}\noutput "o" {\n  value = local.b\n}\n' });
    const r = await runCommand(validateCommand, ["-no-color"], bad);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/Error: /g)?.length).toBe(1);
    expect(r.stderr).toContain("Unsuitable value for right operand: a number is required.");
  });

  // Regression: indexing an object by a variable without a type (unknown of any type here) gave
  // an unknown of the object's own type, so `.cidr` was looked up on the whole map.
  it("passes an attribute of an object local indexed by an untyped variable, then plans it", async () => {
    const dir = await initialised({
      "main.tf": 'variable "env" {\n  default = "dev"\n}\nlocals {\n  envs = {\n    dev  = { cidr = "10.0.0.0/16" }\n    prod = { cidr = "10.1.0.0/16" }\n  }\n}\noutput "cidr" {\n  value = local.envs[var.env].cidr\n}\n',
    });
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect([v.code, v.stderr]).toEqual([0, ""]);
    const p = await runCommand(planCommand, ["-no-color", "-input=false", "-var", "env=prod"], dir);
    expect(p.stderr).toBe("");
    expect(p.stdout).toContain('+ cidr = "10.1.0.0/16"');
  });
});
