import { describe, expect, it } from "vitest";
import { copyDiagnostic, parseExpression, type Diagnostic } from "../../hcl/index.js";
import {
  DynamicVal,
  EPHEMERAL,
  NumberType,
  SENSITIVE,
  StringType,
  boolVal,
  listOf,
  listVal,
  listValEmpty,
  mapOf,
  mapVal,
  mark,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  parseNumberVal,
  refine,
  setVal,
  stringVal,
  tupleVal,
  unknownVal,
  type Func,
  type Value,
} from "../../values/index.js";
import { builtinFunctions, type FunctionFileSystem } from "../functions/index.js";
import { EvalContext, describeValue, evaluate, fromExpr, traversalStr } from "./index.js";

const noFiles: FunctionFileSystem = {
  readFile: () => undefined,
  isFile: () => false,
  isDirectory: () => false,
  readDir: () => [],
  abs: (p) => p,
  home: () => undefined,
};
const functions: ReadonlyMap<string, Func> = builtinFunctions({ baseDir: ".", fs: noFiles, now: () => new Date(0), randomBytes: (k) => new Uint8Array(k) });

function diags(src: string, vars: Record<string, Value>): Diagnostic[] {
  const p = parseExpression(src, "t.tf");
  expect(p.diagnostics).toEqual([]);
  return evaluate(p.result, EvalContext.of(vars, functions)).diagnostics;
}

/** The first diagnostic's listed values, as "traversal statement" lines. */
function values(src: string, vars: Record<string, Value>): string[] {
  const d = diags(src, vars)[0];
  expect(d).toBeDefined();
  return (d?.expression?.values() ?? []).map((v) => `${v.traversal} ${v.statement}`);
}

const n = (s: string) => parseNumberVal(s) as Value;

describe("describeValue", () => {
  it("states known values compactly, as tofu's compactValueStr", () => {
    const cases: Array<[Value, string]> = [
      [numberIntVal(2), "is 2"],
      [n("0.1"), "is 0.1"],
      [n("12345678901234"), "is 1.23456789e+13"],
      [stringVal('a\t"b"\n'), 'is "a\\t\\"b\\"\\n"'],
      [boolVal(false), "is false"],
      [nullVal(StringType), "is null"],
      [listVal([stringVal("a"), stringVal("b"), stringVal("c")]), "is list of string with 3 elements"],
      [setVal([stringVal("a")]), "is set of string with 1 element"],
      [listValEmpty(StringType), "is empty list of string"],
      [tupleVal([]), "is empty tuple"],
      [mapVal({ a: numberIntVal(1), b: numberIntVal(2) }), "is map of number with 2 elements"],
      [objectVal({}), "is object with no attributes"],
      [objectVal({ only: boolVal(true) }), 'is object with 1 attribute "only"'],
      [objectVal({ a: numberIntVal(1), b: stringVal("x") }), "is object with 2 attributes"],
      // Inner marks do not hide a collection's size.
      [listVal([mark(stringVal("s"), SENSITIVE)]), "is list of string with 1 element"],
    ];
    for (const [v, want] of cases) expect(describeValue(v, false, false)).toBe(want);
  });

  it("names only the type of an unknown value unless the diagnostic was caused by unknowns", () => {
    expect(describeValue(unknownVal(StringType), false, false)).toBe("is a string");
    expect(describeValue(unknownVal(objectOf({ a: StringType })), false, false)).toBe("is a object");
    expect(describeValue(DynamicVal, false, false)).toBe("");
    expect(describeValue(unknownVal(StringType), true, false)).toBe("is a string, known only after apply");
    expect(describeValue(DynamicVal, true, false)).toBe("will be known only after apply");
  });

  it("uses a collection's length refinements when unknowns are the cause", () => {
    const list = unknownVal(listOf(StringType));
    const refined = (lo: number, hi?: number) => {
      let b = refine(list).collectionLengthLowerBound(lo);
      if (hi !== undefined) b = b.collectionLengthUpperBound(hi);
      return b.newValue();
    };
    expect(describeValue(list, true, false)).toBe("is a list of string, known only after apply");
    expect(describeValue(refined(2, 2), true, false)).toBe("is a list of string of length 2, known only after apply");
    expect(describeValue(refined(1, 5), true, false)).toBe("is a list of string with between 1 and 5 elements, known only after apply");
    expect(describeValue(refined(3), true, false)).toBe("is a list of string with at least 3 elements, known only after apply");
    expect(describeValue(refined(0, 4), true, false)).toBe("is a list of string with up to 4 elements, known only after apply");
    expect(describeValue(refined(1, 2000), true, false)).toBe("is a list of string with at least 1 elements, known only after apply");
    expect(describeValue(unknownVal(mapOf(NumberType)), true, false)).toBe("is a map of number, known only after apply");
  });

  it("says nothing of sensitive or ephemeral values unless they are the cause, and then only that", () => {
    const s = mark(stringVal("hunter2"), SENSITIVE);
    const e = mark(unknownVal(StringType), EPHEMERAL);
    expect(describeValue(s, true, false)).toBe("");
    expect(describeValue(s, false, true)).toBe("has a sensitive value");
    expect(describeValue(e, true, false)).toBe("");
    expect(describeValue(e, false, true)).toBe("has an ephemeral value");
  });
});

