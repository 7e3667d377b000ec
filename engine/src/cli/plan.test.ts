import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { refreshCommand } from "./refresh.js";
import { localBackendOptions } from "./statecmd.js";
import { LOCAL_BACKEND } from "./workspace.js";

const MAIN = `variable "name" {
  default = "world"
}

resource "terraform_data" "a" {
  input = "hello \${var.name}"
}

resource "terraform_data" "b" {
  count = 2
  input = "\${terraform_data.a.output}-\${count.index}"
}

output "greeting" {
  value = terraform_data.a.output
}
`;

function stateOf(dir: string): { resources: Array<{ name: string; instances: Array<{ attributes: { input: { value: string } } }> }>; outputs: Record<string, { value: unknown }> } {
  return JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
}

describe("terrace plan / apply / destroy", () => {
  it("plans, applies with -auto-approve, then plans no changes", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("  # terraform_data.a will be created");
    expect(p.stdout).toContain("Plan: 3 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain(`Note: You didn't use the -out option to save this plan`);
    // In automation (TF_IN_AUTOMATION) the advice for a person at a shell is left out; -out's too.
    const auto = await runCommand(planCommand, ["-no-color", "-out=auto.tfplan"], dir, { env: { TF_IN_AUTOMATION: "1" } });
    expect(auto.code).toBe(0);
    expect(auto.stdout).not.toContain("Saved the plan to");
    expect(auto.stdout).not.toContain("─");
    expect(auto.stdout.endsWith("Plan: 3 to add, 0 to change, 0 to destroy.\n\nChanges to Outputs:\n  + greeting = (known after apply)\n")).toBe(true);

    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("terraform_data.a: Creating...");
    expect(a.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
    expect(a.stdout).toContain('greeting = "hello world"');
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello world");

    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("terraform_data.a: Refreshing state... [id=");
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");
    const noRefresh = await runCommand(planCommand, ["-no-color", "-refresh=false"], dir);
    expect(noRefresh.stdout).not.toContain("Refreshing state");
  });

  it("asks for approval and only 'yes' applies", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const no = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "no\n" });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain("Do you want to perform these actions?");
    expect(no.stdout).toContain("Apply cancelled.");
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const yes = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "yes\n" });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("Apply complete! Resources: 3 added");
  });

  it("saves a plan with -out and applies exactly that plan", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const p = await runCommand(planCommand, ["-no-color", "-out=p.tfplan", "-var", "name=saved"], dir);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("Saved the plan to: p.tfplan");
    // The saved plan carries its configuration: later edits do not change what it applies.
    writeFileSync(path.join(dir, "main.tf"), MAIN.replace('"hello ', '"bye '));
    const a = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello saved");
  });

  it("refuses a saved plan once the state has changed since it was made, as tofu does", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(planCommand, ["-no-color", "-out=first.tfplan", "-var", "name=a"], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color", "-out=second.tfplan", "-var", "name=a"], dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-no-color", "first.tfplan"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const stale = await runCommand(applyCommand, ["-no-color", "second.tfplan"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      "\nError: Saved plan is stale\n\nThe given plan file can no longer be applied because the state was changed by\nanother operation after the plan was created.\n",
    );
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    // A plan made from this state applies; one made from another state's lineage does not.
    expect((await runCommand(planCommand, ["-no-color", "-out=third.tfplan", "-var", "name=b"], dir)).code).toBe(0);
    const st = JSON.parse(before) as { lineage: string };
    writeFileSync(path.join(dir, "terraform.tfstate"), before.replace(st.lineage, "00000000-0000-0000-0000-000000000000"));
    const other = await runCommand(applyCommand, ["-no-color", "third.tfplan"], dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("Error: Saved plan does not match the given state");
  });

  it("takes -var-file values and destroys everything", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "x.tfvars": 'name = "file"\n' });
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-var-file=x.tfvars"], dir);
    expect(a.code).toBe(0);
    expect(stateOf(dir).outputs["greeting"]?.value).toBe("hello file");
    const d = await runCommand(destroyCommand, ["-no-color", "-auto-approve", "-var-file=x.tfvars"], dir);
    expect(d.stderr).toBe("");
    expect(d.code).toBe(0);
    expect(d.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    expect(stateOf(dir).resources).toEqual([]);
  });

  it("reports configuration errors with exit status 1", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = var.missing\n}\n' });
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Reference to undeclared input variable");
  });
});

