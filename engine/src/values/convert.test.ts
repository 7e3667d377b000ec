import { describe, expect, it } from "vitest";
import { convert, getConversion, getConversionUnsafe } from "./convert.js";
import { mismatchMessage } from "./mismatch.js";
import { formatPathError } from "./path.js";
import { lit, num, show, ty, type Lit } from "./testutil.js";
import { BoolType, DynamicPseudoType, NumberType, StringType, listOf, type Type } from "./types.js";
import {
  DynamicVal,
  SENSITIVE,
  listVal,
  mapVal,
  mapValEmpty,
  mark,
  nullVal,
  objectVal,
  refine,
  setVal,
  stringVal,
  tupleVal,
  unknownVal,
  type Value,
} from "./value.js";

function conv(v: Value, t: Type): string {
  const r = convert(v, t);
  return r.ok ? show(r.value) : `error: ${formatPathError(r.error)}`;
}

// Observed with `terraform console` (v1.11): tolist/toset/tomap convert to list(any)/set(any)/map(any).
const observed: Array<[string, Lit, string, string]> = [
  ["tolist mixed primitives", ["a", 1, true], "list(any)", 'list("a", "1", "true")'],
  ["tolist number then string", [1, "a"], "list(any)", 'list("1", "a")'],
  ["tolist fraction with string", [1.5, "x"], "list(any)", 'list("1.5", "x")'],
  ["toset dedups", ["b", "a", "a"], "set(any)", 'set("a", "b")'],
  ["toset 1, 1.0 and \"1\" collapse", [1, 1.0, "1"], "set(any)", 'set("1")'],
  ["toset numbers sort numerically", [3, 1, 2, 10], "set(any)", "set(1, 2, 3, 10)"],
  ["toset strings sort lexically", ["b", "a", "10", "9"], "set(any)", 'set("10", "9", "a", "b")'],
  ["toset bools", [true, false, true], "set(any)", "set(false, true)"],
  ["toset equal decimals", [0.1, 0.1], "set(any)", "set(0.1)"],
  ["toset by code point", ["é", "e", "z", "É"], "set(any)", 'set("e", "z", "É", "é")'],
  ["tomap mixed primitives", { a: "x", b: 1, c: true }, "map(any)", 'map{"a": "x", "b": "1", "c": "true"}'],
  ["tomap same-length tuples unify to a tuple type", { a: [1], b: ["x"] }, "map(any)", 'map{"a": tuple("1"), "b": tuple("x")}'],
  ["tomap objects same attrs", { a: { x: 1 }, b: { x: "y" } }, "map(any)", 'map{"a": object{x: "1"}, "b": object{x: "y"}}'],
  ["tomap objects different attrs", { a: { x: 1 }, b: { y: 1 } }, "map(any)", 'map{"a": map{"x": 1}, "b": map{"y": 1}}'],
  ["tolist objects different attrs", [{ a: 1 }, { a: 1, b: 2 }], "list(any)", 'list(map{"a": 1}, map{"a": 1, "b": 2})'],
  ["tolist nested tuples", [[1, 2], [3]], "list(any)", "list(list(1, 2), list(3))"],
  ["toset nested lists by hash text", [[3], [1, 2], [2]], "set(any)", "set(list(1, 2), list(2), list(3))"],
  [
    "toset objects by hash text",
    [
      { b: 1, a: "x" },
      { b: 0, a: "y" },
    ],
    "set(any)",
    'set(object{a: "x", b: 1}, object{a: "y", b: 0})',
  ],
  ["tolist objects with tuple attr", [{ a: ["x"] }, { a: [] }], "list(any)", 'list(object{a: list("x")}, object{a: list<list(string)>()})'],
];