describe("traversalStr", () => {
  it("writes attributes, and indexes by their compact value", () => {
    const p = parseExpression('a.b["k"][0].c', "t.tf").result;
    expect(p.kind).toBe("ScopeTraversal");
    if (p.kind === "ScopeTraversal") expect(traversalStr(p.traversal)).toBe('a.b["k"][0].c');
  });
});

describe("values listed by evaluation diagnostics", () => {
  const o = objectVal({ a: stringVal("s"), n: numberIntVal(2) });

  it("looks up the longest part of a traversal that has a value", () => {
    expect(values("o.a.b", { o })).toEqual(['o.a is "s"']);
    expect(values("l[5]", { l: listVal([stringVal("x")]) })).toEqual(["l is list of string with 1 element"]);
  });

  it("lists each traversal once, sorted", () => {
    expect(values("b ? o.n : [o.a, o.n, b]", { o, b: boolVal(true) })).toEqual(["b is true", "o.a is \"s\"", "o.n is 2"]);
  });

  it("lists a for expression's symbol as OpenTofu does (terraform leaves out one-step traversals)", () => {
    const ds = diags("[for s in l : s + 1]", { l: listVal([stringVal("a"), stringVal("b")]) });
    expect(ds.map((d) => d.expression?.values().map((v) => `${v.traversal} ${v.statement}`))).toEqual([['s is "a"'], ['s is "b"']]);
  });

  it("leaves out unknown and sensitive values the error is not about", () => {
    expect(values("ul + 1", { ul: unknownVal(listOf(StringType)) })).toEqual(["ul is a list of string"]);
    expect(values("s + 1", { s: mark(stringVal("x"), SENSITIVE) })).toEqual([]);
  });

  it("names the function and its signature for argument errors", () => {
    const d = diags("upper(l)", { l: listVal([stringVal("x")]) })[0];
    expect(d?.expression?.values()).toEqual([{ traversal: "l", statement: "is list of string with 1 element" }]);
    expect(d?.expression?.functionCall()).toEqual({
      called_as: "upper",
      signature: { name: "upper", params: [{ name: "str", type: "string" }], return_type: "string" },
    });
    const j = diags('join(",", l, 5)', { l: listVal([stringVal("x")]) })[0];
    expect(j?.expression?.values()).toEqual([]);
    expect(j?.expression?.functionCall()?.signature).toMatchObject({ variadic_param: { name: "lists", type: ["list", "string"] } });
  });

  it("gives an expanded argument no values, and a call in a for body no signature (its scope has no functions)", () => {
    const ex = diags("upper(l...)", { l: listVal([listVal([stringVal("x")])]) })[0];
    expect(ex?.summary).toBe("Invalid function argument");
    expect(ex?.expression?.values()).toEqual([]);
    expect(ex?.expression?.functionCall()?.called_as).toBe("upper");
    const inFor = diags("[for s in l : upper(s)]", { l: listVal([listVal([stringVal("x")])]) })[0];
    expect(inFor?.expression?.functionCall()).toEqual({ called_as: "upper" });
  });

  it("keeps the innermost expression: a traversal error inside a call is not about the call", () => {
    const d = diags("upper(o.zz)", { o })[0];
    expect(d?.summary).toBe("Unsupported attribute");
    expect(d?.expression?.values()).toEqual([{ traversal: "o", statement: "is object with 2 attributes" }]);
    expect(d?.expression?.functionCall()).toBeUndefined();
  });
});

describe("the expression on a diagnostic", () => {
  it("stays out of equality and JSON, and survives copyDiagnostic", () => {
    const plain: Diagnostic = { severity: "error", summary: "S", detail: "D" };
    const ctx = EvalContext.of({ v: numberIntVal(1) });
    const withValues = fromExpr({ ...plain }, parseExpression("v", "t.tf").result, ctx);
    expect(withValues).toEqual(plain);
    expect(JSON.stringify(withValues)).toBe(JSON.stringify(plain));
    expect(Object.keys(withValues)).toEqual(["severity", "summary", "detail"]);
    const copy = copyDiagnostic(withValues, { severity: "warning" });
    expect(copy.severity).toBe("warning");
    expect(copy.expression?.values()).toEqual([{ traversal: "v", statement: "is 1" }]);
    expect({ ...withValues }.expression).toBeUndefined();
  });

  it("lists nothing without a scope (tofu's ephemeral count error has no EvalContext)", () => {
    const d = fromExpr({ severity: "error", summary: "S", detail: "D" } as Diagnostic, parseExpression("v", "t.tf").result, undefined);
    expect(d.expression?.values()).toEqual([]);
  });
});
