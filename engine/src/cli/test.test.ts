import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
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