describe("convert: observed terraform behaviour", () => {
  it.each(observed)("%s", (_name, input, type, want) => {
    expect(conv(lit(input), ty(type))).toBe(want);
  });

  it("tolist([[1], \"a\"]) has no single element type", () => {
    expect(conv(lit([[1], "a"]), ty("list(any)"))).toBe("error: all list elements must have the same type");
  });
  it("tomap({a=1,b=true}) cannot unify number and bool", () => {
    expect(conv(lit({ a: 1, b: true }), ty("map(any)"))).toBe("error: all map elements must have the same type");
  });
  it("tolist([null, 1]) gives list of number with a typed null", () => {
    expect(conv(tupleVal([nullVal(DynamicPseudoType), num("1")]), ty("list(any)"))).toBe("list(null(number), 1)");
  });
  it("tolist([null]) stays a list of dynamic", () => {
    expect(conv(tupleVal([nullVal(DynamicPseudoType)]), ty("list(any)"))).toBe("list(null(any))");
  });
  it("tomap({a=null, b=1})", () => {
    expect(conv(objectVal({ a: nullVal(DynamicPseudoType), b: num("1") }), ty("map(any)"))).toBe('map{"a": null(number), "b": 1}');
  });
  it("tolist of a set keeps set order", () => {
    expect(conv(setVal([stringVal("b"), stringVal("a")]), ty("list(any)"))).toBe('list("a", "b")');
  });
  it("empty tuple to list(any)", () => {
    expect(conv(lit([]), ty("list(any)"))).toBe("list<list(any)>()");
  });
});

const primitives: Array<[string, Value, string, string]> = [
  ["number to string", num("1.50"), "string", '"1.5"'],
  ["big number to string", num("1e21"), "string", '"1000000000000000000000"'],
  ["negative zero to string", num("-0"), "string", '"-0"'],
  ["bool to string", lit(true), "string", '"true"'],
  ["false to string", lit(false), "string", '"false"'],
  ["string to number", stringVal("1.50"), "number", "1.5"],
  ["string to number, exponent", stringVal("1e3"), "number", "1000"],
  ["string to number, leading dot", stringVal(".5"), "number", "0.5"],
  ["string to number, trailing dot", stringVal("5."), "number", "5"],
  ["string to number, plus sign", stringVal("+5"), "number", "5"],
  ["string to number, -0", stringVal("-0"), "number", "-0"],
  ["string to number, Inf", stringVal("Inf"), "number", "+Inf"],
  ["string to number, space", stringVal(" 1"), "number", "error: a number is required"],
  ["string to number, hex", stringVal("0x10"), "number", "error: a number is required"],
  ["string to number, underscore", stringVal("1_000"), "number", "error: a number is required"],
  ["string to number, words", stringVal("abc"), "number", "error: a number is required"],
  ["string to number, empty", stringVal(""), "number", "error: a number is required"],
  ["string true to bool", stringVal("true"), "bool", "true"],
  ["string 1 to bool", stringVal("1"), "bool", "true"],
  ["string 0 to bool", stringVal("0"), "bool", "false"],
  ["string false to bool", stringVal("false"), "bool", "false"],
  ["string True to bool", stringVal("True"), "bool", 'error: a bool is required; to convert from string, use lowercase "true"'],
  ["string FALSE to bool", stringVal("FALSE"), "bool", 'error: a bool is required; to convert from string, use lowercase "false"'],
  ["string yes to bool", stringVal("yes"), "bool", "error: a bool is required"],
  ["number to bool", num("1"), "bool", "error: bool required"],
  ["bool to number", lit(true), "number", "error: number required"],
  ["string to string", stringVal("x"), "string", '"x"'],
  ["anything to any", num("2"), "any", "2"],
];

describe("convert: primitives", () => {
  it.each(primitives)("%s", (_n, v, t, want) => {
    expect(conv(v, ty(t))).toBe(want);
  });
});

