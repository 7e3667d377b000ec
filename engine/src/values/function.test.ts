import { describe, expect, it } from "vitest";
import { BigFloat } from "./bigfloat.js";
import { convert } from "./convert.js";
import { formatValue } from "./format.js";
import { Func, argError, callError, callFunction, refineNonNull, staticReturnType, type CallResult } from "./function.js";
import { marshalJSON } from "./json.js";
import { lit, num } from "./testutil.js";
import { DynamicPseudoType, NumberType, StringType } from "./types.js";
import { SENSITIVE, mark, nullVal, numberVal, refine, stringVal, unknownVal, type Value } from "./value.js";

// Small functions with the parameter specs of their cty stdlib namesakes.
const upper = new Func({
  params: [{ name: "str", type: StringType, allowDynamicType: true }],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: ([s]) => ({ ok: true, value: stringVal((s as { value: string }).value.toUpperCase()) }),
});

const tonumber = new Func({
  params: [{ name: "v", type: DynamicPseudoType, allowNull: true, allowDynamicType: true, allowMarked: true }],
  type: staticReturnType(NumberType),
  impl: ([v]) => {
    const r = convert(v as Value, NumberType);
    if (r.ok) return r;
    if (v?.kind === "string") {
      return argError(0, `cannot convert ${JSON.stringify(v.value)} to number; given string must be a decimal representation of a number`);
    }
    return argError(0, `cannot convert ${v?.type.kind} to number`);
  },
});

const jsonencode = new Func({
  params: [{ name: "val", type: DynamicPseudoType, allowDynamicType: true, allowNull: true }],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: ([v]) => {
    const r = marshalJSON(v as Value, (v as Value).type);
    return r.ok ? { ok: true, value: stringVal(r.value) } : callError(r.error.message);
  },
});

const max = new Func({
  params: [],
  varParam: { name: "numbers", type: NumberType, allowDynamicType: true, allowMarked: true },
  type: staticReturnType(NumberType),
  impl: (args) => {
    if (args.length === 0) return callError("must pass at least one number");
    let best = args[0] as Value;
    for (const a of args) if (a.kind === "number" && best.kind === "number" && a.value.cmp(best.value) > 0) best = a;
    return { ok: true, value: best };
  },
});

const show = (r: CallResult) => (r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`);

// Expected texts are terraform console's answers for the same calls.
describe("callFunction (terraform console answers)", () => {
  const cases: Array<[string, () => CallResult, string]> = [
    ["upper(null)", () => callFunction("upper", upper, [nullVal(DynamicPseudoType)]), 'Invalid function argument: Invalid value for "str" parameter: argument must not be null.'],
    ["upper(1)", () => callFunction("upper", upper, [num("1")]), '"1"'],
    ["upper(true)", () => callFunction("upper", upper, [lit(true)]), '"TRUE"'],
    ["upper([1])", () => callFunction("upper", upper, [lit([1])]), 'Invalid function argument: Invalid value for "str" parameter: string required.'],
    ["upper()", () => callFunction("upper", upper, []), 'Not enough function arguments: Function "upper" expects 1 argument(s). Missing value for "str".'],
    ['upper("a", "b")', () => callFunction("upper", upper, [stringVal("a"), stringVal("b")]), 'Too many function arguments: Function "upper" expects only 1 argument(s).'],
    ["max()", () => callFunction("max", max, []), 'Error in function call: Call to function "max" failed: must pass at least one number.'],
    ["max(1, 5, 3)", () => callFunction("max", max, [num("1"), num("5"), num("3")]), "5"],
    ["jsonencode(1/0)", () => callFunction("jsonencode", jsonencode, [numberVal(BigFloat.inf(false))]), 'Error in function call: Call to function "jsonencode" failed: cannot serialize infinity as JSON.'],
    ['tonumber("abc")', () => callFunction("tonumber", tonumber, [stringVal("abc")]), 'Invalid function argument: Invalid value for "v" parameter: cannot convert "abc" to number; given string must be a decimal representation of a number.'],
    ["tonumber(null)", () => callFunction("tonumber", tonumber, [nullVal(DynamicPseudoType)]), "tonumber(null)"],
  ];
  it.each(cases)("%s", (_n, f, want) => {
    expect(show(f())).toBe(want);
  });
});

describe("cty call rules", () => {
  it("an unknown argument gives an unknown, refined result without calling impl", () => {
    const r = upper.call([unknownVal(StringType)]);
    expect(r.ok && r.value.kind === "unknown" && r.value.refinement.notNull).toBe(true);
  });
  it("marks on parameters that do not accept them move to the result, even for unknowns", () => {
    const r = upper.call([mark(stringVal("a"), SENSITIVE)]);
    expect(r.ok && formatValue(r.value)).toBe("(sensitive value)");
    const u = upper.call([mark(unknownVal(StringType), SENSITIVE)]);
    expect(u.ok && u.value.marks.has(SENSITIVE)).toBe(true);
  });
  it("parameters that accept marks see them and decide", () => {
    const r = tonumber.call([mark(stringVal("2"), SENSITIVE)]);
    expect(r.ok && r.value.marks.has(SENSITIVE)).toBe(true);
  });
  it("a dynamically-typed unknown for a parameter without allowDynamicType gives DynamicVal", () => {
    const strict = new Func({
      params: [{ name: "s", type: StringType }],
      type: staticReturnType(StringType),
      impl: ([s]) => ({ ok: true, value: s as Value }),
    });
    const r = strict.call([unknownVal(DynamicPseudoType)]);
    expect(r.ok && r.value.kind === "unknown" && r.value.type.kind).toBe("dynamic");
  });
  it("wrong argument counts are call errors", () => {
    expect(upper.call([])).toEqual(callError("wrong number of arguments (1 required; 0 given)"));
    const atLeast = new Func({ params: [{ name: "a", type: NumberType }], varParam: { name: "b", type: NumberType }, type: staticReturnType(NumberType), impl: ([a]) => ({ ok: true, value: a as Value }) });
    expect(atLeast.call([])).toEqual(callError("wrong number of arguments (at least 1 required; 0 given)"));
  });
  it("type conformance is checked without conversion", () => {
    expect(upper.call([num("1")])).toEqual(argError(0, "string required"));
  });
  it("refinements apply to unknown results returned by impl", () => {
    const passthrough = new Func({
      params: [{ name: "n", type: NumberType, allowUnknown: true }],
      type: staticReturnType(NumberType),
      refineResult: (b) => b.notNull().numberRangeLowerBound(BigFloat.fromInt(0), true),
      impl: ([n]) => ({ ok: true, value: n as Value }),
    });
    const r = passthrough.call([unknownVal(NumberType)]);
    expect(r.ok && r.value.kind === "unknown" && r.value.refinement.numberLower?.value.text("f")).toBe("0");
    expect(refine(unknownVal(NumberType)).notNull().newValue().kind).toBe("unknown");
  });
});
