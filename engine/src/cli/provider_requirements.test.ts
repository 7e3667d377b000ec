// Every operation first checks the dependency lock file against the configuration, as OpenTofu's
// local backend does (Config.VerifyDependencySelections): a provider the lock file does not select,
// or selects outside the configuration's constraints, stops plan, apply, refresh, import and the
// console with "Inconsistent dependency lock file" and the init command that fixes it.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Provider } from "../addrs/index.js";
import { mustParseVersion, mustParseVersionConstraints } from "../versions/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { consoleCommand } from "./console.js";
import { importCommand } from "./import.js";
import { planCommand } from "./plan.js";
import { dependencySelectionErrors } from "./provider_requirements.js";
import { refreshCommand } from "./refresh.js";

const REQUIRES_RANDOM = (constraint: string) => `terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "${constraint}"
    }
  }
}
resource "terraform_data" "a" {}
`;

const LOCK = (version: string, constraints: string) => `provider "registry.opentofu.org/hashicorp/random" {
  version     = "${version}"
  constraints = "${constraints}"
  hashes = [
    "h1:0000000000000000000000000000000000000000000=",
  ]
}
`;

const NOT_INITIALISED = `
Error: Inconsistent dependency lock file

The following dependency selections recorded in the lock file are
inconsistent with the current configuration:
  - provider registry.opentofu.org/hashicorp/random: required by this configuration but no version is selected

To make the initial dependency selections that will initialize the dependency
lock file, run:
  terrace init
`;

describe("the dependency lock file is checked before an operation", () => {
  it("a required provider with no lock file: every operation asks for init and changes nothing", async () => {
    const { dir } = workDir({ "main.tf": REQUIRES_RANDOM("~> 3.0") });
    const plan = await runCommand(planCommand, ["-no-color"], dir);
    expect([plan.code, plan.stdout, plan.stderr]).toEqual([1, "", NOT_INITIALISED]);
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect([apply.code, apply.stderr]).toEqual([1, NOT_INITIALISED]);
    const refresh = await runCommand(refreshCommand, ["-no-color"], dir);
    expect([refresh.code, refresh.stderr]).toEqual([1, NOT_INITIALISED]);
    const imp = await runCommand(importCommand, ["-no-color", "terraform_data.a", "x"], dir);
    expect(imp.code).toBe(1);
    expect(imp.stderr).toContain("Inconsistent dependency lock file");
    const console = await runCommand(consoleCommand, [], dir, { stdin: "1 + 1\n" });
    expect(console.code).toBe(1);
    expect(console.stderr).toContain("Inconsistent dependency lock file");
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
  });

  it("a locked version the configuration's constraints have since excluded", async () => {
    const { dir } = workDir({ "main.tf": REQUIRES_RANDOM(">= 9.0"), ".terraform.lock.hcl": LOCK("3.6.3", "~> 3.0") });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`
Error: Inconsistent dependency lock file

The following dependency selections recorded in the lock file are
inconsistent with the current configuration:
  - provider registry.opentofu.org/hashicorp/random: locked version selection 3.6.3 doesn't match the updated version constraints ">= 9.0.0"

To update the locked dependency selections to match a changed configuration,
run:
  terrace init -upgrade
`);
  });

  it("a lock file whose version is outside its own recorded constraints", async () => {
    const { dir } = workDir({ "main.tf": REQUIRES_RANDOM("~> 3.0"), ".terraform.lock.hcl": LOCK("2.0.0", "~> 3.0") });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  - provider registry.opentofu.org/hashicorp/random: version constraints "~> 3.0" don\'t match the locked version selection 2.0.0\n');
  });

  it("a configuration using only the built-in provider needs no lock file", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {}\n' });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Plan: 1 to add");
  });
});

describe("a saved plan is applied only with the lock file it was made with", () => {
  const DIFFERENT = `
Error: Inconsistent dependency lock file

The given plan file was created with a different set of external dependency
selections than the current configuration. A saved plan can be applied only
to the same configuration it was created from.

Create a new plan from the updated configuration.
`;

  it("another selection, even one the configuration allows, is refused; the same one applies", async () => {
    const { dir } = workDir({ "main.tf": REQUIRES_RANDOM("~> 3.0"), ".terraform.lock.hcl": LOCK("3.6.3", "~> 3.0") });
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    writeFileSync(join(dir, ".terraform.lock.hcl"), LOCK("3.6.2", "~> 3.0"));
    const other = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect([other.code, other.stdout, other.stderr]).toEqual([1, "", DIFFERENT]);
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);

    writeFileSync(join(dir, ".terraform.lock.hcl"), LOCK("2.0.0", "~> 3.0"));
    const outside = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain(
      'inconsistent with the configuration in the saved plan:\n  - provider registry.opentofu.org/hashicorp/random: version constraints "~> 3.0" don\'t match the locked version selection 2.0.0\n\nA saved plan can be applied only to the same configuration it was created\nfrom.',
    );
    expect(outside.stderr).toContain(DIFFERENT);

    writeFileSync(join(dir, ".terraform.lock.hcl"), LOCK("3.6.3", "~> 3.0"));
    const same = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("Apply complete! Resources: 1 added");
  });
});

describe("dependencySelectionErrors", () => {
  const random = new Provider("registry.opentofu.org", "hashicorp", "random");
  const nul = new Provider("registry.opentofu.org", "hashicorp", "null");
  const builtin = new Provider("terraform.io", "builtin", "terraform");
  const reqs = (...ps: Array<[Provider, string]>) => new Map(ps.map(([p, c]) => [p.toString(), { provider: p, constraints: c ? mustParseVersionConstraints(c) : [] }]));
  const lock = (v: string, c = "") => ({ version: mustParseVersion(v), constraints: c ? mustParseVersionConstraints(c) : [] });

  it("skips built-in and overridden providers and sorts what is left", () => {
    const errs = dependencySelectionErrors(
      reqs([random, ""], [nul, ""], [builtin, ""]),
      () => undefined,
      () => false,
    );
    expect(errs).toEqual([
      "provider registry.opentofu.org/hashicorp/null: required by this configuration but no version is selected",
      "provider registry.opentofu.org/hashicorp/random: required by this configuration but no version is selected",
    ]);
    expect(dependencySelectionErrors(reqs([random, ""]), () => undefined, (p) => p.equal(random))).toEqual([]);
  });

  it("with no constraint any locked version fits, a prerelease too", () => {
    expect(dependencySelectionErrors(reqs([random, ""]), () => lock("4.0.0-beta1"), () => false)).toEqual([]);
    expect(dependencySelectionErrors(reqs([random, ">= 3.1"]), () => lock("3.6.3", ">= 3.1"), () => false)).toEqual([]);
  });
});
