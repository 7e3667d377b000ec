// `terrace show`'s target-selection options (OpenTofu 1.10 -state and -plan=FILE; 1.11 -config and
// -module=DIR with -json): the JSON configuration representation of the whole configuration or of
// one module alone, and the argument rules with tofu's texts.
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";

const MAIN = `variable "name" {
  type        = string
  description = "the name"
}
variable "opt" {
  type    = object({ a = string, b = optional(number) })
  default = { a = "x" }
}
variable "anything" {
  default = null
}
variable "token" {
  type       = string
  sensitive  = true
  ephemeral  = true
  deprecated = "use name"
}
resource "terraform_data" "r" {
  count = 2
  input = var.name
}
module "m" {
  source = "./m"
  x      = var.name
}
output "o" {
  value       = terraform_data.r[0].id
  description = "an id"
}
`;
const CHILD = 'variable "x" {}\noutput "y" {\n  value = var.x\n}\n';
const ENV = { TF_CLI_CONFIG_FILE: "/dev/null" };

type JSONModule = {
  outputs?: Record<string, Record<string, unknown>>;
  resources?: Array<Record<string, unknown>>;
  module_calls?: Record<string, Record<string, unknown>>;
  variables?: Record<string, Record<string, unknown>>;
};

async function initialised(): Promise<string> {
  const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": CHILD });
  expect((await runCommand(initCommand, [], dir, { env: ENV })).code).toBe(0);
  return dir;
}

const VARIABLES = {
  anything: { default: null },
  name: { type: "string", description: "the name", required: true },
  opt: { type: ["object", { a: "string", b: "number" }, ["b"]], default: { a: "x", b: null } },
  token: { type: "string", required: true, sensitive: true, ephemeral: true, deprecated: "use name" },
};

describe("terrace show -json -config", () => {
  it("prints the whole configuration with its expressions, each variable's type and whether it is required", async () => {
    const dir = await initialised();
    const r = await runCommand(showCommand, ["-json", "-config"], dir, { env: ENV });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const doc = JSON.parse(r.stdout) as { provider_config?: unknown; root_module: JSONModule };
    expect(Object.keys(doc)).toEqual(["provider_config", "root_module"]);
    const root = doc.root_module;
    expect(root.variables).toEqual(VARIABLES);
    expect(root.resources?.[0]).toMatchObject({
      address: "terraform_data.r",
      expressions: { input: { references: ["var.name"] } },
      schema_version: 0,
      count_expression: { constant_value: 2 },
    });
    expect(root.outputs?.["o"]).toEqual({ expression: { references: ["terraform_data.r[0].id", "terraform_data.r[0]", "terraform_data.r"] }, description: "an id" });
    expect(root.module_calls?.["m"]).toEqual({
      source: "./m",
      expressions: { x: { references: ["var.name"] } },
      module: { outputs: { y: { expression: { references: ["var.x"] } } }, variables: { x: { required: true } } },
    });
  });

  it("needs a configuration, and -json", async () => {
    const { dir } = workDir({});
    const none = await runCommand(showCommand, ["-json", "-config"], dir, { env: ENV });
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("Error: No configuration files");
    expect(none.stderr).toContain("This directory contains no OpenTofu configuration files.");
    const human = await runCommand(showCommand, ["-config"], dir, { env: ENV });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain("Error: JSON output required for configuration");
    expect(human.stderr).toContain("The -config option requires -json to be specified.");
  });
});

describe("terrace show -json -module=DIR", () => {
  it("describes one module alone: no expressions, schema versions or child module contents", async () => {
    // Nothing installed: neither the child module nor any provider is needed.
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": CHILD });
    const r = await runCommand(showCommand, ["-json", "-module=."], dir, { env: ENV });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const root = (JSON.parse(r.stdout) as { root_module: JSONModule }).root_module;
    expect(root.variables).toEqual(VARIABLES);
    expect(root.resources).toEqual([{ address: "terraform_data.r", mode: "managed", type: "terraform_data", name: "r", provider_config_key: "terraform" }]);
    expect(root.outputs).toEqual({ o: { description: "an id" } });
    expect(root.module_calls).toEqual({ m: { source: "./m" } });
    const child = await runCommand(showCommand, ["-json", "-module=m"], dir, { env: ENV });
    expect(child.stdout).toBe('{"root_module":{"outputs":{"y":{}},"variables":{"x":{"required":true}}}}\n');
  });

  it("reports a directory that is not there, and a module that does not parse", async () => {
    const { dir } = workDir({ "bad/main.tf": 'variable "x" {\n' });
    const missing = await runCommand(showCommand, ["-json", "-module=nope"], dir, { env: ENV });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Error: Failed to read module directory");
    expect(missing.stderr).toContain("Module directory nope does not exist or cannot be read.");
    const bad = await runCommand(showCommand, ["-json", "-module=bad"], dir, { env: ENV });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("Error: Unclosed configuration block");
  });
});

describe("show's target-selection rules", () => {
  it("rejects what tofu rejects, with its texts and the help prompt", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const cases: Array<[string[], string, string]> = [
      [["-module=m"], "JSON output required for module", "The -module=DIR option requires -json to be specified."],
      [["-json", "-state", "-config"], "Conflicting object types to show", "mutually-exclusive, to specify which kind of object to show."],
      [["-state", "extra"], "Unexpected command line arguments", "does not expect any positional arguments when using a"],
      [["a", "b"], "Too many command line arguments", "Expected at most one positional argument for the legacy positional argument"],
      [["-bogus"], "Failed to parse command-line options", "flag provided but not defined: -bogus"],
    ];
    for (const [args, summary, detail] of cases) {
      const r = await runCommand(showCommand, ["-no-color", ...args], dir, { env: ENV });
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toContain(`Error: ${summary}`);
      expect(r.stderr.replace(/\n│ /g, " "), args.join(" ")).toContain(detail);
      expect(r.stderr, args.join(" ")).toContain("terrace show -help");
    }
  });

  it("-state shows the current state, -plan=FILE a saved plan and nothing else", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = 1\n}\n' });
    expect((await runCommand(showCommand, ["-state", "-no-color"], dir, { env: ENV })).stdout).toBe("No state.\n");
    expect((await runCommand(planCommand, ["-out=p.tfplan", "-no-color"], dir, { env: ENV })).code).toBe(0);
    const plan = await runCommand(showCommand, ["-plan=p.tfplan", "-no-color"], dir, { env: ENV });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("# terraform_data.a will be created");
    const notPlan = await runCommand(showCommand, ["-plan=main.tf", "-no-color"], dir, { env: ENV });
    expect(notPlan.code).toBe(1);
    expect(notPlan.stderr).toContain("Error: couldn't load the provided path as either a local plan file");
    const missing = await runCommand(showCommand, ["-plan=nope.tfplan", "-no-color"], dir, { env: ENV });
    expect(missing.stderr).toContain("(open nope.tfplan: no such file or directory)");
  });
});
