// `terrace validate` in-process on temporary directories, and `-json` compared with
// `terraform validate -json` (1.11) on invalid terraform_data-only configurations.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { validateCommand } from "./validate.js";

const validate = (args: string[], cwd: string, opts: Parameters<typeof runCommand>[3] = {}) => runCommand(validateCommand, args, cwd, opts);

interface JSONDiag {
  severity: string;
  summary: string;
  detail: string;
  range?: { filename: string; start: { line: number; column: number; byte: number }; end: { line: number; column: number; byte: number } };
  snippet?: { context: string | null; code: string; start_line: number; highlight_start_offset: number; highlight_end_offset: number; values: unknown[] };
}
interface JSONResult {
  format_version: string;
  valid: boolean;
  error_count: number;
  warning_count: number;
  diagnostics: JSONDiag[];
}

describe("terrace validate", () => {
  it("says a valid configuration is valid", async () => {
    const { dir } = workDir({
      "main.tf": 'variable "n" {\n  type = number\n}\nlocals {\n  x = var.n + 1\n}\nresource "terraform_data" "a" {\n  count = 2\n  input = [local.x, count.index, path.module, terraform.workspace]\n}\noutput "o" {\n  value = terraform_data.a[0].output\n}\nmodule "m" {\n  source = "./mod"\n  v      = terraform_data.a[*].id\n}\noutput "p" {\n  value = module.m.out\n}\n',
      "mod/main.tf": 'variable "v" {}\nresource "terraform_data" "b" {\n  for_each = toset(var.v)\n  input    = each.value\n}\noutput "out" {\n  value = { for k, v in terraform_data.b : k => v.id }\n}\n',
    });
    expect(await validate([], dir)).toEqual({ code: 0, stdout: "Success! The configuration is valid.\n\n", stderr: "" });
    const j = await validate(["-json"], dir);
    expect(j.code).toBe(0);
    expect(j.stdout).toBe('{\n  "format_version": "1.0",\n  "valid": true,\n  "error_count": 0,\n  "warning_count": 0,\n  "diagnostics": []\n}\n');
  });

  it("reports every undeclared reference at once, with snippets", async () => {
    const { dir } = workDir({
      "main.tf": 'variable "nopf" {}\nresource "terraform_data" "a" {\n  input = var.nope\n}\noutput "o" {\n  value = local.x\n}\noutput "p" {\n  value = terraform_data.b.id\n}\noutput "q" {\n  value = module.m.x\n}\n',
    });
    const r = await validate(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        '\nError: Reference to undeclared input variable\n\n  on main.tf line 3, in resource "terraform_data" "a":\n   3:   input = var.nope\n\nAn input variable with the name "nope" has not been declared. Did you mean\n"nopf"?\n',
        '\nError: Reference to undeclared local value\n\n  on main.tf line 6, in output "o":\n   6:   value = local.x\n\nA local value with the name "x" has not been declared.\n',
        '\nError: Reference to undeclared resource\n\n  on main.tf line 9, in output "p":\n   9:   value = terraform_data.b.id\n\nA managed resource "terraform_data" "b" has not been declared in the root\nmodule.\n',
        '\nError: Reference to undeclared module\n\n  on main.tf line 12, in output "q":\n  12:   value = module.m.x\n\nNo module call named "m" is declared in the root module.\n',
      ].join(""),
    );
    const j = JSON.parse((await validate(["-json"], dir)).stdout) as JSONResult;
    expect(j.valid).toBe(false);
    expect(j.error_count).toBe(4);
    expect(j.diagnostics[0]).toEqual({
      severity: "error",
      summary: "Reference to undeclared input variable",
      detail: 'An input variable with the name "nope" has not been declared. Did you mean "nopf"?',
      range: { filename: "main.tf", start: { line: 3, column: 11, byte: 61 }, end: { line: 3, column: 19, byte: 69 } },
      snippet: { context: 'resource "terraform_data" "a"', code: "  input = var.nope", start_line: 3, highlight_start_offset: 10, highlight_end_offset: 18, values: [] },
    });
  });

  it("reports decoding errors and modules that need init", async () => {
    const { dir } = workDir({
      "main.tf": 'resource "terraform_data" "a" {\n  count = 1\n  count = 2\n}\nmodule "r" {\n  source = "hashicorp/consul/aws"\n}\n',
    });
    const r = await validate(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Attribute redefined");
    const m = workDir({ "main.tf": 'module "r" {\n  source = "hashicorp/consul/aws"\n}\n' });
    const n = await validate(["-no-color"], m.dir);
    expect(n.code).toBe(1);
    expect(n.stderr).toContain("Error: Module not installed");
  });

  it("needs the providers the configuration uses", async () => {
    const { dir } = workDir({ "main.tf": 'resource "aws_instance" "a" {}\n' });
    const r = await validate(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "\nError: Missing required provider\n\nThis configuration requires provider registry.opentofu.org/hashicorp/aws, but\nthat provider isn't available. You may be able to install it automatically by\nrunning:\n  terrace init\n",
    );
  });

  it("checks bodies against the providers' schemas, and references against resource types' attributes", async () => {
    const { initCommand } = await import("./init.js");
    const required = 'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}\n';
    const { dir } = workDir({
      "main.tf":
        required +
        'resource "random_id" "a" {\n  byte_length = 1\n  bogus       = 1\n}\nresource "random_strin" "b" {}\nresource "random_integer" "c" {\n  min = "x"\n  max = 1\n}\ndata "random_id" "e" {}\n' +
        'resource "random_id" "d" {\n  byte_length = 2\n  dynamic "nope" {\n    for_each = [1]\n    content {}\n  }\n}\n',
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const j = JSON.parse((await validate(["-json"], dir)).stdout) as JSONResult;
    expect(j.diagnostics.map((d) => [d.summary, d.detail, d.range?.start.line])).toEqual([
      ["Unsupported argument", 'An argument named "bogus" is not expected here.', 8],
      ["Invalid resource type", 'The provider hashicorp/random does not support resource type "random_strin". Did you mean "random_string"?', 10],
      ["Incorrect attribute value type", 'Inappropriate value for attribute "min": a number is required.', 12],
      ["Invalid data source", 'The provider hashicorp/random does not support data source "random_id".\n\nDid you intend to use the managed resource type "random_id"? If so, declare this using a "resource" block instead of a "data" block.', 15],
      ["Unsupported block type", 'Blocks of type "nope" are not expected here.', 18],
    ]);

    const refs = workDir({ "main.tf": required + 'resource "random_id" "d" {\n  count       = 1\n  byte_length = 2\n}\noutput "o" {\n  value = random_id.d[0].hexx\n}\n' });
    expect((await runCommand(initCommand, ["-no-color"], refs.dir)).code).toBe(0);
    const r = JSON.parse((await validate(["-json"], refs.dir)).stdout) as JSONResult;
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      ["Unsupported attribute", 'This object has no argument, nested block, or exported attribute named "hexx". Did you mean "hex"?'],
    ]);
    const ok = workDir({ "main.tf": required + 'variable "n" {\n  type = number\n}\nresource "random_id" "d" {\n  byte_length = var.n\n  keepers = { a = random_id.e.hex }\n}\nresource "random_id" "e" {\n  byte_length = 1\n}\n' });
    expect((await runCommand(initCommand, ["-no-color"], ok.dir)).code).toBe(0);
    expect(await validate([], ok.dir)).toEqual({ code: 0, stdout: "Success! The configuration is valid.\n\n", stderr: "" });
  }, 60_000);

  it("evaluates locals, outputs and module arguments with unknown values, as OpenTofu's validate walk does", async () => {
    const { dir } = workDir({
      "main.tf":
        'variable "n" {\n  type = number\n}\nlocals {\n  ok = var.n + 1\n  a  = upper(1, 2)\n}\noutput "o" {\n  value = jsondecode("{")\n}\nmodule "m" {\n  source = "./mod"\n  v      = tonumber("abc")\n  w      = local.ok\n}\n',
      "mod/main.tf": 'variable "v" {}\nvariable "w" {}\n',
    });
    const r = await validate(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/^Error: .*$/gm)).toEqual(["Error: Too many function arguments", "Error: Error in function call", "Error: Invalid function argument"]);
    expect(r.stderr).toContain("  on main.tf line 13, in module \"m\":");
  });

  it("allows each in an import block with for_each, and tells each.key from each.value where there is no for_each (as terraform 1.11 does)", async () => {
    const ok = workDir({
      "main.tf": 'resource "terraform_data" "a" {\n  for_each = toset(["x", "y"])\n}\nimport {\n  for_each = toset(["x"])\n  to       = terraform_data.a[each.key]\n  id       = "id-${each.value}"\n}\n',
    });
    expect(await validate([], ok.dir)).toEqual({ code: 0, stdout: "Success! The configuration is valid.\n\n", stderr: "" });
    const bad = workDir({
      "main.tf": 'resource "terraform_data" "a" {\n  input = each.value\n}\nresource "terraform_data" "b" {\n  input = [each.key, count.index, each.id, count.x]\n}\nimport {\n  to = terraform_data.a\n  id = "id-${each.value}"\n}\n',
    });
    const j = JSON.parse((await validate(["-json"], bad.dir)).stdout) as JSONResult;
    expect(j.diagnostics.map((d) => [d.summary, d.range?.start.line, d.range?.start.column])).toEqual([
      ["each.value cannot be used in this context", 2, 11],
      ['Reference to "each" in context without for_each', 5, 12],
      ['Reference to "count" in non-counted context', 5, 22],
      ['Invalid "each" attribute', 5, 35],
      ['Invalid "count" attribute', 5, 44],
      ["each.value cannot be used in this context", 9, 14],
    ]);
    expect(j.diagnostics[0]?.detail).toBe(
      'A reference to "each.value" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its "for_each" expression. Remove this reference to each.value in your configuration to work around this error.',
    );
  });

  it("reports self in a resource precondition twice: as a reference, and as a variable the condition's evaluation lacks", async () => {
    const { dir } = workDir({
      "main.tf":
        'resource "terraform_data" "a" {\n  input = "x"\n  lifecycle {\n    precondition {\n      condition     = self.input == "x"\n      error_message = "no"\n    }\n    postcondition {\n      condition     = self.input == "x"\n      error_message = "no ${self.input}"\n    }\n  }\n}\n',
    });
    const j = JSON.parse((await validate(["-json"], dir)).stdout) as JSONResult;
    expect(j.diagnostics.map((d) => [d.summary, d.detail, d.range?.start.line, d.range?.end.column])).toEqual([
      ['Invalid "self" reference', 'The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.', 5, 27],
      ["Unknown variable", 'There is no variable named "self".', 5, 27],
    ]);
  });

  it("warns of an attribute a module call's object constructor sets that the variable's object type drops (OpenTofu 1.11), in validate and in plan", async () => {
    const { dir } = workDir({
      "main.tf":
        'locals {\n  extra = { x = 1, zz = 2 }\n  k     = "kk"\n}\nmodule "m" {\n  source = "./mod"\n  a      = { x = 1, yy = 2, "opt" = 3, "quoted" = 4 }\n  b      = local.extra\n  c      = { (local.k) = 1 }\n  d      = { other = 1 }\n}\n',
      "mod/main.tf": 'variable "a" {\n  type = object({ x = number, opt = optional(number) })\n}\nvariable "b" {\n  type = object({ x = number })\n}\nvariable "c" {\n  type = object({ k = optional(number) })\n}\nvariable "d" {\n  type = map(number)\n}\n',
    });
    const { initCommand } = await import("./init.js");
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const j = JSON.parse((await validate(["-json"], dir)).stdout) as JSONResult;
    expect(j.valid).toBe(true);
    expect(j.diagnostics.map((d) => [d.severity, d.summary, d.detail, d.range?.start.line, d.range?.start.column, d.range?.end.column])).toEqual([
      ["warning", "Object attribute is ignored", 'The object type for input variable "a" does not include an attribute named "yy", so this definition is unused. Did you mean to set attribute "x" instead?', 7, 21, 23],
      ["warning", "Object attribute is ignored", 'The object type for input variable "a" does not include an attribute named "quoted", so this definition is unused.', 7, 40, 48],
    ]);
    const { planCommand } = await import("./plan.js");
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.code).toBe(0);
    // One shown, as tofu's View.Diagnostics folds warnings with the same summary.
    expect(p.stdout.match(/^Warning: .*$/gm)).toEqual(["Warning: Object attribute is ignored"]);
    expect(p.stdout).toContain("(and one more similar warning elsewhere)");
  });

  it("follows the variable's type into nested objects, map values, list elements and for results, and checks defaults", async () => {
    const { dir } = workDir({
      "main.tf":
        'module "m" {\n  source = "./mod"\n  foo    = { bar = { beep = 2, ok = 3 } }\n  items  = [{ name = "a" }, { name = "b", nam = "c" }]\n  bymap  = { k = { name = "a", nme = "b" } }\n  fors   = [for s in ["a"] : { name = s, extra = s }]\n}\n',
      "mod/main.tf":
        'variable "foo" {\n  type = object({ bar = object({ ok = number }) })\n}\nvariable "items" {\n  type = list(object({ name = string }))\n}\nvariable "bymap" {\n  type = map(object({ name = string }))\n}\nvariable "fors" {\n  type = list(object({ name = string }))\n}\nvariable "d" {\n  type = object({ a = string, b = object({ x = number }) })\n  default = {\n    a = "x"\n    b = { x = 1, nope = 2 }\n    c = 3\n  }\n}\n',
    });
    const { initCommand } = await import("./init.js");
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const j = JSON.parse((await validate(["-json"], dir)).stdout) as JSONResult;
    expect(j.valid).toBe(true);
    const detail = (d: JSONDiag) => [d.range?.filename, d.range?.start.line, d.detail];
    expect(j.diagnostics.map(detail)).toEqual([
      ["mod/main.tf", 17, 'The object type for .b does not include an attribute named "nope", so this definition is unused.'],
      ["mod/main.tf", 18, 'The object type for this variable does not include an attribute named "c", so this definition is unused. Did you mean to set attribute "a" instead?'],
      ["main.tf", 3, 'The object type for input variable "foo" nested value .bar does not include an attribute named "beep", so this definition is unused.'],
      ["main.tf", 4, 'The object type for input variable "items" nested value [1] does not include an attribute named "nam", so this definition is unused. Did you mean to set attribute "name" instead?'],
      ["main.tf", 5, 'The object type for input variable "bymap" nested value ["k"] does not include an attribute named "nme", so this definition is unused. Did you mean to set attribute "name" instead?'],
      ["main.tf", 6, 'The object type for input variable "fors" nested value [(not yet known)] does not include an attribute named "extra", so this definition is unused.'],
    ]);
    // The snippet shows the object constructor the attribute is written in.
    const human = await validate(["-no-color", "-consolidate-warnings=false"], dir);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('  on main.tf line 3, in module "m":\n   3:   foo    = { bar = { beep = 2, ok = 3 } }\n');
    expect(human.stdout.match(/^Warning: Object attribute is ignored$/gm)).toHaveLength(6);
    const folded = await validate(["-no-color"], dir);
    expect(folded.stdout.match(/^Warning: Object attribute is ignored$/gm)).toHaveLength(1);
    expect(folded.stdout).toContain("(and 5 more similar warnings elsewhere)");
  });

  it("takes the global view options, as tofu's ParseView gives them to every command", async () => {
    const { dir } = workDir({ "main.tf": 'variable "v" {\n  type    = object({ a = string })\n  default = { a = "x", b = "y" }\n}\n' });
    const compact = await validate(["-compact-warnings", "-no-color"], dir);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toContain("Warnings:\n\n- Object attribute is ignored\n  on main.tf line 3\n");
    expect(compact.stdout).toContain("To see the full warning notes, run OpenTofu without -compact-warnings.");
  });

  it("rejects bad flags", async () => {
    const { dir } = workDir({ "main.tf": "" });
    const r = await validate(["-foo", "-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("\nError: Failed to parse command-line flags\n\nflag provided but not defined: -foo\n\nFor more help on using this command, run:\n  terrace validate -help\n");
    const t = await validate(["a", "b"], dir);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain("Too many command line arguments");
  });
});

