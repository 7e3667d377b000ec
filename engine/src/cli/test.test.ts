import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readStateFile } from "../states/index.js";
import { NAMED_INSTANCE_CALLS, NAMED_INSTANCE_MODULE, runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { stateCommand } from "./state.js";
import { testCommand } from "./test.js";

const MAIN = `
variable "name" {
  type    = string
  default = "default"
}

resource "terraform_data" "a" {
  input = "hello \${var.name}"
}

locals {
  upper = upper(terraform_data.a.input)
}

output "greeting" {
  value = terraform_data.a.output
}
`;

describe("terrace test", () => {
  it("runs plan and apply runs, prints tofu's lines and destroys what it created", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "tests/main.tftest.hcl": `
variables {
  name = "file"
}

run "planned" {
  command = plan
  assert {
    condition     = terraform_data.a.input == "hello file"
    error_message = "wrong input"
  }
}

run "applied" {
  variables {
    name = "run"
  }
  assert {
    condition     = output.greeting == "hello run" && local.upper == "HELLO RUN"
    error_message = "wrong greeting"
  }
}

run "uses_previous" {
  command = plan
  variables {
    name = run.applied.greeting
  }
  assert {
    condition     = var.name == "hello run"
    error_message = "run outputs are not visible"
  }
}
`,
    });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`tests/main.tftest.hcl... pass
  run "planned"... pass
  run "applied"... pass
  run "uses_previous"... pass

Success! 3 passed, 0 failed.
`);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(dir, "errored_test.tfstate"))).toBe(false);
  });

  it("reports a failed assertion with its message and exits 1; later runs still run", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "main.tftest.hcl": `
run "bad" {
  command = plan
  assert {
    condition     = terraform_data.a.input == "nope"
    error_message = "input was \${terraform_data.a.input}"
  }
}

run "good" {
  command = plan
  assert {
    condition     = var.name == "default"
    error_message = "default not used"
  }
}
`,
    });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`main.tftest.hcl... fail
  run "bad"... fail
  run "good"... pass

Failure! 1 passed, 1 failed.
`);
    expect(r.stderr).toContain("Error: Test assertion failed");
    expect(r.stderr).toContain("on main.tftest.hcl line 5, in run \"bad\":");
    expect(r.stderr).toContain("input was hello default");
  });

  it("reads module calls with count and for_each per instance in assertions, as terraform 1.11 passes them", async () => {
    const { dir } = workDir({
      "main.tf": NAMED_INSTANCE_CALLS,
      "m/main.tf": NAMED_INSTANCE_MODULE,
      "t.tftest.hcl": `run "apply" {
  assert {
    condition     = module.c[1].out == "c1"
    error_message = "count instance"
  }
  assert {
    condition     = length(module.c) == 2 && module.f["b"].out == "b-y"
    error_message = "for_each instance"
  }
}
run "plan" {
  command = plan
  assert {
    condition     = length(module.c) == 2 && length(module.f) == 2
    error_message = "planned instances"
  }
}
`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('t.tftest.hcl... pass\n  run "apply"... pass\n  run "plan"... pass\n\nSuccess! 2 passed, 0 failed.\n');
  });

  it("takes the global view options anywhere in its arguments, as tofu's ParseView does", async () => {
    const { dir } = workDir({ "main.tf": 'output "o" {\n  value = "v"\n}\n', "a.tftest.hcl": 'run "r" {\n  command = plan\n  assert {\n    condition     = output.o == "v"\n    error_message = "no"\n  }\n}\n' });
    for (const args of [["-compact-warnings"], ["-consolidate-warnings=false", "-no-color"], ["-verbose", "-consolidate-errors"]]) {
      const r = await runCommand(testCommand, args, dir);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout, args.join(" ")).toContain("1 passed, 0 failed.");
    }
  });

  it("gives -var the lowest precedence, below file and run variables", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "a.tftest.hcl": `
run "cli" {
  command = plan
  assert {
    condition     = var.name == "cli"
    error_message = "cli value not used"
  }
}
`,
      "b.tftest.hcl": `
variables {
  name = "file"
}
run "file_wins" {
  command = plan
  assert {
    condition     = var.name == "file"
    error_message = "file value not used: \${var.name}"
  }
}
`,
    });
    const r = await runCommand(testCommand, ["-no-color", "-var", "name=cli"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const f = await runCommand(testCommand, ["-no-color", "-var", "name=cli", "-filter=b.tftest.hcl"], dir);
    expect(f.stdout).toBe(`b.tftest.hcl... pass\n  run "file_wins"... pass\n\nSuccess! 1 passed, 0 failed.\n`);
  });

  it("reports decoding errors as tofu does", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "main.tftest.hcl": `
run "x" {
  command = destroy
}
`,
    });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: Invalid "command" keyword');
    expect(r.stderr).toContain('The "command" argument requires one of the following keywords without quotes:\napply or plan.');
  });

  it("expects failures of root variable validations", async () => {
    const { dir } = workDir({
      "main.tf": `
variable "n" {
  type = number
  validation {
    condition     = var.n > 0
    error_message = "n must be positive"
  }
}
`,
      "main.tftest.hcl": `
run "negative" {
  command = plan
  variables {
    n = -1
  }
  expect_failures = [var.n]
}

run "positive_but_expected" {
  command = plan
  variables {
    n = 1
  }
  expect_failures = [var.n]
}
`,
    });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.stdout).toContain('run "negative"... pass');
    expect(r.stdout).toContain('run "positive_but_expected"... fail');
    expect(r.stderr).toContain("The checkable object, var.n, was expected to report an error but did not.");
    expect(r.code).toBe(1);
  });

  it("prints -json log lines", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "main.tftest.hcl": `run "one" {\n  command = plan\n}\n`,
    });
    const r = await runCommand(testCommand, ["-json"], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l["type"])).toEqual(["version", "test_abstract", "test_file", "test_run", "test_summary"]);
    expect(lines[1]?.["@message"]).toBe("Found 1 file and 1 run block");
    expect(lines[3]?.["test_run"]).toEqual({ path: "main.tftest.hcl", run: "one", status: "pass" });
    expect(lines[4]?.["@message"]).toBe("Success! 1 passed, 0 failed.");
  });

  it("prints -verbose plans and states as test_plan and test_state log lines, keys sorted as Go sorts them", async () => {
    const { dir } = workDir({
      "main.tf": MAIN,
      "main.tftest.hcl": `run "create" {}\n\nrun "check" {\n  command = plan\n}\n`,
    });
    const r = await runCommand(testCommand, ["-json", "-verbose"], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l["type"])).toEqual(["version", "test_abstract", "test_file", "test_run", "test_state", "test_run", "test_plan", "test_summary"]);
    const state = lines[4] ?? {};
    expect(Object.keys(state)).toEqual(["@level", "@message", "@module", "@testfile", "@testrun", "@timestamp", "test_state", "type"]);
    expect(state["@message"]).toBe("-verbose flag enabled, printing state");
    expect(Object.keys(state["test_state"] as object)).toEqual(["format_version", "terraform_version", "values"]);
    const plan = lines[6] ?? {};
    expect(plan["@message"]).toBe("-verbose flag enabled, printing plan");
    expect(plan["@testrun"]).toBe("check");
    // As tofu's MarshalForLog: the plan without the prior state.
    expect(Object.keys(plan["test_plan"] as object)).not.toContain("prior_state");
    expect(plan["test_plan"]).toMatchObject({ format_version: "1.2", configuration: expect.any(Object) });
  });

  it("refuses an assertion whose condition refers to nothing, before running anything", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "main.tftest.hcl": `run "one" {\n  assert {\n    condition     = true\n    error_message = "x"\n  }\n}\n` });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: Invalid assert expression\n\n  on main.tftest.hcl line 3, in run \"one\":");
    expect(r.stderr).toContain("The condition expression must refer to at least one object from elsewhere in\nthe configuration, or else its result would not be checking anything.");
  });

  it("prints the plan with -verbose", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "main.tftest.hcl": `run "one" {\n  command = plan\n}\n` });
    const r = await runCommand(testCommand, ["-no-color", "-verbose"], dir);
    expect(r.stdout).toContain("# terraform_data.a will be created");
    expect(r.code).toBe(0);
  });
});

