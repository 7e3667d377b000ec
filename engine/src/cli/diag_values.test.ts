// The "├────" section of diagnostics (the values the failing expression referred to, and the
// function being called) against terraform 1.11, which prints it as OpenTofu does: for each
// configuration, the diagnostics of `plan -no-color` from "Error:" through that section must be
// the same text, and `plan -json` must give the same `snippet.values` and `snippet.function_call`.
// Every case keeps its traversals at least two steps long: terraform leaves out a bare root such
// as a `for` symbol, which OpenTofu lists (lang/eval/diagvalues.test.ts covers that).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { validateCommand } from "./validate.js";

function terraformOnPath(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasTerraform = terraformOnPath();
if (!hasTerraform) console.log("diagnostic values: terraform comparison skipped, terraform is not on PATH");

function terraform(dir: string, args: string[]): string {
  try {
    return execFileSync("terraform", args, {
      cwd: dir,
      env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return `${err.stdout ?? ""}${err.stderr ?? ""}`;
  }
}

/** Each diagnostic's head: "Error: ..." through the source snippet and its values section. */
function heads(text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^(Error|Warning): /.test(lines[i] as string)) continue;
    const block: string[] = [];
    let seenOn = false;
    for (let j = i; j < lines.length; j++) {
      const line = lines[j] as string;
      if (line.startsWith("  on ")) seenOn = true;
      if (seenOn && line === "") break;
      block.push(line);
    }
    out.push(block.join("\n"));
  }
  return out.sort();
}

interface JSONDiag {
  summary: string;
  range?: { start: { line: number } };
  snippet?: { values: unknown[]; function_call?: unknown };
}

/** The parts of each `-json` diagnostic this feature adds, keyed by summary and line. */
function jsonParts(stdout: string): unknown[] {
  const out: Array<{ key: string; values: unknown; function_call: unknown }> = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const msg = JSON.parse(line) as { type?: string; diagnostic?: JSONDiag };
    const d = msg.diagnostic;
    if (msg.type !== "diagnostic" || !d) continue;
    out.push({ key: `${d.summary}@${d.range?.start.line ?? 0}`, values: d.snippet?.values, function_call: d.snippet?.function_call });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const CASES: Record<string, string> = {
  "a failing precondition lists each value once, sorted, but not a sensitive one": `
variable "n" {
  type    = number
  default = 2
}
variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
locals {
  names = ["a", "b", "c"]
  obj   = { a = 1, b = "x" }
  one   = { only = true }
  empty = {}
  big   = 12345678901234
  frac  = 0.1
  m     = { k = "v\\t\\"q\\"" }
}
resource "terraform_data" "pre" {
  for_each = toset(["p"])
  input    = each.value
  lifecycle {
    precondition {
      condition     = var.n > 3 && length(local.names) > 5 && local.obj.a == 1 && var.secret != "" && local.names[0] == each.value && local.one.only && local.m["k"] == "w" && local.big < 0 && local.frac > 1 && length(local.empty) > 0 && var.n != 7
      error_message = "pre failed for \${each.key}"
    }
  }
}
`,
  "a variable validation lists the variable": `
variable "v" {
  type    = string
  default = "abc"
  validation {
    condition     = length(var.v) > 5
    error_message = "too short"
  }
}
`,
  "a bad function argument names the function and its parameters": `
locals {
  names = ["a", "b", "c"]
}
resource "terraform_data" "fn" {
  input = upper(local.names)
}
resource "terraform_data" "variadic" {
  input = join(",", local.names, 5)
}
`,
  "an unknown for_each says what is known only after apply": `
resource "terraform_data" "a" {
  input = { a = "x" }
}
resource "terraform_data" "map" {
  for_each = terraform_data.a.output
}
resource "terraform_data" "set" {
  for_each = toset([terraform_data.a.id, "x"])
}
resource "terraform_data" "count" {
  count = length(terraform_data.a.output)
}
`,
  "a sensitive for_each says so, and only there": `
variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "sens" {
  for_each = toset([var.secret])
}
`,
  "traversal and index errors show the longest part that resolved": `
locals {
  obj   = { a = 1, b = "x" }
  names = ["a", "b", "c"]
  none  = []
}
output "attr" {
  value = local.obj.c
}
output "idx" {
  value = local.names[5]
}
output "empty" {
  value = local.none[0]
}
`,
  "a null in a template is shown as null": `
variable "nul" {
  type    = string
  default = null
}
output "tmpl" {
  value = "x\${var.nul}"
}
`,
  "a check assertion warns with its values": `
locals {
  size = 13
}
check "small" {
  assert {
    condition     = local.size < 10
    error_message = "size is not small"
  }
}
`,
};

describe.skipIf(!hasTerraform)("diagnostic values as terraform 1.11 prints them", () => {
  for (const [name, main] of Object.entries(CASES)) {
    it(name, async () => {
      const { dir } = workDir({ "main.tf": main });
      terraform(dir, ["init", "-input=false", "-no-color"]);
      const tfText = terraform(dir, ["plan", "-input=false", "-no-color"]);
      const tfJSON = terraform(dir, ["plan", "-input=false", "-json"]);
      const text = await runCommand(planCommand, ["-input=false", "-no-color"], dir);
      const json = await runCommand(planCommand, ["-input=false", "-json"], dir);
      const ours = heads(text.stdout + text.stderr);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(heads(tfText));
      expect(jsonParts(json.stdout)).toEqual(jsonParts(tfJSON));
    });
  }

  it("validate, where variables are unknown, names their type only", async () => {
    const { dir } = workDir({
      "main.tf": `variable "names" {
  type    = list(string)
  default = ["a"]
}
resource "terraform_data" "x" {
  input = upper(var.names)
}
`,
    });
    terraform(dir, ["init", "-input=false", "-no-color"]);
    const ours = await runCommand(validateCommand, ["-no-color"], dir);
    const theirs = heads(terraform(dir, ["validate", "-no-color"]));
    expect(heads(ours.stdout + ours.stderr)).toEqual(theirs);
    expect(theirs.join("\n")).toContain("│ var.names is a list of string");
  });
});

describe("diagnostic values through the CLI", () => {
  it("a failed precondition and an unknown for_each list their values in text and JSON", async () => {
    const { dir } = workDir({
      "main.tf": `variable "n" {
  default = 2
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = var.n > 3
      error_message = "n too small"
    }
  }
}
resource "terraform_data" "c" {
}
resource "terraform_data" "b" {
  for_each = toset([terraform_data.c.id])
}
`,
    });
    const text = await runCommand(planCommand, ["-input=false", "-no-color"], dir);
    expect(heads(text.stderr)).toEqual([
      [
        "Error: Invalid for_each argument",
        "",
        '  on main.tf line 16, in resource "terraform_data" "b":',
        "  16:   for_each = toset([terraform_data.c.id])",
        "    ├────────────────",
        "    │ terraform_data.c.id is a string, known only after apply",
      ].join("\n"),
      [
        "Error: Resource precondition failed",
        "",
        '  on main.tf line 8, in resource "terraform_data" "a":',
        "   8:       condition     = var.n > 3",
        "    ├────────────────",
        "    │ var.n is 2",
      ].join("\n"),
    ]);
    const json = await runCommand(planCommand, ["-input=false", "-json"], dir);
    expect(jsonParts(json.stdout)).toEqual([
      {
        key: "Invalid for_each argument@16",
        values: [{ traversal: "terraform_data.c.id", statement: "is a string, known only after apply" }],
        function_call: undefined,
      },
      { key: "Resource precondition failed@8", values: [{ traversal: "var.n", statement: "is 2" }], function_call: undefined },
    ]);
  });
});
