// Saved plans cross between Terrace and terraform in both directions: Terrace shows and applies a
// plan terraform wrote (a recorded one, so this runs without terraform: testdata/terraform-plan),
// and, with terraform 1.11 on PATH, terraform shows and applies the plan Terrace writes (its
// version stamped as terraform's, since terraform refuses plans from any other version), the
// other way round with a plan terraform makes on the spot, and Terrace's `show -json` of
// terraform's plans in every mode (destroy, refresh-only, targeted, replace, errored, no changes).
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinSchemas } from "../plans/fromtf.testkit.js";
import { readPlanFile, resourceTypeLookup, writePlanFile } from "../plans/index.js";
import { bundledProviderBinDir } from "../providers-bundled/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";

const RECORDED = path.join(import.meta.dirname, "testdata", "terraform-plan");

type JSONModule = { variables?: Record<string, Record<string, unknown>>; module_calls?: Record<string, { module?: JSONModule }> };

/** OpenTofu 1.11 describes variables beyond terraform 1.11: their type constraint and whether they are required. */
function withoutTofuVariableDetails(m: JSONModule | undefined): void {
  for (const v of Object.values(m?.variables ?? {})) {
    delete v["type"];
    delete v["required"];
  }
  for (const call of Object.values(m?.module_calls ?? {})) withoutTofuVariableDetails(call.module);
}

/** A `show -json` document with the program's version left out, and relevant_attributes in OpenTofu's order. */
function comparable(json: string): unknown {
  const doc = JSON.parse(json) as Record<string, unknown>;
  delete doc["terraform_version"];
  withoutTofuVariableDetails((doc["configuration"] as { root_module?: JSONModule } | undefined)?.root_module);
  const prior = doc["prior_state"] as Record<string, unknown> | undefined;
  if (prior) delete prior["terraform_version"];
  const ra = doc["relevant_attributes"] as Array<{ resource: string }> | undefined;
  if (ra) ra.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  return doc;
}