const ONE = 'resource "terraform_data" "a" {\n  input = 1\n}\n';
const TWO = `${ONE}resource "terraform_data" "b" {\n  input = 2\n}\n`;
const HELP_HINT = (cmd: string) => `\nFor more help on using this command, run:\n  terrace ${cmd} -help\n`;
const addrs = (dir: string, file: string): string[] =>
  (JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { resources: Array<{ name: string }> }).resources.map((r) => r.name).sort();

describe("the legacy -state, -state-out and -backup flags (local backend)", () => {
  it("plan and apply read and write the -state file, not terraform.tfstate", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "custom.tfstate"), readFileSync(path.join(dir, "terraform.tfstate")));
    rmSync(path.join(dir, "terraform.tfstate"));
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode", "-state=custom.tfstate"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("No changes.");
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-state=custom.tfstate"], dir);
    expect(a.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.");
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });

  it("apply writes to -state-out, backs up to -backup, and -backup=- makes none", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve", "-state=in.tfstate"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "in.tfstate"), "utf8");
    writeFileSync(path.join(dir, "main.tf"), TWO);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-state=in.tfstate", "-state-out=out.tfstate"], dir);
    expect(a.stderr).toBe("");
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(readFileSync(path.join(dir, "in.tfstate"), "utf8")).toBe(before);
    expect(addrs(dir, "out.tfstate")).toEqual(["a", "b"]);
    // The file written is backed up before it is replaced.
    const out = readFileSync(path.join(dir, "out.tfstate"), "utf8");
    expect((await runCommand(destroyCommand, ["-no-color", "-auto-approve", "-state=out.tfstate", "-backup=saved.tfstate"], dir)).code).toBe(0);
    expect(readFileSync(path.join(dir, "saved.tfstate"), "utf8")).toBe(out);
    expect(existsSync(path.join(dir, "out.tfstate.backup"))).toBe(false);
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve", "-state=out.tfstate", "-backup=-"], dir)).code).toBe(0);
    expect(existsSync(path.join(dir, "out.tfstate.backup"))).toBe(false);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });

  it("a saved plan is applied to the -state file", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(planCommand, ["-no-color", "-state=in.tfstate", "-out=p.tfplan"], dir)).code).toBe(0);
    // A context refused before the apply starts leaves neither a state nor a journal.
    const neg = await runCommand(applyCommand, ["-no-color", "-state=in.tfstate", "-parallelism=-1", "p.tfplan"], dir);
    expect(neg.code).toBe(1);
    expect(neg.stderr).toContain("Error: Invalid parallelism value");
    expect(readdirSync(dir).filter((f) => f.includes("tfstate"))).toEqual([]);
    const a = await runCommand(applyCommand, ["-no-color", "-state=in.tfstate", "p.tfplan"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(addrs(dir, "in.tfstate")).toEqual(["a"]);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });

  it("reach only the local backend, as Local.CLIInit sets them on itself alone", () => {
    const paths = { state: "in.tfstate", stateOut: "out.tfstate", backup: "-" };
    expect(localBackendOptions({ kind: "http", config: { address: "http://127.0.0.1/state" } }, paths)).toEqual({});
    const local = localBackendOptions(LOCAL_BACKEND, paths);
    expect(local).toMatchObject({ statePath: "in.tfstate", stateOutPath: "out.tfstate" });
    expect(local.backupPath?.("out.tfstate")).toBe("");
    // An empty flag is no override.
    expect(localBackendOptions(LOCAL_BACKEND, { state: "", stateOut: "", backup: "" })).toEqual({});
  });

  it("refresh takes them too", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve", "-state=in.tfstate"], dir)).code).toBe(0);
    const r = await runCommand(refreshCommand, ["-no-color", "-state=in.tfstate", "-state-out=out.tfstate"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(addrs(dir, "out.tfstate")).toEqual(["a"]);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });
});

