// `terrace test` against recordings of real `terraform test -no-color` (1.11) on the scenarios
// in testdata/differential (recorded by testdata/differential/record.mjs, so no terraform is
// needed here), each with the command-line arguments of its `args` file if it has one.
// Terraform's text is first put into OpenTofu's form where the two differ (README.md,
// "Differences from Terraform"), and the expression values Terraform prints under a
// diagnostic's snippet are dropped (a Terrace gap, README.md); then stdout, stderr and the exit
// code must be equal.
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { testCommand } from "../cli/test.js";

const DIR = path.join(import.meta.dirname, "testdata", "differential");

/**
 * Terraform's human test output in OpenTofu's form: tofu prints a file's status line once the
 * file has run, before its runs' lines, where terraform prints "<file>... in progress", the runs,
 * "<file>... tearing down" and then the status line; terraform ends a run's warnings with an
 * empty line, which tofu does not print; and terraform puts an empty line between a run's line
 * and its -verbose state (tofu's TestHuman.Run prints the state straight after it).
 */
function terraformStdoutAsTofu(stdout: string): string {
  const lines = stdout.split("\n");
  const out: string[] = [];
  let held: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const next = lines[i + 1] ?? "";
    if (line === "" && held && (/^ {2}run "/.test(next) || /\.\.\. tearing down$/.test(next))) continue;
    if (line === "" && held && /^ {2}run "/.test(lines[i - 1] ?? "") && (/^# /.test(next) || next === "The state file is empty. No resources are represented.")) continue;
    if (/\.\.\. in progress$/.test(line)) {
      held = [];
      continue;
    }
    if (held && /\.\.\. tearing down$/.test(line)) {
      const status = lines[i + 1] ?? "";
      out.push(status, ...held);
      held = undefined;
      i++;
      continue;
    }
    if (held) held.push(line);
    else out.push(line);
  }
  return out.join("\n");
}

/**
 * Where OpenTofu's text differs from Terraform's (README.md, "Differences from Terraform"):
 * Terraform's paragraph, as `terraform test -no-color` wraps it, and OpenTofu's, as it would.
 */
const TOFU_TEXTS: ReadonlyArray<readonly [RegExp, string]> = [
  // The plan renderer (-verbose) names the tool.
  [/^Terraform used the selected providers to generate the following execution$/gm, "OpenTofu used the selected providers to generate the following execution"],
  [/^Terraform will perform the following actions:$/gm, "OpenTofu will perform the following actions:"],
  // tofu takes a run's value for a variable the module does not declare without a word.
  [/\nWarning: Value for undeclared variable\n\n[^]*?\nThe module under test does not declare a variable named "[^"]+", but it\nis declared in run block "[^"]+"\.\n/g, ""],
  // backend.ParseVariableValues reports a missing variable as for a root module.
  [
    /\nThe module under test for run block "[^"]+" has a required variable "([^"]+)"\nwith no set value\. Use a -var or -var-file command line argument or add this\nvariable into a "variables" block within the test file or run block\.\n/g,
    '\nThe root module input variable "$1" is not set, and has no default value.\nUse a -var or -var-file command line argument to provide a value for this\nvariable.\n',
  ],
  // TestContext.evaluate: tofu's summary and a one-sentence detail.
  [/Error: Unknown condition value\n/g, "Error: Unknown condition run\n"],
  [/Condition expression could not be evaluated at this time\. This means you have\n[^]*?`override_` block\.\n/g, "Condition expression could not be evaluated at this time.\n"],
  // Terraform explains an expected failure that stopped an apply run's plan; tofu reports only the failure.
  [/\nWarning: Expected failure while planning\n[^]*?test\nreport\.\n/g, ""],
  // -exclude exists in tofu, and its targeting warnings say so.
  [
    /You are creating a plan with the -target option, which means that the result\nof this plan may not represent all of the changes requested by the current\nconfiguration\.\n\nThe -target option is not for routine use, and is provided only for\nexceptional situations such as recovering from errors or mistakes, or when\nTerraform specifically suggests to use it as part of an error message\.\n/g,
    "You are creating a plan with either the -target option or the -exclude\noption, which means that the result of this plan may not represent all of the\nchanges requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided\nonly for exceptional situations such as recovering from errors or mistakes,\nor when OpenTofu specifically suggests to use it as part of an error message.\n",
  ],
  [
    /The plan was created with the -target option in effect, so some changes\nrequested in the configuration may have been ignored and the output values\nmay not be fully updated\. Run the following command to verify that no other\nchanges are pending:\n {4}terraform plan\n\nNote that the -target option is not suitable for routine use, and is provided\nonly for exceptional situations such as recovering from errors or mistakes,\nor when Terraform specifically suggests to use it as part of an error\nmessage\.\n/g,
    "The plan was created with the -target or the -exclude option in effect, so\nsome changes requested in the configuration may have been ignored and the\noutput values may not be fully updated. Run the following command to verify\nthat no other changes are pending:\n    tofu plan\n\t\nNote that the -target and -exclude options are not suitable for routine use,\nand are provided only for exceptional situations such as recovering from\nerrors or mistakes, or when OpenTofu specifically suggests to use it as part\nof an error message.\n",
  ],
];

/** A recording of `terraform test -no-color` as OpenTofu (and so Terrace) prints the same run. */
function recordingAsTofu(recorded: { stdout: string; stderr: string }): { stdout: string; stderr: string } {
  const tofu = (text: string) => TOFU_TEXTS.reduce((t, [from, to]) => t.replace(from, to), text);
  return { stdout: terraformStdoutAsTofu(tofu(recorded.stdout)), stderr: tofu(recorded.stderr) };
}

/** `terraform_data` ids are random UUIDs; diagnostics now quote them among an expression's values. */
function withoutUUIDs(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
}

const scenarios = readdirSync(DIR)
  .filter((n) => statSync(path.join(DIR, n)).isDirectory())
  .sort();

describe("terrace test against recorded terraform test", () => {
  it("has scenarios, each recorded", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(8);
    for (const s of scenarios) expect(existsSync(path.join(DIR, s, "recorded", "exit-code")), s).toBe(true);
  });

  for (const name of scenarios) {
    it(name, async () => {
      const { dir } = workDir();
      cpSync(path.join(DIR, name), dir, { recursive: true, filter: (src) => path.basename(src) !== "recorded" });
      const recorded = (f: string) => readFileSync(path.join(DIR, name, "recorded", f), "utf8");
      if (readFileSync(path.join(dir, "main.tf"), "utf8").includes("required_providers")) {
        const init = await runCommand(initCommand, ["-no-color", "-input=false"], dir);
        expect(init.stderr).toBe("");
        expect(init.code).toBe(0);
      }
      const argsFile = path.join(dir, "args");
      const args = existsSync(argsFile) ? readFileSync(argsFile, "utf8").split("\n").filter((l) => l !== "") : [];
      const r = await runCommand(testCommand, ["-no-color", ...args], dir);
      const want = recordingAsTofu({ stdout: recorded("stdout"), stderr: recorded("stderr") });
      expect({ stdout: withoutUUIDs(r.stdout), stderr: withoutUUIDs(r.stderr), code: r.code }).toEqual({
        stdout: withoutUUIDs(want.stdout),
        stderr: withoutUUIDs(want.stderr),
        code: Number(recorded("exit-code").trim()),
      });
    }, 60_000);
  }
});
