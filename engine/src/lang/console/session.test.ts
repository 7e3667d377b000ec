import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConsoleInput, createConsoleSession, typeString } from "./index.js";
import { SENSITIVE, mark, numberIntVal, objectVal, stringVal, unknownVal, listOf, StringType } from "../../values/index.js";
import type { FunctionContext } from "../functions/index.js";

const files = new Map<string, string>([["/m/greet.tmpl", "Hello, ${name}!"], ["/m/loop.tmpl", '${templatefile("loop.tmpl", {})}']]);
export const memoryContext: FunctionContext = {
  baseDir: "/m",
  fs: {
    readFile: (p) => (files.has(p) ? new TextEncoder().encode(files.get(p)) : undefined),
    isFile: (p) => files.has(p),
    isDirectory: () => false,
    readDir: () => [],
    abs: (p) => p,
    home: () => "/home/u",
  },
  now: () => new Date("2024-01-02T03:04:05Z"),
  randomBytes: (n) => new Uint8Array(n),
};

const answers = JSON.parse(readFileSync(new URL("./testdata/expressions.terraform.json", import.meta.url), "utf8")) as Record<
  string,
  { ok: true; output: string } | { ok: false; summary: string; detail: string }
>;

/** Where OpenTofu (our reference) answers differently from the recorded terraform 1.11 answer. */
const OPENTOFU_DIFFERS: Record<string, string> = {
  "core::nope(1)": "OpenTofu: 'There is no builtin (core::) function named ...'",
  "provider::foo::bar(1)": "OpenTofu: 'Unknown function provider' (enhanceFunctionDiags)",
  "foo::bar(1)": "OpenTofu: 'Invalid function format'",
  "terraform.x": "terraform.applying is Terraform-only",
  'templatestring("hi", {})': "Terraform's templatestring only takes references; OpenTofu's takes any string",
  'templatestring("$${x}", {x = 1})': "same",
  'templatestring("$${y}", {x = 1})': "same",
  'templatestring("$${x}", 1)': "same",
  'templatestring("$${", {})': "same",
};

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

describe("console session against recorded terraform console answers", () => {
  const s = createConsoleSession({ functionContext: memoryContext });
  for (const [expr, want] of Object.entries(answers)) {
    if (OPENTOFU_DIFFERS[expr]) continue;
    it(expr, () => {
      const got = s.evaluate(expr);
      if (want.ok) expect(got).toEqual(want);
      else {
        expect(got.ok).toBe(false);
        if (got.ok) return;
        expect(got.summary).toBe(want.summary);
        // The recorded detail may run on into a second diagnostic; ours is the first one's.
        expect(norm(want.detail).startsWith(norm(got.detail))).toBe(true);
      }
    });
  }
});

