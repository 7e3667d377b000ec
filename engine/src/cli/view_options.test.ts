// The options OpenTofu's plan, apply and refresh take beyond terraform's: -target-file and
// -exclude-file (addresses read from a file), -show-sensitive (sensitive values shown in the plan,
// the outputs and provisioner output), -concise (no progress lines) and -consolidate-warnings /
// -consolidate-errors (how similar diagnostics are folded); and -json-into (OpenTofu 1.12: the JSON
// message stream written to a file beside the human output).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { refreshCommand } from "./refresh.js";
import { showCommand } from "./show.js";

const THREE = `resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  input = "b"
}
resource "terraform_data" "c" {
  input = terraform_data.a.output
}
`;

/** The resource addresses a human plan says it will create, in order. */
function created(stdout: string): string[] {
  return [...stdout.matchAll(/# (\S+) will be created/g)].map((m) => m[1] as string);
}

describe("-target-file and -exclude-file", () => {
  it("target the addresses listed in the file, skipping comment and blank lines", async () => {
    const { dir } = workDir({ "main.tf": THREE, "targets.txt": "# what to build first\n\n  terraform_data.c\r\n   # indented comment\n" });
    const r = await runCommand(planCommand, ["-no-color", "-target-file=targets.txt"], dir);
    expect(r.code).toBe(0);
    // c and what it depends on; b is left out.
    expect(created(r.stdout)).toEqual(["terraform_data.a", "terraform_data.c"]);
    expect(r.stdout).toContain("Warning: Resource targeting is in effect");
  });

  it("add to -target, and may be given more than once", async () => {
    const { dir } = workDir({ "main.tf": THREE, "one.txt": "terraform_data.a\n", "two.txt": "terraform_data.b\n" });
    const r = await runCommand(planCommand, ["-no-color", "-target-file=one.txt", "-target-file", "two.txt"], dir);
    expect(created(r.stdout)).toEqual(["terraform_data.a", "terraform_data.b"]);
    const mixed = await runCommand(planCommand, ["-no-color", "-target=terraform_data.b", "-target-file=one.txt"], dir);
    expect(created(mixed.stdout)).toEqual(["terraform_data.a", "terraform_data.b"]);
  });

  it("exclude the addresses listed in the file and what depends on them", async () => {
    const { dir } = workDir({ "main.tf": THREE, "skip.txt": "terraform_data.a\n" });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-exclude-file=skip.txt"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: Array<{ name: string }> };
    expect(state.resources.map((x) => x.name)).toEqual(["b"]);
  });

  it("report a bad line where it is, and plan nothing", async () => {
    const { dir } = workDir({ "main.tf": THREE, "targets.txt": "terraform_data.a\nmodule.\n" });
    const r = await runCommand(planCommand, ["-no-color", "-target-file=targets.txt"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: Attribute name required\n\n  on targets.txt line 2:");
    expect(r.stderr).toContain("Dot must be followed by attribute name.");
    expect(r.stderr).toContain("terrace plan -help");
  });

  it("refuse a file that cannot be read", async () => {
    const { dir } = workDir({ "main.tf": THREE });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-exclude-file=missing.txt"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: open missing.txt: no such file or directory");
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
  });

  it("cannot be combined with the other kind, from a file or not", async () => {
    const { dir } = workDir({ "main.tf": THREE, "t.txt": "terraform_data.a\n" });
    for (const args of [
      ["-target-file=t.txt", "-exclude=terraform_data.b"],
      ["-target=terraform_data.a", "-exclude-file=t.txt"],
    ]) {
      const r = await runCommand(planCommand, ["-no-color", ...args], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Error: Invalid combination of arguments");
    }
  });

  it("are taken by refresh too", async () => {
    const { dir } = workDir({ "main.tf": THREE, "t.txt": "terraform_data.b\n" });
    await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    const r = await runCommand(refreshCommand, ["-no-color", "-target-file=t.txt"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("terraform_data.b: Refreshing state...");
    expect(r.stdout).not.toContain("terraform_data.a: Refreshing state...");
  });
});

const SECRET = `variable "pw" {
  type      = string
  sensitive = true
  default   = "hunter2"
}
resource "terraform_data" "a" {
  input = var.pw
  provisioner "local-exec" {
    command = "echo the word is \${var.pw}"
  }
}
output "o" {
  value     = var.pw
  sensitive = true
}
`;

describe("-show-sensitive", () => {
  it("plan shows sensitive values only when asked", async () => {
    const { dir } = workDir({ "main.tf": SECRET });
    const hidden = await runCommand(planCommand, ["-no-color"], dir);
    expect(hidden.stdout).toContain("+ input  = (sensitive value)");
    expect(hidden.stdout).not.toContain("hunter2");
    const shown = await runCommand(planCommand, ["-no-color", "-show-sensitive"], dir);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('+ input  = "hunter2"');
  });

  it("apply shows the plan, the provisioner output and the outputs", async () => {
    const { dir } = workDir({ "main.tf": SECRET });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-show-sensitive"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("terraform_data.a (local-exec): the word is hunter2");
    expect(r.stdout).toContain('Outputs:\n\no = "hunter2"');
    const again = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-replace=terraform_data.a"], dir);
    expect(again.stdout).toContain("terraform_data.a (local-exec): (output suppressed due to sensitive value in config)");
    expect(again.stdout).toContain("Outputs:\n\no = <sensitive>");
    expect(again.stdout).not.toContain("the word is");
  });

  it("show of a saved plan shows them with the flag", async () => {
    const { dir } = workDir({ "main.tf": SECRET });
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    expect((await runCommand(showCommand, ["-no-color", "p.tfplan"], dir)).stdout).not.toContain("hunter2");
    expect((await runCommand(showCommand, ["-no-color", "-show-sensitive", "p.tfplan"], dir)).stdout).toContain('+ input  = "hunter2"');
  });

  it("is not a refresh option", async () => {
    const { dir } = workDir({ "main.tf": SECRET });
    const r = await runCommand(refreshCommand, ["-no-color", "-show-sensitive"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("flag provided but not defined: -show-sensitive");
  });
});

describe("-concise", () => {
  it("leaves out the progress lines but keeps the summary", async () => {
    const { dir } = workDir({ "main.tf": THREE });
    const r = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-concise"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("Creating...");
    expect(r.stdout).not.toContain("Creation complete");
    expect(r.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
    const plan = await runCommand(planCommand, ["-no-color", "-concise"], dir);
    expect(plan.stdout).not.toContain("Refreshing state...");
    expect(plan.stdout).toContain("No changes.");
  });
});

describe("-consolidate-warnings and -consolidate-errors", () => {
  it("similar warnings are folded unless -consolidate-warnings=false", async () => {
    const quoted = (name: string) => `resource "terraform_data" "${name}" {\n  input = "x"\n  lifecycle {\n    ignore_changes = ["input"]\n  }\n}\n`;
    const { dir } = workDir({ "main.tf": quoted("a") + quoted("b") + quoted("c") });
    const count = (s: string) => s.split("Warning: Quoted references are deprecated").length - 1;
    const folded = await runCommand(planCommand, ["-no-color"], dir);
    expect(count(folded.stdout)).toBe(1);
    expect(folded.stdout).toContain("(and 2 more similar warnings elsewhere)");
    const all = await runCommand(planCommand, ["-no-color", "-consolidate-warnings=false"], dir);
    expect(count(all.stdout)).toBe(3);
    expect(all.stdout).not.toContain("more similar warning");
    // The compact list names each place too, instead of "(and 2 more)".
    const compact = await runCommand(planCommand, ["-no-color", "-compact-warnings", "-consolidate-warnings=false"], dir);
    expect(compact.stdout).toContain("- Quoted references are deprecated\n  on main.tf line 4\n- Quoted references are deprecated\n  on main.tf line 10\n");
    const compactFolded = await runCommand(planCommand, ["-no-color", "-compact-warnings"], dir);
    expect(compactFolded.stdout).toContain("- Quoted references are deprecated\n  on main.tf line 4 (and 2 more)\n");
  });

  it("similar errors are folded only with -consolidate-errors", async () => {
    const main = `resource "terraform_data" "a" {\n  nope = 1\n}\nresource "terraform_data" "b" {\n  nope = 2\n}\nresource "terraform_data" "c" {\n  nope = 3\n}\n`;
    const { dir } = workDir({ "main.tf": main });
    const count = (s: string) => s.split("Error: Unsupported argument").length - 1;
    const each = await runCommand(planCommand, ["-no-color"], dir);
    expect(count(each.stderr)).toBe(3);
    const folded = await runCommand(planCommand, ["-no-color", "-consolidate-errors"], dir);
    expect(folded.code).toBe(1);
    expect(count(folded.stderr)).toBe(1);
    expect(folded.stderr).toContain("(and 2 more similar errors elsewhere)");
    expect(folded.stderr).toContain("line 2");
  });
});

describe("-json-into", () => {
  const lines = (dir: string, file: string) =>
    readFileSync(join(dir, file), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; "@message": string });

  it("keeps the human plan on the terminal and writes the JSON stream to the file", async () => {
    const { dir } = workDir({ "main.tf": THREE });
    const r = await runCommand(planCommand, ["-no-color", "-json-into=plan.json"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Plan: 3 to add, 0 to change, 0 to destroy.");
    expect(r.stdout).not.toContain('"@level"');
    const msgs = lines(dir, "plan.json");
    expect(msgs[0]?.type).toBe("version");
    expect(msgs.filter((m) => m.type === "planned_change").map((m) => m["@message"])).toEqual([
      "terraform_data.a: Plan to create",
      "terraform_data.b: Plan to create",
      "terraform_data.c: Plan to create",
    ]);
    expect(msgs.at(-1)?.["@message"]).toBe("Plan: 3 to add, 0 to change, 0 to destroy.");
    // Only its owner may read it: it may hold output values.
    expect(statSync(join(dir, "plan.json")).mode & 0o777).toBe(0o600);
  });

  it("records an approved apply, its hooks and its outputs, and the diagnostics with their snippets", async () => {
    const { dir } = workDir({ "main.tf": `${THREE}output "n" {\n  value = 1\n}\n` });
    const r = await runCommand(applyCommand, ["-no-color", "-json-into=apply.json"], dir, { stdin: "yes\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Do you want to perform these actions?");
    const types = lines(dir, "apply.json").map((m) => m.type);
    expect(types.filter((t) => t === "apply_complete")).toHaveLength(3);
    expect(types.slice(-2)).toEqual(["change_summary", "outputs"]);

    writeFileSync(join(dir, "main.tf"), 'resource "terraform_data" "a" {\n  nope = 1\n}\n');
    const bad = await runCommand(planCommand, ["-no-color", "-json-into=bad.json"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Unsupported argument");
    const diag = lines(dir, "bad.json").find((m) => m.type === "diagnostic") as unknown as { diagnostic: { summary: string; snippet?: { code: string } } };
    expect(diag.diagnostic.summary).toBe("Unsupported argument");
    expect(diag.diagnostic.snippet?.code).toBe("  nope = 1");
  });

  it("tells both the terminal and the stream that the state lock is being waited for", async () => {
    const { dir } = workDir({ "main.tf": THREE });
    const lockFile = join(dir, ".terraform.tfstate.lock.info");
    writeFileSync(lockFile, JSON.stringify({ ID: "held", Operation: "OperationTypeApply", Info: "", Who: "someone@elsewhere", Version: "1.11.0", Created: "2026-01-01T00:00:00Z", Path: "terraform.tfstate" }));
    // The other holder lets go after the "slow lock" notice is due (400 ms), within -lock-timeout.
    const release = setTimeout(() => rmSync(lockFile), 1200);
    const r = await runCommand(planCommand, ["-no-color", "-lock-timeout=20s", "-json-into=plan.json"], dir).finally(() => clearTimeout(release));
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("Acquiring state lock. This may take a few moments...");
    const waited = lines(dir, "plan.json").filter((m) => m["@message"] === "Acquiring state lock. This may take a few moments...");
    expect(waited.map((m) => m.type)).toEqual(["log"]);
  });

  it("cannot be combined with -json, and a file that cannot be written is a flag error", async () => {
    const { dir } = workDir({ "main.tf": THREE });
    const both = await runCommand(planCommand, ["-json", "-json-into=x.json"], dir);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain("The -json and -json-into arguments are mutually exclusive");
    const nowhere = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-json-into=no/such/dir/x.json"], dir);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("Error: Invalid argument\n");
    expect(nowhere.stderr.replace(/\s+/g, " ")).toContain('Unable to open the file "no/such/dir/x.json" specified by -json-into for writing: open no/such/dir/x.json: no such file or directory');
    expect(nowhere.stderr).toContain("terrace apply -help");
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
  });
});
