// Through the CLI with the bundled `sim` provider as a real plugin process:
//  - a provider diagnostic naming an attribute (sim_instance's instance_type validator) is shown
//    on that argument's line, by validate and plan, and in -json as that expression's range;
//  - a deposed object whose remote object was deleted leaves the state, and the saved plan's
//    `show -json` lists it as a no-op for the deposed key.
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

const provider = (dataDir: string) =>
  `terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nprovider "sim" {\n  region   = "us-east-1"\n  data_dir = ${JSON.stringify(dataDir)}\n}\n`;

describe("provider diagnostics at the attribute", () => {
  it("validate and plan show the line of the argument the provider names", async () => {
    const main = `${provider(cloudDir())}resource "sim_instance" "web" {\n  image_id      = "img-000000000000"\n  instance_type = "huge"\n}\n`;
    const { dir } = workDir({ "main.tf": main });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const text = [
      "Error: Invalid Attribute Value Match",
      "",
      '  on main.tf line 12, in resource "sim_instance" "web":',
      '  12:   instance_type = "huge"',
      "",
      'Attribute instance_type value must be one of: ["small" "medium" "large"],',
      'got: "huge"',
    ].join("\n");
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(text);
    const vj = await runCommand(validateCommand, ["-json"], dir);
    const diag = (JSON.parse(vj.stdout) as { diagnostics: Array<{ range: { start: { line: number; column: number }; end: { line: number; column: number } } }> }).diagnostics[0];
    expect(diag?.range.start).toMatchObject({ line: 12, column: 19 });
    expect(diag?.range.end).toMatchObject({ line: 12, column: 25 });
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain(text);
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