const structural: Array<[string, Value, string, string]> = [
  ["tuple to list(string)", lit([1, "a", true]), "list(string)", 'list("1", "a", "true")'],
  ["tuple to list(number) fails on element", lit([1, "a"]), "list(number)", "error: [1]: a number is required"],
  ["tuple to list(number) converts strings", lit(["1", "2"]), "list(number)", "list(1, 2)"],
  ["tuple to set(number)", lit(["2", "1", "2"]), "set(number)", "set(1, 2)"],
  ["tuple to tuple", lit([1, true]), "tuple([string,string])", 'tuple("1", "true")'],
  ["tuple to tuple wrong length", lit([1]), "tuple([string,string])", "error: tuple required"],
  ["tuple to map", lit([1]), "map(string)", "error: map of string required"],
  ["object to map(string)", lit({ a: 1, b: "x" }), "map(string)", 'map{"a": "1", "b": "x"}'],
  ["object to map(number) fails", lit({ a: 1, b: "x" }), "map(number)", 'error: ["b"]: a number is required'],
  ["object to object subset", lit({ a: 1, b: 2 }), "object({a=number})", "object{a: 1}"],
  ["object to object converts attrs", lit({ a: 1 }), "object({a=string})", 'object{a: "1"}'],
  ["object missing attribute", lit({ a: 1 }), "object({a=number,b=string})", 'error: attribute "b" is required'],
  ["object missing two attributes", lit({}), "object({a=number,b=string})", 'error: attributes "a" and "b" are required'],
  ["object missing three attributes", lit({}), "object({c=bool,a=number,b=string})", 'error: attributes "a", "b", and "c" are required'],
  ["object optional attribute absent", lit({ a: 1 }), "object({a=number,b=optional(string)})", "object{a: 1, b: null(string)}"],
  ["object attribute value fails", lit({ a: "x" }), "object({a=number})", "error: .a: a number is required"],
  ["object attribute wrong kind", lit({ a: true }), "object({a=number})", 'error: attribute "a": number required'],
  ["nested object attribute error path", lit({ a: { b: "x" } }), "object({a=object({b=number})})", "error: .a.b: a number is required"],
  ["map to object", mapVal({ a: stringVal("1"), b: stringVal("2") }), "object({a=number})", "object{a: 1}"],
  ["map to object missing key", mapVal({ a: stringVal("1") }), "object({a=string,b=string})", 'error: map has no element for required attribute "b"'],
  ["map to object optional key", mapVal({ a: stringVal("1") }), "object({a=string,b=optional(string)})", 'object{a: "1", b: null(string)}'],
  ["map to map converts elements", mapVal({ a: stringVal("1") }), "map(number)", 'map{"a": 1}'],
  ["map to map fails with key path", mapVal({ a: stringVal("x") }), "map(number)", 'error: ["a"]: a number is required'],
  ["empty map to map", mapValEmpty(StringType), "map(number)", "map<map(number)>{}"],
  ["list to set", listVal([stringVal("b"), stringVal("a"), stringVal("b")]), "set(string)", 'set("a", "b")'],
  ["list to list converts", listVal([stringVal("1")]), "list(number)", "list(1)"],
  ["list to list fails with index", listVal([stringVal("1"), stringVal("z")]), "list(number)", "error: [1]: a number is required"],
  ["set to list", setVal([num("2"), num("1")]), "list(number)", "list(1, 2)"],
  ["list to map", listVal([stringVal("a")]), "map(string)", "error: map of string required"],
  ["list to tuple", listVal([stringVal("a")]), "tuple([string])", "error: tuple required"],
  ["string to list", stringVal("a"), "list(string)", "error: list of string required"],
  ["string to object", stringVal("a"), "object({a=string})", "error: object required"],
  ["number to list(any)", num("1"), "list(any)", "error: list of any single type required"],
  ["list of list to set of list", listVal([listVal([num("1")])]), "set(list(string))", 'set(list("1"))'],
  [
    "list(object) element type mismatch message",
    listVal([objectVal({ a: stringVal("x") })]),
    "list(object({a=number,b=string}))",
    'error: incorrect list element type: attribute "b" is required',
  ],
];

describe("convert: collections and structural types", () => {
  it.each(structural)("%s", (_n, v, t, want) => {
    expect(conv(v, ty(t))).toBe(want);
  });
});

