// `terrace providers schema -json`: the schemas of the providers the configuration and state use,
// in the jsonprovider format; the backend is initialised first, as tofu does.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { providersCommand } from "./providers.js";

const terraform = spawnSync("terraform", ["version"], { encoding: "utf8" }).status === 0;

describe("terrace providers schema", () => {
  it("requires -json", async () => {
    const { dir } = workDir({ "main.tf": "" });
    const r = await runCommand(providersCommand, ["schema"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("The `terrace providers schema` command requires the `-json` flag.");
  });

  it("prints only the format version when no provider is used", async () => {
    const { dir } = workDir({ "main.tf": 'output "o" {\n  value = 1\n}\n' });
    expect(await runCommand(providersCommand, ["schema", "-json"], dir)).toEqual({ code: 0, stdout: '{"format_version":"1.0"}\n', stderr: "" });
  });

  it("includes a provider named only in required_providers, as tofu's Config.ProviderTypes does", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n' });
    const init = await runCommand(initCommand, [], dir);
    expect(init.code).toBe(0);
    const r = await runCommand(providersCommand, ["schema", "-json"], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const doc = JSON.parse(r.stdout) as { provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }> };
    expect(Object.keys(doc.provider_schemas)).toEqual(["registry.opentofu.org/hashicorp/null"]);
    expect(Object.keys(doc.provider_schemas["registry.opentofu.org/hashicorp/null"]?.resource_schemas ?? {})).toContain("null_resource");
  });

  it.skipIf(!terraform)("prints the built-in provider's schema as terraform 1.11 does", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {}\n' });
    const r = await runCommand(providersCommand, ["schema", "-json"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const ours = JSON.parse(r.stdout) as { provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }> };
    const tf = spawnSync("terraform", ["providers", "schema", "-json"], { cwd: dir, encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" } });
    expect(tf.status).toBe(0);
    const theirs = JSON.parse(tf.stdout) as typeof ours;
    const key = "terraform.io/builtin/terraform";
    expect(ours.provider_schemas[key]?.resource_schemas["terraform_data"]).toEqual(theirs.provider_schemas[key]?.resource_schemas["terraform_data"]);
  });
  if (!terraform) console.log("providers schema: the terraform comparison is skipped, terraform is not on PATH");
});
