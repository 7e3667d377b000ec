// TF_STATE_PERSIST_INTERVAL: how often an apply writes the whole state, in seconds, never less
// than OpenTofu's 20; a bad value stops apply and destroy before anything is planned or written.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand, persistIntervalMs } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";

describe("TF_STATE_PERSIST_INTERVAL", () => {
  it("is read as Go's strconv.Atoi reads it, with OpenTofu's errors", () => {
    expect(persistIntervalMs({})).toBe(20_000);
    expect(persistIntervalMs({ TF_STATE_PERSIST_INTERVAL: "20" })).toBe(20_000);
    expect(persistIntervalMs({ TF_STATE_PERSIST_INTERVAL: "+300" })).toBe(300_000);
    const detail = (v: string) => {
      const r = persistIntervalMs({ TF_STATE_PERSIST_INTERVAL: v });
      return typeof r === "number" ? r : `${r.summary}: ${r.detail}`;
    };
    expect(detail("019")).toBe('Invalid environment variable value: The value for the environment variable "TF_STATE_PERSIST_INTERVAL" cannot be smaller than 20 but got 19.');
    expect(detail("-5")).toBe('Invalid environment variable value: The value for the environment variable "TF_STATE_PERSIST_INTERVAL" cannot be smaller than 20 but got -5.');
    for (const bad of ["", " 30", "30s", "1e3", "99999999999999999999"]) {
      expect(detail(bad)).toBe(`Invalid environment variable value: The environment variable "TF_STATE_PERSIST_INTERVAL" is expected to be a valid integer but got ${JSON.stringify(bad)} which cannot be converted.`);
    }
  });

  it("stops apply and destroy with a bad value, planning and writing nothing", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\n' });
    const bad = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env: { TF_STATE_PERSIST_INTERVAL: "5" } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.replace(/\s+/g, " ")).toContain('Error: Invalid environment variable value The value for the environment variable "TF_STATE_PERSIST_INTERVAL" cannot be smaller than 20 but got 5.');
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const ok = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env: { TF_STATE_PERSIST_INTERVAL: "60" } });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const destroy = await runCommand(destroyCommand, ["-no-color", "-auto-approve"], dir, { env: { TF_STATE_PERSIST_INTERVAL: "soon" } });
    expect(destroy.code).toBe(1);
    expect(destroy.stderr.replace(/\s+/g, " ")).toContain('is expected to be a valid integer but got "soon" which cannot be converted.');
    expect(destroy.stdout).not.toContain("will be destroyed");
  });
});
