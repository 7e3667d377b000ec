// Which provider-defined functions a module calls: every file, native and JSON syntax, nested
// blocks and templates included, and nothing for files that never mention "provider::".
import { describe, expect, it } from "vitest";
import { MemoryFS } from "./fs.js";
import { Parser } from "./parser.js";

function calls(files: Record<string, string>): string[] {
  const { module } = new Parser(new MemoryFS(files)).loadConfigDir("mod");
  return (module?.providerFunctionCalls ?? []).map((c) => `${c.name} ${c.range.filename}:${c.range.start.line}`);
}

describe("providerFunctionCalls", () => {
  it("finds calls in attributes, nested blocks, templates and JSON files", () => {
    expect(
      calls({
        "mod/main.tf": `locals {
  a = provider::aws::arn_parse(var.x).region
}
resource "x" "y" {
  dynamic "tag" {
    for_each = []
    content {
      v = "\${provider::aws::west::trim(" a ")}"
    }
  }
}
`,
        "mod/extra.tf.json": JSON.stringify({ output: { o: { value: "${provider::local::f(1)}" } } }),
        "mod/plain.tf": `locals {\n  b = upper("x")\n}\n`,
      }),
    ).toEqual(["provider::local::f mod/extra.tf.json:1", "provider::aws::arn_parse mod/main.tf:2", "provider::aws::west::trim mod/main.tf:8"]);
  });

  it("is empty for a module without such calls", () => {
    expect(calls({ "mod/main.tf": `locals {\n  a = "provider" # provider: not a call\n}\n` })).toEqual([]);
  });
});
