import { describe, expect, it } from "vitest";
import { formatRange, parseExpression, parseJSONExpression, type Diagnostic } from "../../hcl/index.js";
import {
  NumberType,
  SENSITIVE,
  StringType,
  formatValue,
  hasMark,
  listOf,
  mark,
  numberIntVal,
  objectVal,
  refine,
  stringVal,
  tupleVal,
  unknownVal,
  type Func,
  type Value,
} from "../../values/index.js";
import { EvalContext, evaluate, evaluateJSON, expressionVariables, tryFunc, canFunc } from "./index.js";

const functions = new Map<string, Func>([
  ["try", tryFunc],
  ["can", canFunc],
]);

function ev(src: string, vars: Record<string, Value> = {}): { value: Value; diags: Diagnostic[] } {
  const p = parseExpression(src, "t.tf");
  expect(p.diagnostics).toEqual([]);
  const r = evaluate(p.result, EvalContext.of(vars, functions));
  return { value: r.value, diags: r.diagnostics };
}

const show = (src: string, vars: Record<string, Value> = {}) => {
  const r = ev(src, vars);
  expect(r.diags).toEqual([]);
  return formatValue(r.value);
};

const firstError = (src: string, vars: Record<string, Value> = {}) => {
  const d = ev(src, vars).diags[0] as Diagnostic;
  return { summary: d.summary, detail: d.detail, subject: d.subject && formatRange(d.subject), context: d.context && formatRange(d.context) };
};

describe("evaluate", () => {
  it("evaluates a chain of 20,000 operations, and finds its references, without exhausting the stack", () => {
    const src = Array.from({ length: 20000 }, (_, i) => (i === 7 ? "var.n" : "1")).join(" + ");
    expect(show(src, { var: objectVal({ n: numberIntVal(2) }) })).toBe("20001");
    expect(show(Array.from({ length: 20000 }, () => "true").join(" && "))).toBe("true");
    const p = parseExpression(src, "t.tf");
    expect(expressionVariables(p.result).map((t) => t.map((s) => ("name" in s ? s.name : "")).join("."))).toEqual(["var.n"]);
  });

  it("reports unknown variables with HCL's suggestion and range", () => {
    expect(firstError("fooo.bar", { foo: stringVal("x") })).toEqual({
      summary: "Unknown variable",
      detail: 'There is no variable named "fooo". Did you mean "foo"?',
      subject: "t.tf:1,1-5",
      context: undefined,
    });
  });

  it("reports a failed traversal step at that step", () => {
    expect(firstError("o.a.b", { o: objectVal({ a: stringVal("s") }) })).toEqual({
      summary: "Unsupported attribute",
      detail: "Can't access attributes on a primitive-typed value (string).",
      subject: "t.tf:1,4-6",
      context: undefined,
    });
    expect(firstError("o[1 + 1]", { o: tupleVal([]) })).toMatchObject({ summary: "Invalid index", subject: "t.tf:1,2-9" });
  });

  it("puts function-argument errors at the argument and the call as context", () => {
    const e = ev("try()");
    expect(e.diags[0]?.summary).toBe("Error in function call");
    expect(e.diags[0]?.detail).toBe('Call to function "try" failed: at least one argument is required.');
    expect(formatRange(e.diags[0]?.subject as never)).toBe("t.tf:1,1-5");
  });

  it("keeps unknown results refined as HCL does", () => {
    const u = unknownVal(StringType);
    const t = ev('"abc${u}"', { u }).value;
    expect(t).toMatchObject({ kind: "unknown", refinement: { notNull: true, stringPrefix: "ab" } });
    const c = ev("b ? 1 : 5", { b: unknownVal({ kind: "bool" }) }).value;
    expect(c.kind).toBe("unknown");
    if (c.kind === "unknown") {
      expect(c.refinement.numberLower?.value.text("f")).toBe("1");
      expect(c.refinement.numberUpper?.value.text("f")).toBe("5");
    }
    const splat = ev("l[*].x", { l: refine(unknownVal(listOf(objectVal({ x: numberIntVal(1) }).type))).collectionLengthLowerBound(2).newValue() }).value;
    expect(splat).toMatchObject({ kind: "unknown", type: { kind: "list", element: NumberType }, refinement: { notNull: true, lengthLower: 2 } });
    expect(ev("[for x in u: x]", { u: unknownVal(listOf(StringType)) }).value).toMatchObject({ kind: "unknown", type: { kind: "dynamic" } });
  });

  it("carries marks through templates, for expressions, splats and conditionals", () => {
    const s = mark(stringVal("x"), SENSITIVE);
    expect(hasMark(ev('"a${s}"', { s }).value, SENSITIVE)).toBe(true);
    expect(hasMark(ev("[for c in l: c]", { l: mark(tupleVal([s]), SENSITIVE) }).value, SENSITIVE)).toBe(true);
    expect(hasMark(ev("false ? s : \"y\"", { s }).value, SENSITIVE)).toBe(true);
    expect(hasMark(ev("{(s) = 1}", { s }).value, SENSITIVE)).toBe(true);
  });

  it("decides try and can only once the expression's inputs are known", () => {
    expect(ev("can(u.a)", { u: unknownVal({ kind: "dynamic" }) }).value).toMatchObject({ kind: "unknown", refinement: { notNull: true } });
    expect(show("can(o.z)", { o: objectVal({}) })).toBe("false");
    expect(show('try(o.z, "d")', { o: objectVal({}) })).toBe('"d"');
    expect(show("try([1, 2]...)")).toBe("1");
  });

  it("evaluates for expressions with grouping, conditions and errors", () => {
    expect(show('{for s in ["a", "bb", "cc"]: s == "a" ? "one" : "two" => s...}')).toBe(
      '{\n  "one" = [\n    "a",\n  ]\n  "two" = [\n    "bb",\n    "cc",\n  ]\n}',
    );
    expect(firstError("[for x in [1]: x if x]")).toMatchObject({
      summary: "Invalid 'for' condition",
      detail: "The 'if' clause value is invalid: bool required.",
      subject: "t.tf:1,21-22",
      context: "t.tf:1,1-23",
    });
  });

  it("lists the references an expression reads, leaving out for-expression symbols", () => {
    const p = parseExpression("[for k, v in var.m: v + local.n + k]", "t.tf");
    const roots = expressionVariables(p.result).map((t) => t.map((s) => ("name" in s ? s.name : "[]")).join("."));
    expect(roots).toEqual(["var.m", "local.n"]);
  });
});

describe("evaluateJSON", () => {
  const ctx = EvalContext.of({ name: stringVal("n") }, functions);
  const json = (src: string) => {
    const p = parseJSONExpression(src, "t.tf.json");
    expect(p.diagnostics).toEqual([]);
    return evaluateJSON(p.result, ctx);
  };

  it("treats strings and keys as templates and keeps numbers exact", () => {
    const r = json('{"${name}-key": "hello ${name}", "n": 0.1, "big": 123456789012345678901234567890, "l": [true, null]}');
    expect(r.diagnostics).toEqual([]);
    expect(formatValue(r.value)).toBe(
      '{\n  "big" = 123456789012345678901234567890\n  "l" = [\n    true,\n    null,\n  ]\n  "n" = 0.1\n  "n-key" = "hello n"\n}',
    );
  });

  it("rejects duplicate attributes", () => {
    const r = json('{"a": 1, "a": 2}');
    expect(r.diagnostics[0]).toMatchObject({ summary: "Duplicate object attribute", detail: 'An attribute named "a" was already defined at t.tf.json:1,2-5.' });
  });
});
