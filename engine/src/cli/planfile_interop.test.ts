// Saved plans cross between Terrace and terraform in both directions: Terrace shows and applies a
// plan terraform wrote (a recorded one, so this runs without terraform: testdata/terraform-plan),
// and, with terraform 1.11 on PATH, terraform shows and applies the plan Terrace writes (its
// version stamped as terraform's, since terraform refuses plans from any other version), the
// other way round with a plan terraform makes on the spot, and Terrace's `show -json` of
// terraform's plans in every mode (destroy, refresh-only, targeted, replace, errored, no changes).
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinSchemas } from "../plans/fromtf.testkit.js";
import { readPlanFile, resourceTypeLookup, writePlanFile } from "../plans/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";

const RECORDED = path.join(import.meta.dirname, "testdata", "terraform-plan");

/** A `show -json` document with the program's version left out, and relevant_attributes in OpenTofu's order. */
function comparable(json: string): unknown {
  const doc = JSON.parse(json) as Record<string, unknown>;
  delete doc["terraform_version"];
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

function terraform(dir: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("terraform", args, { cwd: dir, encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" } });
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
});