describe("tofu's flags for plan, apply, destroy and refresh", () => {
  it("each command rejects the others' flags, with the help hint, and changes nothing", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const cases: Array<[typeof planCommand, string, string[], string]> = [
      [planCommand, "plan", ["-auto-approve"], "-auto-approve"],
      [applyCommand, "apply", ["-auto-approve", "-out=x"], "-out"],
      [applyCommand, "apply", ["-detailed-exitcode"], "-detailed-exitcode"],
      [destroyCommand, "destroy", ["-auto-approve", "-out=x"], "-out"],
      [refreshCommand, "refresh", ["-auto-approve"], "-auto-approve"],
    ];
    for (const [cmd, name, args, flag] of cases) {
      const r = await runCommand(cmd, ["-no-color", ...args], dir);
      expect(r).toEqual({ code: 1, stdout: "", stderr: `\nError: Failed to parse command-line flags\n\nflag provided but not defined: ${flag}\n${HELP_HINT(name)}` });
    }
    expect(existsSync(path.join(dir, "x"))).toBe(false);
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    const d = await runCommand(destroyCommand, ["-no-color", "-destroy"], dir);
    expect(d.stderr).toBe(
      `\nError: Invalid mode option\n\nThe -destroy option is not valid for "terrace destroy", because this command\nalways runs in destroy mode.\n${HELP_HINT("destroy")}`,
    );
    const ro = await runCommand(destroyCommand, ["-no-color", "-refresh-only"], dir);
    expect(ro.stderr).toBe(`\nError: Invalid mode option\n\nThe -refresh-only option is not valid for "terrace destroy".\n${HELP_HINT("destroy")}`);
  });

  it("says 'Too many command line arguments' with the help hint", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    const p = await runCommand(planCommand, ["-no-color", "extra"], dir);
    expect(p).toEqual({
      code: 1,
      stdout: "",
      stderr: `\nError: Too many command line arguments\n\nTo specify a working directory for the plan, use the global -chdir flag.\n${HELP_HINT("plan")}`,
    });
    const a = await runCommand(applyCommand, ["-no-color", "one", "two"], dir);
    expect(a.stderr).toBe(`\nError: Too many command line arguments\n\nExpected at most one positional argument.\n${HELP_HINT("apply")}`);
  });

  it("-parallelism=0 is the default; a negative one is refused as tofu.NewContext refuses it", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    const zero = await runCommand(planCommand, ["-no-color", "-parallelism=0"], dir);
    expect(zero.stderr).toBe("");
    expect(zero.code).toBe(0);
    expect(zero.stdout).toContain("Plan: 1 to add");
    // Go's integer syntax: a base prefix and digit separators.
    expect((await runCommand(planCommand, ["-no-color", "-parallelism=0x1_0"], dir)).code).toBe(0);
    const neg = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-parallelism=-1"], dir);
    expect(neg.code).toBe(1);
    expect(neg.stderr).toBe("\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -1.\n");
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    const bad = await runCommand(planCommand, ["-no-color", "-parallelism=ten"], dir);
    expect(bad.stderr).toBe(`\nError: Failed to parse command-line flags\n\ninvalid value "ten" for flag -parallelism: parse error\n${HELP_HINT("plan")}`);
  });

  it("refuses -replace outside the normal planning mode, changing nothing", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const unsupported = "\nError: Unsupported plan mode\n\nForcing resource instance replacement (with -replace=...) is allowed only in\nnormal planning mode.\n";
    for (const [cmd, args] of [
      [planCommand, ["-destroy"]],
      [planCommand, ["-refresh-only"]],
      [applyCommand, ["-auto-approve", "-refresh-only"]],
      [destroyCommand, ["-auto-approve"]],
    ] as const) {
      const r = await runCommand(cmd, ["-no-color", "-replace=terraform_data.a", ...args], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(unsupported);
      expect(r.stdout).not.toContain("Plan:");
    }
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
  });

  it("-compact-warnings lists warnings without errors by summary, wherever it is given", async () => {
    const { dir } = workDir({ "main.tf": TWO });
    const p = await runCommand(planCommand, ["-no-color", "-target=terraform_data.a", "-compact-warnings"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("\nWarnings:\n\n- Resource targeting is in effect\n\nTo see the full warning notes, run OpenTofu without -compact-warnings.\n");
    expect(p.stdout).not.toContain("Warning: Resource targeting is in effect");
    const a = await runCommand(applyCommand, ["-auto-approve", "-target=terraform_data.a", "-no-color", "-compact-warnings"], dir);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("- Applied changes may be incomplete\n");
    expect(a.stdout).not.toContain("Warning: Applied changes may be incomplete");
  });
});