describe("a saved plan terraform 1.11 wrote (recorded)", () => {
  it("shows as terraform show -json shows it, configuration expressions included", async () => {
    const { dir } = workDir();
    cpSync(path.join(RECORDED, "tfplan.zip"), path.join(dir, "tfplan"));
    const r = await runCommand(showCommand, ["-json", "tfplan"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(comparable(r.stdout)).toEqual(comparable(readFileSync(path.join(RECORDED, "show.json"), "utf8")));
  });

  it("applies, leaving a state whose next plan has no changes", async () => {
    const { dir } = workDir();
    cpSync(path.join(RECORDED, "config"), dir, { recursive: true });
    cpSync(path.join(RECORDED, "tfplan.zip"), path.join(dir, "tfplan"));
    const a = await runCommand(applyCommand, ["-no-color", "tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(a.stdout).toContain("Apply complete! Resources: 5 added, 0 changed, 0 destroyed.");
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.stdout).toContain("No changes.");
    expect(p.code).toBe(0);
  });
});

const version = spawnSync("terraform", ["version", "-json"], { encoding: "utf8" });
const terraformVersion = version.status === 0 ? ((JSON.parse(version.stdout) as { terraform_version?: string }).terraform_version ?? "") : "";
const haveTerraform = /^1\.1[1-9]\./.test(terraformVersion);
if (!haveTerraform) console.log("skipping the live plan file exchange with terraform: terraform v1.11+ is not on PATH");

function terraform(dir: string, args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("terraform", args, { cwd: dir, encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", ...env } });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!haveTerraform)("saved plans exchanged with terraform", () => {
  it("terraform shows and applies the plan Terrace wrote", async () => {
    const { dir } = workDir();
    cpSync(path.join(RECORDED, "config"), dir, { recursive: true });
    const planned = await runCommand(planCommand, ["-no-color", "-out=ours.tfplan", "-var=n=3"], dir);
    expect(planned.code).toBe(0);
    // terraform reads plans made by its own version only.
    const read = readPlanFile(readFileSync(path.join(dir, "ours.tfplan")));
    if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
    const stamped = writePlanFile(read.contents, { tofuVersion: terraformVersion, resourceTypes: resourceTypeLookup(builtinSchemas) });
    if (!stamped.ok) throw new Error(JSON.stringify(stamped.diagnostics));
    writeFileSync(path.join(dir, "stamped.tfplan"), stamped.bytes);
    expect(terraform(dir, ["init", "-input=false"]).code).toBe(0);
    const theirs = terraform(dir, ["show", "-json", "stamped.tfplan"]);
    expect(theirs.stderr).toBe("");
    const ours = await runCommand(showCommand, ["-json", "ours.tfplan"], dir);
    expect(comparable(ours.stdout)).toEqual(comparable(theirs.stdout));
    const applied = terraform(dir, ["apply", "-no-color", "stamped.tfplan"]);
    expect(applied.stderr).toBe("");
    expect(applied.stdout).toContain("Apply complete! Resources: 6 added, 0 changed, 0 destroyed.");
    const next = await runCommand(planCommand, ["-no-color", "-var=n=3", "-detailed-exitcode"], dir);
    expect(next.code).toBe(0);
  }, 60_000);

  it("Terrace shows and applies a plan terraform makes with a prior state", async () => {
    const { dir } = workDir();
    cpSync(path.join(RECORDED, "config"), dir, { recursive: true });
    expect(terraform(dir, ["init", "-input=false"]).code).toBe(0);
    expect(terraform(dir, ["apply", "-auto-approve", "-input=false"]).code).toBe(0);
    const planned = terraform(dir, ["plan", "-no-color", "-input=false", "-out=theirs.tfplan", "-var=n=1", "-var=tags={a=\"1\",b=\"2\"}"]);
    expect(planned.code).toBe(0);
    const counts = /Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\./.exec(planned.stdout);
    expect(counts).not.toBeNull();
    const theirs = terraform(dir, ["show", "-json", "theirs.tfplan"]);
    const ours = await runCommand(showCommand, ["-json", "theirs.tfplan"], dir);
    expect(ours.stderr).toBe("");
    expect(comparable(ours.stdout)).toEqual(comparable(theirs.stdout));
    const a = await runCommand(applyCommand, ["-no-color", "theirs.tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(a.stdout).toContain(`Apply complete! Resources: ${counts?.[1]} added, ${counts?.[2]} changed, ${counts?.[3]} destroyed.`);
    const after = terraform(dir, ["plan", "-input=false", "-detailed-exitcode", "-var=n=1", "-var=tags={a=\"1\",b=\"2\"}"]);
    expect(after.code).toBe(0);
  }, 60_000);

  it("Terrace's show -json of terraform's plans in every mode equals terraform's", async () => {
    const { dir } = workDir({
      "main.tf": `variable "x" {
  default = "a"
}
variable "secret" {
  default   = "s"
  sensitive = true
}
resource "terraform_data" "a" {
  input = { x = var.x, s = var.secret }
}
resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.output
}
moved {
  from = terraform_data.old
  to   = terraform_data.c
}
resource "terraform_data" "c" {
  input = "c"
}
resource "terraform_data" "imp" {
  input = "i"
}
import {
  to = terraform_data.imp
  id = "11111111-2222-3333-4444-555555555555"
}
data "terraform_remote_state" "rs" {
  backend = "local"
  config = {
    path = "\${path.module}/other.tfstate"
  }
}
check "ck" {
  assert {
    condition     = terraform_data.a.input.x == "a"
    error_message = "not a"
  }
}
output "o" {
  value     = terraform_data.b[*].output
  sensitive = true
}
output "rs" {
  value = data.terraform_remote_state.rs.outputs
}
`,
    });
    expect(terraform(dir, ["init", "-input=false"]).code).toBe(0);
    // Without the remote state the plan errors part-way, and is saved as an errored plan.
    const errored = terraform(dir, ["plan", "-input=false", "-out=errored.tfplan"]);
    expect(errored.code).toBe(1);
    writeFileSync(path.join(dir, "other.tfstate"), '{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{"x":{"value":"v","type":"string"}},"resources":[]}');
    expect(terraform(dir, ["apply", "-input=false", "-auto-approve"]).code).toBe(0);
    const plans: Record<string, string[]> = {
      normal: ["-var=x=b"],
      destroy: ["-destroy"],
      "refresh-only": ["-refresh-only"],
      targeted: ["-var=x=b", "-target=terraform_data.b"],
      replace: ["-replace=terraform_data.b[0]"],
      nochange: [],
    };
    for (const [name, args] of Object.entries({ errored: undefined, ...plans })) {
      if (args) expect(terraform(dir, ["plan", "-input=false", `-out=${name}.tfplan`, ...args]).code).toBe(0);
      const theirs = terraform(dir, ["show", "-json", `${name}.tfplan`]);
      const ours = await runCommand(showCommand, ["-json", `${name}.tfplan`], dir);
      expect(ours.stderr, name).toBe("");
      expect(comparable(ours.stdout), name).toEqual(comparable(theirs.stdout));
    }
  }, 120_000);

  it("Terrace shows terraform's plans of a provider's objects changed outside it (drift, refresh-only) as terraform does, human and JSON", async () => {
    const { dir } = workDir({
      "main.tf": `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}
provider "sim" {
  region   = "eu-west-1"
  data_dir = "\${path.module}/simdata"
}
variable "v" {
  default = "1"
}
resource "sim_network" "n" {
  cidr_block = "10.0.0.0/16"
  tags       = { v = var.v }
}
resource "sim_bucket" "b" {
  name = "bucket-one"
  tags = { env = "dev", keep = "same", net = sim_network.n.id }
}
output "bucket" {
  value = sim_bucket.b.arn
}
`,
    });
    // terraform and Terrace both run the bundled sim provider from the sources.
    const rc = path.join(dir, "dev.tfrc");
    writeFileSync(rc, `provider_installation {\n  dev_overrides {\n    "registry.terraform.io/terrace/sim" = "${bundledProviderBinDir()}"\n  }\n  direct {}\n}\n`);
    const env = { TF_CLI_CONFIG_FILE: rc, TERRACE_PROVIDERS_FROM_SOURCE: "1" };
    const tf = (args: string[]) => terraform(dir, args, env);
    expect(tf(["apply", "-auto-approve", "-input=false"]).code).toBe(0);
    // Out-of-band changes: a tag edited and one added on the bucket, a tag removed from the network.
    const edit = (type: string, change: (o: { tags: Record<string, string> }) => void): void => {
      const typeDir = path.join(dir, "simdata", "regions", "eu-west-1", type);
      const file = path.join(typeDir, readdirSync(typeDir)[0] ?? "");
      const o = JSON.parse(readFileSync(file, "utf8")) as { tags: Record<string, string> };
      change(o);
      writeFileSync(file, JSON.stringify(o));
    };
    edit("sim_bucket", (o) => {
      o.tags["env"] = "prod";
      o.tags["added"] = "outside";
    });
    edit("sim_network", (o) => delete o.tags["v"]);
    const wording = (text: string): string =>
      text
        .replace(/Terraform/g, "OpenTofu")
        .replace(/"terraform apply"/g, '"tofu apply"')
        .replace(/\n {2}~ update in-place\n/g, "\n  ~ update in-place (current -> planned)\n");
    for (const [name, args] of Object.entries({ drift: ["-var=v=2"], "refresh-only": ["-refresh-only"] })) {
      expect(tf(["plan", "-input=false", `-out=${name}.tfplan`, ...args]).code, name).toBe(0);
      const theirs = tf(["show", "-json", `${name}.tfplan`]);
      const ours = await runCommand(showCommand, ["-json", `${name}.tfplan`], dir, { env });
      expect(ours.stderr, name).toBe("");
      const withoutConfiguration = (json: string): unknown => {
        // The configuration section names the providers by tofu's registry: compared elsewhere.
        const doc = comparable(json) as Record<string, unknown>;
        delete doc["configuration"];
        return doc;
      };
      expect(withoutConfiguration(ours.stdout), name).toEqual(withoutConfiguration(theirs.stdout));
      expect((JSON.parse(ours.stdout) as { resource_drift?: unknown[] }).resource_drift, name).toHaveLength(2);
      const human = await runCommand(showCommand, ["-no-color", `${name}.tfplan`], dir, { env });
      // A normal plan shows drift only where it matters to a change; refresh-only shows it all.
      if (name === "refresh-only") expect(human.stdout).toContain("  # sim_bucket.b has changed\n");
      expect(human.stdout, name).toBe(wording(tf(["show", "-no-color", `${name}.tfplan`]).stdout));
    }
  }, 120_000);
});
