// The state and workspace commands that predate tofu's views: -no-color taken out wherever it is
// (Meta.process), -help answered, extra arguments refused, and their messages as tofu words them.
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { stateCommand } from "./state.js";
import { workspaceCommand } from "./workspace_command.js";

const NO_STATE = `No state file was found!

State management commands require a state file. Run this command
in a directory where OpenTofu has been run or use the -state flag
to point the command to a specific state location.
`;

async function applied(): Promise<string> {
  const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = 1\n}\n' });
  expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
  return dir;
}

describe("state and workspace commands' arguments", () => {
  it("accept -no-color anywhere: state list, state pull, workspace show, workspace list", async () => {
    const dir = await applied();
    expect(await runCommand(stateCommand, ["list", "-no-color"], dir)).toEqual({ code: 0, stdout: "terraform_data.a\n", stderr: "" });
    expect(await runCommand(stateCommand, ["list", "terraform_data.a", "-no-color"], dir)).toEqual({ code: 0, stdout: "terraform_data.a\n", stderr: "" });
    const pull = await runCommand(stateCommand, ["pull", "-no-color"], dir);
    expect(pull.code).toBe(0);
    expect(pull.stdout).toContain('"terraform_data"');
    expect(await runCommand(workspaceCommand, ["show", "-no-color"], dir)).toEqual({ code: 0, stdout: "default\n", stderr: "" });
    expect(await runCommand(workspaceCommand, ["list", "-no-color"], dir)).toEqual({ code: 0, stdout: "* default\n\n", stderr: "" });
  });

  it("print their usage for -help and -h", async () => {
    const dir = await applied();
    for (const [cmd, args, usage] of [
      [stateCommand, ["list", "-help"], "Usage: terrace [global options] state (list|ls) [options] [address...]"],
      [stateCommand, ["list", "-h"], "Usage: terrace [global options] state (list|ls) [options] [address...]"],
      [stateCommand, ["pull", "-help"], "Usage: terrace [global options] state pull [options]"],
      [workspaceCommand, ["list", "-help"], "Usage: terrace [global options] workspace list [options]"],
      [workspaceCommand, ["show", "-help"], "Usage: terrace [global options] workspace show"],
    ] as const) {
      const r = await runCommand(cmd, [...args], dir);
      expect(r.code).toBe(0);
      expect(r.stdout.startsWith(`${usage}\n`)).toBe(true);
    }
  });

  it("workspace list refuses a directory argument as ModulePath does", async () => {
    const { dir } = workDir();
    expect(await runCommand(workspaceCommand, ["list", "extra"], dir)).toEqual({ code: 1, stdout: "", stderr: "Too many command line arguments. Did you mean to use -chdir?\n" });
  });

  it("state replace-provider fails with 'Error asking for approval: EOF' when input ends", async () => {
    const dir = await applied();
    const r = await runCommand(stateCommand, ["replace-provider", "-no-color", "terraform.io/builtin/terraform", "example.com/x/y"], dir, { stdin: "" });
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith("Enter a value: ")).toBe(true);
    expect(r.stderr).toBe("Error asking for approval: EOF\n");
  });

  it("state list and state show say there is no state without a leading blank line", async () => {
    const { dir } = workDir();
    expect(await runCommand(stateCommand, ["list"], dir)).toEqual({ code: 1, stdout: "", stderr: NO_STATE });
    expect(await runCommand(stateCommand, ["show", "terraform_data.a"], dir)).toEqual({ code: 1, stdout: "", stderr: NO_STATE });
  });
});

describe("output -show-sensitive", () => {
  it("prints sensitive values, as OutputHuman does when it is given", async () => {
    const { dir } = workDir({ "main.tf": 'output "sec" {\n  value     = "hush"\n  sensitive = true\n}\noutput "pub" {\n  value = 1\n}\n' });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const { outputCommand } = await import("./output.js");
    expect((await runCommand(outputCommand, ["-no-color"], dir)).stdout).toBe("pub = 1\nsec = <sensitive>\n");
    expect((await runCommand(outputCommand, ["-no-color", "-show-sensitive"], dir)).stdout).toBe('pub = 1\nsec = "hush"\n');
  });
});

describe("tofu's wording elsewhere", () => {
  it("fmt takes -no-color after the paths too", async () => {
    const { fmtCommand } = await import("./fmt.js");
    const { dir } = workDir({ "ok.tfvars": "a=1\n" });
    const r = await runCommand(fmtCommand, ["-check", "ok.tfvars", "-no-color"], dir);
    expect(r).toEqual({ code: 3, stdout: "ok.tfvars\n", stderr: "" });
  });

  it("a -var-file that is a directory is reported in Go's words", async () => {
    const { planCommand } = await import("./plan.js");
    const { dir } = workDir({ "main.tf": "", "d/x": "" });
    const r = await runCommand(planCommand, ["-no-color", "-var-file=d"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error while reading d: read d: is a directory.");
  });

  it("plan with a backend type that does not exist says 'Invalid backend type'", async () => {
    const { planCommand } = await import("./plan.js");
    const { dir } = workDir({ "main.tf": 'terraform {\n  backend "foo" {}\n}\n' });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Invalid backend type\n");
    expect(r.stderr).toContain('There is no backend type named "foo".');
  });
});

describe("state messages as tofu words them", () => {
  it("state with no subcommand: the long help, exit 1", async () => {
    const { dir } = workDir();
    const r = await runCommand(stateCommand, [], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("These subcommands can be used to slice and dice the OpenTofu state.");
    expect((await runCommand(stateCommand, ["-help"], dir)).code).toBe(0);
  });

  it("state push of a missing file names it as given, in Go's words", async () => {
    const dir = await applied();
    const r = await runCommand(stateCommand, ["push", "-no-color", "nonexist.json"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("open nonexist.json: no such file or directory");
    expect(r.stderr).not.toContain("ENOENT");
  });

  it("state list's load errors keep each diagnostic's summary, and count several", async () => {
    const { dir } = workDir({ "terraform.tfstate": '{"version": 5}' });
    const r = await runCommand(stateCommand, ["list"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Failed to load state: Unsupported state file format: /);
  });
});

describe("state rm with a flag it does not take", () => {
  it("prints the error alone, without the usage", async () => {
    const dir = await applied();
    expect(await runCommand(stateCommand, ["rm", "-no-color", "-state-out=o.tfstate", "terraform_data.a"], dir)).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error parsing command-line flags: flag provided but not defined: -state-out\n\n",
    });
  });
});

describe("the legacy Ui's blank line after each diagnostic (DiagsWithNewline)", () => {
  it("taint of a missing instance and state rm of a bad address end with a blank line", async () => {
    const { taintCommand } = await import("./taint.js");
    const dir = await applied();
    const t = await runCommand(taintCommand, ["-no-color", "terraform_data.nope"], dir);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/^\nError: No such resource instance\n\n[^]*\.\n\n$/);
    const rm = await runCommand(stateCommand, ["rm", "-no-color", "bad[["], dir);
    expect(rm.code).toBe(1);
    expect(rm.stderr.endsWith("\n\n")).toBe(true);
  });
});