function haveTerraform(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasTerraform = haveTerraform();
if (!hasTerraform) console.log("terrace test: reading errored_test.tfstate with terraform skipped, terraform is not on PATH");

/** A resource cleanup cannot destroy: its destroy plan fails on prevent_destroy. */
const UNDESTROYABLE = (name: string, input: string) => `
resource "terraform_data" "${name}" {
  input = "${input}"
  lifecycle {
    prevent_destroy = true
  }
}
`;

const PREVENT_DESTROY = (name: string, line: number) => `
Error: Instance cannot be destroyed

  on main.tf line ${line}:
  ${line < 10 ? " " : ""}${line}: resource "terraform_data" "${name}" {

Resource terraform_data.${name} has lifecycle.prevent_destroy set, but the plan
calls for this resource to be destroyed. To avoid this error and continue
with the plan, either disable lifecycle.prevent_destroy or reduce the scope
of the plan using the -target flag.
`;

function erroredState(dir: string): { resources: string[]; serial: number; lineage: string } {
  const r = readStateFile(readFileSync(path.join(dir, "errored_test.tfstate")));
  if (r.kind !== "ok") throw new Error(`errored_test.tfstate is not a state: ${r.kind}`);
  return { resources: r.file.state.allResourceInstanceObjectAddrs().map((o) => o.instance.toString()), serial: r.file.serial, lineage: r.file.lineage };
}

describe("terrace test cleanup that cannot destroy everything", () => {
  it("says so on stderr as tofu 1.10 does and writes what is left to errored_test.tfstate", async () => {
    const { dir } = workDir({ "main.tf": UNDESTROYABLE("kept", "x"), "main.tftest.hcl": 'run "create" {}\n' });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    // As in tofu, the file's status was printed before its cleanup: the failed destroy does not change it.
    expect(r.stdout).toBe(`main.tftest.hcl... pass\n  run "create"... pass\n\nSuccess! 1 passed, 0 failed.\n`);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`OpenTofu encountered an error destroying resources created while executing
main.tftest.hcl/create.
${PREVENT_DESTROY("kept", 2)}
OpenTofu left the following resources in state after executing
main.tftest.hcl/create, these left-over resources can be viewed by reading
the statefile written to disk(errored_test.tfstate) and they need to be
cleaned up manually:
  - terraform_data.kept

Writing state to file: errored_test.tfstate
`);
    const saved = erroredState(dir);
    expect(saved.resources).toEqual(["terraform_data.kept"]);
    expect(saved.serial).toBe(0);
    // A normal snapshot: the state commands read it.
    const list = await runCommand(stateCommand, ["list", "-state=errored_test.tfstate"], dir);
    expect(list.stdout).toBe("terraform_data.kept\n");
    if (hasTerraform) {
      const tf = execFileSync("terraform", ["state", "list", "-state=errored_test.tfstate"], { cwd: dir, env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null" }, encoding: "utf8" });
      expect(tf).toBe("terraform_data.kept\n");
    }
  });

  it("prints test_cleanup, the diagnostic and tofu's plain log line with -json", async () => {
    const { dir } = workDir({ "main.tf": UNDESTROYABLE("kept", "x"), "main.tftest.hcl": 'run "create" {}\n' });
    const r = await runCommand(testCommand, ["-json"], dir);
    expect(r.stderr).toBe("");
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l["type"] ?? "-")).toEqual(["version", "test_abstract", "test_file", "test_run", "test_cleanup", "diagnostic", "-", "test_summary"]);
    expect(lines[4]).toMatchObject({
      "@level": "error",
      "@message":
        "OpenTofu left some resources in state after executing main.tftest.hcl/create, these left-over resources can be viewed by reading the statefile written to disk(errored_test.tfstate) and they need to be cleaned up manually:",
      "@testfile": "main.tftest.hcl",
      "@testrun": "create",
      test_cleanup: { failed_resources: [{ instance: "terraform_data.kept" }] },
    });
    expect(lines[5]).toMatchObject({ "@level": "error", "@message": "Error: Instance cannot be destroyed", "@testrun": "create" });
    expect(Object.keys(lines[6] ?? {})).toEqual(["@level", "@message", "@module", "@timestamp"]);
    expect(lines[6]).toMatchObject({ "@level": "info", "@message": "Writing state to file: errored_test.tfstate", "@module": "tofu.ui" });
    expect(erroredState(dir).resources).toEqual(["terraform_data.kept"]);
  });

  it("cleans up the latest run's state first; each left-over state replaces the file, so the earliest run's remains", async () => {
    const { dir } = workDir({
      "main.tf": UNDESTROYABLE("main", "m"),
      "setup/main.tf": UNDESTROYABLE("setup", "s"),
      "main.tftest.hcl": `
run "setup" {
  module {
    source = "./setup"
  }
}

run "main" {}
`,
    });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    const order = r.stderr.split("\n").filter((l) => l.startsWith("  - ") || l.startsWith("Writing"));
    expect(order).toEqual(["  - terraform_data.main", "Writing state to file: errored_test.tfstate", "  - terraform_data.setup", "Writing state to file: errored_test.tfstate"]);
    const saved = erroredState(dir);
    expect(saved.resources).toEqual(["terraform_data.setup"]);
    // A new lineage each time, as tofu writes a new state file over the old.
    expect(saved.lineage).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes nothing when cleanup succeeds, and leaves an earlier file alone", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\n', "main.tftest.hcl": 'run "create" {}\n' });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.stderr).toBe("");
    expect(existsSync(path.join(dir, "errored_test.tfstate"))).toBe(false);
    writeFileSync(path.join(dir, "errored_test.tfstate"), "from before\n");
    expect((await runCommand(testCommand, ["-no-color"], dir)).stderr).toBe("");
    expect(readFileSync(path.join(dir, "errored_test.tfstate"), "utf8")).toBe("from before\n");
  });

  it("prints the state and tofu's error when the file cannot be written", async () => {
    const { dir } = workDir({ "main.tf": UNDESTROYABLE("kept", "x"), "main.tftest.hcl": 'run "create" {}\n' });
    mkdirSync(path.join(dir, "errored_test.tfstate"));
    const r = await runCommand(testCommand, ["-no-color"], dir);
    const after = r.stderr.slice(r.stderr.indexOf("Writing state to file: errored_test.tfstate\n") + "Writing state to file: errored_test.tfstate\n".length);
    const dump = after.slice(0, after.indexOf("\n}\n") + 3);
    const dumped = readStateFile(dump);
    expect(dumped.kind === "ok" && dumped.file.state.allResourceInstanceObjectAddrs().map((o) => o.instance.toString())).toEqual(["terraform_data.kept"]);
    expect(after.slice(dump.length)).toBe(`

Error: Failed to persist state

The errors shown above prevented OpenTofu from writing the state to
the errored_test.tfstate. As a fallback, the raw state data is printed above
as a JSON object.

To retry writing this state, copy the state data (from the first { to the
last } inclusive) and save it into a local file named "errored_test.tfstate".

`);
    const j = await runCommand(testCommand, ["-json"], dir);
    const lines = j.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const at = lines.findIndex((l) => l["@message"] === "Writing state to file: errored_test.tfstate");
    expect(lines[at + 1]).toMatchObject({ "@level": "info", "@message": "Emergency state dump", type: "log", state: { version: 4, resources: [{ type: "terraform_data", name: "kept" }] } });
    expect(lines[at + 2]).toMatchObject({ type: "diagnostic", "@message": "Error: Failed to persist state", "@testrun": "create" });
  });
});