describe("convert: unknown and null values", () => {
  const cases: Array<[string, Value, string, string]> = [
    ["unknown string to number", unknownVal(StringType), "number", "unknown(number)"],
    ["not-null unknown keeps refinement", refine(unknownVal(StringType)).notNull().newValue(), "number", "unknown(number)!"],
    ["null string to number", nullVal(StringType), "number", "null(number)"],
    ["null to list(any) keeps element type", nullVal(listOf(StringType)), "list(any)", "null(list(string))"],
    ["unknown list to list(any)", unknownVal(listOf(NumberType)), "list(any)", "unknown(list(number))"],
    ["DynamicVal to string", DynamicVal, "string", "unknown(string)"],
    ["null any to string", nullVal(DynamicPseudoType), "string", "null(string)"],
    ["unknown object to map: exact length", unknownVal(ty("object({a=string,b=string})")), "map(string)", "unknown(map(string)) len>=2 len<=2"],
    ["unknown tuple to list: exact length", unknownVal(ty("tuple([string,number])")), "list(string)", "unknown(list(string)) len>=2 len<=2"],
    ["unknown tuple to set: bounds", unknownVal(ty("tuple([string,string,string])")), "set(string)", "unknown(set(string)) len>=1 len<=3"],
    ["unknown tuple of one to set", unknownVal(ty("tuple([string])")), "set(string)", "unknown(set(string)) len>=1 len<=1"],
    [
      "unknown list length bounds carry to list",
      refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(2).collectionLengthUpperBound(5).newValue(),
      "list(number)",
      "unknown(list(number)) len>=2 len<=5",
    ],
    [
      "unknown list length lower bound becomes 1 for sets",
      refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(3).newValue(),
      "set(string)",
      "unknown(set(string)) len>=1",
    ],
    ["unknown element inside tuple to list", tupleVal([stringVal("a"), unknownVal(NumberType)]), "list(string)", 'list("a", unknown(string))'],
    ["dynamic element unifies with its neighbours", tupleVal([stringVal("a"), DynamicVal]), "list(any)", 'list("a", unknown(string))'],
    ["null attribute to optional object attr", objectVal({ a: nullVal(DynamicPseudoType) }), "object({a=optional(string)})", "object{a: null(string)}"],
    ["unknown to object with optional attrs drops optional marker", unknownVal(DynamicPseudoType), "object({a=optional(string)})", "unknown(object({a=string}))"],
  ];
  it.each(cases)("%s", (_n, v, t, want) => {
    expect(conv(v, ty(t))).toBe(want);
  });
});

describe("convert: marks survive", () => {
  it("a marked number converted to string stays marked", () => {
    expect(conv(mark(num("1"), SENSITIVE), StringType)).toBe('"1"@sensitive');
  });
  it("marked elements keep their marks through tuple to list", () => {
    expect(conv(tupleVal([mark(stringVal("a"), SENSITIVE), num("2")]), ty("list(string)"))).toBe('list("a"@sensitive, "2")');
  });
  it("marked elements move to the set in tuple to set", () => {
    expect(conv(tupleVal([mark(stringVal("a"), SENSITIVE), stringVal("b")]), ty("set(string)"))).toBe('set("a", "b")@sensitive');
  });
  it("a marked unknown stays marked", () => {
    expect(conv(mark(unknownVal(StringType), SENSITIVE), NumberType)).toBe("unknown(number)@sensitive");
  });
  it("a marked null stays marked", () => {
    expect(conv(mark(nullVal(StringType), SENSITIVE), NumberType)).toBe("null(number)@sensitive");
  });
  it("a failed conversion of a marked value still fails", () => {
    expect(conv(mark(stringVal("x"), SENSITIVE), NumberType)).toBe("error: a number is required");
  });
});

