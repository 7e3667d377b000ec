// Through the CLI with the bundled `sim` provider as a real plugin process:
//  - a provider diagnostic naming an attribute (sim_instance's instance_type validator) is shown
//    on that argument's line, by validate and plan, and in -json as that expression's range, with
//    the address of the resource (validate) or instance (plan, apply) it is about;
//  - a deposed object whose remote object was deleted leaves the state, and the saved plan's
//    `show -json` lists it as a no-op for the deposed key.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { planCommand } from "../cli/plan.js";
import { showCommand } from "../cli/show.js";
import { validateCommand } from "../cli/validate.js";

function cloudDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "terrace-sim-diags-"));
  onTestFinished(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function terraformOnPath(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasTerraform = terraformOnPath();
if (!hasTerraform) console.log("provider diagnostics CLI: terraform comparison skipped, terraform is not on PATH");

/** terraform in `dir` without CLI configuration: its exit code and stdout+stderr. */
function terraform(dir: string, args: string[]): { code: number; out: string } {
  try {
    const out = execFileSync("terraform", args, { cwd: dir, env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1" }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { code: 0, out };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    return { code: err.status ?? 1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

const provider = (dataDir: string) =>
  `terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nprovider "sim" {\n  region   = "us-east-1"\n  data_dir = ${JSON.stringify(dataDir)}\n}\n`;

describe("provider diagnostics at the attribute", () => {
  it("validate and plan show the line of the argument the provider names, and whose it is", async () => {
    const main = `${provider(cloudDir())}resource "sim_instance" "web" {\n  for_each      = toset(["a"])\n  image_id      = "img-000000000000"\n  instance_type = "huge"\n}\n`;
    const { dir } = workDir({ "main.tf": main });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const text = (address: string) =>
      [
        "Error: Invalid Attribute Value Match",
        "",
        `  with ${address},`,
        '  on main.tf line 13, in resource "sim_instance" "web":',
        '  13:   instance_type = "huge"',
        "",
        'Attribute instance_type value must be one of: ["small" "medium" "large"],',
        'got: "huge"',
      ].join("\n");
    // Validation is per resource block, planning per instance (NodeValidatableResource's
    // ConfigResource address against the instance's). plan runs the validate walk first, so a
    // literal the provider refuses is reported there, as terraform 1.11 does.
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(text("sim_instance.web"));
    const vj = await runCommand(validateCommand, ["-json"], dir);
    const diag = (JSON.parse(vj.stdout) as { diagnostics: Array<Record<string, unknown> & { range: { start: { line: number; column: number }; end: { line: number; column: number } } }> })
      .diagnostics[0];
    expect(diag?.range.start).toMatchObject({ line: 13, column: 19 });
    expect(diag?.range.end).toMatchObject({ line: 13, column: 25 });
    expect(Object.keys(diag ?? {})).toEqual(["severity", "summary", "detail", "address", "range", "snippet"]);
    expect(diag?.["address"]).toBe("sim_instance.web");
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(text("sim_instance.web"));

    // A value known only per instance passes validate and is refused by the plan walk, per instance.
    writeFileSync(path.join(dir, "main.tf"), main.replace('toset(["a"])', 'toset(["huge"])').replace('instance_type = "huge"', "instance_type = each.key"));
    expect((await runCommand(validateCommand, ["-no-color"], dir)).code).toBe(0);
    const perInstance = await runCommand(planCommand, ["-no-color"], dir);
    expect(perInstance.code).toBe(1);
    expect(perInstance.stderr).toContain(text('sim_instance.web["huge"]').replace('instance_type = "huge"', "instance_type = each.key"));
    const pj = await runCommand(planCommand, ["-json"], dir);
    const streamed = pj.stdout
      .split("\n")
      .filter((l) => l.includes('"type":"diagnostic"'))
      .map((l) => (JSON.parse(l) as { diagnostic: { address?: string } }).diagnostic);
    expect(streamed.map((d) => d.address)).toEqual(['sim_instance.web["huge"]']);
  }, 120_000);

  it("an apply failure names the instance and points at its block", async () => {
    const main = `${provider(cloudDir())}resource "sim_instance" "web" {\n  count         = 1\n  image_id      = "img-missing"\n  instance_type = "small"\n}\n`;
    const { dir } = workDir({ "main.tf": main });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(
      ["Error: sim: create sim_instance failed", "", "  with sim_instance.web[0],", '  on main.tf line 10, in resource "sim_instance" "web":', '  10: resource "sim_instance" "web" {', ""].join("\n"),
    );
  }, 120_000);

  it("a provider without a block is reported at OpenTofu's empty body", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nresource "sim_bucket" "b" {\n  name = "logs"\n}\n' });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('Error: Missing required argument\n\n  on <empty> line 0:\n  (source code not available)\n\nThe argument "region" is required, but was not set.\n');
  }, 120_000);
});

describe("a provisioner's failure", () => {
  const main = 'resource "terraform_data" "a" {\n  for_each = toset(["x"])\n  provisioner "local-exec" {\n    command = "exit 3"\n  }\n}\n';
  const block = [
    "Error: local-exec provisioner error",
    "",
    '  with terraform_data.a["x"],',
    '  on main.tf line 3, in resource "terraform_data" "a":',
    '   3:   provisioner "local-exec" {',
    "",
    "Error running command 'exit 3': exit status 3. Output: ",
  ].join("\n");

  it("names the instance in text and in -json", async () => {
    const { dir } = workDir({ "main.tf": main });
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(block);
    const j = await runCommand(applyCommand, ["-json", "-auto-approve"], dir);
    const diags = j.stdout
      .split("\n")
      .filter((l) => l.includes('"type":"diagnostic"'))
      .map((l) => (JSON.parse(l) as { diagnostic: { summary: string; address?: string } }).diagnostic);
    expect(diags.map((d) => [d.summary, d.address])).toEqual([["local-exec provisioner error", 'terraform_data.a["x"]']]);
  }, 120_000);

  it.skipIf(!hasTerraform)("is printed as terraform 1.11 prints it", () => {
    const { dir } = workDir({ "main.tf": main });
    expect(terraform(dir, ["init", "-no-color"]).code).toBe(0);
    const a = terraform(dir, ["apply", "-no-color", "-auto-approve"]);
    expect(a.code).toBe(1);
    expect(a.out).toContain(block);
    const j = terraform(dir, ["apply", "-json", "-auto-approve"]);
    const diag = j.out
      .split("\n")
      .filter((l) => l.includes('"type":"diagnostic"'))
      .map((l) => (JSON.parse(l) as { diagnostic: Record<string, unknown> }).diagnostic)[0];
    expect(Object.keys(diag ?? {})).toEqual(["severity", "summary", "detail", "address", "range", "snippet"]);
    expect(diag?.["address"]).toBe('terraform_data.a["x"]');
  }, 120_000);
});

describe("a deposed object deleted outside OpenTofu", () => {
  it("is dropped from state and listed as a no-op in the JSON plan", async () => {
    const cloud = cloudDir();
    const { dir } = workDir({ "main.tf": `${provider(cloud)}resource "sim_bucket" "b" {\n  name = "logs"\n}\n` });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    // The bucket as a create_before_destroy replacement left it: deposed, then deleted by hand.
    const statePath = path.join(dir, "terraform.tfstate");
    const st = JSON.parse(readFileSync(statePath, "utf8")) as { resources: Array<{ instances: Array<Record<string, unknown>> }> };
    const inst = st.resources[0]?.instances[0];
    if (!inst) throw new Error("no instance in state");
    inst["deposed"] = "00000001";
    writeFileSync(statePath, JSON.stringify(st, null, 2));
    unlinkSync(path.join(cloud, "regions", "us-east-1", "sim_bucket", "logs.json"));

    const p = await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir);
    expect(p.stderr).toBe("");
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain("sim_bucket.b (deposed object 00000001): Refreshing state... [id=logs]");
    expect(p.stdout).not.toContain("# sim_bucket.b (deposed object 00000001)");
    const shown = await runCommand(showCommand, ["-json", "p.tfplan"], dir);
    const doc = JSON.parse(shown.stdout) as { resource_changes: Array<Record<string, unknown>>; prior_state?: { values?: { root_module?: { resources?: unknown[] } } } };
    expect(doc.resource_changes.find((c) => c["deposed"] === "00000001")).toEqual({
      address: "sim_bucket.b",
      mode: "managed",
      type: "sim_bucket",
      name: "b",
      deposed: "00000001",
      provider_name: "registry.opentofu.org/terrace/sim",
      change: { actions: ["no-op"], before: null, after: null, after_unknown: {}, before_sensitive: false, after_sensitive: false },
    });
    expect(doc.prior_state?.values?.root_module?.resources ?? []).toEqual([]);
  }, 120_000);
});
