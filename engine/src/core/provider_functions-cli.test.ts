// Provider-defined functions through the CLI, with the bundled `sim` provider as a real plugin
// process: `provider::sim::arn_parse(...)` in locals, outputs and resource arguments (in the root
// module and in a child module), results that are unknown until apply, sensitive arguments whose
// mark reaches the result, the function's own argument error, and OpenTofu's lookup errors; which
// configuration serves a call. Then functions a provider offers only once configured, with the
// SDK's test provider installed through dev_overrides (no init).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { consoleCommand } from "../cli/console.js";
import { runCommand, useProvidersFromSource, workDir, writeFiles } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { outputCommand } from "../cli/output.js";
import { planCommand } from "../cli/plan.js";
import { testCommand } from "../cli/test.js";
import { validateCommand } from "../cli/validate.js";

function config(dataDir: string, body: string): string {
  return `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}

provider "sim" {
  region   = "us-east-1"
  data_dir = ${JSON.stringify(dataDir)}
}
${body}`;
}

const MAIN = `
variable "arn" {
  default = "arn:sim:compute:eu-west-1:123456789012:instance/i-1"
}

locals {
  parts = provider::sim::arn_parse(var.arn)
}

data "sim_image" "ubuntu" {
  name = "ubuntu-24.04"
}

resource "sim_instance" "web" {
  image_id = data.sim_image.ubuntu.id
}

resource "sim_bucket" "logs" {
  name = "logs-\${local.parts.region}"
  tags = {
    # Unknown until sim_instance.web exists: the call waits for its argument.
    instance_region = provider::sim::arn_parse(sim_instance.web.arn).region
  }
}

module "child" {
  source = "./child"
}

output "region" {
  value = local.parts.region
}

output "secret_service" {
  value     = provider::sim::arn_parse(sensitive("arn:sim:vault:us-east-1:1:secret/x")).service
  sensitive = true
}

output "child" {
  value = module.child.account
}
`;

const CHILD = `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}

output "account" {
  value = provider::sim::arn_parse("arn:sim:iam::210987654321:role/app").account_id
}
`;

