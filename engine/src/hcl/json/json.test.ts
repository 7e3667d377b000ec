import { describe, expect, it } from "vitest";
import { bodyContent, jsonBody, justAttributes, type ContentAttribute } from "../content.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Range } from "../pos.js";
import { dumpExpression } from "../astdump.js";
import { parseJSONConfig, type JSONValue } from "./parser.js";
import { parseJSONStringTemplate } from "./template.js";

const rng = (r: Range | undefined) => (r ? `${r.start.line}:${r.start.column}(${r.start.byte})-${r.end.line}:${r.end.column}(${r.end.byte})` : "-");
const diagsOf = (ds: Diagnostic[]) => ds.map((d) => `${d.summary} @ ${rng(d.subject)}`);

function jsonText(v: JSONValue): string {
  switch (v.kind) {
    case "JSONObject":
      return `{${v.attrs.map((a) => `${a.name}:${jsonText(a.value)}`).join(",")}}`;
    case "JSONArray":
      return `[${v.values.map(jsonText).join(",")}]`;
    case "JSONString":
      return JSON.stringify(v.value);
    case "JSONNumber":
      return v.text;
    case "JSONBool":
      return String(v.value);
    case "JSONNull":
      return "null";
    default:
      return "<invalid>";
  }
}

function exprText(a: ContentAttribute | undefined): string {
  if (!a) return "-";
  return a.expr.kind === "JSONExpr" ? jsonText(a.expr.value) : dumpExpression(a.expr);
}

describe("parseJSONConfig", () => {
  it("keeps values with ranges, numbers as written", () => {
    const r = parseJSONConfig('{\n  "a": 1.50,\n  "b": ["x\\n", true, null, {"c": -2e3}]\n}', "main.tf.json");
    expect(r.diagnostics).toEqual([]);
    expect(jsonText(r.result.root)).toBe('{a:1.50,b:["x\\n",true,null,{c:-2e3}]}');
    if (r.result.root.kind !== "JSONObject") throw new Error("want object");
    expect(rng(r.result.root.attrs[0]?.nameRange)).toBe("2:3(4)-2:6(7)");
    expect(rng(r.result.root.attrs[0]?.value.range)).toBe("2:8(9)-2:12(13)");
  });

  // Like HCL, a value that fails to parse becomes a placeholder and the parent goes on, so a
  // broken object also makes the root "not an object". (Checked against terraform in terraform.test.ts.)
  const root = "Root value must be object @ 1:1(0)-1:2(1)";
  const errors: Array<[string, string[]]> = [
    ["", ["Missing value @ 1:1(0)-1:1(0)", "Root value must be object @ 1:1(0)-1:1(0)"]],
    ["[1]", []],
    ['"x"', ["Root value must be object @ 1:1(0)-1:4(3)"]],
    ['{"a": 1,}', ["Trailing comma in object @ 1:8(7)-1:9(8)", root]],
    ['{"a" = 1}', ["Missing property value colon @ 1:6(5)-1:7(6)", root]],
    ['{"a": 1 "b": 2}', ["Missing attribute seperator comma @ 1:16(15)-1:16(15)", root]],
    ['{"a": [1,]}', ["Trailing comma in array @ 1:9(8)-1:10(9)", "Mismatched braces @ 1:11(10)-1:12(11)", root]],
    ['{"a": 1', ["Unclosed object @ 1:1(0)-1:2(1)", root]],
    ['{"a": tru}', ["Invalid JSON keyword @ 1:7(6)-1:10(9)"]],
    ['{"a": NaN}', ["Invalid JSON keyword @ 1:7(6)-1:10(9)"]],
    ['{"a": 01}', ["Invalid JSON number @ 1:7(6)-1:9(8)"]],
    ['{"a": "\\q"}', ["Invalid JSON string @ 1:10(9)-1:11(10)"]],
    ["{} {}", ["Extraneous data after value @ 1:4(3)-1:5(4)"]],
    ["{1: 2}", ["Invalid object property name @ 1:2(1)-1:3(2)", root]],
  ];
  it.each(errors)("reports %j", (src, want) => {
    expect(diagsOf(parseJSONConfig(src, "main.tf.json").diagnostics)).toEqual(want);
  });
});

