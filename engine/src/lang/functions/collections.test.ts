import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BigFloat,
  NumberType,
  SENSITIVE,
  StringType,
  callFunction,
  convert,
  formatValue,
  listOf,
  listVal,
  mark,
  numberIntVal,
  objectOf,
  objectVal,
  refine,
  setOf,
  setVal,
  stringVal,
  tupleVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { collectionsFunctions } from "./collections.js";
import { answer, expected, testContext, type OracleAnswer, type OracleFile } from "./oracle.testkit.js";

const oracle = JSON.parse(readFileSync(new URL("./testdata/collections.terraform.json", import.meta.url), "utf8")) as OracleFile;

// Where OpenTofu (our reference) answers differently from the recorded Terraform, and why.
const openTofuAnswers: Record<string, { answer: OracleAnswer; reason: string }> = {
  'element(["a", "b", "c"], -1)': {
    answer: { ok: true, output: '"c"' },
    reason: "go-cty 1.16.0 in Terraform 1.11 panics on negative indexes; later go-cty counts back from the end",
  },
  'element(["a", "b", "c"], -4)': {
    answer: { ok: true, output: '"c"' },
    reason: "as above: the index wraps modulo the length, then counts back from the end",
  },
  'list("a")': {
    answer: {
      ok: false,
      summary: "Error in function call",
      detail:
        'Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list.',
    },
    reason: "OpenTofu's message names OpenTofu",
  },
  'map("a", 1)': {
    answer: {
      ok: false,
      summary: "Error in function call",
      detail:
        'Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map.',
    },
    reason: "OpenTofu's message names OpenTofu",
  },
};

// Every expression was evaluated by `terraform console`; results and error texts must match.
describe("collection functions match terraform console", () => {
  it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
    const tofu = openTofuAnswers[expr];
    expect(answer(expr)).toEqual(tofu ? tofu.answer : expected(want));
  });
});

const fns = collectionsFunctions(testContext);