describe("console session", () => {
  const s = createConsoleSession({
    functionContext: memoryContext,
    variables: { name: stringVal("x"), secret: mark(stringVal("pw"), SENSITIVE), later: unknownVal(listOf(StringType)) },
    locals: { n: numberIntVal(3), o: objectVal({ a: stringVal("b") }) },
    paths: { module: "mod", root: ".", cwd: "/work" },
    workspace: "staging",
  });

  it("reads var, local, path and terraform.workspace", () => {
    expect(s.evaluate("var.name")).toEqual({ ok: true, output: '"x"' });
    expect(s.evaluate("local.n + 1")).toEqual({ ok: true, output: "4" });
    expect(s.evaluate("path.module")).toEqual({ ok: true, output: '"mod"' });
    expect(s.evaluate("terraform.workspace")).toEqual({ ok: true, output: '"staging"' });
  });

  it("prints sensitive and unknown values as tofu does", () => {
    expect(s.evaluate("var.secret")).toEqual({ ok: true, output: "(sensitive value)" });
    expect(s.evaluate("upper(var.secret)")).toEqual({ ok: true, output: "(sensitive value)" });
    expect(s.evaluate("nonsensitive(var.secret)")).toEqual({ ok: true, output: '"pw"' });
    expect(s.evaluate("var.later")).toEqual({ ok: true, output: "(known after apply)" });
    expect(s.evaluate('"a-${var.later[0]}"')).toEqual({ ok: true, output: "(known after apply)" });
  });

  it("suggests declared names", () => {
    expect(s.evaluate("var.nmae")).toEqual({
      ok: false,
      summary: "Reference to undeclared input variable",
      detail: 'An input variable with the name "nmae" has not been declared. Did you mean "name"?',
    });
    expect(s.evaluate("local.m")).toMatchObject({ ok: false, detail: 'A local value with the name "m" has not been declared. Did you mean "n"?' });
  });

  it("handles empty lines, help and exit like repl.Session", () => {
    const full = createConsoleSession({ functionContext: memoryContext });
    expect(full.handle("   ").answer).toEqual({ ok: true, output: "" });
    expect(full.handle("help").answer).toMatchObject({ ok: true });
    expect(full.handle(" exit ").exit).toBe(true);
  });

  it("renders templates from files with templatefile, and stops runaway recursion", () => {
    expect(s.evaluate('templatefile("greet.tmpl", {name = "you"})')).toEqual({ ok: true, output: '"Hello, you!"' });
    expect(s.evaluate('templatefile("greet.tmpl", {})')).toEqual({
      ok: false,
      summary: "Invalid function argument",
      detail: 'Invalid value for "vars" parameter: vars map does not contain key "name", referenced at greet.tmpl:1,10-14.',
    });
    expect(s.evaluate('templatefile("none.tmpl", {})')).toMatchObject({
      ok: false,
      summary: "Invalid function argument",
      detail: expect.stringContaining('Invalid value for "path" parameter: no file exists at \"/m/none.tmpl\";'),
    });
    const r = s.evaluate('templatefile("loop.tmpl", {})');
    expect(r).toMatchObject({ ok: false, summary: "Error in function call" });
    if (!r.ok) expect(r.detail).toMatch(/^Call to function "templatefile" failed: maximum recursion depth 1024 reached in loop\.tmpl:1,3-16, loop\.tmpl:1,3-16 \.\.\. \.$/);
  });

  it("renders templatestring with OpenTofu's semantics", () => {
    expect(s.evaluate('templatestring(local.o.a, {})')).toEqual({ ok: true, output: '"b"' });
    expect(s.evaluate('templatestring("$${a}-$${b}", {a = 1, b = true})')).toEqual({ ok: true, output: '"1-true"' });
    expect(s.evaluate('templatestring("$${x}", {x = [1]})')).toEqual({ ok: true, output: "[\n  1,\n]" });
    expect(s.evaluate('templatestring("$${y}", {x = 1})')).toEqual({
      ok: false,
      summary: "Invalid function argument",
      detail: 'Invalid value for "vars" parameter: vars map does not contain key "y".',
    });
  });

  it("prints type() results and rejects them inside expressions", () => {
    expect(s.evaluate("type(var.later)")).toEqual({ ok: true, output: "list(string)" });
    expect(s.evaluate("type([{a = 1}])")).toEqual({ ok: true, output: "tuple([\n    object({\n        a: number,\n    }),\n])" });
    expect(typeString(listOf(objectVal({ a: stringVal("") }).type))).toBe("list(\n    object({\n        a: string,\n    }),\n)");
    expect(s.evaluate('type(1) == "number"')).toMatchObject({ ok: false, summary: "Invalid use of type function" });
  });

  it("treats unknown inputs to try and can as undecided", () => {
    expect(s.evaluate("can(var.later[0])")).toEqual({ ok: true, output: "(known after apply)" });
    expect(s.evaluate("try(var.later, [])")).toEqual({ ok: true, output: "(known after apply)" });
    expect(s.evaluate('try(local.o.z, "fallback")')).toEqual({ ok: true, output: '"fallback"' });
    const r = s.evaluate("try(local.o.z, local.o.y)");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.detail).toBe(
        'Call to function "try" failed: no expression succeeded:\n- Unsupported attribute (at <console-input>:1,12-14)\n  This object does not have an attribute named "z".\n- Unsupported attribute (at <console-input>:1,23-25)\n  This object does not have an attribute named "y".\n\nAt least one expression must produce a successful result.',
      );
    }
  });
});

describe("multi-line console input", () => {
  it("collects lines while brackets are open or a line ends in a backslash", () => {
    const inp = new ConsoleInput();
    expect(inp.update("[")).toEqual({ command: "[", open: 1 });
    expect(inp.update("1,")).toEqual({ command: "[\n1,", open: 1 });
    expect(inp.update("{a = 2}]")).toEqual({ command: "[\n1,\n{a = 2}]", open: 0 });
    expect(inp.update("1 + \\")).toEqual({ command: "1 + ", open: 1 });
    expect(inp.update("2")).toEqual({ command: "1 + \n2", open: 0 });
    expect(inp.update("())").open).toBe(-1);
  });
});
