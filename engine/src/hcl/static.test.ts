import { describe, expect, it } from "vitest";
import { bodyContent, jsonBody, nativeBody } from "./content.js";
import { parseJSONConfig } from "./json/parser.js";
import { parseConfig } from "./parse.js";
import { absTraversalForExpr, exprAsKeyword, exprList, exprMap } from "./static.js";
import type { Traverser } from "./ast.js";

const text = (t: Traverser[]) => t.map((s) => (s.kind === "Root" ? s.name : s.kind === "Attr" ? `.${s.name}` : `[${JSON.stringify(s.key)}]`)).join("");

function attrs(src: string, json: boolean) {
  const names = ["depends_on", "ignore_changes", "tags", "provider"].map((name) => ({ name }));
  const body = json ? jsonBody(parseJSONConfig(src, "m.tf.json").result.root) : nativeBody(parseConfig(src, "m.tf").result.body);
  return bodyContent(body, { attributes: names }).content.attributes;
}

describe("static expression analysis", () => {
  it.each([
    ['depends_on = [aws_instance.a, module.b]\nignore_changes = all\ntags = {a = 1}\nprovider = aws.west\n', false],
    ['{"depends_on": ["aws_instance.a", "module.b"], "ignore_changes": "all", "tags": {"a": 1}, "provider": "aws.west"}', true],
  ] as const)("reads lists, keywords, maps and traversals (%#)", (src, json) => {
    const a = attrs(src, json);
    const deps = exprList(a.get("depends_on")!.expr);
    expect(deps.diagnostics).toEqual([]);
    expect(deps.items.map((i) => text(absTraversalForExpr(i).traversal))).toEqual(["aws_instance.a", "module.b"]);
    expect(exprAsKeyword(a.get("ignore_changes")!.expr)).toBe("all");
    expect(exprMap(a.get("tags")!.expr).items).toHaveLength(1);
    expect(text(absTraversalForExpr(a.get("provider")!.expr).traversal)).toBe("aws.west");
  });

  it("rejects expressions that are not static references", () => {
    const a = attrs('provider = "aws"\ndepends_on = x\n', false);
    expect(absTraversalForExpr(a.get("provider")!.expr).diagnostics.map((d) => d.summary)).toEqual(["Invalid expression"]);
    expect(exprList(a.get("depends_on")!.expr).diagnostics.map((d) => d.detail)).toEqual(["A static list expression is required."]);
  });

  // hcl.ExprList / ExprMap report on the expression's StartRange: a quoted string's text without
  // its quotes (case u06b), a call's name and parenthesis.
  it("reports a non-list or non-map at the start of the expression", () => {
    const a = attrs('ignore_changes = "all"\ntags = f(1)\n', false);
    const at = (d: { subject?: { start: { column: number }; end: { column: number } } } | undefined) => [d?.subject?.start.column, d?.subject?.end.column];
    expect(at(exprList(a.get("ignore_changes")!.expr).diagnostics[0])).toEqual([19, 22]);
    expect(at(exprMap(a.get("tags")!.expr).diagnostics[0])).toEqual([8, 10]);
  });
});