function call(name: string, ...args: Value[]): Value {
  const fn = fns[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  if (!r.ok) throw new Error(`${r.summary}: ${r.detail}`);
  return r.value;
}

const s = (x: string) => stringVal(x);
const unknownString = unknownVal(StringType);
const unknownList = unknownVal(listOf(StringType));

describe("unknown arguments", () => {
  it("length of an unknown list is a non-null number within its refined bounds", () => {
    const u = refine(unknownList).notNull().collectionLengthLowerBound(2).collectionLengthUpperBound(5).newValue();
    const r = call("length", u);
    expect(r.kind).toBe("unknown");
    if (r.kind !== "unknown") return;
    expect(r.refinement.notNull).toBe(true);
    expect(r.refinement.numberLower?.value.cmp(BigFloat.fromInt(2))).toBe(0);
    expect(r.refinement.numberUpper?.value.cmp(BigFloat.fromInt(5))).toBe(0);
  });

  it("length of a string with a known prefix is at least the prefix's length", () => {
    const u = refine(unknownString).notNull().stringPrefixFull("abc").newValue();
    const r = call("length", u);
    expect(r.kind === "unknown" && r.refinement.numberLower?.value.cmp(BigFloat.fromInt(3))).toBe(0);
  });

  it("length of a tuple with unknown elements is known", () => {
    expect(formatValue(call("length", tupleVal([unknownString, s("a")])))).toBe("2");
  });

  it("keys of an unknown object come from its type", () => {
    const u = unknownVal(objectOf({ b: NumberType, a: StringType }));
    expect(formatValue(call("keys", u))).toBe('[\n  "a",\n  "b",\n]');
  });

  it("contains answers true despite unknown elements when a known one matches", () => {
    expect(formatValue(call("contains", tupleVal([unknownString, s("a")]), s("a")))).toBe("true");
    expect(call("contains", tupleVal([unknownString, s("a")]), s("b")).kind).toBe("unknown");
  });

  it("anytrue is true when a known element is true, unknown otherwise; alltrue stops at unknown", () => {
    const u = unknownVal({ kind: "bool" });
    expect(formatValue(call("anytrue", tupleVal([u, { ...u, kind: "bool", value: true } as Value])))).toBe("true");
    expect(call("anytrue", tupleVal([u])).kind).toBe("unknown");
    expect(call("alltrue", tupleVal([u])).kind).toBe("unknown");
  });

  it("sort of a list with unknown elements keeps the length: a known list of unknowns, as cty refines it", () => {
    const r = call("sort", listVal([unknownString, s("a")]));
    expect(formatValue(r)).toBe("tolist([\n  (known after apply),\n  (known after apply),\n])");
  });

  it("a set holding unknowns converts to a list of unknown length", () => {
    expect(call("sort", setVal([unknownString, s("a")])).kind).toBe("unknown");
    const toList = (v: Value) => {
      const r = convert(v, listOf(StringType));
      if (!r.ok) throw new Error("conversion failed");
      return r.value;
    };
    expect(toList(setVal([unknownString, s("a")])).kind).toBe("unknown");
    expect(formatValue(toList(setVal([unknownString])))).toBe("tolist([\n  (known after apply),\n])");
  });

  it("coalesce stops at the first unknown", () => {
    expect(call("coalesce", s(""), unknownString).kind).toBe("unknown");
    expect(formatValue(call("coalesce", s("x"), unknownString))).toBe('"x"');
  });

  it("flatten with an unknown nested list is unknown of unknown type", () => {
    const r = call("flatten", tupleVal([tupleVal([s("a")]), unknownList]));
    expect(r.kind).toBe("unknown");
    expect(r.type.kind).toBe("dynamic");
  });

  it("setproduct bounds the length of a product with an unknown-length argument", () => {
    const u = refine(unknownVal(setOf(StringType))).notNull().collectionLengthUpperBound(3).newValue();
    const r = call("setproduct", u, listVal([s("a"), s("b")]));
    expect(r.kind === "unknown" && [r.refinement.lengthLower, r.refinement.lengthUpper]).toEqual([1, 6]);
  });

  it("setunion keeps unknown elements while the other set operations wait", () => {
    const withUnknown = tupleVal([unknownString]);
    expect(call("setunion", withUnknown, tupleVal([s("a")])).kind).toBe("set");
    expect(call("setintersection", withUnknown, tupleVal([s("a")])).kind).toBe("unknown");
  });

  it("element with an unknown index into a tuple has unknown type", () => {
    const r = call("element", tupleVal([s("a"), numberIntVal(1)]), unknownVal(NumberType));
    expect(r.kind).toBe("unknown");
    expect(r.type.kind).toBe("dynamic");
  });

  it("zipmap with unknown keys and tuple values is unknown of unknown type", () => {
    const r = call("zipmap", listVal([unknownString]), tupleVal([s("a")]));
    expect(r.kind === "unknown" && r.type.kind).toBe("dynamic");
  });
});

describe("marks", () => {
  it("lookup marks its result with the key's and the map's marks", () => {
    const r = call("lookup", objectVal({ k: s("v") }), mark(s("k"), SENSITIVE));
    expect(r.marks.has(SENSITIVE)).toBe(true);
    expect(call("lookup", mark(objectVal({ k: s("v") }), SENSITIVE), s("k")).marks.has(SENSITIVE)).toBe(true);
  });

  it("zipmap moves marks of keys onto the whole map", () => {
    const r = call("zipmap", listVal([mark(s("a"), SENSITIVE)]), tupleVal([s("x")]));
    expect(r.marks.has(SENSITIVE)).toBe(true);
  });

  it("element keeps the marks of the chosen element only", () => {
    const list = tupleVal([s("a"), mark(s("b"), SENSITIVE)]);
    expect(call("element", list, numberIntVal(0)).marks.size).toBe(0);
    expect(call("element", list, numberIntVal(1)).marks.has(SENSITIVE)).toBe(true);
  });

  it("distinct puts marks of any element on the whole result", () => {
    const r = call("distinct", tupleVal([s("a"), mark(s("b"), SENSITIVE)]));
    expect(r.marks.has(SENSITIVE)).toBe(true);
  });
});
