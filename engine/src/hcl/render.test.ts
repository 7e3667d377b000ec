import { describe, expect, it } from "vitest";
import { errorDiag } from "./diagnostics.js";
import { parseConfig } from "./parse.js";
import { diagnosticToJSON, renderDiagnostic, wrapString } from "./render.js";

const SRC = 'resource "aws_instance" "web" {\n  ami = "x"\n  cout = 1, x = 2\n}\n';

function setup() {
  const r = parseConfig(SRC, "main.tf");
  const sources = new Map([["main.tf", { source: SRC, body: r.result.body }]]);
  const diag = r.diagnostics[0];
  if (!diag) throw new Error("expected a diagnostic");
  return { diag, sources };
}

describe("diagnostic rendering", () => {
  it("renders the -json form as tofu does", () => {
    const { diag, sources } = setup();
    expect(diagnosticToJSON(diag, sources)).toEqual({
      severity: "error",
      summary: "Unexpected comma after argument",
      detail: "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
      range: { filename: "main.tf", start: { line: 3, column: 11, byte: 54 }, end: { line: 3, column: 12, byte: 55 } },
      snippet: {
        context: 'resource "aws_instance" "web"',
        code: "  cout = 1, x = 2",
        start_line: 3,
        highlight_start_offset: 10,
        highlight_end_offset: 11,
        values: [],
      },
    });
  });

  it("renders the human form with the left rule", () => {
    const { diag, sources } = setup();
    expect(renderDiagnostic(diag, sources)).toBe(
      [
        "╷",
        "│ Error: Unexpected comma after argument",
        "│",
        '│   on main.tf line 3, in resource "aws_instance" "web":',
        "│    3:   cout = 1, x = 2",
        "│",
        "│ Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
        "╵",
        "",
      ].join("\n"),
    );
  });

  it("renders the plain form, wrapping the detail to the width", () => {
    const { diag, sources } = setup();
    expect(renderDiagnostic(diag, sources, { rule: false, width: 60 })).toBe(
      [
        "",
        "Error: Unexpected comma after argument",
        "",
        '  on main.tf line 3, in resource "aws_instance" "web":',
        "   3:   cout = 1, x = 2",
        "",
        "Argument definitions must be separated by newlines, not",
        "commas. An argument definition must end with a newline.",
        "",
      ].join("\n"),
    );
  });

  it("underlines the subject when colour is on", () => {
    const { diag, sources } = setup();
    const out = renderDiagnostic(diag, sources, { color: true });
    expect(out).toContain("  cout = 1\u001b[4m,\u001b[0m x = 2");
    expect(out).toContain("\u001b[1m\u001b[31mError: \u001b[0m");
  });

  it("includes the context range's lines in the snippet", () => {
    const src = "a = [\n  1,\n  2 3\n]\n";
    const r = parseConfig(src, "m.tf");
    const diag = r.diagnostics[0];
    if (!diag) throw new Error("expected a diagnostic");
    const j = diagnosticToJSON(diag, new Map([["m.tf", { source: src }]]));
    expect(j.snippet?.code).toBe("a = [\n  1,\n  2 3");
    expect(j.snippet?.start_line).toBe(1);
    expect(j.snippet?.context).toBeNull();
  });

  it("handles diagnostics without a source range or without the file", () => {
    const d = errorDiag("Something failed", "Details.");
    expect(renderDiagnostic(d, new Map(), { rule: false })).toBe("\nError: Something failed\n\nDetails.\n");
    const withRange = errorDiag("X", "", { filename: "gone.tf", start: { line: 2, column: 1, byte: 5 }, end: { line: 2, column: 2, byte: 6 } });
    expect(renderDiagnostic(withRange, new Map(), { rule: false })).toBe("\nError: X\n\n  on gone.tf line 2:\n  (source code not available)\n\n");
  });

  it("names the object a diagnostic is about before its source, as tofu's appendSourceSnippets does", () => {
    const { diag, sources } = setup();
    const addressed = { ...diag, address: 'aws_instance.web["a"]' };
    const json = diagnosticToJSON(addressed, sources);
    expect(Object.keys(json)).toEqual(["severity", "summary", "detail", "address", "range", "snippet"]);
    expect(json.address).toBe('aws_instance.web["a"]');
    expect(renderDiagnostic(addressed, sources, { rule: false })).toBe(
      [
        "",
        "Error: Unexpected comma after argument",
        "",
        '  with aws_instance.web["a"],',
        '  on main.tf line 3, in resource "aws_instance" "web":',
        "   3:   cout = 1, x = 2",
        "",
        "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
        "",
      ].join("\n"),
    );
    // Without a range the "with" line is followed directly by the detail.
    const sourceless = { ...errorDiag("Something failed", "Details."), address: "provider[\"registry.opentofu.org/hashicorp/aws\"]" };
    expect(renderDiagnostic(sourceless, new Map(), { rule: false })).toBe('\nError: Something failed\n\n  with provider["registry.opentofu.org/hashicorp/aws"],\nDetails.\n');
    expect(diagnosticToJSON(errorDiag("Plain", ""), new Map())).not.toHaveProperty("address");
  });

  it("wraps like go-wordwrap, keeping long words whole", () => {
    expect(wrapString("aaa bbb ccc", 7)).toBe("aaa bbb\nccc");
    expect(wrapString("averyveryverylongword x", 5)).toBe("averyveryverylongword\nx");
  });
});
