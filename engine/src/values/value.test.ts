import { describe, expect, it } from "vitest";
import { BigFloat } from "./bigfloat.js";
import { convert } from "./convert.js";
import { compareValuesForSet, rawEquals } from "./equality.js";
import { formatPath } from "./path.js";
import { lit, num, show, ty } from "./testutil.js";
import { BoolType, DynamicPseudoType, NumberType, StringType, listOf, typeString } from "./types.js";
import { compareTypes, sortTypes, unify, unifyUnsafe } from "./unify.js";
import {
  EPHEMERAL,
  RefinementError,
  SENSITIVE,
  containsMarked,
  hasMark,
  isMarked,
  isWhollyKnown,
  listVal,
  mapVal,
  mark,
  markWithPaths,
  nullVal,
  numberFloatVal,
  numberIntVal,
  objectVal,
  parseNumberVal,
  refine,
  setVal,
  stringVal,
  tupleVal,
  unknownVal,
  unmark,
  unmarkDeep,
  unmarkDeepWithPaths,
  withMarks,
  type Value,
} from "./value.js";

describe("marks", () => {
  it("mark, hasMark, unmark", () => {
    const v = mark(stringVal("s"), SENSITIVE);
    expect(isMarked(v)).toBe(true);
    expect(hasMark(v, SENSITIVE)).toBe(true);
    expect(hasMark(v, EPHEMERAL)).toBe(false);
    const [plain, marks] = unmark(v);
    expect(show(plain)).toBe('"s"');
    expect([...marks]).toEqual([SENSITIVE]);
  });
  it("marking twice is idempotent and marks accumulate", () => {
    const v = mark(mark(stringVal("s"), SENSITIVE), SENSITIVE);
    expect(v.marks.size).toBe(1);
    expect(show(withMarks(v, EPHEMERAL))).toBe('"s"@ephemeral@sensitive');
  });
  it("unmark is shallow; containsMarked sees nested marks", () => {
    const v = lit({ a: [mark(num("1"), SENSITIVE)] });
    expect(isMarked(v)).toBe(false);
    expect(containsMarked(v)).toBe(true);
  });
  it("unmarkDeep removes every mark and returns their union", () => {
    const v = withMarks(lit({ a: mark(num("1"), SENSITIVE), b: [mark(stringVal("x"), EPHEMERAL)] }), "top");
    const [plain, marks] = unmarkDeep(v);
    expect(containsMarked(plain)).toBe(false);
    expect([...marks].sort()).toEqual(["ephemeral", "sensitive", "top"]);
  });
  it("unmarkDeepWithPaths and markWithPaths round-trip", () => {
    const v = lit({ a: mark(num("1"), SENSITIVE), b: [stringVal("y"), mark(stringVal("x"), EPHEMERAL)], m: mapVal({ k: mark(stringVal("v"), SENSITIVE) }) });
    const [plain, pvm] = unmarkDeepWithPaths(v);
    expect(pvm.map((p) => `${formatPath(p.path)}=${[...p.marks].join(",")}`).sort()).toEqual([
      '.a=sensitive',
      '.b[1]=ephemeral',
      '.m["k"]=sensitive',
    ]);
    const back = markWithPaths(plain, pvm);
    expect(rawEquals(back, v)).toBe(true);
    expect(show(back)).toBe(show(v));
  });
  it("sets cannot hold marked elements: the marks move to the set", () => {
    const s = setVal([mark(stringVal("a"), SENSITIVE), stringVal("b")]);
    expect(show(s)).toBe('set("a", "b")@sensitive');
  });
  it("marking a path inside a set marks the set", () => {
    const s = setVal([stringVal("a")]);
    expect(show(markWithPaths(s, [{ path: [{ kind: "index", key: stringVal("a") }], marks: new Set([SENSITIVE]) }]))).toBe('set("a")@sensitive');
  });
});