describe("the approval prompt and saved plan files, as tofu words them", () => {
  it("fails with 'error asking for approval: EOF' when standard input ends", async () => {
    const { dir } = workDir({ "main.tf": ONE });
    for (const stdin of [undefined, "yes"]) {
      const r = await runCommand(applyCommand, ["-no-color"], dir, stdin === undefined ? {} : { stdin });
      expect(r.code).toBe(1);
      // No newline after the prompt, and no "Apply cancelled.".
      expect(r.stdout.endsWith("  Enter a value: ")).toBe(true);
      expect(r.stderr).toBe("\nError: error asking for approval: EOF\n\n");
      expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
    }
    // UIInput trims the line typed.
    const yes = await runCommand(applyCommand, ["-no-color"], dir, { stdin: "yes  \n" });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("Apply complete! Resources: 1 added");
    const d = await runCommand(destroyCommand, ["-no-color"], dir);
    expect(d.stderr).toBe("\nError: error asking for approval: EOF\n\n");
    expect(d.stdout).not.toContain("Destroy cancelled.");
  });

  it("a variable prompt at the end of input leaves the line open and the variable unset", async () => {
    const { dir } = workDir({ "main.tf": 'variable "v" {}\noutput "o" {\n  value = var.v\n}\n' });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("var.v\n  Enter a value: ");
    expect(r.stderr).toContain("Error: No value for required variable");
  });

  it("names a missing or directory plan file as tofu does", async () => {
    const { dir } = workDir({ "main.tf": ONE, "sub/x.tf": "" });
    const missing = await runCommand(applyCommand, ["-no-color", "e"], dir);
    expect(missing).toEqual({ code: 1, stdout: "", stderr: '\nError: Failed to load "e" as a plan file\n\nError: stat e: no such file or directory\n' });
    const isDir = await runCommand(applyCommand, ["-no-color", "sub"], dir);
    expect(isDir.stderr).toBe('\nError: Failed to load plan\n\nFailed to load "sub" as a plan file. Did you mean to use the -chdir flag?\n');
  });
});

describe("a bundled provider over the plugin protocol", () => {
  it("init locks it, apply creates through gRPC, and a second plan has no changes", async () => {
    const { initCommand } = await import("./init.js");
    const { dir } = workDir({
      "main.tf": [
        'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}',
        'resource "random_id" "x" {\n  byte_length = 4\n}',
        'output "hex" {\n  value = random_id.x.hex\n}',
        "",
      ].join("\n"),
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const hex = (stateOf(dir).outputs.hex?.value ?? "") as string;
    expect(hex).toMatch(/^[0-9a-f]{8}$/);
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("No changes. Your infrastructure matches the configuration.");
  }, 120_000);
});
