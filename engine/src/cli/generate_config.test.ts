// `plan -generate-config-out` through the CLI: terraform_data (builtin) and the bundled `sim`
// provider as a plugin. The generated files are compared with terraform 1.11's (which writes
// "Terraform" where OpenTofu writes "OpenTofu") when it is on PATH; then the generated
// configuration is applied (the import) and planned again without changes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { bundledProviderBinDir } from "../providers-bundled/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";

function haveTerraform(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasTerraform = haveTerraform();
if (!hasTerraform) console.log("generate-config-out: terraform comparison skipped, terraform is not on PATH");

/** terraform plan -generate-config-out in a copy of `files`; the file it wrote, with OpenTofu's name. */
function terraformGenerated(files: Record<string, string>, cliConfig: string): string {
  const root = mkdtempSync(path.join(tmpdir(), "terrace-tf-genconfig-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const rc = path.join(root, "cli.tfrc");
  writeFileSync(rc, cliConfig);
  const dir = path.join(root, "work");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TERRACE_PROVIDERS_FROM_SOURCE: "1" };
  if (cliConfig === "") execFileSync("terraform", ["init", "-input=false", "-no-color"], { cwd: dir, env, stdio: "ignore" });
  execFileSync("terraform", ["plan", "-input=false", "-no-color", "-generate-config-out=gen.tf"], { cwd: dir, env, stdio: "ignore" });
  return readFileSync(path.join(dir, "gen.tf"), "utf8").replaceAll("by Terraform", "by OpenTofu");
}

/**
 * A generated file's header and its blocks in address order: terraform appends each block as its
 * concurrent plan walk finishes that resource, so its order varies from run to run.
 */
function blocksInOrder(text: string): string[] {
  const [header, ...blocks] = text.replace(/\n$/, "").split(/\n(?=\n# __generated__ by OpenTofu from )/);
  return [header ?? "", ...blocks.sort(), text.endsWith("\n") ? "(final newline)" : "(no final newline)"];
}

const DATA_IMPORT = 'import {\n  to = terraform_data.a\n  id = "abc"\n}\n';
const DATA_GENERATED =
  '# __generated__ by OpenTofu\n# Please review these resources and move them into your main configuration files.\n\n# __generated__ by OpenTofu from "abc"\nresource "terraform_data" "a" {\n  input            = null\n  triggers_replace = null\n}\n';

describe("plan -generate-config-out with terraform_data", () => {
  it("writes the file, shows the plan with its notes, and the generated configuration then imports with no changes after", async () => {
    const { dir } = workDir({ "main.tf": DATA_IMPORT });
    const r = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const generated = readFileSync(path.join(dir, "gen.tf"), "utf8");
    expect(generated).toBe(DATA_GENERATED);
    if (hasTerraform) expect(generated).toBe(terraformGenerated({ "main.tf": DATA_IMPORT }, ""));
    expect(r.stdout).toContain('  # terraform_data.a will be imported\n  # (config will be generated)\n');
    expect(r.stdout).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.\n");
    expect(r.stdout).toContain(
      "Warning: Config generation is experimental\n\nGenerating configuration during import is currently experimental, and the\ngenerated configuration format may change in future versions.\n",
    );
    expect(r.stdout).toContain(
      "\nOpenTofu has generated configuration and written it to gen.tf. Please review\nthe configuration and edit it as necessary before adding it to version\ncontrol.\n\nNote: You didn't use the -out option",
    );

    const again = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Error: Target generated file already exists");
    expect(again.stderr.replace(/\s+/g, " ")).toContain(
      "OpenTofu can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.",
    );

    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.");
    expect((await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir)).code).toBe(0);
  });

  it("generates nothing for a target that has configuration, and no file is made", async () => {
    const { dir } = workDir({ "main.tf": `resource "terraform_data" "a" {}\n${DATA_IMPORT}` });
    const r = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("config will be generated");
    expect(r.stdout).not.toContain("Config generation is experimental");
    expect(r.stdout).not.toContain("has generated configuration");
    expect(existsSync(path.join(dir, "gen.tf"))).toBe(false);
  });

  it("reports OpenTofu's errors for other plan modes, module targets and instance keys", async () => {
    const mode = workDir({ "main.tf": DATA_IMPORT });
    const d = await runCommand(planCommand, ["-no-color", "-destroy", "-generate-config-out=gen.tf"], mode.dir);
    expect(d.code).toBe(1);
    expect(d.stderr.replace(/\s+/g, " ")).toContain(
      "Error: Invalid generate-config-out flag Config can only be generated during a normal plan operation, and not during a refresh-only or destroy plan.",
    );

    const mod = workDir({ "main.tf": 'import {\n  to = module.m.terraform_data.a\n  id = "abc"\n}\n' });
    const m = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], mod.dir);
    expect(m.code).toBe(1);
    expect(m.stderr.replace(/\s+/g, " ")).toContain(
      "Error: Cannot generate configuration for resource inside sub-module on main.tf line 1: 1: import { The configuration for the given import module.m.terraform_data.a does not exist. Configuration generation is only possible for resources in the root module, and not possible for resources in sub-modules.",
    );

    const keyed = workDir({ "main.tf": 'import {\n  to = terraform_data.a["x"]\n  id = "abc"\n}\n' });
    const k = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], keyed.dir);
    expect(k.code).toBe(1);
    expect(k.stderr.replace(/\s+/g, " ")).toContain(
      'Error: Configuration generation for count and for_each resources not supported on main.tf line 1: 1: import { The configuration for the given import terraform_data.a["x"] does not exist. Configuration generation is only possible for resources that do not use count or for_each',
    );

    const each = workDir({ "main.tf": 'import {\n  for_each = toset(["x"])\n  to = terraform_data.a[each.key]\n  id = each.key\n}\n' });
    const e = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], each.dir);
    expect(e.code).toBe(1);
    expect(e.stderr.replace(/\s+/g, " ")).toContain("The configuration for the given import terraform_data.a does not exist. Configuration generation is only possible for resources that do not use count or for_each");
    for (const w of [mode, mod, keyed, each]) expect(existsSync(path.join(w.dir, "gen.tf"))).toBe(false);
  });
});