describe("set semantics", () => {
  it("no duplicates by value equality, numbers of any precision", () => {
    expect(show(setVal([num("1"), numberIntVal(1), numberFloatVal(1), num("1.0")]))).toBe("set(1)");
    expect(show(setVal([num("0.5"), numberFloatVal(0.5)]))).toBe("set(0.5)");
  });
  it("strings sort by bytes, numbers numerically, false before true", () => {
    expect(show(setVal(["b", "B", "a", "ä", "10", "9"].map(stringVal)))).toBe('set("10", "9", "B", "a", "b", "ä")');
    expect(show(setVal(["10", "9", "-1", "0.5", "1e3"].map(num)))).toBe("set(-1, 0.5, 9, 10, 1000)");
    expect(show(setVal([lit(true), lit(false)]))).toBe("set(false, true)");
  });
  it("strings beyond the BMP sort by code point, like Go's byte order", () => {
    expect(show(setVal(["\u{1F600}", "\uFFFD", "z"].map(stringVal)))).toBe('set("z", "\uFFFD", "\u{1F600}")');
  });
  it("unknown elements are never merged and sort after known ones, in insertion order", () => {
    const u1 = unknownVal(StringType);
    const u2 = refine(unknownVal(StringType)).notNull().newValue();
    const s = setVal([u1, stringVal("b"), u2, stringVal("a"), u1]);
    expect(show(s)).toBe('set("a", "b", unknown(string), unknown(string)!, unknown(string))');
  });
  it("nulls sort last and collapse", () => {
    expect(show(setVal([nullVal(StringType), stringVal("a"), nullVal(StringType)]))).toBe('set("a", null(string))');
  });
  it("complex elements sort by cty's hash text", () => {
    const objs = [lit({ n: "b", v: 1 }), lit({ n: "a", v: 3 })];
    expect(show(setVal(objs))).toBe('set(object{n: "a", v: 3}, object{n: "b", v: 1})');
    const lists = [listVal([num("10")]), listVal([num("9")])];
    // "[10;]" sorts before "[9;]" as text.
    expect(show(setVal(lists))).toBe("set(list(10), list(9))");
  });
  it("compareValuesForSet treats equal values as equal", () => {
    expect(compareValuesForSet(num("1"), numberIntVal(1))).toBe(0);
  });
  it("dedups a large set", () => {
    const els = Array.from({ length: 20000 }, (_, i) => stringVal(`item-${i % 10000}`));
    const s = setVal(els);
    expect(s.kind === "set" && s.elements.length).toBe(10000);
  });
});

describe("constructors", () => {
  it("strings are NFC-normalized", () => {
    expect(show(stringVal("e\u0301"))).toBe('"\u00e9"');
    expect(rawEquals(stringVal("e\u0301"), stringVal("\u00e9"))).toBe(true);
  });
  it("lists require one element type", () => {
    expect(() => listVal([stringVal("a"), num("1")])).toThrow(/inconsistent element types/);
  });
  it("parseNumberVal", () => {
    expect(show(parseNumberVal("1e3") as Value)).toBe("1000");
    expect(parseNumberVal("x")).toBeUndefined();
  });
  it("isWhollyKnown looks inside", () => {
    expect(isWhollyKnown(lit({ a: [1] }))).toBe(true);
    expect(isWhollyKnown(lit({ a: [unknownVal(StringType)] }))).toBe(false);
  });
  it("object attribute order is by name", () => {
    expect(show(objectVal({ b: num("1"), a: num("2") }))).toBe("object{a: 2, b: 1}");
  });
});

