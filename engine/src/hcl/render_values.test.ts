import { describe, expect, it } from "vitest";
import {
  diagnosticToJSON,
  parseConfig,
  renderDiagnostic,
  withExpression,
  type Diagnostic,
  type DiagnosticExpressionValue,
  type DiagnosticFunctionCall,
  type RenderSources,
} from "./index.js";

const src = 'resource "x" "y" {\n  a = upper(var.names)\n}\n';
const sources: RenderSources = new Map([["main.tf", { source: src, body: parseConfig(src, "main.tf").result.body }]]);
const subject = { filename: "main.tf", start: { line: 2, column: 7, byte: 25 }, end: { line: 2, column: 23, byte: 41 } };

function diag(values: DiagnosticExpressionValue[], call?: DiagnosticFunctionCall): Diagnostic {
  const d: Diagnostic = { severity: "error", summary: "Invalid function argument", detail: "Bad.", subject };
  return withExpression(d, { values: () => values, functionCall: () => call });
}

const upper: DiagnosticFunctionCall = {
  called_as: "upper",
  signature: { name: "upper", params: [{ name: "str", type: "string" }], return_type: "string" },
};

describe("the values section under a snippet", () => {
  it("lists the function being called and the values, sorted, with the rule", () => {
    const d = diag(
      [
        { traversal: "var.names", statement: "is list of string with 3 elements" },
        { traversal: "local.a", statement: "is 1" },
      ],
      upper,
    );
    expect(renderDiagnostic(d, sources)).toBe(
      [
        "╷",
        "│ Error: Invalid function argument",
        "│",
        '│   on main.tf line 2, in resource "x" "y":',
        "│    2:   a = upper(var.names)",
        "│     ├────────────────",
        "│     │ while calling upper(str)",
        "│     │ local.a is 1",
        "│     │ var.names is list of string with 3 elements",
        "│",
        "│ Bad.",
        "╵",
        "",
      ].join("\n"),
    );
  });

  it("writes a variadic parameter with an ellipsis, and colours only the fixed text", () => {
    const join: DiagnosticFunctionCall = {
      called_as: "join",
      signature: {
        name: "join",
        params: [{ name: "separator", type: "string" }],
        variadic_param: { name: "lists", type: ["list", "string"] },
        return_type: "string",
      },
    };
    const text = renderDiagnostic(diag([{ traversal: 'm["[bold]"]', statement: "is 1" }], join), sources, { color: true });
    expect(text).toContain("    \u001b[90m├────────────────\u001b[0m\n");
    expect(text).toContain("    \u001b[90m│\u001b[0m while calling \u001b[1mjoin\u001b[0m(separator, lists...)\n");
    expect(text).toContain('    \u001b[90m│\u001b[0m \u001b[1mm["[bold]"]\u001b[0m is 1\n');
  });

  it("is left out when there is nothing to list, and the call only when its signature is known", () => {
    const plain = renderDiagnostic(diag([], { called_as: "upper" }), sources, { rule: false });
    expect(plain).not.toContain("├");
    const noSig = renderDiagnostic(diag([{ traversal: "var.x", statement: "is 1" }], { called_as: "upper" }), sources, { rule: false });
    expect(noSig).toContain("    ├────────────────\n    │ var.x is 1\n\nBad.");
    expect(noSig).not.toContain("while calling");
  });

  it("gives -json the values and the function call", () => {
    const j = diagnosticToJSON(diag([{ traversal: "var.names", statement: "is a list of string" }], upper), sources);
    expect(j.snippet?.values).toEqual([{ traversal: "var.names", statement: "is a list of string" }]);
    expect(j.snippet?.function_call).toEqual(upper);
    expect(Object.keys(j.snippet ?? {})).toEqual(["context", "code", "start_line", "highlight_start_offset", "highlight_end_offset", "values", "function_call"]);
    const none = diagnosticToJSON({ severity: "error", summary: "S", detail: "", subject }, sources);
    expect(none.snippet?.values).toEqual([]);
    expect(none.snippet && "function_call" in none.snippet).toBe(false);
  });
});
