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