// ---- Against terraform ----

const terraform = spawnSync("terraform", ["version"], { encoding: "utf8" });
const haveTerraform = !terraform.error && terraform.status === 0 && /Terraform v1\.1[1-9]/.test(terraform.stdout);
if (!haveTerraform) console.log("skipping the terraform validate comparison: terraform v1.11+ is not on PATH");

/** Invalid configurations where OpenTofu and Terraform agree. */
const CASES: Record<string, Record<string, string>> = {
  undeclared: {
    "main.tf":
      'variable "nopf" {}\nresource "terraform_data" "a" {\n  input = var.nope\n}\noutput "o" {\n  value = local.x\n}\noutput "p" {\n  value = terraform_data.b.id\n}\noutput "q" {\n  value = module.m.x\n}\nlocals {\n  y = data.thing.x.id\n}\n',
  },
  keysAndContexts: {
    "main.tf":
      'resource "terraform_data" "c" {\n  count = 2\n  input = terraform_data.c.id\n}\nresource "terraform_data" "d" {\n  input = terraform_data.d.inptu\n}\noutput "e" { value = count.index }\noutput "f" { value = each.key }\noutput "g" { value = self.x }\noutput "h" { value = path.nope }\nresource "terraform_data" "k" {\n  for_each = {}\n  input = terraform_data.c.output\n}\noutput "i" { value = terraform_data.e[0].id }\nresource "terraform_data" "e" {}\n',
  },
  chains: {
    "main.tf":
      'locals {\n  a = var.missing\n  b = local.a\n}\nresource "terraform_data" "x" {\n  input = local.b\n  bogus = 1\n}\nresource "terraform_data" "y" {\n  bogus = 1\n}\noutput "z" { value = terraform_data.y.id }\n',
  },
  modules: {
    "main.tf": 'module "m" {\n  source = "./mod"\n  v = var.nope\n}\noutput "a" { value = module.m.nope }\noutput "b" { value = module.n.x }\n',
    "mod/main.tf": 'variable "v" {}\noutput "x" { value = local.q }\n',
  },
  namedValues: {
    "main.tf": "variable \"n\" {\n  type = number\n}\nlocals {\n  a = upper(1, 2)\n  b = var.n + \"x\"\n}\noutput \"o\" {\n  value = jsondecode(\"{\")\n}\nmodule \"m\" {\n  source = \"./mod\"\n  v      = tonumber(\"abc\")\n}\n",
    "mod/main.tf": 'variable "v" {}\n',
  },
  json: {
    "main.tf.json": '{"resource": {"terraform_data": {"a": {"input": "${var.nope}"}}}, "output": {"o": {"value": "${terraform_data.zz.id}"}}}',
  },
};

function normalised(r: JSONResult): unknown {
  const diags = r.diagnostics.map((d) => ({ ...d, snippet: d.snippet ? { ...d.snippet, values: [] } : undefined }));
  diags.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { ...r, diagnostics: diags };
}

describe.skipIf(!haveTerraform)("terrace validate -json against terraform validate -json", () => {
  for (const [name, files] of Object.entries(CASES)) {
    it(name, async () => {
      const { dir } = workDir(files);
      if (Object.keys(files).some((f) => f.startsWith("mod/"))) {
        const ti = spawnSync("terraform", ["init", "-backend=false", "-input=false"], { cwd: dir, encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "" } });
        expect(ti.status).toBe(0);
      }
      const tf = spawnSync("terraform", ["validate", "-json"], { cwd: dir, encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "" } });
      const theirs = JSON.parse(tf.stdout) as JSONResult;
      const ours = await validate(["-json"], dir);
      expect(ours.code).toBe(tf.status);
      expect(normalised(JSON.parse(ours.stdout) as JSONResult)).toEqual(normalised(theirs));
    });
  }
});