describe("refinements", () => {
  it("string prefix drops the last character (it could still combine)", () => {
    expect(show(refine(unknownVal(StringType)).stringPrefix("ami-").newValue())).toBe('unknown(string) prefix="ami"');
    expect(show(refine(unknownVal(StringType)).stringPrefix("e\u0301x").newValue())).toBe('unknown(string) prefix="é"');
  });
  it("longer prefixes replace shorter ones, contradictions are programmer errors", () => {
    const u = refine(unknownVal(StringType)).stringPrefixFull("ab").stringPrefixFull("abc").newValue();
    expect(show(u)).toBe('unknown(string) prefix="abc"');
    expect(() => refine(u).stringPrefixFull("x")).toThrow(RefinementError);
  });
  it("number bounds tighten and check each other", () => {
    const u = refine(unknownVal(NumberType))
      .numberRangeLowerBound(BigFloat.fromInt(0), true)
      .numberRangeLowerBound(BigFloat.fromInt(2), false)
      .numberRangeUpperBound(BigFloat.fromInt(10), true)
      .newValue();
    expect(show(u)).toBe("unknown(number) >2 <=10");
    expect(() => refine(u).numberRangeUpperBound(BigFloat.fromInt(1), true)).toThrow(RefinementError);
  });
  it("refining known values checks them and returns them unchanged", () => {
    expect(show(refine(stringVal("abc")).stringPrefixFull("ab").notNull().newValue())).toBe('"abc"');
    expect(() => refine(stringVal("abc")).stringPrefixFull("x")).toThrow(RefinementError);
    expect(() => refine(nullVal(StringType)).notNull()).toThrow(RefinementError);
    expect(() => refine(listVal([num("1")])).collectionLengthLowerBound(2)).toThrow(RefinementError);
  });
  it("type-specific refinements need the right type", () => {
    expect(() => refine(unknownVal(BoolType)).stringPrefixFull("x")).toThrow(RefinementError);
    expect(() => refine(unknownVal(StringType)).collectionLengthLowerBound(1)).toThrow(RefinementError);
  });
  it("marks stay on refined values", () => {
    expect(show(refine(mark(unknownVal(StringType), SENSITIVE)).notNull().newValue())).toBe("unknown(string)!@sensitive");
  });
});

describe("unification", () => {
  const cases: Array<[string[], string | undefined, string | undefined]> = [
    [["string", "string"], "string", "string"],
    [["number", "string"], "string", "string"],
    [["bool", "number"], undefined, undefined],
    [["string", "any"], "any", "string"],
    [["list(string)", "list(number)"], "list(string)", "list(string)"],
    [["list(number)", "set(number)"], "list(number)", "list(number)"],
    // The tuple unifies as list(string) first, then with list(number) (cty's unifyTuplesAsList).
    [["tuple([string])", "list(number)"], "list(string)", "list(string)"],
    [["object({a=string})", "object({a=number})"], "object({a=string})", "object({a=string})"],
    [["object({a=string})", "object({b=string})"], "map(string)", "map(string)"],
    [["object({a=string})", "object({b=number})"], "map(string)", "map(string)"],
    [["object({a=string})", "object({b=list(string)})"], undefined, undefined],
    [["tuple([string,number])", "tuple([number,number])"], "tuple([string,number])", "tuple([string,number])"],
    [["tuple([string])", "tuple([number,bool])"], "list(string)", "list(string)"],
    [["tuple([string])", "tuple([number,number])"], "list(string)", "list(string)"],
    [["object({a=string})", "tuple([string])"], undefined, undefined],
    [["map(string)", "object({a=number})"], "map(string)", "map(string)"],
    [["any", "any"], "any", "any"],
  ];
  it.each(cases)("%j → safe %s, unsafe %s", (types, safe, unsafe) => {
    const ts = types.map(ty);
    const s = unify(ts);
    const u = unifyUnsafe(ts);
    expect(s ? typeString(s.type) : undefined).toBe(safe);
    expect(u ? typeString(u.type) : undefined).toBe(unsafe);
  });
  it("compareTypes prefers string and more general collections", () => {
    expect(compareTypes(StringType, NumberType)).toBe(-1);
    expect(compareTypes(NumberType, StringType)).toBe(1);
    expect(compareTypes(DynamicPseudoType, StringType)).toBe(1);
    expect(compareTypes(ty("set(string)"), ty("list(string)"))).toBe(1);
    expect(compareTypes(ty("list(string)"), ty("tuple([string])"))).toBe(-1);
  });
  it("sortTypes orders by preference, stable otherwise", () => {
    expect(sortTypes([NumberType, StringType, BoolType])).toEqual([1, 0, 2]);
    expect(sortTypes([DynamicPseudoType, NumberType])).toEqual([1, 0]);
  });
  it("conversions from unify convert values", () => {
    const u = unifyUnsafe([NumberType, StringType]);
    const conv = u?.conversions[0];
    expect(conv?.(num("1.5"), undefined)).toEqual(stringVal("1.5"));
  });
  it("a list of mixed unknown and known values converts with refinements kept", () => {
    const r = convert(tupleVal([unknownVal(NumberType), stringVal("x")]), listOf(DynamicPseudoType));
    expect(r.ok && show(r.value)).toBe('list(unknown(string), "x")');
  });
});