describe("safe versus unsafe conversions", () => {
  const cases: Array<[string, string, boolean, boolean]> = [
    ["number", "string", true, true],
    ["bool", "string", true, true],
    ["string", "number", false, true],
    ["string", "bool", false, true],
    ["number", "bool", false, false],
    ["list(string)", "set(string)", false, true],
    ["set(string)", "list(string)", true, true],
    ["map(string)", "object({a=string})", false, true],
    ["object({a=string})", "map(string)", true, true],
    ["object({a=number})", "map(string)", true, true],
    ["object({a=string})", "map(number)", false, true],
    ["tuple([number])", "list(string)", true, true],
    ["tuple([string])", "list(number)", false, true],
    ["any", "string", false, true],
    ["string", "any", true, true],
    ["list(number)", "list(string)", true, true],
    ["list(string)", "list(number)", false, true],
    ["tuple([string])", "tuple([string,string])", false, false],
  ];
  it.each(cases)("%s → %s: safe=%s unsafe=%s", (from, to, safe, unsafe) => {
    expect(getConversion(ty(from), ty(to)) !== undefined).toBe(safe);
    expect(getConversionUnsafe(ty(from), ty(to)) !== undefined).toBe(unsafe);
  });
  it("a safe conversion from number to string never fails", () => {
    const c = getConversion(NumberType, StringType);
    expect(c && c(num("0.1"))).toEqual({ ok: true, value: stringVal("0.1") });
  });
  it("primitive to the same primitive has no conversion function (cty returns nil)", () => {
    expect(getConversion(BoolType, BoolType)).toBeUndefined();
  });
});

describe("mismatchMessage", () => {
  const cases: Array<[string, string, string]> = [
    ["string", "number", "number required"],
    ["number", "list(string)", "list of string required"],
    ["object({a=string})", "object({a=string,b=number})", 'attribute "b" is required'],
    ["object({a=bool})", "object({a=number})", 'attribute "a": number required'],
    ["object({a=list(bool)})", "object({a=list(number)})", 'attribute "a": incorrect list element type: number required'],
    ["tuple([string,bool])", "list(number)", "element 1: number required"],
    ["object({x=bool})", "map(number)", 'element "x": number required'],
    ["tuple([string,list(string)])", "list(any)", "all list elements must have the same type"],
    ["tuple([string,list(string)])", "set(any)", "all set elements must have the same type"],
    ["object({a=string,b=list(string)})", "map(any)", "all map elements must have the same type"],
    ["map(string)", "list(string)", "list of string required"],
    ["list(bool)", "set(number)", "incorrect set element type: number required"],
    ["map(bool)", "map(number)", "incorrect map element type: number required"],
    ["list(string)", "map(string)", "map of string required"],
    ["string", "any", "any type required"],
    ["string", "map(any)", "map of any single type required"],
  ];
  it.each(cases)("%s vs %s", (got, want, msg) => {
    expect(mismatchMessage(ty(got), ty(want))).toBe(msg);
  });
});

// `Unsuitable value for var.x set using -var="x=...": <message>.` — terraform prints the message
// without the path, so these compare error.message only.
describe("input variable conversion messages (terraform answers)", () => {
  const cases: Array<[string, Value, string, string]> = [
    ['l=["1","x"]', lit(["1", "x"]), "list(number)", "a number is required"],
    ['o={a="q", b=[]}', lit({ a: "q", b: [] }), "object({a=number,b=list(string)})", "a number is required"],
    ["o={a=1}", lit({ a: 1 }), "object({a=number,b=list(string)})", 'attribute "b" is required'],
    ['m={k={n="z"}}', lit({ k: { n: "z" } }), "map(object({n=number}))", "a number is required"],
    ["o={a=1,b=[[1]]}", lit({ a: 1, b: [[1]] }), "object({a=number,b=list(string)})", 'attribute "b": element 0: string required'],
    ['l="str"', stringVal("str"), "list(number)", "list of number required"],
  ];
  it.each(cases)("%s", (_n, v, t, msg) => {
    const r = convert(v, ty(t));
    expect(r.ok ? "converted" : r.error.message).toBe(msg);
  });
});
