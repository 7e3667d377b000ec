// Debugging a provider: started by hand with `-debug` (under `node --inspect`, say), it prints a
// TF_REATTACH_PROVIDERS value; with it, terrace (and real terraform) use that running process
// instead of starting their own, need no installation or lock entry for it, and leave it running
// for the next command.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bundledProviderExecutable } from "../providers-bundled/index.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { runCLI } from "./run.js";

const CONFIG = `terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
resource "null_resource" "a" {
  triggers = { x = "1" }
}
`;

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill("SIGKILL");
});

/** The bundled null provider in debug mode, and the TF_REATTACH_PROVIDERS value it printed. */
async function debugProvider(): Promise<{ child: ChildProcess; reattach: string; printed: string }> {
  const child = spawn(bundledProviderExecutable("null"), ["-debug"], { env: { ...process.env, TERRACE_PROVIDERS_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let printed = "";
  child.stdout?.setEncoding("utf8");
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d: string) => {
      printed += d;
      const m = /TF_REATTACH_PROVIDERS='(.*)'\n/.exec(printed);
      if (m?.[1]) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`the debug provider exited (${code}): ${printed}`)));
  });
  return { child, reattach: line, printed };
}

const alive = (pid: number | undefined) => pid !== undefined && spawnSync("kill", ["-0", String(pid)]).status === 0;

describe("TF_REATTACH_PROVIDERS with a provider started with -debug", () => {
  it("prints the value to set, which terrace then uses without installing, locking or stopping the provider", async () => {
    const { child, reattach, printed } = await debugProvider();
    expect(printed).toContain(`Provider registry.opentofu.org/hashicorp/null is serving for debugging (pid ${child.pid}).`);
    expect(JSON.parse(reattach)).toEqual({
      "hashicorp/null": { Protocol: "grpc", ProtocolVersion: 6, Pid: child.pid, Test: true, Addr: { Network: "unix", String: expect.stringMatching(/plugin\.sock$/) as unknown } },
    });

    const { dir } = workDir({ "main.tf": CONFIG });
    const env = { TF_CLI_CONFIG_FILE: "/dev/null", TF_REATTACH_PROVIDERS: reattach, TF_LOG_PROVIDER: "DEBUG" };
    const init = await runCommand(runCLI, ["init", "-no-color"], dir, { env });
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain("hashicorp/null");
    expect(existsSync(path.join(dir, ".terraform.lock.hcl")) ? readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8") : "").not.toContain("hashicorp/null");

    const plan = await runCommand(runCLI, ["plan", "-no-color"], dir, { env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("# null_resource.a will be created");
    // No plugin was started for it: the log shows no launch.
    expect(plan.stderr).not.toContain("starting plugin");
    const apply = await runCommand(runCLI, ["apply", "-auto-approve", "-no-color"], dir, { env });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    // Still serving, for the next command.
    expect(alive(child.pid)).toBe(true);
    const again = await runCommand(runCLI, ["plan", "-no-color", "-detailed-exitcode"], dir, { env });
    expect(again.code).toBe(0);
  });

  it("says so when the process is gone, and refuses a malformed value before running the command", async () => {
    const { dir } = workDir({ "main.tf": CONFIG });
    const gone = JSON.stringify({ "hashicorp/null": { Protocol: "grpc", ProtocolVersion: 6, Pid: 2 ** 22 + 1, Test: true, Addr: { Network: "unix", String: "/nonexistent/plugin.sock" } } });
    const r = await runCommand(runCLI, ["plan", "-no-color"], dir, { env: { TF_CLI_CONFIG_FILE: "/dev/null", TF_REATTACH_PROVIDERS: gone } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Failed to instantiate provider");
    expect(r.stderr.replace(/\s+/g, " ")).toContain('Unable to reattach to unmanaged provider "registry.opentofu.org/hashicorp/null": Reattachment process not found');

    const bad = await runCommand(runCLI, ["plan", "-no-color"], dir, { env: { TF_CLI_CONFIG_FILE: "/dev/null", TF_REATTACH_PROVIDERS: '{"hashicorp/null": {"Addr": {"Network": "udp"}}}' } });
    expect(bad).toEqual({ code: 1, stdout: "", stderr: 'Unknown address type "udp" for "hashicorp/null"\n' });
  });
});

const haveTerraform = spawnSync("terraform", ["version"], { encoding: "utf8" }).status === 0;
if (!haveTerraform) console.log("skipping real terraform against a -debug provider: `terraform` is not on PATH");

describe.skipIf(!haveTerraform)("real terraform and a provider started with -debug", () => {
  it("reattaches with the printed value: init skips it, apply uses it, and it keeps running", async () => {
    const { child, reattach } = await debugProvider();
    const { dir } = workDir({ "main.tf": CONFIG });
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_REATTACH_PROVIDERS: reattach };
    delete env.TF_LOG;
    const tf = (...args: string[]) => spawnSync("terraform", [...args, "-no-color"], { cwd: dir, env, encoding: "utf8" });
    const init = tf("init");
    expect(init.status, init.stderr).toBe(0);
    const apply = tf("apply", "-auto-approve");
    expect(apply.status, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(alive(child.pid)).toBe(true);
  }, 60_000);
});
