// plan and apply run the whole validate walk first, as OpenTofu's local backend does: a problem
// `validate` reports (a body against its schema, a provisioner's arguments, a provider alias
// nothing declares) stops them before anything is planned or changed. The expected texts are what
// terraform 1.11 prints for the same configurations, with OpenTofu's name.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { validateCommand } from "./validate.js";

async function refusedEverywhere(main: string, stderr: string): Promise<void> {
  const { dir } = workDir({ "main.tf": main });
  const v = await runCommand(validateCommand, ["-no-color"], dir);
  expect([v.code, v.stderr]).toEqual([1, stderr]);
  const p = await runCommand(planCommand, ["-no-color", "-input=false"], dir);
  expect([p.code, p.stdout, p.stderr]).toEqual([1, "", stderr]);
  const a = await runCommand(applyCommand, ["-no-color", "-input=false", "-auto-approve"], dir);
  expect([a.code, a.stdout, a.stderr]).toEqual([1, "", stderr]);
  expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
}

describe("plan and apply validate first", () => {
  it("an ignore_changes entry the resource type does not have", async () => {
    await refusedEverywhere(
      'resource "terraform_data" "a" {\n  lifecycle {\n    ignore_changes = [nope]\n  }\n}\n',
      '\nError: Unsupported attribute\n\n  on main.tf line 3, in resource "terraform_data" "a":\n   3:     ignore_changes = [nope]\n\nThis object has no argument, nested block, or exported attribute named\n"nope".\n',
    );
  });

  it("a local-exec provisioner without its command", async () => {
    await refusedEverywhere(
      'resource "terraform_data" "a" {\n  provisioner "local-exec" {\n  }\n}\n',
      '\nError: Missing required argument\n\n  on main.tf line 2, in resource "terraform_data" "a":\n   2:   provisioner "local-exec" {\n\nThe argument "command" is required, but no definition was found.\n',
    );
  });

  it("a provider alias that no provider block declares", async () => {
    await refusedEverywhere(
      'resource "terraform_data" "a" {\n  provider = terraform.foo\n}\n',
      '\nError: Provider configuration not present\n\nTo work with terraform_data.a its original provider configuration at\nprovider["terraform.io/builtin/terraform"].foo is required, but it has been\nremoved. This occurs when a provider configuration is removed while objects\ncreated by that provider still exist in the state. Re-add the provider\nconfiguration to destroy terraform_data.a, after which you can remove the\nprovider configuration again.\n',
    );
  });
});

describe("a module validated on its own (OpenTofu 1.11)", () => {
  const module = 'terraform {\n  required_providers {\n    terraform = {\n      source = "terraform.io/builtin/terraform"\n      configuration_aliases = [terraform.x]\n    }\n  }\n}\nresource "terraform_data" "a" {\n  provider = terraform.x\n}\n';

  it("validate takes its configuration_aliases as configured; plan still needs a configuration", async () => {
    const { dir } = workDir({ "main.tf": module });
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v).toMatchObject({ code: 0, stderr: "" });
    expect(v.stdout).toContain("Success! The configuration is valid.");
    const p = await runCommand(planCommand, ["-no-color", "-input=false"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Error: Provider configuration not present");
    expect(p.stderr).toContain('provider["terraform.io/builtin/terraform"].x is required');
  });

  it("an alias it does not declare is still not present", async () => {
    const { dir } = workDir({ "main.tf": module.replace("provider = terraform.x", "provider = terraform.y") });
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('provider["terraform.io/builtin/terraform"].y is required');
  });
});

describe("providers passed to a module", () => {
  const builtin = 'terraform {\n  required_providers {\n    terraform = {\n      source = "terraform.io/builtin/terraform"\n    }\n  }\n}\n';
  const child = 'terraform {\n  required_providers {\n    terraform = {\n      source = "terraform.io/builtin/terraform"\n      configuration_aliases = [terraform.x]\n    }\n  }\n}\nresource "terraform_data" "a" {\n  provider = terraform.x\n}\n';

  it("an alias the calling module neither declares nor receives is 'missing provider', as tofu's graph says", async () => {
    const { dir } = workDir({ "main.tf": `${builtin}module "m" {\n  source = "./m"\n  providers = {\n    terraform.x = terraform.nope\n  }\n}\n`, "m/main.tf": child });
    const missing = '\nError: missing provider provider["terraform.io/builtin/terraform"].nope\n\n';
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect([v.code, v.stderr]).toEqual([1, missing]);
    const p = await runCommand(planCommand, ["-no-color", "-input=false"], dir);
    expect([p.code, p.stderr]).toEqual([1, missing]);
  });

  it("an alias declared in the caller, or passed down to it, is found", async () => {
    const { dir } = workDir({
      "main.tf": `${builtin}provider "terraform" {\n  alias = "one"\n}\nmodule "mid" {\n  source = "./mid"\n  providers = {\n    terraform.y = terraform.one\n  }\n}\n`,
      "mid/main.tf":
        'terraform {\n  required_providers {\n    terraform = {\n      source = "terraform.io/builtin/terraform"\n      configuration_aliases = [terraform.y]\n    }\n  }\n}\nmodule "m" {\n  source = "../m"\n  providers = {\n    terraform.x = terraform.y\n  }\n}\n',
      "m/main.tf": child,
    });
    const p = await runCommand(planCommand, ["-no-color", "-input=false"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("module.mid.module.m.terraform_data.a will be created");
  });
});
