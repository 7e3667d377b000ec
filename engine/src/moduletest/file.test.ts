import { describe, expect, it } from "vitest";
import { configBodyJustAttributes, exprVariables } from "../configs/index.js";
import type { AnyExpression, Diagnostic, Traverser } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import { objectVal, stringVal, type Value } from "../values/index.js";
import { decodeTestFile, type TestFile } from "./file.js";

// Every part of the test file schema, in the native syntax and in HCL's JSON syntax.
const NATIVE = `
variables {
  name = "file"
  size = 3
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

mock_provider "aws" {
  alias = "fake"

  mock_resource "aws_s3_bucket" {
    defaults = {
      arn = "arn:fake"
    }
  }

  mock_data "aws_region" {
    defaults = {
      name = "fake-1"
    }
  }

  override_resource {
    target = aws_s3_bucket.logs
    values = {
      id = "logs"
    }
  }
}

override_resource {
  target = aws_s3_bucket.main
  values = {
    bucket = "main"
  }
}

override_data {
  target = module.net.data.aws_region.current
  values = {
    name = "overridden-1"
  }
}

override_module {
  target = module.net
  outputs = {
    vpc_id = "vpc-1"
  }
}

run "setup" {
  command = plan

  module {
    source = "./setup"
  }
}

run "main" {
  variables {
    name  = "run-\${run.setup.id}"
    items = ["a", "b"]
  }

  providers = {
    aws       = aws.fake
    aws.other = aws.west
  }

  plan_options {
    mode    = refresh-only
    replace = [aws_s3_bucket.main]
    target  = [aws_s3_bucket.main, module.net]
  }

  override_module {
    target = module.net
    outputs = {
      vpc_id = "vpc-2"
    }
  }

  assert {
    condition     = aws_s3_bucket.main.bucket == var.name
    error_message = "bucket is \${aws_s3_bucket.main.bucket}"
  }

  assert {
    condition     = length(output.ids) == 2
    error_message = "two ids"
  }

  expect_failures = [var.size, aws_s3_bucket.main, check.health]
}
`;

const JSON_SYNTAX = JSON.stringify(
  {
    variables: { name: "file", size: 3 },
    provider: { aws: { alias: "west", region: "us-west-2" } },
    mock_provider: {
      aws: {
        alias: "fake",
        mock_resource: { aws_s3_bucket: { defaults: { arn: "arn:fake" } } },
        mock_data: { aws_region: { defaults: { name: "fake-1" } } },
        override_resource: { target: "aws_s3_bucket.logs", values: { id: "logs" } },
      },
    },
    override_resource: { target: "aws_s3_bucket.main", values: { bucket: "main" } },
    override_data: [{ target: "module.net.data.aws_region.current", values: { name: "overridden-1" } }],
    override_module: { target: "module.net", outputs: { vpc_id: "vpc-1" } },
    run: {
      setup: { command: "plan", module: { source: "./setup" } },
      main: {
        variables: { name: "run-${run.setup.id}", items: ["a", "b"] },
        providers: { aws: "aws.fake", "aws.other": "aws.west" },
        plan_options: { mode: "refresh-only", replace: ["aws_s3_bucket.main"], target: ["aws_s3_bucket.main", "module.net"] },
        override_module: { target: "module.net", outputs: { vpc_id: "vpc-2" } },
        assert: [
          { condition: "${aws_s3_bucket.main.bucket == var.name}", error_message: "bucket is ${aws_s3_bucket.main.bucket}" },
          { condition: "${length(output.ids) == 2}", error_message: "two ids" },
        ],
        expect_failures: ["var.size", "aws_s3_bucket.main", "check.health"],
      },
    },
  },
  null,
  2,
);

function traversalText(t: readonly Traverser[]): string {
  return t.map((s) => (s.kind === "Root" ? s.name : s.kind === "Attr" ? `.${s.name}` : s.kind === "Index" ? `[${s.key.type === "number" ? s.key.text : JSON.stringify(s.key.type === "string" ? s.key.value : null)}]` : "[*]")).join("");
}

/** A value shown as JSON-ish text, so the two syntaxes' results compare as plain data. */
function show(v: Value): unknown {
  switch (v.kind) {
    case "string":
    case "bool":
      return v.value;
    case "number":
      return v.value.toString();
    case "object":
    case "map":
      return Object.fromEntries([...v.attrs].map(([k, x]) => [k, show(x)]));
    case "tuple":
    case "list":
      return v.elements.map(show);
    default:
      return v.kind;
  }
}

function evaluated(e: AnyExpression | undefined): unknown {
  if (!e) return undefined;
  const ctx = new EvalContext(
    new Map([
      ["run", objectVal({ setup: objectVal({ id: stringVal("s1") }) })],
      ["aws_s3_bucket", objectVal({ main: objectVal({ bucket: stringVal("b") }) })],
    ]),
    undefined,
  );
  const r = evaluateAny(e, ctx);
  return r.diagnostics.length > 0 ? r.diagnostics.map((d) => d.summary) : show(r.value);
}