describe("plan -generate-config-out with the sim provider", () => {
  const files = (dataDir: string) => ({
    "main.tf": `terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nprovider "sim" {\n  region   = "us-east-1"\n  data_dir = ${JSON.stringify(dataDir)}\n}\nimport {\n  to = sim_instance.web\n  id = "i-0123456789ab"\n}\nimport {\n  to = sim_bucket.logs\n  id = "logs"\n}\n`,
  });
  const cloudWith = (instanceType: string): string => {
    const cloud = mkdtempSync(path.join(tmpdir(), "terrace-sim-genconfig-"));
    onTestFinished(() => rmSync(cloud, { recursive: true, force: true }));
    const put = (type: string, id: string, obj: Record<string, unknown>) => {
      mkdirSync(path.join(cloud, "regions", "us-east-1", type), { recursive: true });
      writeFileSync(path.join(cloud, "regions", "us-east-1", type, `${id}.json`), JSON.stringify(obj));
    };
    put("sim_instance", "i-0123456789ab", {
      id: "i-0123456789ab",
      arn: "arn:sim:compute:us-east-1:instance/i-0123456789ab",
      name: "web",
      image_id: "img-0123456789ab",
      instance_type: instanceType,
      subnet_id: null,
      user_data: '{"packages":["nginx","git"],"port":8080}',
      private_ip: "10.0.0.9",
      tags: { Name: "web", "team:owner": "ops", note: "a\nb ${x}" },
    });
    put("sim_bucket", "logs", { id: "logs", arn: "arn:sim:storage:us-east-1:bucket/logs", name: "logs", versioning: false, tags: null });
    return cloud;
  };
  const expected = [
    "# __generated__ by OpenTofu",
    "# Please review these resources and move them into your main configuration files.",
    "",
    '# __generated__ by OpenTofu from "logs"',
    'resource "sim_bucket" "logs" {',
    '  name       = "logs"',
    "  tags       = null",
    "  versioning = false",
    "}",
    "",
    '# __generated__ by OpenTofu from "i-0123456789ab"',
    'resource "sim_instance" "web" {',
    '  image_id      = "img-0123456789ab"',
    '  instance_type = "small"',
    '  name          = "web"',
    "  subnet_id     = null",
    "  tags = {",
    '    Name         = "web"',
    '    note         = "a\\nb $${x}"',
    '    "team:owner" = "ops"',
    "  }",
    "  user_data = jsonencode({",
    '    packages = ["nginx", "git"]',
    "    port     = 8080",
    "  })",
    "}",
    "",
  ].join("\n");

  it("generates blocks for both targets (as terraform does), applies them as imports, then plans no changes", async () => {
    const { initCommand } = await import("./init.js");
    const cloud = cloudWith("small");
    const { dir } = workDir(files(cloud));
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const r = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const generated = readFileSync(path.join(dir, "gen.tf"), "utf8");
    expect(generated).toBe(expected);
    if (hasTerraform) {
      const rc = `provider_installation {\n  dev_overrides {\n    "terrace/sim" = ${JSON.stringify(bundledProviderBinDir())}\n  }\n  direct {}\n}\n`;
      expect(blocksInOrder(generated)).toEqual(blocksInOrder(terraformGenerated(files(cloud), rc)));
    }
    expect(r.stdout).toContain("Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.");
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.stdout).toContain("Apply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed.");
    expect((await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir)).code).toBe(0);
  }, 180_000);

  it("still writes the generated configuration when planning it fails", async () => {
    const { initCommand } = await import("./init.js");
    const { dir } = workDir(files(cloudWith("huge")));
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const r = await runCommand(planCommand, ["-no-color", "-generate-config-out=gen.tf"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Warning: Config generation is experimental");
    // The provider's error is about the generated file, from its first argument line (as in tofu).
    expect(r.stderr).toContain('Error: Invalid Attribute Value Match\n\n  with sim_instance.web,\n  on gen.tf line 2:\n  (source code not available)\n\nAttribute instance_type value must be one of: ["small" "medium" "large"],\ngot: "huge"\n');
    const generated = readFileSync(path.join(dir, "gen.tf"), "utf8");
    // The failed instance's change is tofu's NoOp placeholder, which records no import: its
    // block is not said to come from an ID.
    expect(generated).toBe(expected.replace('"small"', '"huge"').replace('OpenTofu from "i-0123456789ab"', "OpenTofu"));
  }, 180_000);
});
