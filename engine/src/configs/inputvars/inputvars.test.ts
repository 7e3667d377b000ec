// Table-driven tests for what `terraform plan` cannot show us (terraform.test.ts covers the rest):
// prompting, unknown values, caller-supplied values, marks, file-system errors, JSON-syntax
// error messages, and the individual stages' results.
import { describe, expect, it } from "vitest";
import { parseJSONExpression, type Diagnostic, type JSONExpression } from "../../hcl/index.js";
import {
  DynamicPseudoType,
  EPHEMERAL,
  NumberType,
  SENSITIVE,
  StringType,
  hasMark,
  numberIntVal,
  stringVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import {
  buildInputVariables,
  collectVariableValues,
  finalizeInputVariables,
  interactiveCollectVariables,
  parseRawValue,
  parseVariableValues,
  parsingModeFor,
  prepareFinalInputVariableValue,
  type InputVariableDeclaration,
  type UnparsedVariableValue,
  type VariablePromptRequest,
} from "./index.js";
import { declarationsFromSource, functionTable, memoryFS } from "./decl.testkit.js";

const functions = functionTable();
const brief = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity}: ${d.summary}: ${d.detail}`);

function decls(src: string) {
  return declarationsFromSource(src).decls;
}

function str(v: Value | undefined): unknown {
  if (!v) return undefined;
  if (v.kind === "string") return v.value;
  if (v.kind === "number") return Number(v.value.text("g"));
  return v.kind;
}

describe("collectVariableValues", () => {
  const cases: Array<{ name: string; files?: Record<string, string | null>; env?: Record<string, string> | Array<[string, string]>; args?: Array<["-var" | "-var-file", string]>; dir?: string; want: Record<string, string>; diags?: string[] }> = [
    { name: "env object form, non-TF_VAR ignored", env: { TF_VAR_a: "1", HOME: "/root", tf_var_b: "x" }, want: { a: "string:env" } },
    { name: "env entries form", env: [["TF_VAR_a", "x=y"]], want: { a: "string:env" } },
    {
      name: "automatic files from another directory",
      dir: "cfg",
      files: { "cfg/terraform.tfvars": "a = 1\n", "cfg/z.auto.tfvars": "b = 2\n", "terraform.tfvars": "c = 3\n" },
      want: { a: "expression:auto-file", b: "expression:auto-file" },
    },
    {
      name: "unreadable file",
      files: { "x.tfvars": null },
      args: [["-var-file", "x.tfvars"]],
      want: {},
      diags: ["error: Failed to read variables file: Error while reading x.tfvars: read x.tfvars: is a directory."],
    },
    { name: "-var-file .json by extension", files: { "v.json": '{"a": 1}' }, args: [["-var-file", "v.json"]], want: { a: "expression:named-file" } },
    { name: "-var-file .tfvars never sniffed", files: { "v.tfvars": '{"a": 1}' }, args: [["-var-file", "v.tfvars"]], want: {}, diags: ["error: Argument or block definition required: An argument or block definition is required here."] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = collectVariableValues({ env: c.env, args: (c.args ?? []).map(([flag, value]) => ({ flag, value })), fs: memoryFS(c.files ?? {}), dir: c.dir });
      const got: Record<string, string> = {};
      for (const [k, v] of r.values) got[k] = `${v.kind}:${v.source}`;
      expect(got).toEqual(c.want);
      expect(brief(r.diagnostics)).toEqual(c.diags ?? []);
    });
  }

  it("keeps each file's text for snippets", () => {
    const r = collectVariableValues({ fs: memoryFS({ "terraform.tfvars": "a = 1\n" }) });
    expect([...r.sources]).toEqual([["terraform.tfvars", "a = 1\n"]]);
  });
});

describe("parseRawValue", () => {
  const cases: Array<{ mode: "literal" | "hcl"; raw: string; want: unknown; diags?: string[] }> = [
    { mode: "literal", raw: "[1]", want: "[1]" },
    { mode: "hcl", raw: "42", want: 42 },
    { mode: "hcl", raw: '"a${"b"}"', want: "ab" },
    { mode: "hcl", raw: "1 +", want: "unknown", diags: ["error: Missing expression: Expected the start of an expression, but found the end of the file."] },
  ];
  for (const c of cases) {
    it(`${c.mode} ${c.raw}`, () => {
      const r = parseRawValue(c.mode, "x", c.raw);
      expect(str(r.value)).toEqual(c.want);
      expect(brief(r.diagnostics)).toEqual(c.diags ?? []);
    });
  }

  it("names the fake file after the variable", () => {
    const r = parseRawValue("hcl", "thing", "{");
    expect(r.diagnostics[0]?.subject?.filename).toBe("<value for var.thing>");
  });

  it("parsing modes follow OpenTofu", () => {
    expect([parsingModeFor(undefined), parsingModeFor(StringType), parsingModeFor(NumberType), parsingModeFor(DynamicPseudoType)]).toEqual(["literal", "literal", "literal", "hcl"]);
  });
});

describe("prompting", () => {
  const src = 'variable "b" {\n  description = "The B."\n}\nvariable "a" {}\nvariable "c" {\n  default = 1\n}\nvariable "n" {\n  type = number\n}\n';

  it("asks for missing required variables in lexical order, with descriptions", async () => {
    const asked: VariablePromptRequest[] = [];
    const answers: Record<string, string | undefined> = { "var.a": "A", "var.b": "B", "var.n": "7" };
    const r = await buildInputVariables({
      declarations: decls(src),
      fs: memoryFS({}),
      prompter: {
        input: async (req) => {
          asked.push(req);
          return answers[req.id];
        },
      },
    });
    expect(asked).toEqual([
      { id: "var.a", query: "var.a", description: "" },
      { id: "var.b", query: "var.b", description: "The B." },
      { id: "var.n", query: "var.n", description: "" },
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(Object.fromEntries([...r.values].map(([k, v]) => [k, str(v)]))).toEqual({ a: "A", b: "B", c: 1, n: 7 });
  });

  it("does not ask for variables another source set", async () => {
    const asked: string[] = [];
    await buildInputVariables({
      declarations: decls(src),
      env: { TF_VAR_a: "x", TF_VAR_b: "y" },
      fs: memoryFS({ "terraform.tfvars": "n = 1\n" }),
      prompter: { input: async (req) => (asked.push(req.id), "z") },
    });
    expect(asked).toEqual([]);
  });

  it("a failed or cancelled prompt leaves the variable unset", async () => {
    const r = await buildInputVariables({
      declarations: decls('variable "a" {}\nvariable "b" {}\n'),
      fs: memoryFS({}),
      prompter: {
        input: async (req) => {
          if (req.id === "var.a") throw new Error("no tty");
          return undefined;
        },
      },
    });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["No value for required variable", "No value for required variable"]);
  });

  it("an answer is parsed like -var and reported as set at a prompt", async () => {
    const r = await buildInputVariables({ declarations: decls(src), env: { TF_VAR_a: "x", TF_VAR_b: "y" }, fs: memoryFS({}), prompter: { input: async () => "many" } });
    expect(brief(r.diagnostics)).toEqual(["error: Invalid value for input variable: Unsuitable value for var.n set using an interactive prompt: a number is required."]);
  });

  it("keeps existing values and adds only answers", async () => {
    const existing = new Map<string, UnparsedVariableValue>([["a", { kind: "string", name: "a", raw: "x", source: "env" }]]);
    const out = await interactiveCollectVariables(existing, decls(src), { input: async () => "p" });
    expect([...out.keys()]).toEqual(["a", "b", "n"]);
    expect(existing.size).toBe(1);
  });
});

describe("values from callers", () => {
  const d = decls('variable "n" {\n  type = number\n}\nvariable "s" {\n  type = string\n  default = "d"\n}\n');

  it("overrides win over every other source", async () => {
    const r = await buildInputVariables({
      declarations: d,
      args: [{ flag: "-var", value: "n=1" }],
      fs: memoryFS({}),
      overrides: new Map([["n", { kind: "value", value: numberIntVal(9), source: "caller" }]]),
    });
    expect(str(r.values.get("n"))).toBe(9);
  });

  it("describes a value without a range as set from outside of the configuration", async () => {
    const r = await buildInputVariables({ declarations: d, fs: memoryFS({}), overrides: new Map([["n", { kind: "value", value: stringVal("x"), source: "caller" }]]) });
    expect(brief(r.diagnostics)).toEqual(["error: Invalid value for input variable: Unsuitable value for var.n set from outside of the configuration: a number is required."]);
  });

  it("an undeclared caller value is an error", () => {
    const r = parseVariableValues(new Map([["zz", { kind: "value", value: stringVal("x"), source: "caller" }]]), d);
    expect(brief(r.diagnostics)[0]).toBe(
      'error: Value for undeclared variable: A variable named "zz" was assigned a value, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.',
    );
  });

  it("an unknown value stays unknown and its validations are skipped", () => {
    const dv = decls('variable "n" {\n  type = number\n  validation {\n    condition     = var.n > 3\n    error_message = "Small: ${var.n}."\n  }\n}\n');
    const r = finalizeInputVariables(dv, new Map([["n", { value: unknownVal(DynamicPseudoType), sourceType: "caller" as const }]]), { functions });
    expect(r.diagnostics).toEqual([]);
    expect(r.values.get("n")).toMatchObject({ kind: "unknown", type: NumberType });
    expect(r.checks.get("n")?.map((c) => c.status)).toEqual(["unknown"]);
  });
});

describe("finalisation", () => {
  it("marks sensitive and ephemeral variables", async () => {
    const r = await buildInputVariables({
      declarations: decls('variable "s" {\n  sensitive = true\n}\nvariable "e" {\n  ephemeral = true\n}\nvariable "p" {}\n'),
      env: { TF_VAR_s: "1", TF_VAR_e: "2", TF_VAR_p: "3" },
      fs: memoryFS({}),
    });
    const marks = (n: string) => {
      const v = r.values.get(n) as Value;
      return [hasMark(v, SENSITIVE), hasMark(v, EPHEMERAL)];
    };
    expect([marks("s"), marks("e"), marks("p")]).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
  });

  it("reports a default that does not fit the type (normally the decoder's job)", () => {
    const [decl] = decls('variable "n" {\n  type = number\n}\n').values();
    const bad: InputVariableDeclaration = { ...(decl as InputVariableDeclaration), default: stringVal("x") };
    const r = prepareFinalInputVariableValue({ value: undefined, sourceType: "config" }, bad);
    expect(brief(r.diagnostics)).toEqual([
      'error: Invalid default value for module argument: The default value for variable "n" is incompatible with its type constraint: a number is required.',
    ]);
    expect(r.failed).toBe(true);
  });

  it("a required variable given nothing (child-module wording)", () => {
    const [decl] = decls('variable "n" {}\n').values();
    const r = prepareFinalInputVariableValue({ value: undefined, sourceType: "config" }, decl as InputVariableDeclaration);
    expect(brief(r.diagnostics)).toEqual(['error: Required variable not set: The variable "n" is required, but is not set.']);
  });

  it("tells the variables given no value from those whose value failed, by name", () => {
    const dv = decls('variable "req" {}\nvariable "n" {\n  type = number\n}\nvariable "ok" {\n  default = 1\n}\n');
    const r = finalizeInputVariables(dv, new Map([["n", { value: stringVal("abc"), sourceType: "caller" as const }]]), { functions });
    expect([...r.unset]).toEqual(["req"]);
    expect([...r.byName.keys()]).toEqual(["req", "n"]);
    expect(r.byName.get("n")?.map((d) => d.summary)).toEqual(["Invalid value for input variable"]);
  });

  it("stops before finalising when parsing failed, but still returns undeclared values", async () => {
    const r = await buildInputVariables({
      declarations: decls('variable "n" {}\n'),
      fs: memoryFS({ "terraform.tfvars": "other = 1\n" }),
    });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Value for undeclared variable", "No value for required variable"]);
    expect([...r.undeclared.keys()]).toEqual(["other"]);
    expect(r.values.size).toBe(0);
  });
});

describe("validation rules", () => {
  function jsonExpr(src: string): JSONExpression {
    const r = parseJSONExpression(src, "main.tf.json");
    return { kind: "JSONExpr", value: r.result, range: r.result.range };
  }

  const cases: Array<{ name: string; src: string; value: string; statuses: string[]; diags: string[] }> = [
    { name: "passes", src: 'condition = var.v != "bad"\nerror_message = "Bad."', value: "good", statuses: ["pass"], diags: [] },
    {
      name: "trims the message",
      src: 'condition = var.v != "bad"\nerror_message = "  Bad.\\n"',
      value: "bad",
      statuses: ["fail"],
      diags: ["error: Invalid value for variable: Bad.\n\nThis was checked by the validation rule at main.tf:3,3-13."],
    },
    {
      name: "an error in the condition",
      src: 'condition = var.v.nope\nerror_message = "Bad."',
      value: "bad",
      statuses: ["unknown"],
      diags: ["error: Unsupported attribute: Can't access attributes on a primitive-typed value (string)."],
    },
    {
      name: "functions are available",
      src: 'condition = can(regex("^[a-z]+$", var.v))\nerror_message = "Lowercase only, not ${upper(var.v)}."',
      value: "A1",
      statuses: ["fail"],
      diags: ["error: Invalid value for variable: Lowercase only, not A1.\n\nThis was checked by the validation rule at main.tf:3,3-13."],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = decls(`variable "v" {\n  type = string\n  validation {\n    ${c.src.replace("\n", "\n    ")}\n  }\n}\n`);
      const r = finalizeInputVariables(d, new Map([["v", { value: stringVal(c.value), sourceType: "cli-arg" as const }]]), { functions });
      expect(r.checks.get("v")?.map((s) => s.status)).toEqual(c.statuses);
      expect(brief(r.diagnostics)).toEqual(c.diags);
    });
  }

  it("an unknown error message for a failed rule", () => {
    const d = decls('variable "v" {\n  validation {\n    condition     = var.v != "bad"\n    error_message = var.other\n  }\n}\nvariable "other" {}\n');
    const inputs = new Map([
      ["v", { value: stringVal("bad"), sourceType: "cli-arg" as const }],
      ["other", { value: unknownVal(StringType), sourceType: "caller" as const }],
    ]);
    const r = finalizeInputVariables(d, inputs, { functions });
    expect(brief(r.diagnostics)).toEqual(["error: Invalid error message: Value used in error message is not known and can not be used in error_message until after apply."]);
  });

  it("an ephemeral value in the message is not shown", () => {
    const d = decls('variable "v" {\n  ephemeral = true\n  validation {\n    condition     = var.v != "bad"\n    error_message = "Got ${var.v}."\n  }\n}\n');
    const r = finalizeInputVariables(d, new Map([["v", { value: stringVal("bad"), sourceType: "cli-arg" as const }]]), { functions });
    expect(r.diagnostics.map((x) => x.summary)).toEqual(["Error message refers to ephemeral values", "Invalid value for variable"]);
    expect(r.diagnostics[1]?.detail).toMatch(/^The error message included an ephemeral value, so it will not be displayed\./);
  });

  it("a JSON-syntax message that fails as a template is taken literally, with a warning", () => {
    const [base] = decls('variable "v" {}\n').values();
    const decl: InputVariableDeclaration = {
      ...(base as InputVariableDeclaration),
      validations: [
        {
          condition: jsonExpr('"${var.v != \\"bad\\"}"'),
          errorMessage: jsonExpr('"Use ${nope} here."'),
          declRange: (base as InputVariableDeclaration).declRange,
        },
      ],
    };
    const r = finalizeInputVariables([decl], new Map([["v", { value: stringVal("bad"), sourceType: "cli-arg" as const }]]), { functions });
    expect(r.diagnostics.map((x) => `${x.severity}: ${x.summary}`)).toEqual(["warning: Validation error message expression is invalid", "error: Invalid value for variable"]);
    expect(r.diagnostics[0]?.detail).toContain('main.tf.json:1,8-12: Unknown variable; There is no variable named "nope".');
    expect(r.diagnostics[1]?.detail).toMatch(/^Use \$\{nope\} here\./);
  });

  it("rules may refer to other variables' final values", () => {
    const d = decls(
      'variable "min" {\n  type = number\n  default = "5"\n}\nvariable "v" {\n  type = number\n  validation {\n    condition     = var.v >= var.min\n    error_message = "At least ${var.min}."\n  }\n}\n',
    );
    const r = finalizeInputVariables(d, new Map([["v", { value: numberIntVal(2), sourceType: "cli-arg" as const }]]), { functions });
    expect(brief(r.diagnostics)).toEqual(["error: Invalid value for variable: At least 5.\n\nThis was checked by the validation rule at main.tf:7,3-13."]);
  });

  it("no rules run for a variable whose value failed", () => {
    const d = decls('variable "v" {\n  type = number\n  validation {\n    condition     = var.v > 1\n    error_message = "x"\n  }\n}\n');
    const r = finalizeInputVariables(d, new Map([["v", { value: stringVal("x"), sourceType: "cli-arg" as const }]]), { functions });
    expect(r.diagnostics.map((x) => x.summary)).toEqual(["Invalid value for input variable"]);
    expect(r.checks.has("v")).toBe(false);
  });
});
