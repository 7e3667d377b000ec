import { describe, expect, it } from "vitest";
import { dumpBody, dumpExpression } from "./astdump.js";
import { parseConfig, parseExpression, parseTemplate } from "./parse.js";
import type { Range } from "./pos.js";

const rng = (r: Range | undefined) => (r ? `${r.start.line}:${r.start.column}(${r.start.byte})-${r.end.line}:${r.end.column}(${r.end.byte})` : "-");

describe("templates", () => {
  const cases: Array<[string, string]> = [
    ['"a ${~ b} c"', '(template "a" b " c")'],
    ['"a ${b ~} c"', '(template "a " b "c")'],
    ['"a %{~ if x } b %{~ endif ~} c"', '(template "a" (? x (template " b") (template "")) "c")'],
    ['"%{ for k, v in m }${k}=${v};%{ endfor }"', '(template (join (for k,v m (template k "=" v ";"))))'],
    ['"%{ for x in xs }%{ if x }y%{ endif }%{ endfor }"', '(template (join (for x xs (template (? x (template "y") (template ""))))))'],
    ['"${"${"a"}"}"', '(wrap (wrap (template "a")))'],
    ['"${ {a = 1}.a }"', "(wrap {a=1}.a)"],
    ['"100%"', '(template "100%")'],
    ['"$$"', '(template "$$")'],
  ];
  it.each(cases)("%s", (src, want) => {
    const r = parseExpression(src, "t.tf");
    expect(r.diagnostics).toEqual([]);
    expect(dumpExpression(r.result)).toBe(want);
  });

  it("parses bare templates (template files)", () => {
    const r = parseTemplate("Hello ${name}!\n%{ for x in xs }- ${x}\n%{ endfor }", "t.tftpl");
    expect(r.diagnostics).toEqual([]);
    expect(dumpExpression(r.result)).toBe('(template "Hello " name "!\\n" (join (for x xs (template "- " x "\\n"))))');
  });

  it("trims <<- heredocs by the smallest indentation, ignoring blank lines and interpolated text", () => {
    const r = parseConfig("a = <<-EOT\n    one\n\n      two ${x}\n    three\n    EOT\n", "t.tf");
    expect(r.diagnostics).toEqual([]);
    expect(dumpBody(r.result.body)).toBe('a = (template "one\\n\\n  two " x "\\nthree\\n")');
    const lit = r.result.body.attributes[0]?.expr;
    if (lit?.kind !== "Template") throw new Error("want a template");
    // The first literal starts after the four trimmed spaces.
    expect(rng(lit.parts[0]?.range)).toBe("2:5(15)-4:11(30)");
  });

  it("keeps heredoc indentation for <<EOT and accepts an indented closing marker", () => {
    const r = parseConfig("a = <<EOT\n  x\n  EOT\nb = 1\n", "t.tf");
    expect(r.diagnostics).toEqual([]);
    expect(dumpBody(r.result.body)).toBe('a = (template "  x\\n")\nb = 1');
  });

  it("does not end a heredoc on a line that only contains the marker as part of the text", () => {
    const r = parseConfig("a = <<EOT\nNOT EOT\nEOT\n", "t.tf");
    expect(dumpBody(r.result.body)).toBe('a = (template "NOT EOT\\n")');
  });

  it("NFC-normalises identifiers and strings", () => {
    const r = parseConfig('cafe\u0301 = "n\u0303"\n', "t.tf");
    expect(r.diagnostics).toEqual([]);
    expect(r.result.body.attributes[0]?.name).toBe("caf\u00e9");
    expect(dumpBody(r.result.body)).toBe('caf\u00e9 = (template "\u00f1")');
    // Columns count characters: the combining accent does not take a column.
    expect(rng(r.result.body.attributes[0]?.nameRange)).toBe("1:1(0)-1:5(6)");
  });

  it("reports unbalanced directives", () => {
    const diags = (src: string) => parseExpression(src, "t.tf").diagnostics.map((d) => `${d.summary}: ${d.detail}`);
    expect(diags('"%{ if a }x%{ endfor }"')).toEqual([
      "Unexpected endfor directive: Expecting an endif directive for the if started at t.tf:1,2-11.",
    ]);
    expect(diags('"%{ for a in b }x%{ else }y%{ endfor }"')).toEqual([
      "Unexpected else directive: An else clause is not expected for a for directive.",
      "Unexpected endfor directive: The control directives within this template are unbalanced.",
    ]);
    expect(diags('"%{ if a }x%{ else }y%{ else }z%{ endif }"')).toEqual([
      "Unexpected else directive: Already in the else clause for the if started at t.tf:1,2-11.",
      "Unexpected endif directive: The control directives within this template are unbalanced.",
    ]);
    expect(diags('"%{ if a } b"')).toEqual(["Unexpected end of template: The if directive at t.tf:1,2-11 is missing its corresponding endif directive."]);
    expect(diags('"%{ iff a }"')).toEqual(['Invalid template control keyword: "iff" is not a valid template control keyword. Did you mean "if"?']);
  });
});