/** What decoding kept of a test file, without source ranges. */
function summary(f: TestFile): unknown {
  const values = (m: ReadonlyMap<string, Value>) => Object.fromEntries([...m].map(([k, v]) => [k, show(v)]));
  const exprs = (m: ReadonlyMap<string, AnyExpression>) => Object.fromEntries([...m].map(([k, e]) => [k, evaluated(e)]));
  return {
    variables: exprs(f.variables),
    providers: [...f.providers].map(([k, p]) => ({
      k,
      alias: p.alias,
      config: Object.fromEntries([...configBodyJustAttributes(p.config).attributes].map(([n, a]) => [n, evaluated(a.expr)])),
      mock: p.mock && {
        resources: p.mock.mockResources.map((m) => ({ mode: m.mode, type: m.type, defaults: values(m.defaults) })),
        overrides: p.mock.overrideResources.map((o) => ({ mode: o.mode, target: o.target.toString(), values: values(o.values) })),
      },
    })),
    overrideResources: f.overrideResources.map((o) => ({ mode: o.mode, target: o.target.toString(), values: values(o.values) })),
    overrideModules: f.overrideModules.map((o) => ({ target: o.target.toString(), outputs: values(o.outputs) })),
    runs: f.runs.map((r) => ({
      name: r.name,
      command: r.command,
      options: { mode: r.options.mode, refresh: r.options.refresh, replace: r.options.replace.map(traversalText), target: r.options.target.map(traversalText) },
      variables: exprs(r.variables),
      providers: r.providers?.map((p) => `${p.inChild.name}.${p.inChild.alias} = ${p.inParent.name}.${p.inParent.alias}`),
      assertions: r.assertions.map((a) => ({ refers: a.condition ? exprVariables(a.condition).map(traversalText) : [], message: evaluated(a.errorMessage) })),
      expectFailures: r.expectFailures.map(traversalText),
      module: r.module?.sourceRaw,
      overrideModules: r.overrideModules.map((o) => ({ target: o.target.toString(), outputs: values(o.outputs) })),
    })),
  };
}

function located(diags: readonly Diagnostic[]): string[] {
  return diags.map((d) => `${d.severity}: ${d.summary} @ ${d.subject ? `${d.subject.filename}:${d.subject.start.line},${d.subject.start.column}-${d.subject.end.line},${d.subject.end.column}` : "-"}`);
}

describe("test files in HCL's JSON syntax", () => {
  it("decode to what the same file in the native syntax decodes to", () => {
    const native = decodeTestFile("main.tftest.hcl", NATIVE);
    const json = decodeTestFile("main.tftest.json", JSON_SYNTAX);
    expect(native.diagnostics).toEqual([]);
    expect(json.diagnostics).toEqual([]);
    expect(summary(json.file)).toEqual(summary(native.file));
    // Spot checks that the summary saw what it compares.
    const run = json.file.runs[1];
    expect(run?.expectFailures.map(traversalText)).toEqual(["var.size", "aws_s3_bucket.main", "check.health"]);
    expect(evaluated(run?.variables.get("name"))).toBe("run-s1");
    expect(run?.options.mode).toBe("refresh-only");
  });

  it("are read as JSON by their name, .tofutest.json too", () => {
    const r = decodeTestFile("tests/x.tofutest.json", '{"run": {"a": {"command": "plan"}}}');
    expect(r.diagnostics).toEqual([]);
    expect(r.file.runs.map((x) => [x.name, x.command])).toEqual([["a", "plan"]]);
    expect(located(decodeTestFile("x.tftest.hcl", '{"run": {}}').diagnostics)[0]).toMatch(/^error: .* @ x\.tftest\.hcl:1,/);
  });

  it("report a syntax error at its line and column", () => {
    const r = decodeTestFile("main.tftest.json", '{\n  "run": {\n    "a": {\n      "command": "plan"\n      "assert": []\n    }\n  }\n}\n');
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([["Missing attribute seperator comma", "A comma must appear between each property definition in an object."]]);
    expect(located(r.diagnostics)).toEqual(["error: Missing attribute seperator comma @ main.tftest.json:7,3-7,4"]);
  });

  it("read strings as templates: a condition that is a plain string refers to nothing and is refused", () => {
    const r = decodeTestFile("z.tftest.json", '{"run": {"last": {"assert": [{"condition": "output.greeting == \\"x\\"", "error_message": "m"}]}}}');
    expect(located(r.diagnostics)).toEqual(["error: Invalid assert expression @ z.tftest.json:1,44-1,70"]);
    expect(r.file.runs).toEqual([]);
  });

  it("read expect_failures, replace and target entries as traversal strings, refusing what is not one as terraform does", () => {
    const r = decodeTestFile(
      "main.tftest.json",
      '{"run": {"a": {"expect_failures": ["var.size +", "var.ok", 3], "plan_options": {"replace": ["aws_s3_bucket.main[\\"k\\"]"], "target": "aws_s3_bucket.main"}}}}',
    );
    const notTraversal =
      "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";
    // plan_options (a block) is decoded before the run's attributes, as in the native syntax.
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      ["Invalid expression", "A static list expression is required."],
      ["Invalid expression", notTraversal],
      ["Invalid expression", notTraversal],
    ]);
    expect(located(r.diagnostics).map((l) => l.split(" @ ")[1])).toEqual(["main.tftest.json:1,133-1,153", "main.tftest.json:1,36-1,48", "main.tftest.json:1,60-1,61"]);
  });

  it("refuse a keyword that is not one, and an instance key in a run's providers", () => {
    const r = decodeTestFile("main.tftest.json", '{"run": {"a": {"command": "apply2"}, "b": {"providers": {"aws": "aws.multi[\\"a\\"]"}}, "c": {"plan_options": {"mode": "refresh"}}}}');
    expect(r.diagnostics.map((d) => d.summary)).toEqual(['Invalid "command" keyword', "Provider instance key not allowed in run block", 'Invalid "mode" keyword']);
    expect(r.diagnostics[1]?.detail).toContain('aws.multi["a"] names one instance of aws.multi');
  });
});
