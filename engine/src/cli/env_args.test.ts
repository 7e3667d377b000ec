// TF_CLI_ARGS and TF_CLI_ARGS_<subcommand>, merged into the command line as tofu's main does.
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { shellWords, subcommandOf, withEnvArgs } from "./env_args.js";
import { runCLI } from "./run.js";

const run = (argv: string[], cwd: string, env: Record<string, string>) => runCommand(runCLI, argv, cwd, { env: { TF_CLI_CONFIG_FILE: "/dev/null", ...env } });

describe("shell words", () => {
  it("splits as go-shellwords does", () => {
    expect(shellWords(`-var 'a=b c' -var "x=\\"y\\"" plain\\ word`)).toEqual({ ok: true, words: ["-var", "a=b c", "-var", 'x="y"', "plain word"] });
    // Since OpenTofu 1.11 an empty pair of quotes is an empty argument.
    expect(shellWords(`-a "" -b ''`)).toEqual({ ok: true, words: ["-a", "", "-b", ""] });
    expect(shellWords("  \t-x\n-y  ")).toEqual({ ok: true, words: ["-x", "-y"] });
    expect(shellWords("'$HOME' ${x}")).toEqual({ ok: true, words: ["$HOME", "${x}"] });
    expect(shellWords("-a ; rm -rf /")).toEqual({ ok: true, words: ["-a"] });
    expect(shellWords(`"-no-color`)).toEqual({ ok: false, error: "invalid command line string" });
    expect(shellWords("trailing\\")).toEqual({ ok: false, error: "invalid command line string" });
  });
});

describe("where the words go", () => {
  it("names the subcommand, nested ones included", () => {
    expect(subcommandOf(["plan", "-out=x"])).toBe("plan");
    expect(subcommandOf(["state", "list", "aws_x.y"])).toBe("state list");
    expect(subcommandOf(["workspace", "select", "dev"])).toBe("workspace select");
    expect(subcommandOf(["state", "-help"])).toBe("state");
    expect(subcommandOf(["force-unlock", "id"])).toBe("force-unlock");
  });

  it("puts the subcommand's own words first, then the general ones, then the command line's", () => {
    const env = { TF_CLI_ARGS: "-no-color -lock=false", TF_CLI_ARGS_plan: "-parallelism=3", TF_CLI_ARGS_apply: "-auto-approve" };
    expect(withEnvArgs(["plan", "-out=p"], env)).toEqual({ ok: true, args: ["plan", "-parallelism=3", "-no-color", "-lock=false", "-out=p"] });
    expect(withEnvArgs(["state", "list", "x"], { TF_CLI_ARGS_state_list: "-id=i" })).toEqual({ ok: true, args: ["state", "list", "-id=i", "x"] });
    expect(withEnvArgs(["force-unlock", "id"], { TF_CLI_ARGS_force_unlock: "-force" })).toEqual({ ok: true, args: ["force-unlock", "-force", "id"] });
    expect(withEnvArgs(["plan"], { TF_CLI_ARGS: "" })).toEqual({ ok: true, args: ["plan"] });
    expect(withEnvArgs(["plan"], { TF_CLI_ARGS_plan: "'" })).toEqual({ ok: false, error: "Error parsing extra CLI args from TF_CLI_ARGS_plan: invalid command line string" });
  });
});

describe("terrace with TF_CLI_ARGS", () => {
  it("applies the environment's arguments to the command", { timeout: 60_000 }, async () => {
    const { dir } = workDir({ "main.tf": 'output "o" {\n  value = 1\n}\n' });
    const json = await run(["validate"], dir, { TF_CLI_ARGS_validate: "-json" });
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { valid: boolean }).valid).toBe(true);
    // The general variable reaches every command; the plan-only one does not reach validate.
    const plain = await run(["validate"], dir, { TF_CLI_ARGS_plan: "-json" });
    expect(plain.stdout).toContain("Success! The configuration is valid.");
    const bad = await run(["validate"], dir, { TF_CLI_ARGS: '"-no-color' });
    expect(bad).toEqual({ code: 1, stdout: "", stderr: "Error parsing extra CLI args from TF_CLI_ARGS: invalid command line string\n" });
    const plan = await run(["plan"], dir, { TF_CLI_ARGS: "-no-color", TF_CLI_ARGS_plan: "-var-file=nope.tfvars" });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("Error: Failed to read variables file");
  });
});

describe("TF_INPUT", () => {
  it("false turns prompting off as -input=false does; other values leave it on", { timeout: 60_000 }, async () => {
    const { planCommand } = await import("./plan.js");
    const { dir } = workDir({ "main.tf": 'variable "name" {\n  type = string\n}\noutput "o" {\n  value = var.name\n}\n' });
    const asked = await runCommand(planCommand, ["-no-color"], dir, { stdin: "typed\n", env: { TF_INPUT: "1" } });
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('+ o = "typed"');
    for (const off of ["0", "false", "F"]) {
      const r = await runCommand(planCommand, ["-no-color"], dir, { stdin: "typed\n", env: { TF_INPUT: off } });
      expect(r.code, off).toBe(1);
      expect(r.stderr, off).toContain("Error: No value for required variable");
    }
  });
});

describe("TF_DATA_DIR", () => {
  it("moves the working directory's data (modules, backend, workspace) out of .terraform", { timeout: 60_000 }, async () => {
    const { existsSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { dir } = workDir({ "main.tf": 'terraform {\n  backend "local" {}\n}\nmodule "m" {\n  source = "./m"\n}\n', "m/main.tf": 'output "o" {\n  value = 1\n}\n' });
    const env = { TF_DATA_DIR: "data" };
    expect((await run(["init", "-no-color"], dir, env)).code).toBe(0);
    expect(existsSync(join(dir, ".terraform"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "data", "modules", "modules.json"), "utf8"))).toMatchObject({ Modules: expect.arrayContaining([expect.objectContaining({ Key: "m" })]) });
    expect(JSON.parse(readFileSync(join(dir, "data", "terraform.tfstate"), "utf8"))).toMatchObject({ backend: { type: "local" } });
    expect((await run(["workspace", "new", "dev"], dir, env)).code).toBe(0);
    expect(readFileSync(join(dir, "data", "environment"), "utf8")).toBe("dev");
    expect((await run(["workspace", "show"], dir, env)).stdout).toBe("dev\n");
    // Without it, the working directory is not initialised.
    expect((await run(["workspace", "show"], dir, {})).stdout).toBe("default\n");
    const plan = await run(["plan", "-no-color"], dir, {});
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("Backend initialization required");
    // An absolute directory stands on its own.
    const abs = join(dir, "elsewhere");
    expect((await run(["init", "-no-color"], dir, { TF_DATA_DIR: abs })).code).toBe(0);
    expect(existsSync(join(abs, "terraform.tfstate"))).toBe(true);
    expect((await run(["plan", "-no-color"], dir, env)).code).toBe(0);
  });
});
