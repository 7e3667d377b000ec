// `terrace init` in-process on temporary working directories: backend state, module manifest,
// providers from a filesystem mirror and the lock file, and each class of error with tofu's texts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCommand, workDir, writeFiles } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { runCLI } from "./run.js";

const init = (args: string[], cwd: string, opts: Parameters<typeof runCommand>[3] = {}) => runCommand(initCommand, args, cwd, opts);
const read = (dir: string, name: string) => readFileSync(path.join(dir, name), "utf8");
/** Output with the rule and line wrapping taken out, for checking long details. */
const flat = (s: string) => s.replace(/\n│ ?/g, " ").replace(/\s+/g, " ");

const SUCCESS = `OpenTofu has been successfully initialized!

You may now begin working with OpenTofu. Try running "terrace plan" to see
any changes that are required for your infrastructure. All OpenTofu commands
should now work.

If you ever set or change modules or backend configuration for OpenTofu,
rerun this command to reinitialize your working directory. If you forget, other
commands will detect it and remind you to do so if necessary.
`;

const MIRROR = fileURLToPath(new URL("../providers/install/testdata/terraform/mirror", import.meta.url));

describe("terrace init", () => {
  it("configures the local backend, installs local modules and prints tofu's messages", async () => {
    const { dir } = workDir({
      "main.tf": 'terraform {\n  backend "local" {\n    path = "x.tfstate"\n  }\n}\nmodule "m" {\n  source = "./mod"\n}\nresource "terraform_data" "a" {\n  input = 1\n}\n',
      "mod/main.tf": 'module "inner" {\n  source = "./inner"\n}\n',
      "mod/inner/main.tf": 'resource "terraform_data" "b" {}\n',
    });
    const r = await init([], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `
Initializing the backend...

Successfully configured the backend "local"! OpenTofu will automatically
use this backend unless the backend configuration changes.
Initializing modules...
- m in mod
- m.inner in mod/inner

Initializing provider plugins...
- terraform.io/builtin/terraform is built in to OpenTofu

${SUCCESS}`,
    );
    // Byte for byte what terraform 1.11 wrote for the same configuration (apart from the version).
    expect(read(dir, ".terraform/terraform.tfstate")).toBe(
      '{\n  "version": 3,\n  "terraform_version": "' +
        (JSON.parse(read(dir, ".terraform/terraform.tfstate")) as { terraform_version: string }).terraform_version +
        '",\n  "backend": {\n    "type": "local",\n    "config": {\n      "path": "x.tfstate",\n      "workspace_dir": null\n    },\n    "hash": 2326359980\n  }\n}',
    );
    expect(read(dir, ".terraform/modules/modules.json")).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./mod","Dir":"mod"},{"Key":"m.inner","Source":"./inner","Dir":"mod/inner"}]}',
    );
    // No lock file: the built-in provider is not lockable.
    expect(existsSync(path.join(dir, ".terraform.lock.hcl"))).toBe(false);

    // A second run has nothing new to configure or install.
    const again = await init(["-no-color"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`
Initializing the backend...
Initializing modules...

Initializing provider plugins...
- terraform.io/builtin/terraform is built in to OpenTofu

${SUCCESS}`);
  });

  it("says so for an empty working directory, and refuses a DIR argument (-chdir chooses the directory)", async () => {
    const { dir } = workDir({ "sub/main.tf": "", "empty/README": "x" });
    const r = await init([], path.join(dir, "empty"));
    expect(r).toEqual({
      code: 0,
      stdout:
        "OpenTofu initialized in an empty directory!\n\nThe directory has no OpenTofu configuration files. You may begin working\nwith OpenTofu immediately by creating OpenTofu configuration files.\n",
      stderr: "",
    });
    // tofu's ParseInit: any positional argument, here with -no-color after it as Meta.process allows.
    const s = await init(["sub", "-no-color"], dir);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain("Error: Unexpected argument\n\nToo many command line arguments. Did you mean to use -chdir?\n");
    expect(s.stdout).toBe("");
    expect(existsSync(path.join(dir, "sub", ".terraform"))).toBe(false);
  });

  it("reports configuration errors with snippets after tofu's preamble", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = \n}\n' });
    const r = await init(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "\nOpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.\n",
    );
    expect(r.stderr).toContain('Error: Invalid expression\n\n  on main.tf line 2, in resource "terraform_data" "a":\n   2:   input = \n');
  });

  it("refuses registry and remote modules that are not installed, naming the source", async () => {
    const { dir } = workDir({
      "main.tf": 'module "r" {\n  source  = "hashicorp/consul/aws"\n  version = "1.0.0"\n}\nmodule "g" {\n  source = "git::https://example.com/x.git"\n}\n',
    });
    const r = await init([], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("\nInitializing the backend...\nInitializing modules...\n");
    expect(r.stderr).toContain("│ Error: Module not installed\n│\n│   on main.tf line 1:\n│    1: module \"r\" {\n");
    expect(flat(r.stderr)).toContain('Module "r" (main.tf:1) has the registry source "registry.opentofu.org/hashicorp/consul/aws", which is not installed.');
    expect(flat(r.stderr)).toContain('Module "g" (main.tf:5) has the remote source "git::https://example.com/x.git", which is not installed.');
  });

  it("uses a module that is already installed under .terraform/modules", async () => {
    const { dir } = workDir({
      "main.tf": 'module "r" {\n  source = "hashicorp/consul/aws"\n}\n',
      ".terraform/modules/r/main.tf": 'output "x" { value = 1 }\n',
      ".terraform/modules/modules.json": '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"r","Source":"registry.opentofu.org/hashicorp/consul/aws","Dir":".terraform/modules/r"}]}',
    });
    const r = await init([], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(read(dir, ".terraform/modules/modules.json")).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"r","Source":"registry.opentofu.org/hashicorp/consul/aws","Dir":".terraform/modules/r"}]}',
    );
  });

  it("records the http backend with -backend-config values and files", async () => {
    const { dir } = workDir({
      "main.tf": 'terraform {\n  backend "http" {\n    address = "http://127.0.0.1:1/state"\n  }\n}\n',
      "backend.hcl": 'lock_address = "http://127.0.0.1:1/lock"\nretry_max = 5\n',
    });
    const r = await init(["-backend-config=username=bob", "-backend-config", "backend.hcl", "-backend-config=skip_cert_verification=true"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Successfully configured the backend "http"!');
    const state = JSON.parse(read(dir, ".terraform/terraform.tfstate")) as { backend: { type: string; config: Record<string, unknown>; hash: number } };
    expect(state.backend.type).toBe("http");
    expect(state.backend.config).toMatchObject({
      address: "http://127.0.0.1:1/state",
      username: "bob",
      lock_address: "http://127.0.0.1:1/lock",
      retry_max: 5,
      skip_cert_verification: true,
      password: null,
      headers: null,
    });
    // Moving a setting between the block and -backend-config keeps the backend (only the hash).
    const same = await init(["-backend-config=username=bob", "-backend-config=backend.hcl", "-backend-config=skip_cert_verification=true"], dir);
    expect(same.code).toBe(0);
    expect(same.stdout).not.toContain("Successfully configured");
  });

  it("reports bad backend settings", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  backend "http" {\n    address = 1\n    nope = 2\n  }\n}\n' });
    const r = await init(["-backend-config=bogus=1", "-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Unsupported argument");
    expect(r.stderr).toContain('Error: Invalid backend configuration argument\n\nThe backend configuration argument "bogus" given on the command line is not\nexpected for the selected backend type.\n');
    const s3 = workDir({ "main.tf": 'terraform {\n  backend "s3" {}\n}\n' });
    const u = await init(["-no-color"], s3.dir);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain('Error: Unsupported backend type\n\n  on main.tf line 2, in terraform:\n   2:   backend "s3" {}\n');
  });

  it("detects a changed backend: -reconfigure accepts it, -migrate-state is refused", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  backend "local" {\n    path = "a.tfstate"\n  }\n}\n' });
    expect((await init([], dir)).code).toBe(0);
    writeFiles(dir, { "main.tf": 'terraform {\n  backend "local" {\n    path = "b.tfstate"\n  }\n}\n' });
    const changed = await init(["-no-color"], dir);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(
      'Error: Backend configuration changed\n\nA change in the backend configuration has been detected, which may require\nmigrating existing state.\n\nIf you wish to attempt automatic migration of the state, use "terrace init\n-migrate-state".\nIf you wish to store the current configuration with no changes to the state,\nuse "terrace init -reconfigure".\n',
    );
    const migrate = await init(["-migrate-state", "-no-color"], dir);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain("Error: State migration not supported");
    const reconf = await init(["-reconfigure"], dir);
    expect(reconf.code).toBe(0);
    expect((JSON.parse(read(dir, ".terraform/terraform.tfstate")) as { backend: { config: { path: string } } }).backend.config.path).toBe("b.tfstate");
    // -backend=false leaves the backend alone.
    writeFiles(dir, { "main.tf": 'terraform {\n  backend "local" {\n    path = "c.tfstate"\n  }\n}\n' });
    const skip = await init(["-backend=false"], dir);
    expect(skip.code).toBe(0);
    expect(skip.stdout).not.toContain("Initializing the backend");
  });

  it("installs providers from a filesystem mirror and writes the lock file as terraform does", async () => {
    const { dir, home } = workDir({
      "main.tf": 'terraform {\n  required_providers {\n    fake = {\n      source  = "registry.terraform.io/hashicorp/fake"\n      version = "1.2.0"\n    }\n  }\n}\n',
      "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path = "${MIRROR}"\n  }\n}\n`,
    });
    const env = { TF_CLI_CONFIG_FILE: path.join(dir, "cli.tfrc") };
    const r = await init([], dir, { env, home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '\nInitializing provider plugins...\n- Finding registry.terraform.io/hashicorp/fake versions matching "1.2.0"...\n- Installing registry.terraform.io/hashicorp/fake v1.2.0...\n- Installed registry.terraform.io/hashicorp/fake v1.2.0 (unauthenticated)\n\nOpenTofu has created a lock file .terraform.lock.hcl to record the provider\n',
    );
    expect(r.stdout).toContain("Warning: Incomplete lock file information for providers");
    const expected = readFileSync(path.join(MIRROR, "..", "lock-packed-1.2.0.hcl"), "utf8");
    const body = (s: string) => s.split("\n").slice(2).join("\n");
    expect(body(read(dir, ".terraform.lock.hcl"))).toBe(body(expected));

    const again = await init([], dir, { env, home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("- Reusing previous version of registry.terraform.io/hashicorp/fake from the dependency lock file\n");
    expect(again.stdout).toContain("- Using previously-installed registry.terraform.io/hashicorp/fake v1.2.0\n");
    expect(again.stdout).not.toContain("OpenTofu has created");
    expect(again.stdout).not.toContain("OpenTofu has made some changes");

    // A requirement the lock does not record cannot be added with a read-only lock file.
    writeFiles(dir, { "extra.tf": 'resource "other_thing" "x" {}\n' });
    const ro = await init(["-lockfile=readonly", "-no-color"], dir, { env, home });
    expect(ro.code).toBe(1);
    expect(ro.stderr).toContain("Error: Failed to query available provider packages");
    expect(flat(ro.stderr)).toContain("provider registry.opentofu.org/hashicorp/other was not found in any of the search locations");
    const up = await init(["-upgrade", "-lockfile=readonly"], dir, { env, home });
    expect(up.code).toBe(1);
    expect(up.stderr).toContain("The -upgrade flag conflicts with -lockfile=readonly.\n");
  });

  it("rejects bad flags and arguments with tofu's messages", async () => {
    const { dir } = workDir({ "main.tf": "" });
    const bad = await init(["-nope", "-no-color"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Failed to parse command-line flags\n\nflag provided but not defined: -nope\n");
    expect(bad.stderr).toContain("Usage: terrace [global options] init [options]");
    const both = await init(["-reconfigure", "-migrate-state", "-no-color"], dir);
    expect(both.stderr).toContain("Error: Wrong combination of options\n\nThe -migrate-state and -reconfigure options are mutually-exclusive\n");
    const many = await init(["a", "b", "-no-color"].reverse(), dir);
    expect(many.code).toBe(1);
    const v = await init(["-var", "novalue", "-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('Error: Invalid -var option\n\nThe given -var option "novalue" is not correctly specified.');
    const from = await init(["-from-module=./x", "-no-color"], dir);
    expect(from.code).toBe(1);
    expect(from.stderr).toContain("Error: Option not supported");
  });

  it("reports a missing CLI configuration file once, on stderr, before anything else", async () => {
    const { dir, home } = workDir({ "main.tf": "" });
    // A short absolute path, so that the detail is not wrapped.
    const r = await runCommand(runCLI, ["init", "-no-color"], dir, { env: { TF_CLI_CONFIG_FILE: "/nonexistent.tfrc" }, home });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'There are some problems with the CLI configuration:\n╷\n│ Warning: Unable to open CLI configuration file\n│\n│ The CLI configuration file at "/nonexistent.tfrc" does not exist.\n╵\n\n',
    );
    expect(r.stdout).not.toContain("Unable to open CLI configuration file");
  });

  it("warns about dev_overrides and skips those providers", async () => {
    const { dir, home } = workDir({
      "main.tf": 'terraform {\n  required_providers {\n    fake = {\n      source = "registry.terraform.io/hashicorp/fake"\n    }\n  }\n}\n',
      "cli.tfrc": 'provider_installation {\n  dev_overrides {\n    "registry.terraform.io/hashicorp/fake" = "/opt/fake"\n  }\n  direct {}\n}\n',
    });
    const r = await init(["-no-color"], dir, { env: { TF_CLI_CONFIG_FILE: path.join(dir, "cli.tfrc") }, home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Warning: Provider development overrides are in effect\n\nThe following provider development overrides are set in the CLI\nconfiguration:\n - registry.terraform.io/hashicorp/fake in /opt/fake\n");
  });

  describe("module source from a variable (conformance case 033)", () => {
    const CASE = fileURLToPath(new URL("../../../../shared/conformance/opentofu/cases/033-init-module-source-from-var", import.meta.url));
    const files = (sub: string): Record<string, string> => ({
      "main.tf": readFileSync(path.join(CASE, sub, "main.tf"), "utf8"),
      "mod/mod.tf": "",
    });

    it.skipIf(!existsSync(CASE))("asks once for the variable, even when two modules use it", async () => {
      const { dir } = workDir(files("multiple"));
      const r = await init(["-no-color"], dir, { stdin: "./mod\n" });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout.match(/var\.src\n {2}Enter a value: /g)?.length).toBe(1);
      expect(r.stdout).toContain("- mod in mod\n- mod2 in mod\n");
      expect(read(dir, ".terraform/modules/modules.json")).toBe(
        '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"mod","Source":"./mod","Dir":"mod"},{"Key":"mod2","Source":"./mod","Dir":"mod"}]}',
      );
    });

    it.skipIf(!existsSync(CASE))("fails with -input=false and works with -var", async () => {
      const { dir } = workDir(files("single"));
      const r = await init(["-input=false", "-no-color"], dir);
      expect(r.code).toBe(1);
      // The root module must load before anything is initialised (tofu 1.12's init): the
      // configuration-error preamble comes first.
      expect(r.stderr).toBe(
        '\nOpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.\n' +
          '\nError: Failed to request input from user for variable var.src\n\n  on main.tf line 1:\n   1: variable "src" {\n\n\n\nError: Unable to compute static value\n\n  on main.tf line 6, in module "mod":\n   6: \tsource = var.src\n\nmodule.mod.source depends on var.src which is not available\n\n',
      );
      const v = await init(["-var", "src=./mod"], dir);
      expect(v.code).toBe(0);
      expect(v.stdout).toContain("- mod in mod\n");
    });
  });
});
