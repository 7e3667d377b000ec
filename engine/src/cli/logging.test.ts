// TF_LOG on the command line: the engine's debug log, the plugin host's, and the providers' own
// lines passed through, in OpenTofu's format, on stderr or in TF_LOG_PATH.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCommand, useProvidersFromSource, workDir } from "./clitest.testkit.js";
import { runCLI } from "./run.js";

const CONFIG = `terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
resource "null_resource" "a" {
  triggers = { x = "1" }
}
resource "terraform_data" "b" {
  input = null_resource.a.id
}
`;

const BASE_ENV = { TF_CLI_CONFIG_FILE: "/dev/null" };

async function initialised(): Promise<string> {
  const { dir } = workDir({ "main.tf": CONFIG });
  const init = await runCommand(runCLI, ["init", "-no-color"], dir, { env: BASE_ENV });
  expect(init.code).toBe(0);
  return dir;
}

describe("TF_LOG", () => {
  useProvidersFromSource();

  it("logs the run, the plugin's life and the provider's own requests at TRACE, leaving stdout alone", async () => {
    const dir = await initialised();
    const quiet = await runCommand(runCLI, ["plan", "-no-color"], dir, { env: BASE_ENV });
    expect(quiet.stderr).toBe("");
    const r = await runCommand(runCLI, ["plan", "-no-color"], dir, { env: { ...BASE_ENV, TF_LOG: "trace" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(quiet.stdout);
    const log = r.stderr;
    // Every line is an hclog line (or a continuation of a multi-line message).
    expect(log.split("\n").filter((l) => l !== "" && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d{4}) (\[TRACE\]|\[DEBUG\]|\[INFO\] |\[WARN\] |\[ERROR\]) /.test(l))).toEqual([]);
    expect(log).toMatch(/\[INFO\]  Terrace version: \S+ \(OpenTofu language 1\.11\.0\)\n/);
    expect(log).toContain('[INFO]  CLI args: []string{"terrace", "plan", "-no-color"}\n');
    expect(log).toContain("[INFO]  backend/local: starting Plan operation\n");
    expect(log).toMatch(/\[DEBUG\] provider: starting plugin: path=\S+\/terraform-provider-null args=\["\S+\/terraform-provider-null"\]\n/);
    expect(log).toMatch(/\[DEBUG\] provider: plugin started: path=\S+ pid=\d+\n/);
    expect(log).toContain("[DEBUG] provider: using plugin: version=6\n");
    expect(log).toMatch(/\[DEBUG\] provider\.terraform-provider-null: plugin address: address=\S+ network=unix timestamp=\S+\n/);
    expect(log).toContain("[TRACE] GRPCProvider.v6: PlanResourceChange\n");
    expect(log).toMatch(
      /\[TRACE\] provider\.terraform-provider-null: Received request: @module=sdk\.proto tf_req_id=[0-9a-f-]{36} tf_resource_type=null_resource tf_rpc=PlanResourceChange timestamp=\S+\n/,
    );
    expect(log).toContain("[DEBUG] Starting graph walk: walkPlan\n");
    expect(log).toContain('[TRACE] vertex "null_resource.a": starting visit (planInstance)\n');
    expect(log).toContain('[TRACE] vertex "null_resource.a": visit complete\n');
    expect(log).toMatch(/\[INFO\]  provider: plugin process exited: plugin=\S+ id=\d+\n/);
  });

  it("keeps the providers at their own level with TF_LOG_PROVIDER, and writes JSON lines for TF_LOG=JSON", async () => {
    const dir = await initialised();
    const r = await runCommand(runCLI, ["plan", "-no-color"], dir, { env: { ...BASE_ENV, TF_LOG: "JSON", TF_LOG_PROVIDER: "ERROR" } });
    expect(r.code).toBe(0);
    const lines = r.stderr
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l["@message"] === "GRPCProvider.v6: PlanResourceChange" && l["@level"] === "trace")).toBe(true);
    expect(lines.filter((l) => String(l["@module"] ?? "").startsWith("provider"))).toEqual([]);
  });

  it("shows what a provider's handlers log, with the request's fields (TF_LOG_PROVIDER=DEBUG)", async () => {
    const { dir } = workDir({
      "main.tf": `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}
provider "sim" {
  region   = "eu-west-1"
  data_dir = "\${path.module}/cloud"
}
resource "sim_bucket" "b" {
  name = "logs"
}
`,
    });
    expect((await runCommand(runCLI, ["init", "-no-color"], dir, { env: BASE_ENV })).code).toBe(0);
    const r = await runCommand(runCLI, ["apply", "-auto-approve", "-no-color"], dir, { env: { ...BASE_ENV, TF_LOG_PROVIDER: "DEBUG" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /\[DEBUG\] provider\.terraform-provider-sim: sim: create sim_bucket: @module=provider name=logs region=eu-west-1 tf_req_id=[0-9a-f-]{36} tf_resource_type=sim_bucket tf_rpc=ApplyResourceChange timestamp=\S+\n/,
    );
    // The engine's own lines stay off: TF_LOG is not set.
    expect(r.stderr).not.toContain("GRPCProvider");
  });

  it("puts an internal error's stack in the log, for bug reports", async () => {
    let stderr = "";
    const io = {
      stdin: Readable.from([]),
      stdout: {
        write: () => {
          throw new Error("stdout went away");
        },
      },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: process.cwd(),
      env: { ...BASE_ENV, TF_LOG: "ERROR" },
    };
    await expect(runCLI(["version"], io)).rejects.toThrow("stdout went away");
    expect(stderr).toMatch(/\[ERROR\] internal error:\n  error=\n  \| Error: stdout went away\n  \|     at /);
  });

  it("appends to TF_LOG_PATH and leaves stderr as it is without the log", async () => {
    const dir = await initialised();
    const file = path.join(dir, "terrace.log");
    const r = await runCommand(runCLI, ["validate", "-no-color"], dir, { env: { ...BASE_ENV, TF_LOG: "DEBUG", TF_LOG_PATH: file } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const text = readFileSync(file, "utf8");
    expect(text).toContain('[INFO]  CLI args: []string{"terrace", "validate", "-no-color"}\n');
    expect(text).not.toContain("[TRACE]");
  });
});