describe("provider-defined functions with the bundled sim provider", () => {
  useProvidersFromSource();

  it("calls the provider from locals, outputs and resource arguments, in plan and apply", { timeout: 120_000 }, async () => {
    const { dir } = workDir();
    writeFiles(dir, { "main.tf": config(path.join(dir, "cloud"), MAIN), "child/main.tf": CHILD });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.stderr).toBe("");

    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/\+ name +?= "logs-eu-west-1"/);
    expect(p.stdout).toMatch(/\+ "instance_region" = \(known after apply\)/);
    expect(p.stdout).toContain('+ region         = "eu-west-1"');
    expect(p.stdout).toContain("+ secret_service = (sensitive value)");
    expect(p.stdout).toContain('+ child          = "210987654321"');

    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    const out = await runCommand(outputCommand, ["-json"], dir);
    const outputs = JSON.parse(out.stdout) as Record<string, { value: unknown; sensitive: boolean }>;
    expect(outputs["region"]).toEqual({ sensitive: false, type: "string", value: "eu-west-1" });
    // The argument's sensitive mark is on the result.
    expect(outputs["secret_service"]).toEqual({ sensitive: true, type: "string", value: "vault" });
    expect(outputs["child"]?.value).toBe("210987654321");

    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.stderr).toBe("");
    // The instance's ARN (known now) gave the tag its value: nothing left to change.
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes.");
  });

  it("reports the function's argument error and OpenTofu's lookup errors where the calls are", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    writeFiles(dir, {
      "main.tf": config(
        path.join(dir, "cloud"),
        `
locals {
  bad     = provider::sim::arn_parse("not-an-arn")
  nope    = provider::nope::f(1)
  alias   = provider::sim::west::arn_parse("arn:a:b:c:d:e")
  missing = provider::sim::arn_format("x")
}
`,
      ),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);

    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(`Error: Invalid function argument

  on main.tf line 13, in locals:
  13:   bad     = provider::sim::arn_parse("not-an-arn")
    ├────────────────
    │ while calling provider::sim::arn_parse(arn)

Invalid value for "arn" parameter: "not-an-arn" is not an ARN: expected
arn:<partition>:<service>:<region>:<account_id>:<resource>.`);
    expect(p.stderr).toContain(`Error: Unknown function provider

  on main.tf line 14, in locals:
  14:   nope    = provider::nope::f(1)

Provider "nope" does not exist within the required_providers of this module`);
    expect(p.stderr).toContain(`Error: Unknown function provider

  on main.tf line 15, in locals:
  15:   alias   = provider::sim::west::arn_parse("arn:a:b:c:d:e")

No provider instance "sim" with alias "west"`);
    // plan runs the validate walk first, which stops it there: validate takes a function the
    // schema does not declare (a configured provider may add it), so that one is not reported.
    expect(p.stderr).not.toContain("arn_format");

    // Alone, it passes validate and the plan walk finds it missing.
    writeFiles(dir, { "main.tf": config(path.join(dir, "cloud"), `\nlocals {\n  missing = provider::sim::arn_format("x")\n}\n`) });
    expect((await runCommand(validateCommand, ["-no-color"], dir)).code).toBe(0);
    const missing = await runCommand(planCommand, ["-no-color"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`Error: Function not found in provider

  on main.tf line 13, in locals:
  13:   missing = provider::sim::arn_format("x")

Function "provider::sim::arn_format" was not registered by provider`);
  });

  it("validate checks the lookups and lets a function the schema does not declare through", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    writeFiles(dir, {
      "main.tf": config(
        path.join(dir, "cloud"),
        `
resource "sim_bucket" "b" {
  name = provider::sim::arn_parse("arn:sim:s3:us-east-1:1:bucket-x").resource
  tags = {
    a = provider::nope::f(1)
    # A provider may declare more functions once configured (GetFunctions): OpenTofu's validate
    # takes any name, and plan looks again.
    b = provider::sim::arn_format("x")
  }
}
`,
      ),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('Provider "nope" does not exist within the required_providers of this module');
    expect(v.stderr).not.toContain("arn_format");
    expect(v.stderr.match(/Error: /g)).toHaveLength(1);
  });

  it("works in terrace test: through a mocked provider, and in assertions", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    writeFiles(dir, {
      "main.tf": `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}

variable "arn" {
  type = string
}

resource "sim_bucket" "b" {
  name = provider::sim::arn_parse(var.arn).resource
}

output "region" {
  value = provider::sim::arn_parse(var.arn).region
}
`,
      "tests/main.tftest.hcl": `mock_provider "sim" {}

variables {
  arn = "arn:sim:s3:eu-west-1:1:logs"
}

run "plan" {
  command = plan
  assert {
    condition     = sim_bucket.b.name == "logs" && output.region == "eu-west-1"
    error_message = "the module's calls went wrong"
  }
}

run "assertion" {
  assert {
    condition     = provider::sim::arn_parse(var.arn).service == "s3"
    error_message = "wrong service"
  }
  assert {
    condition     = provider::sim::arn_parse(var.arn).service == "ec2"
    error_message = "service is \${provider::sim::arn_parse(var.arn).service}"
  }
}
`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.stdout).toContain('run "plan"... pass');
    expect(r.stdout).toContain('run "assertion"... fail');
    // Only the second assertion fails, with the message the function call built.
    expect(r.stderr.match(/Error: Test assertion failed/g)).toHaveLength(1);
    expect(r.stderr).toContain("service is s3");
    expect(r.code).toBe(1);
  });

  it("works in terrace console, which starts the root module's required providers", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    writeFiles(dir, {
      "main.tf": `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}

locals {
  service = provider::sim::arn_parse("arn:sim:s3:us-east-1:1:bucket/b").service
}
`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const ok = await runCommand(consoleCommand, ["-no-color"], dir, { stdin: 'provider::sim::arn_parse("arn:sim:ec2:eu-west-1:123:i-1").region\nlocal.service\n' });
    expect(ok).toEqual({ code: 0, stdout: '"eu-west-1"\n"s3"\n', stderr: "" });
    // terraform console's text for the same line, checked by hand with terraform 1.11.
    const bad = await runCommand(consoleCommand, ["-no-color"], dir, { stdin: 'provider::sim::arn_parse("x")\n' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`
Error: Invalid function argument

  on <console-input> line 1:
  (source code not available)

Invalid value for "arn" parameter: "x" is not an ARN: expected
arn:<partition>:<service>:<region>:<account_id>:<resource>.

`);
  });

  it("calls the configuration OpenTofu picks, configured: the module's own, the one passed in, else the root's default", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    const child = (value: string) => CHILD.replace(/output "account" \{[\s\S]*\}\n$/, `output "arn" {\n  value = ${value}\n}\n`);
    writeFiles(dir, {
      "main.tf": config(
        path.join(dir, "cloud"),
        `
provider "sim" {
  alias    = "west"
  region   = "us-west-2"
  data_dir = ${JSON.stringify(path.join(dir, "cloud"))}
}

locals {
  here = provider::sim::arn_build("storage", "bucket/a")
}

module "child" {
  source = "./child"
}

module "passed" {
  source = "./child"
  providers = {
    sim = sim.west
  }
}

module "aliased" {
  source = "./aliased"
  providers = {
    sim.other = sim.west
  }
}

output "default" {
  value = local.here
}

output "west" {
  value = provider::sim::west::arn_build("storage", "bucket/b")
}

output "child" {
  value = module.child.arn
}

output "passed" {
  value = module.passed.arn
}

output "aliased" {
  value = module.aliased.arn
}

module "middle" {
  source = "./middle"
}

output "middle_own" {
  value = module.middle.own
}

output "middle_inner" {
  value = module.middle.inner
}
`,
      ),
      // A module with its own default configuration serves its own calls, but its child (which
      // is not passed it) gets the root's: OpenTofu does not follow implicit inheritance there.
      "middle/main.tf": `${CHILD.replace(/output "account" \{[\s\S]*\}\n$/, "")}
provider "sim" {
  region   = "eu-central-1"
  data_dir = ${JSON.stringify(path.join(dir, "cloud"))}
}

module "inner" {
  source = "../child"
}

output "own" {
  value = provider::sim::arn_build("storage", "bucket/m")
}

output "inner" {
  value = module.inner.arn
}
`,
      "child/main.tf": child('provider::sim::arn_build("storage", "bucket/c")'),
      "aliased/main.tf": `terraform {
  required_providers {
    sim = {
      source                = "terrace/sim"
      configuration_aliases = [sim.other]
    }
  }
}

output "arn" {
  value = provider::sim::other::arn_build("storage", "bucket/d")
}
`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    // Nothing is configured while validating: the calls go to the unconfigured instance.
    expect((await runCommand(validateCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    const out = JSON.parse((await runCommand(outputCommand, ["-json"], dir)).stdout) as Record<string, { value: string }>;
    // The root module's default and aliased configurations serve its calls; a child module with no
    // configuration of its own gets the root's default (OpenTofu's stub address); one passed
    // sim.west, under its default name or an alias, gets that. Terraform 1.11 calls unconfigured
    // instances only (region-less ARNs for the unaliased calls) and has no aliased form
    // (provider::sim::west::arn_build is "Call to unknown function" there).
    expect(out["default"]?.value).toBe("arn:sim:storage:us-east-1:123456789012:bucket/a");
    expect(out["west"]?.value).toBe("arn:sim:storage:us-west-2:123456789012:bucket/b");
    expect(out["child"]?.value).toBe("arn:sim:storage:us-east-1:123456789012:bucket/c");
    expect(out["passed"]?.value).toBe("arn:sim:storage:us-west-2:123456789012:bucket/c");
    expect(out["aliased"]?.value).toBe("arn:sim:storage:us-west-2:123456789012:bucket/d");
    expect(out["middle_own"]?.value).toBe("arn:sim:storage:eu-central-1:123456789012:bucket/m");
    expect(out["middle_inner"]?.value).toBe("arn:sim:storage:us-east-1:123456789012:bucket/c");
  });

  it("calls the instance of a for_each configuration a module call passes in with a key, per module instance", { timeout: 60_000 }, async () => {
    const { dir } = workDir();
    const cloud = JSON.stringify(path.join(dir, "cloud"));
    writeFiles(dir, {
      "main.tf": config(
        path.join(dir, "cloud"),
        `
locals {
  regions = toset(["us-east-1", "eu-west-1"])
}

provider "sim" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.key
  data_dir = ${cloud}
}

module "regional" {
  source   = "./child"
  for_each = local.regions
  providers = {
    sim = sim.by_region[each.key]
  }
}

output "arns" {
  value = { for k, m in module.regional : k => m.arn }
}
`,
      ),
      "child/main.tf": CHILD.replace(/output "account" \{[\s\S]*\}\n$/, 'output "arn" {\n  value = provider::sim::arn_build("storage", "bucket/r")\n}\n'),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    expect((await runCommand(validateCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    const out = JSON.parse((await runCommand(outputCommand, ["-json"], dir)).stdout) as Record<string, { value: Record<string, string> }>;
    expect(out["arns"]?.value).toEqual({
      "eu-west-1": "arn:sim:storage:eu-west-1:123456789012:bucket/r",
      "us-east-1": "arn:sim:storage:us-east-1:123456789012:bucket/r",
    });
  });
});

// A provider whose configuration defines functions (the SDK's test provider, as a real plugin
// process): the schema lacks them, GetFunctions lists them once configured, and OpenTofu looks a
// call up there on the instance that serves it.
describe("functions a provider offers once configured", () => {
  /** A working directory with the SDK's test provider installed through dev_overrides. */
  function exampleDir(files: Record<string, string>): { dir: string; env: Record<string, string> } {
    const { dir } = workDir();
    const bin = path.join(dir, "..", "bin");
    mkdirSync(bin);
    const tsx = createRequire(import.meta.url).resolve("tsx/esm");
    const entry = fileURLToPath(new URL("../sdk/testdata/serve_example.ts", import.meta.url));
    const exe = path.join(bin, "terraform-provider-example");
    writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import ${JSON.stringify(tsx)} ${JSON.stringify(entry)}\n`);
    chmodSync(exe, 0o755);
    const rc = path.join(dir, "..", "cli.tfrc");
    writeFileSync(rc, `provider_installation {\n  dev_overrides {\n    "example.com/test/example" = ${JSON.stringify(bin)}\n  }\n  direct {}\n}\n`);
    writeFiles(dir, files);
    return { dir, env: { TF_CLI_CONFIG_FILE: rc } };
  }

  const REQUIRED = `terraform {
  required_providers {
    example = { source = "example.com/test/example" }
  }
}
`;

  it("finds them on the configured instance that serves the call: the module's own, or the one passed in", { timeout: 60_000 }, async () => {
    const { dir, env } = exampleDir({
      "main.tf": `${REQUIRED}
provider "example" {
  prefix = "p"
}

provider "example" {
  alias  = "other"
  prefix = "q"
}

module "child" {
  source = "./child"
  providers = {
    example = example.other
  }
}

output "root" {
  value = provider::example::prefixed("web")
}

output "static" {
  value = provider::example::upper("web")
}

output "child" {
  value = module.child.name
}
`,
      "child/main.tf": `${REQUIRED}
output "name" {
  value = provider::example::prefixed("db")
}
`,
    });
    // validate configures nothing: a call the schema lacks is an unknown placeholder there.
    const v = await runCommand(validateCommand, ["-no-color"], dir, { env });
    expect(v.stdout).toContain("Success! The configuration is valid");
    // No init: a provider the CLI configuration's dev_overrides name runs from its directory.
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env });
    expect(a.code).toBe(0);
    expect(a.stdout.startsWith("\nWarning: Provider development overrides are in effect\n\nThe following provider development overrides are set in the CLI\nconfiguration:\n - example.com/test/example in ")).toBe(true);
    const out = JSON.parse((await runCommand(outputCommand, ["-json"], dir, { env })).stdout) as Record<string, { value: string }>;
    expect(out["root"]?.value).toBe("p-web");
    expect(out["static"]?.value).toBe("WEB");
    expect(out["child"]?.value).toBe("q-db");
  });

  it("is 'Function not found in provider' where an unconfigured instance serves the call", { timeout: 60_000 }, async () => {
    const { dir, env } = exampleDir({
      "main.tf": `${REQUIRED}
output "name" {
  value = provider::example::prefixed("web")
}

output "missing" {
  value = provider::example::nope()
}
`,
    });
    const p = await runCommand(planCommand, ["-no-color"], dir, { env });
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(`Error: Function not found in provider

  on main.tf line 8, in output "name":
   8:   value = provider::example::prefixed("web")

Function "provider::example::prefixed" was not registered by provider`);
    expect(p.stderr).toContain('Function "provider::example::nope" was not registered by provider');
  });

  it("says which directory lacks the executable when a dev_overrides entry names the wrong one", { timeout: 60_000 }, async () => {
    const { dir } = workDir({ "main.tf": `${REQUIRED}\noutput "x" {\n  value = provider::example::upper("a")\n}\n` });
    const empty = path.join(dir, "..", "empty");
    mkdirSync(empty);
    const rc = path.join(dir, "..", "cli.tfrc");
    writeFileSync(rc, `provider_installation {\n  dev_overrides {\n    "example.com/test/example" = ${JSON.stringify(empty)}\n  }\n  direct {}\n}\n`);
    const p = await runCommand(planCommand, ["-no-color"], dir, { env: { TF_CLI_CONFIG_FILE: rc } });
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(`Could not load the schema for provider example.com/test/example: provider`);
    expect(p.stderr.replace(/\s+/g, " ")).toContain(`development override in ${empty}: could not find executable file starting with terraform-provider-example.`);
  });
});