describe("JSON bodies", () => {
  const schema = {
    attributes: [{ name: "count" }],
    blocks: [{ type: "resource", labelNames: ["type", "name"] }, { type: "variable", labelNames: ["name"] }, { type: "locals" }],
  };

  it("nests block labels as object keys and accepts arrays for repeated blocks", () => {
    const src = JSON.stringify({
      "//": "a comment",
      count: 2,
      resource: { aws_instance: { web: { ami: "x" }, db: [{ ami: "y" }, { ami: "z" }] } },
      variable: [{ a: {} }, { b: { default: 1 } }],
      locals: { x: "${var.a}" },
    });
    const f = parseJSONConfig(src, "main.tf.json");
    expect(f.diagnostics).toEqual([]);
    const { content, diagnostics } = bodyContent(jsonBody(f.result.root), schema);
    expect(diagnostics).toEqual([]);
    expect(exprText(content.attributes.get("count"))).toBe("2");
    expect(content.blocks.map((b) => `${b.type} ${b.labels.join(".")}`)).toEqual([
      "resource aws_instance.web",
      "resource aws_instance.db",
      "resource aws_instance.db",
      "variable a",
      "variable b",
      "locals ",
    ]);
    const locals = content.blocks[5];
    if (!locals) throw new Error("no locals");
    const attrs = justAttributes(locals.body);
    expect(attrs.diagnostics).toEqual([]);
    const x = attrs.attributes.get("x");
    if (!x || x.expr.kind !== "JSONExpr" || x.expr.value.kind !== "JSONString") throw new Error("want a string");
    const t = parseJSONStringTemplate(x.expr.value);
    expect(t.diagnostics).toEqual([]);
    expect(dumpExpression(t.result)).toBe("(wrap var.a)");
    // The template sits just after the opening quote of the JSON string.
    expect(t.result.range.start.byte).toBe(x.expr.value.range.start.byte + 1);
  });

  it("reports unknown properties, but not the comment key", () => {
    const f = parseJSONConfig('{"//": "x", "cout": 1}', "main.tf.json");
    const { diagnostics } = bodyContent(jsonBody(f.result.root), schema);
    expect(diagsOf(diagnostics)).toEqual(["Extraneous JSON object property @ 1:13(12)-1:19(18)"]);
    expect(diagnostics[0]?.detail).toBe('No argument or block type is named "cout". Did you mean "count"?');
  });

  it("reports a block whose labels are missing", () => {
    const f = parseJSONConfig('{"resource": {}}', "main.tf.json");
    const { diagnostics } = bodyContent(jsonBody(f.result.root), schema);
    expect(diagsOf(diagnostics)).toEqual(["Missing block label @ 1:14(13)-1:15(14)"]);
  });

  it("reports a block body that is not an object", () => {
    const f = parseJSONConfig('{"locals": 1}', "main.tf.json");
    const { diagnostics } = bodyContent(jsonBody(f.result.root), schema);
    expect(diagsOf(diagnostics)).toEqual(["Incorrect JSON value type @ 1:12(11)-1:13(12)"]);
  });

  // Texts and ranges as terraform 1.11 reports them for these files.
  it.each([
    ['{"bogus": 1}', ['Extraneous JSON object property: No argument or block type is named "bogus". @ 1:2(1)-1:9(8)']],
    ['{"resource": {}}', ["Missing block label: At least one object property is required, whose name represents the resource block's type. @ 1:14(13)-1:15(14)"]],
    ['{"locals": 1}', ['Incorrect JSON value type: Either a JSON object or a JSON array is required, representing the contents of one or more "locals" blocks. @ 1:12(11)-1:13(12)']],
    [
      '{"resource": {"aws_instance": 1}}',
      [
        "Incorrect JSON value type: Either a JSON object or JSON array of objects is required here, to specify name labels for this block. @ 1:31(30)-1:32(31)",
        "Missing block label: At least one object property is required, whose name represents the resource block's name. @ 1:31(30)-1:32(31)",
      ],
    ],
  ])("decodes %s as terraform does", (src, want) => {
    const f = parseJSONConfig(src, "main.tf.json");
    const { diagnostics } = bodyContent(jsonBody(f.result.root), {
      blocks: [{ type: "resource", labelNames: ["type", "name"] }, { type: "locals" }],
    });
    expect(diagnostics.map((d) => `${d.summary}: ${d.detail} @ ${rng(d.subject)}`)).toEqual(want);
  });

  it("reports duplicate arguments", () => {
    const f = parseJSONConfig('[{"count": 1}, {"count": 2}]', "main.tf.json");
    const { diagnostics } = bodyContent(jsonBody(f.result.root), schema);
    expect(diagsOf(diagnostics)).toEqual(["Duplicate argument @ 1:17(16)-1:24(23)"]);
  });
});
