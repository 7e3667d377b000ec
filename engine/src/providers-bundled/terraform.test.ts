// The real-client proof: the real `terraform` CLI drives each bundled provider executable through
// init, plan, apply, a clean second plan, import (where the provider supports it) and destroy, and
// `terraform providers schema -json` must equal our own export of the provider's schema.
// The providers are found through a filesystem mirror (so `init` succeeds offline) and run through
// `dev_overrides` (so they run straight from the sources, TERRACE_PROVIDERS_FROM_SOURCE=1).

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSchemaJSON } from "../sdk/index.js";
import { BUNDLED_PROVIDERS, SimCloud, bundledProviderBinDir, bundledProviderExecutable, simImage } from "./index.js";

const terraform = spawnSync("terraform", ["version"], { encoding: "utf8" });
const haveTerraform = terraform.status === 0;
if (!haveTerraform) console.log("skipping the real-terraform tests: `terraform` is not on PATH");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

class Workspace {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(readonly root: string, name: string, extraEnv: NodeJS.ProcessEnv = {}) {
    this.dir = path.join(root, name);
    mkdirSync(this.dir, { recursive: true });
    this.env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: path.join(root, "cli.tfrc"),
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TERRACE_PROVIDERS_FROM_SOURCE: "1",
      ...extraEnv,
    };
    delete this.env.TF_LOG;
  }

  write(file: string, text: string): void {
    writeFileSync(path.join(this.dir, file), text);
  }

  run(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      const p = spawn("terraform", [...args], { cwd: this.dir, env: this.env });
      let stdout = "";
      let stderr = "";
      p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      p.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  async ok(...args: string[]): Promise<string> {
    const r = await this.run(...args, "-no-color");
    if (r.code !== 0) throw new Error(`terraform ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  }

  /** `plan -detailed-exitcode`: 0 no changes, 2 changes. */
  async planExit(): Promise<Run> {
    return this.run("plan", "-detailed-exitcode", "-no-color", "-input=false");
  }

  async schemaJSON(source: string): Promise<unknown> {
    const out = await this.ok("providers", "schema", "-json");
    const parsed = JSON.parse(out) as { provider_schemas: Record<string, unknown> };
    return parsed.provider_schemas[`registry.terraform.io/${source}`];
  }
}

let root = "";

beforeAll(() => {
  if (!haveTerraform) return;
  root = mkdtempSync(path.join(os.tmpdir(), "terrace-tf-"));
  const mirror = path.join(root, "mirror");
  const bin = bundledProviderBinDir();
  const overrides: string[] = [];
  for (const p of BUNDLED_PROVIDERS) {
    const dir = path.join(mirror, "registry.terraform.io", p.source, p.version, "linux_amd64");
    mkdirSync(dir, { recursive: true });
    symlinkSync(bundledProviderExecutable(p.name), path.join(dir, `terraform-provider-${p.name}_v${p.version}`));
    overrides.push(`    "${p.source}" = "${bin}"`);
  }
  writeFileSync(
    path.join(root, "cli.tfrc"),
    `provider_installation {\n  dev_overrides {\n${overrides.join("\n")}\n  }\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`,
  );
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function definitionOf(name: string) {
  const p = BUNDLED_PROVIDERS.find((x) => x.name === name);
  if (!p) throw new Error(name);
  return p;
}

describe.skipIf(!haveTerraform)("real terraform against the bundled providers", () => {
  it("null: init, apply, clean plan, destroy, schema", async () => {
    const ws = new Workspace(root, "null");
    ws.write(
      "main.tf",
      `terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\nresource "null_resource" "a" {\n  triggers = { x = "1" }\n}\ndata "null_data_source" "d" {\n  inputs = { a = "b" }\n}\noutput "o" { value = data.null_data_source.d.outputs.a }\n`,
    );
    await ws.ok("init");
    expect(await ws.ok("plan")).toContain("1 to add");
    // With TF_LOG_PROVIDER, terraform parses the SDK's hclog JSON lines (go-plugin's exact
    // timestamp layout) and logs them at their own levels under the plugin's name.
    const logged = await new Workspace(root, "null", { TF_LOG_PROVIDER: "TRACE" }).run("plan", "-no-color", "-input=false");
    expect(logged.code).toBe(0);
    expect(logged.stderr).toMatch(/ \[TRACE\] provider\.terraform-provider-null: Received request: .*tf_resource_type=null_resource/);
    expect(logged.stderr).toMatch(/ \[DEBUG\] provider\.terraform-provider-null: plugin address: address=\S+ network=unix timestamp=/);
    expect(logged.stderr).not.toMatch(/provider\.terraform-provider-null: \{/);
    const apply = await ws.ok("apply", "-auto-approve");
    expect(apply).toContain('o = "b"');
    expect((await ws.planExit()).code).toBe(0);
    // Changing a trigger replaces the resource.
    ws.write("main.tf", (await import("node:fs")).readFileSync(path.join(ws.dir, "main.tf"), "utf8").replace('x = "1"', 'x = "2"'));
    const replan = await ws.planExit();
    expect(replan.code).toBe(2);
    expect(replan.stdout).toContain("must be replaced");
    expect(await ws.schemaJSON("hashicorp/null")).toEqual(providerSchemaJSON(definitionOf("null").definition()));
    expect(await ws.ok("destroy", "-auto-approve")).toContain("1 destroyed");
  }, 120_000);

  it("random: init, apply, clean plan, import, destroy, schema", async () => {
    const ws = new Workspace(root, "random");
    ws.write(
      "main.tf",
      [
        'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}',
        'resource "random_id" "a" {\n  byte_length = 8\n  keepers = { k = "1" }\n}',
        'resource "random_string" "s" {\n  length = 12\n  special = false\n}',
        'resource "random_password" "p" {\n  length = 16\n  min_upper = 2\n}',
        'resource "random_pet" "pet" {\n  prefix = "x"\n}',
        'resource "random_integer" "i" {\n  min = 1\n  max = 100\n  seed = "s"\n}',
        'resource "random_string" "imported" {\n  length = 6\n}',
        'output "pw" {\n  value = random_password.p.result\n  sensitive = true\n}',
        'output "hex" { value = random_id.a.hex }',
        'output "s" { value = random_string.s.result }',
        'output "pet" { value = random_pet.pet.id }',
      ].join("\n"),
    );
    await ws.ok("init");
    await ws.ok("import", "random_string.imported", "abc123");
    const apply = await ws.ok("apply", "-auto-approve");
    expect(apply).toContain("5 added");
    expect(apply).toMatch(/hex = "[0-9a-f]{16}"/);
    expect(apply).toMatch(/s = "[A-Za-z0-9]{12}"/);
    expect(apply).toMatch(/pet = "x-[a-z]+-[a-z]+"/);
    expect(apply).toContain("pw = <sensitive>");
    expect((await ws.planExit()).code).toBe(0);
    const state = JSON.parse(await ws.ok("show", "-json")) as {
      values: { root_module: { resources: { address: string; values: Record<string, unknown>; sensitive_values: Record<string, unknown> }[] } };
    };
    const byAddr = new Map(state.values.root_module.resources.map((r) => [r.address, r]));
    expect(byAddr.get("random_string.imported")?.values.result).toBe("abc123");
    expect(byAddr.get("random_password.p")?.sensitive_values.result).toBe(true);
    expect(String(byAddr.get("random_password.p")?.values.result)).toMatch(/[A-Z].*[A-Z]/);
    // Keepers: a changed value replaces, the same values do not.
    ws.write("main.tf", (await import("node:fs")).readFileSync(path.join(ws.dir, "main.tf"), "utf8").replace('k = "1"', 'k = "2"'));
    const replan = await ws.planExit();
    expect(replan.code).toBe(2);
    expect(replan.stdout).toContain("random_id.a must be replaced");
    expect(await ws.schemaJSON("hashicorp/random")).toEqual(providerSchemaJSON(definitionOf("random").definition()));
    expect(await ws.ok("destroy", "-auto-approve")).toContain("6 destroyed");
  }, 120_000);

  it("sim: regions, forced replacement, drift, injected failures, import, destroy, schema", async () => {
    const simHome = path.join(root, "sim-home");
    const ws = new Workspace(root, "sim", { SIM_HOME: simHome });
    const cloud = new SimCloud(simHome);
    const config = (cidr: string) =>
      [
        'terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}',
        'provider "sim" {\n  region = "us-east-1"\n}',
        'provider "sim" {\n  alias = "west"\n  region = "us-west-2"\n}',
        'data "sim_regions" "all" {}',
        'data "sim_image" "ubuntu" {\n  name = "ubuntu-24.04"\n}',
        `resource "sim_network" "net" {\n  name = "main"\n  cidr_block = "${cidr}"\n}`,
        'resource "sim_subnet" "a" {\n  network_id = sim_network.net.id\n  cidr_block = "10.0.1.0/24"\n}',
        'resource "sim_instance" "web" {\n  image_id = data.sim_image.ubuntu.id\n  subnet_id = sim_subnet.a.id\n  tags = { role = "web" }\n}',
        'resource "sim_bucket" "logs" {\n  name = "logs"\n  tags = { team = "a" }\n}',
        'resource "sim_bucket" "west" {\n  provider = sim.west\n  name = "west-logs"\n}',
        'output "ip" { value = sim_instance.web.private_ip }',
        'output "regions" { value = length(data.sim_regions.all.names) }',
      ].join("\n");
    ws.write("main.tf", config("10.0.0.0/16"));
    await ws.ok("init");
    const plan = await ws.ok("plan");
    expect(plan).toContain("+ private_ip    = (known after apply)");
    expect(plan).toContain("5 to add");
    const apply = await ws.ok("apply", "-auto-approve");
    expect(apply).toMatch(/ip = "10\.0\.1\.\d+"/);
    expect(apply).toContain("regions = 5");
    expect((await ws.planExit()).code).toBe(0);
    // Each bucket lives in its provider's region only.
    expect(await cloud.get("us-east-1", "sim_bucket", "logs")).toBeDefined();
    expect(await cloud.get("us-west-2", "sim_bucket", "logs")).toBeUndefined();
    expect(await cloud.get("us-west-2", "sim_bucket", "west-logs")).toBeDefined();

    // Out-of-band drift: the next plan wants to put the tags back.
    await cloud.patch("us-east-1", "sim_bucket", "logs", { tags: { team: "b" } });
    const drift = await ws.planExit();
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('~ "team" = "b" -> "a"');
    // A changed cidr_block forces replacement of the network (and of what hangs off it).
    ws.write("main.tf", config("10.1.0.0/16"));
    const replace = await ws.planExit();
    expect(replace.stdout).toContain("# sim_network.net must be replaced");
    expect(replace.stdout).toMatch(/cidr_block\s+= "10\.0\.0\.0\/16" -> "10\.1\.0\.0\/16" # forces replacement/);
    ws.write("main.tf", config("10.0.0.0/16"));

    // Injected failure: the bucket update fails once with the configured message.
    await cloud.setControl({ failures: [{ operation: "update", type: "sim_bucket", message: "throttled by the simulator", times: 1 }] });
    const failed = await ws.run("apply", "-auto-approve", "-no-color");
    expect(failed.code).toBe(1);
    expect(failed.stderr + failed.stdout).toContain("throttled by the simulator");
    await cloud.setControl({});
    await ws.ok("apply", "-auto-approve");
    expect((await ws.planExit()).code).toBe(0);

    // Import: an object made outside Terraform; another region's provider cannot see it.
    await cloud.put("us-east-1", "sim_bucket", "outside", {
      id: "outside",
      name: "outside",
      arn: "arn:sim:storage:us-east-1:123456789012:bucket/outside",
      versioning: false,
      tags: null,
    });
    ws.write("import.tf", 'resource "sim_bucket" "outside" {\n  name = "outside"\n}\nresource "sim_bucket" "outside_west" {\n  provider = sim.west\n  name = "outside"\n}\n');
    await ws.ok("import", "sim_bucket.outside", "outside");
    const cross = await ws.run("import", "-no-color", "sim_bucket.outside_west", "outside");
    expect(cross.code).toBe(1);
    expect(cross.stderr).toContain("Cannot import non-existent remote object");
    ws.write("import.tf", 'resource "sim_bucket" "outside" {\n  name = "outside"\n}\n');
    expect((await ws.planExit()).code).toBe(0);

    // Deleted out of band: the next plan creates it again.
    await cloud.remove("us-east-1", "sim_bucket", "outside");
    expect((await ws.planExit()).stdout).toContain("# sim_bucket.outside will be created");

    expect(await ws.schemaJSON("terrace/sim")).toEqual(providerSchemaJSON(definitionOf("sim").definition()));
    await ws.ok("destroy", "-auto-approve");
    expect(await cloud.list("us-east-1", "sim_network")).toEqual([]);
    expect(simImage("us-east-1", "ubuntu-24.04")?.id).not.toBe(simImage("us-west-2", "ubuntu-24.04")?.id);
  }, 240_000);

  it("test: the conformance mocks plan and apply as OpenTofu's MockProvider does", async () => {
    const ws = new Workspace(root, "test");
    ws.write(
      "main.tf",
      [
        'terraform {\n  required_providers {\n    test = { source = "hashicorp/test" }\n  }\n}',
        'provider "test" {\n  region = "r1"\n}',
        'resource "test_instance" "a" {\n  ami = "ami-1"\n}',
        'resource "test_instance" "c" {\n  compute = "compute_value"\n}',
        'resource "test_object" "o" {\n  test_string = "hello"\n  test_list = ["a"]\n}',
        'data "test_data_source" "d" {\n  foo = "bar"\n}',
        'resource "test_instance" "imported" {}',
        'output "id" { value = test_instance.a.id }',
        'output "type" { value = test_instance.a.type }',
        'output "cv" { value = test_instance.c.compute_value }',
      ].join("\n"),
    );
    await ws.ok("init");
    await ws.ok("import", "test_instance.imported", "i-123");
    const apply = await ws.ok("apply", "-auto-approve");
    expect(apply).toContain('id = "foo"');
    expect(apply).toContain('type = "test_instance"');
    expect(apply).toContain('cv = "computed_value"');
    // require_new is in every RequiresReplace, but unchanged values never replace; testDiffFn
    // makes the `compute` target unknown on every plan, so only test_instance.c changes.
    const second = await ws.planExit();
    expect(second.stdout).toContain("# test_instance.c will be updated in-place");
    expect(second.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    const show = await ws.ok("state", "show", "test_instance.imported");
    expect(show).toMatch(/id\s+= "i-123"/);
    expect(await ws.schemaJSON("hashicorp/test")).toEqual(providerSchemaJSON(definitionOf("test").definition()));
    await ws.ok("destroy", "-auto-approve");
  }, 120_000);
});