describe("terrace test with JSON test files", () => {
  const DIFFERENTIAL = path.join(import.meta.dirname, "..", "moduletest", "testdata", "differential");

  /** A scenario's module with some of its test files, in a fresh working directory (initialised when it needs providers). */
  async function scenario(name: string, testFiles: readonly string[]): Promise<string> {
    const files: Record<string, string> = { "main.tf": readFileSync(path.join(DIFFERENTIAL, name, "main.tf"), "utf8") };
    for (const f of testFiles) files[f] = readFileSync(path.join(DIFFERENTIAL, name, f), "utf8");
    const { dir } = workDir(files);
    if (files["main.tf"]?.includes("required_providers")) expect((await runCommand(initCommand, ["-no-color", "-input=false"], dir)).code).toBe(0);
    return dir;
  }

  /**
   * The -json messages with what may differ between the syntaxes taken out: file names lose their
   * extension, and a diagnostic keeps its text, its file and the values it quotes but not where
   * in that file it points (the two files have their lines in different places).
   */
  function comparable(stdout: string): unknown[] {
    const bare = (s: unknown) => (typeof s === "string" ? s.replace(/\.tftest\.(hcl|json)\b/g, ".tftest") : s);
    return stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((m) => m["type"] !== "version")
      .map((m) => {
        const d = m["diagnostic"] as { severity: string; summary: string; detail: string; range?: { filename: string }; snippet?: { values: unknown } } | undefined;
        return {
          type: m["type"],
          message: bare(m["@message"]),
          file: bare(m["@testfile"]),
          run: m["@testrun"],
          status: (m["test_run"] as { status?: string } | undefined)?.status ?? (m["test_file"] as { status?: string } | undefined)?.status,
          abstract: m["test_abstract"] && Object.fromEntries(Object.entries(m["test_abstract"] as Record<string, unknown>).map(([k, v]) => [bare(k), v])),
          diagnostic: d && { severity: d.severity, summary: d.summary, detail: d.detail, file: bare(d.range?.filename), values: d.snippet?.values },
        };
      });
  }

  const twins: ReadonlyArray<{ native: string; json: string; files: readonly string[] }> = [
    { native: "assertions", json: "json_files", files: ["main"] },
    { native: "expect_failures", json: "json_expect_failures", files: ["main", "missing", "unexpected"] },
    { native: "mock_provider", json: "json_mock_provider", files: ["main"] },
  ];
  for (const t of twins) {
    it(`runs ${t.json}'s JSON files as ${t.native}'s native ones, with the same results and diagnostics`, async () => {
      const native = await runCommand(testCommand, ["-json"], await scenario(t.native, t.files.map((f) => `${f}.tftest.hcl`)));
      const json = await runCommand(testCommand, ["-json"], await scenario(t.json, t.files.map((f) => `${f}.tftest.json`)));
      expect(json.code).toBe(native.code);
      expect(comparable(json.stdout)).toEqual(comparable(native.stdout));
      expect(comparable(native.stdout).some((m) => (m as { type: string }).type === "test_run")).toBe(true);
    }, 60_000);
  }

  it("reports a JSON syntax error at its line, as terraform 1.11 does", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "main.tftest.json": '{"run": {"a": }}\n' });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    // Terraform adds "Incorrect JSON value type" for the value its parser could not read.
    expect(r.stderr).toBe(`
Error: Missing JSON value

  on main.tftest.json line 1, in run:
   1: {"run": {"a": }}

A JSON value must start with a brace, a bracket, a number, a string, or a
keyword.
`);
  });

  it("refuses a JSON assertion whose condition is a plain string, quoting terraform 1.11's error", async () => {
    const file = {
      run: {
        last: {
          assert: [
            { condition: "${output.greeting == \"hello default\"}", error_message: "fine" },
            { condition: 'output.greeting == "x"', error_message: "a condition that refers to nothing is refused" },
          ],
        },
      },
    };
    const { dir } = workDir({ "main.tf": MAIN, "z.tftest.json": `${JSON.stringify(file, null, 2)}\n` });
    const r = await runCommand(testCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`
Error: Invalid assert expression

  on z.tftest.json line 10, in run.last.assert[1]:
  10:           "condition": "output.greeting == \\"x\\"",

The condition expression must refer to at least one object from elsewhere in
the configuration, or else its result would not be checking anything.
`);
  });

  it("runs x.tofutest.json in place of x.tftest.json, in name order with native files, and -filter names JSON files", async () => {
    const run = (name: string) => JSON.stringify({ run: { [name]: { command: "plan", assert: { condition: "${terraform_data.a.input == \"hello default\"}", error_message: "no" } } } });
    const { dir } = workDir({
      "main.tf": MAIN,
      "a.tftest.hcl": `run "native" {\n  command = plan\n}\n`,
      "a.tftest.json": run("json"),
      "b.tftest.json": run("hidden"),
      "b.tofutest.json": run("tofu"),
      "tests/c.tftest.json": run("in_tests"),
    });
    const all = await runCommand(testCommand, ["-no-color"], dir);
    expect(all.stderr).toBe("");
    expect(all.stdout).toBe(`a.tftest.hcl... pass
  run "native"... pass
a.tftest.json... pass
  run "json"... pass
b.tofutest.json... pass
  run "tofu"... pass
tests/c.tftest.json... pass
  run "in_tests"... pass

Success! 4 passed, 0 failed.
`);
    const filtered = await runCommand(testCommand, ["-no-color", "-filter=tests/c.tftest.json", "-filter=b.tftest.json"], dir);
    expect(filtered.stdout).toBe(`tests/c.tftest.json... pass
  run "in_tests"... pass

Success! 1 passed, 0 failed.
`);
  });
});
