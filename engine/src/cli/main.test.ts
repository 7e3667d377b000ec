// The CLI entry point as a process: global options before the subcommand.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { workDir } from "./clitest.testkit.js";

const mainTs = path.join(path.dirname(fileURLToPath(import.meta.url)), "main.ts");
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const terrace = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ["--import", tsxLoader, mainTs, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });

describe("terrace global options", () => {
  it("-chdir=DIR runs the command in DIR, and a missing DIR is a clear error", () => {
    const { dir, home } = workDir({ "sub/main.tf": 'variable "x" {}\noutput "o" {\n  value = var.nope\n}\n' });
    const r = terrace(["-chdir=sub", "validate", "-no-color"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Reference to undeclared input variable");
    expect(r.stderr).toContain("on main.tf line 3");
    const missing = terrace(["-chdir=nope", "validate"], home);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("Error handling -chdir option: chdir nope: no such file or directory\n");
    expect(terrace(["-chdir=", "validate"], home).stderr).toContain("Invalid -chdir option");
  }, 60_000);

  it("opens a relative TF_LOG_PATH where the command was started, not in the -chdir directory", () => {
    const { dir } = workDir({ "sub/main.tf": 'output "o" {\n  value = 1\n}\n' });
    const r = terrace(["-chdir=sub", "validate", "-no-color"], dir, { TF_LOG: "INFO", TF_LOG_PATH: "terrace.log", TF_CLI_CONFIG_FILE: "/dev/null" });
    expect(r.status).toBe(0);
    expect(readFileSync(path.join(dir, "terrace.log"), "utf8")).toContain('CLI args: []string{"terrace", "validate", "-no-color"}');
    expect(existsSync(path.join(dir, "sub", "terrace.log"))).toBe(false);
  }, 60_000);

  it("reads a relative TF_CLI_CONFIG_FILE where the command was started, and reports its problems first, for any command", () => {
    const { dir } = workDir({ "sub/main.tf": 'output "o" {\n  value = 1\n}\n', "cli.tfrc": "provider_installation {\n  carrier_pigeon {}\n}\n" });
    const r = terrace(["-chdir=sub", "validate", "-no-color"], dir, { TF_CLI_CONFIG_FILE: "cli.tfrc" });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      'There are some problems with the CLI configuration:\n╷\n│ Error: Invalid provider_installation method block\n│\n│ Unknown provider installation method "carrier_pigeon" at 2:3.\n╵\n\nAs a result of the above problems, OpenTofu may not behave as intended.\n\n\n',
    );
    expect(r.stdout).toContain("Success! The configuration is valid.");
  }, 60_000);
});
