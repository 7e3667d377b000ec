import { describe, expect, it } from "vitest";
import { BigFloat } from "./bigfloat.js";
import { convert } from "./convert.js";
import { equals } from "./equality.js";
import { formatValue } from "./format.js";
import { binaryOp, getAttr, index, length, multiply, unaryOp, type BinaryOperator, type OpResult } from "./ops.js";
import { lit, num, show, ty } from "./testutil.js";
import { BoolType, DynamicPseudoType, NumberType, StringType, listOf, mapOf, setOf } from "./types.js";
import {
  DynamicVal,
  SENSITIVE,
  listVal,
  listValEmpty,
  mapVal,
  mark,
  nullVal,
  numberFloatVal,
  numberIntVal,
  refine,
  setVal,
  stringVal,
  tupleVal,
  unknownVal,
  type Value,
} from "./value.js";
import { hasElement, hasIndex } from "./ops.js";

function res(r: OpResult): string {
  return r.ok ? show(r.value) : `${r.summary}: ${r.detail}`;
}

const bin = (op: BinaryOperator, a: Value, b: Value) => res(binaryOp(op, a, b));

// Expressions and answers observed with `terraform console` (1.11), number literals parsed as HCL does.
const arithmetic: Array<[string, BinaryOperator, string, string, string]> = [
  ["0.1 + 0.2", "+", "0.1", "0.2", "0.3"],
  ["9007199254740993 + 0", "+", "9007199254740993", "0", "9007199254740993"],
  ["12345678901234567890123 * 10", "*", "12345678901234567890123", "10", "123456789012345678901230"],
  ["0.1 * 3", "*", "0.1", "3", "0.3"],
  ["10 / 4", "/", "10", "4", "2.5"],
  [
    "1 / 3",
    "/",
    "1",
    "3",
    "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335",
  ],
  ["1 / 0", "/", "1", "0", "+Inf"],
  ["-1 / 0", "/", "-1", "0", "-Inf"],
  ["-5 % 3", "%", "-5", "3", "-2"],
  ["5 % -3", "%", "5", "-3", "2"],
  ["-5 % -3", "%", "-5", "-3", "-2"],
  ["5.5 % 2", "%", "5.5", "2", "1.5"],
  ["-5.5 % 2", "%", "-5.5", "2", "-1.5"],
  ["7 % 2.5", "%", "7", "2.5", "2"],
  ["5 % 0", "%", "5", "0", "5"],
  ["-7 % 2", "%", "-7", "2", "-1"],
  ["1e100 % 7", "%", "1e100", "7", "4"],
  [
    "10 % 3.3",
    "%",
    "10",
    "3.3",
    "0.10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000048",
  ],
  ["2 - 2", "-", "2", "2", "0"],
  ["0 * -1", "*", "0", "-1", "-0"],
  ["-0 + 0", "+", "-0", "0", "0"],
  ["1.5e300 * 1e300", "*", "1.5e300", "1e300", "15" + "0".repeat(152) + "1" + "0".repeat(446)],
  ["5 > 3", ">", "5", "3", "true"],
  ["3 >= 3", ">=", "3", "3", "true"],
  ["3 < 3", "<", "3", "3", "false"],
  ["3 <= 3", "<=", "3", "3", "true"],
  ["1.0 == 1", "==", "1.0", "1", "true"],
  ["0.1 + 0.2 == 0.3 (as values)", "==", "0.3", "0.30", "true"],
];

describe("arithmetic and comparison (terraform console answers)", () => {
  it.each(arithmetic)("%s", (_n, op, a, b, want) => {
    expect(bin(op, num(a), num(b))).toBe(want);
  });

  it("0 / 0 fails like cty", () => {
    expect(bin("/", num("0"), num("0"))).toBe(
      "Operation failed: Error during operation: can't divide zero by zero or infinity by infinity.",
    );
  });
  it("2 % (1/0) fails like cty", () => {
    const inf = (binaryOp("/", num("1"), num("0")) as { value: Value }).value;
    expect(bin("%", num("2"), inf)).toBe("Operation failed: Error during operation: can't use modulo with zero and infinity.");
  });
  it("infinity minus infinity fails", () => {
    const inf = (binaryOp("/", num("1"), num("0")) as { value: Value }).value;
    expect(bin("-", inf, inf)).toBe("Operation failed: Error during operation: can't subtract infinity from itself.");
    expect(bin("+", inf, (binaryOp("/", num("-1"), num("0")) as { value: Value }).value)).toBe(
      "Operation failed: Error during operation: can't compute sum of opposing infinities.",
    );
  });
  it("a float64 result plus an exact literal keeps all bits (pow(2,64)+1)", () => {
    expect(bin("+", numberFloatVal(2 ** 64), num("1"))).toBe("18446744073709551617");
    expect(show(numberFloatVal(2 ** 64))).toBe("18446744073709550000");
  });
  it("int values have 64-bit precision (length([1]) / length([1,2,3]) and friends)", () => {
    expect(bin("/", numberIntVal(1), numberIntVal(3))).toBe("0.33333333333333333334");
    expect(bin("/", numberIntVal(2), numberIntVal(3))).toBe("0.6666666666666666667");
    expect(bin("/", numberIntVal(1), numberIntVal(7))).toBe("0.14285714285714285714");
  });
});

describe("operand conversion and errors (terraform console answers)", () => {
  const cases: Array<[string, BinaryOperator, Value, Value, string]> = [
    ['"a" + 1', "+", stringVal("a"), num("1"), "Invalid operand: Unsuitable value for left operand: a number is required."],
    ["1 + \"2\"", "+", num("1"), stringVal("2"), "3"],
    ['1 < "2"', "<", num("1"), stringVal("2"), "true"],
    ['"10" > "9" (numeric)', ">", stringVal("10"), stringVal("9"), "true"],
    ["true && 1", "&&", lit(true), num("1"), "Invalid operand: Unsuitable value for right operand: bool required."],
    ["true || 1", "||", lit(true), num("1"), "Invalid operand: Unsuitable value for right operand: bool required."],
    ['"true" && true', "&&", stringVal("true"), lit(true), "true"],
    ["null + 1", "+", nullVal(DynamicPseudoType), num("1"), "Operation failed: Error during operation: argument must not be null."],
    ["1 + null", "+", num("1"), nullVal(DynamicPseudoType), "Operation failed: Error during operation: argument must not be null."],
    ["null == 1", "==", nullVal(DynamicPseudoType), num("1"), "false"],
    ["null == null", "==", nullVal(DynamicPseudoType), nullVal(StringType), "true"],
    ['1 == "1"', "==", num("1"), stringVal("1"), "false"],
    ['1 != "1"', "!=", num("1"), stringVal("1"), "true"],
    ["[1,2] == [1,2]", "==", lit([1, 2]), lit([1, 2]), "true"],
    ["[1] == tolist([1])", "==", lit([1]), listVal([num("1")]), "false"],
    ["tolist([]) == []", "==", listValEmpty(DynamicPseudoType), lit([]), "false"],
    ['tolist(["a"]) == tolist(["a"])', "==", listVal([stringVal("a")]), listVal([stringVal("a")]), "true"],
    ["{a=1} == {a=1}", "==", lit({ a: 1 }), lit({ a: 1 }), "true"],
    ["{a=1} == {a=2}", "==", lit({ a: 1 }), lit({ a: 2 }), "false"],
    ["false && unknown", "&&", lit(false), unknownVal(BoolType), "unknown(bool)!"],
    ["unknown + 1", "+", unknownVal(NumberType), num("1"), "unknown(number)!"],
    ["unknown string + 1 still checks conversion", "+", unknownVal(StringType), num("1"), "unknown(number)!"],
    ["unknown < 1", "<", DynamicVal, num("1"), "unknown(bool)!"],
  ];
  it.each(cases)("%s", (_n, op, a, b, want) => {
    expect(bin(op, a, b)).toBe(want);
  });

  it("unary minus and not", () => {
    expect(res(unaryOp("-", num("1")))).toBe("-1");
    expect(res(unaryOp("-", num("0")))).toBe("-0");
    expect(res(unaryOp("-", stringVal("a")))).toBe("Invalid operand: Unsuitable value for unary operand: a number is required.");
    expect(res(unaryOp("!", num("1")))).toBe("Invalid operand: Unsuitable value for unary operand: bool required.");
    expect(res(unaryOp("!", nullVal(BoolType)))).toBe("Operation failed: Error during operation: argument must not be null.");
    expect(res(unaryOp("!", lit(true)))).toBe("false");
    expect(res(unaryOp("!", unknownVal(BoolType)))).toBe("unknown(bool)!");
  });
});

describe("marks propagate through operators", () => {
  it("arithmetic", () => {
    expect(bin("+", mark(num("1"), SENSITIVE), num("2"))).toBe("3@sensitive");
    expect(bin("*", num("2"), mark(num("3"), "other"))).toBe("6@other");
    expect(bin("+", mark(num("1"), SENSITIVE), mark(num("1"), "other"))).toBe("2@other@sensitive");
  });
  it("comparison and logic", () => {
    expect(bin("<", mark(num("1"), SENSITIVE), num("2"))).toBe("true@sensitive");
    expect(bin("&&", mark(lit(true), SENSITIVE), lit(false))).toBe("false@sensitive");
    expect(res(unaryOp("!", mark(lit(true), SENSITIVE)))).toBe("false@sensitive");
    expect(res(unaryOp("-", mark(num("2"), SENSITIVE)))).toBe("-2@sensitive");
  });
  it("equality takes marks from anywhere inside the operands", () => {
    expect(bin("==", lit([mark(num("1"), SENSITIVE)]), lit([1]))).toBe("true@sensitive");
    expect(bin("!=", mark(stringVal("a"), SENSITIVE), stringVal("b"))).toBe("true@sensitive");
  });
  it("unknown results keep marks", () => {
    expect(bin("+", mark(unknownVal(NumberType), SENSITIVE), num("1"))).toBe("unknown(number)!@sensitive");
  });
  it("index and attribute access keep the collection's and the key's marks", () => {
    expect(res(index(mark(lit([1, 2]), SENSITIVE), num("0")))).toBe("1@sensitive");
    expect(res(index(lit([1, 2]), mark(num("1"), "k")))).toBe("2@k");
    expect(res(getAttr(mark(lit({ a: 1 }), SENSITIVE), "a"))).toBe("1@sensitive");
    expect(res(index(lit([mark(num("7"), SENSITIVE)]), num("0")))).toBe("7@sensitive");
  });
  it("length keeps marks", () => {
    expect(show(length(mark(listVal([num("1")]), SENSITIVE)))).toBe("1@sensitive");
  });
});

describe("equality with unknowns and refinements", () => {
  const eq = (a: Value, b: Value) => show(equals(a, b));
  it("unknown against known of the same type is unknown", () => {
    expect(eq(unknownVal(StringType), stringVal("a"))).toBe("unknown(bool)!");
  });
  it("unknown against known of another type is false", () => {
    expect(eq(unknownVal(StringType), num("1"))).toBe("false");
  });
  it("unknown against null is unknown unless refined not-null", () => {
    expect(eq(unknownVal(StringType), nullVal(StringType))).toBe("unknown(bool)!");
    expect(eq(refine(unknownVal(StringType)).notNull().newValue(), nullVal(StringType))).toBe("false");
  });
  it("a string prefix refinement can decide inequality", () => {
    const u = refine(unknownVal(StringType)).stringPrefixFull("ami-").newValue();
    expect(eq(u, stringVal("i-123"))).toBe("false");
    expect(eq(u, stringVal("ami-123"))).toBe("unknown(bool)!");
  });
  it("number bounds can decide inequality", () => {
    const u = refine(unknownVal(NumberType)).numberRangeLowerBound(BigFloat.fromInt(0), true).newValue();
    expect(eq(u, num("-1"))).toBe("false");
    expect(eq(u, num("1"))).toBe("unknown(bool)!");
  });
  it("collection length bounds can decide inequality", () => {
    const u = refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(2).newValue();
    expect(eq(u, listVal([stringVal("a")]))).toBe("false");
  });
  it("unknown inside lists makes equality unknown, but a definite difference earlier wins", () => {
    expect(eq(lit([1, unknownVal(NumberType)]), lit([1, 2]))).toBe("unknown(bool)!");
    expect(eq(lit([2, unknownVal(NumberType)]), lit([1, 2]))).toBe("false");
  });
  it("sets with unknown elements compare unknown", () => {
    expect(eq(setVal([num("1"), unknownVal(NumberType)]), setVal([num("1")]))).toBe("unknown(bool)!");
  });
  it("sets compare by membership", () => {
    expect(eq(setVal([num("2"), num("1")]), setVal([num("1"), num("2")]))).toBe("true");
  });
  it("dynamic unknown compares unknown against anything non-null", () => {
    expect(eq(DynamicVal, num("1"))).toBe("unknown(bool)!");
  });
  it("numbers of different precision compare by value", () => {
    expect(eq(numberFloatVal(0.5), num("0.5"))).toBe("true");
    expect(eq(numberFloatVal(0.1), num("0.1"))).toBe("true");
    expect(eq(numberIntVal(3), num("3.0"))).toBe("true");
  });
});

describe("index and attribute access (terraform console answers)", () => {
  const cases: Array<[string, () => OpResult, string]> = [
    ["[][0]", () => index(lit([]), num("0")), "Invalid index: The given key does not identify an element in this collection value: the collection has no elements."],
    ["[1,2][-1]", () => index(lit([1, 2]), num("-1")), "Invalid index: The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence."],
    ["tolist([1])[3]", () => index(listVal([num("1")]), num("3")), "Invalid index: The given key does not identify an element in this collection value."],
    ["[1,2][1.5]", () => index(lit([1, 2]), num("1.5")), "Invalid index: The given key does not identify an element in this collection value: indexing a sequence requires a whole number, but the given index has a fractional part."],
    ['[1,2]["a"]', () => index(lit([1, 2]), stringVal("a")), "Invalid index: The given key does not identify an element in this collection value: a number is required."],
    ['[1,2]["1"]', () => index(lit([1, 2]), stringVal("1")), "2"],
    ['{a=1}["b"]', () => index(lit({ a: 1 }), stringVal("b")), "Invalid index: The given key does not identify an element in this collection value."],
    ["{a=1}[1]", () => index(lit({ a: 1 }), num("1")), "Invalid index: The given key does not identify an element in this collection value. An object only supports looking up attributes by name, not by numeric index."],
    ['tomap({a=1})["b"]', () => index(mapVal({ a: num("1") }), stringVal("b")), "Invalid index: The given key does not identify an element in this collection value."],
    ['tomap({"1"=2})[1]', () => index(mapVal({ "1": num("2") }), num("1")), "2"],
    ["toset([1])[0]", () => index(setVal([num("1")]), num("0")), "Invalid index: Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set."],
    ['"abc"[0]', () => index(stringVal("abc"), num("0")), "Invalid index: This value does not have any indices."],
    ["null[0]", () => index(nullVal(DynamicPseudoType), num("0")), "Attempt to index null value: This value is null, so it does not have any indices."],
    ["[1][null]", () => index(lit([1]), nullVal(DynamicPseudoType)), "Invalid index: Can't use a null value as an indexing key."],
    ["{a=1}.b", () => getAttr(lit({ a: 1 }), "b"), 'Unsupported attribute: This object does not have an attribute named "b".'],
    ["tomap({a=1}).b", () => getAttr(mapVal({ a: num("1") }), "b"), 'Missing map element: This map does not have an element with the key "b".'],
    ["tomap({a=1}).a", () => getAttr(mapVal({ a: num("1") }), "a"), "1"],
    ['"abc".x', () => getAttr(stringVal("abc"), "x"), "Unsupported attribute: Can't access attributes on a primitive-typed value (string)."],
    ["null.a", () => getAttr(nullVal(DynamicPseudoType), "a"), "Attempt to get attribute from null value: This value is null, so it does not have any attributes."],
    ["[{a=1}].a", () => getAttr(lit([{ a: 1 }]), "a"), "Unsupported attribute: This value does not have any attributes."],
    ["unknown list [0]", () => index(unknownVal(listOf(StringType)), num("0")), "unknown(string)"],
    ["list [unknown]", () => index(listVal([stringVal("a")]), unknownVal(NumberType)), "unknown(string)"],
    ["tuple [unknown]", () => index(lit(["a", 1]), unknownVal(NumberType)), "unknown(any)"],
    ["unknown tuple [1]", () => index(unknownVal(ty("tuple([string,number])")), num("1")), "unknown(number)"],
    ["unknown object .a", () => getAttr(unknownVal(ty("object({a=bool})")), "a"), "unknown(bool)"],
    ["DynamicVal.a", () => getAttr(DynamicVal, "a"), "unknown(any)"],
    ["DynamicVal[0]", () => index(DynamicVal, num("0")), "unknown(any)"],
    // A key of unknown type (an untyped variable while validating) selects anything: not the
    // collection's own type, which made `local.envs[var.env].cidr` "Unsupported attribute".
    ["object [DynamicVal]", () => index(lit({ a: { m: 1 }, b: { m: 2 } }), DynamicVal), "unknown(any)"],
    ["list [DynamicVal]", () => index(lit(["a"]), DynamicVal), "unknown(any)"],
    ["set [DynamicVal]", () => index(setVal([num("1")]), DynamicVal), "unknown(any)"],
  ];
  it.each(cases)("%s", (_n, f, want) => {
    expect(res(f())).toBe(want);
  });
});

describe("length", () => {
  it("known collections", () => {
    expect(show(length(listVal([num("1"), num("2")])))).toBe("2");
    expect(show(length(mapVal({ a: num("1") })))).toBe("1");
    expect(show(length(lit([1, "a", true])))).toBe("3");
  });
  it("tuples have a known length even when unknown", () => {
    expect(show(length(unknownVal(ty("tuple([string,number])"))))).toBe("2");
  });
  it("unknown collections give bounded unknown lengths", () => {
    const u = refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(1).collectionLengthUpperBound(4).newValue();
    expect(show(length(u))).toBe("unknown(number)! >=1 <=4");
  });
  it("sets with unknown elements have a length range", () => {
    expect(show(length(setVal([num("1"), unknownVal(NumberType), unknownVal(NumberType)])))).toBe("unknown(number)! >=1 <=3");
    expect(show(length(setVal([unknownVal(NumberType)])))).toBe("1");
  });
});

describe("refined arithmetic on unknowns", () => {
  it("adds bounds", () => {
    const u = refine(unknownVal(NumberType)).notNull().numberRangeInclusive(BigFloat.fromInt(1), BigFloat.fromInt(5)).newValue();
    expect(show((binaryOp("+", u, num("1")) as { value: Value }).value)).toBe("unknown(number)!");
  });
  it("cty-level multiply by exact zero is zero even for unknowns", () => {
    expect(show(multiply(unknownVal(NumberType), numberIntVal(0)))).toBe("0");
  });
  it("a number refined to one value becomes known", () => {
    expect(show(refine(unknownVal(NumberType)).notNull().numberRangeInclusive(BigFloat.fromInt(3), BigFloat.fromInt(3)).newValue())).toBe("3");
  });
  it("a collection refined to length 0 becomes a known empty collection", () => {
    expect(show(refine(unknownVal(listOf(StringType))).notNull().collectionLengthUpperBound(0).newValue())).toBe("list<list(string)>()");
  });
  it("tuple values report their element unknowns", () => {
    expect(show(tupleVal([unknownVal(StringType)]))).toBe("tuple(unknown(string))");
  });
});


describe("hasIndex and hasElement", () => {
  it("hasIndex", () => {
    expect(show(hasIndex(lit([1, 2]), num("1")))).toBe("true");
    expect(show(hasIndex(lit([1, 2]), num("2")))).toBe("false");
    expect(show(hasIndex(lit([1, 2]), num("-1")))).toBe("false");
    expect(show(hasIndex(lit([1, 2]), num("0.5")))).toBe("false");
    expect(show(hasIndex(lit([1, 2]), stringVal("0")))).toBe("false");
    expect(show(hasIndex(mapVal({ a: num("1") }), stringVal("a")))).toBe("true");
    expect(show(hasIndex(mapVal({ a: num("1") }), stringVal("b")))).toBe("false");
    expect(show(hasIndex(unknownVal(listOf(StringType)), num("0")))).toBe("unknown(bool)!");
    expect(show(hasIndex(unknownVal(ty("tuple([string])")), num("0")))).toBe("true");
    expect(show(hasIndex(mark(lit([1]), SENSITIVE), num("0")))).toBe("true@sensitive");
  });
  it("hasElement", () => {
    const s = setVal([num("1"), num("2")]);
    expect(show(hasElement(s, num("2")))).toBe("true");
    expect(show(hasElement(s, num("3")))).toBe("false");
    expect(show(hasElement(s, stringVal("1")))).toBe("false");
    expect(show(hasElement(s, unknownVal(NumberType)))).toBe("unknown(bool)!");
    expect(show(hasElement(setVal([num("1"), unknownVal(NumberType)]), num("3")))).toBe("unknown(bool)!");
    expect(show(hasElement(setVal([num("1"), unknownVal(NumberType)]), num("1")))).toBe("true");
  });
});

// Answers from `terraform console -plan` with
//   u  = terraform_data.x.output                  (unknown string)
//   ub = terraform_data.x.output == "a"           (unknown bool)
//   un = length(terraform_data.x.id)              (unknown number, not null, >= 0)
describe("unknown operands (terraform console -plan answers)", () => {
  const u = unknownVal(StringType);
  const ub = refine(unknownVal(BoolType)).notNull().newValue();
  const un = refine(unknownVal(NumberType)).notNull().numberRangeLowerBound(BigFloat.fromInt(0), true).newValue();
  const id = refine(unknownVal(StringType)).notNull().newValue();
  const K = "(known after apply)";
  const cases: Array<[string, BinaryOperator, Value, Value, string]> = [
    ["false && ub", "&&", lit(false), ub, K],
    ["true || ub", "||", lit(true), ub, K],
    ["ub && false", "&&", ub, lit(false), K],
    ["un + 1", "+", un, num("1"), K],
    ["un > -1", ">", un, num("-1"), "true"],
    ["un >= 0", ">=", un, num("0"), K],
    ["un < 0", "<", un, num("0"), K],
    ["un <= -1", "<=", un, num("-1"), "false"],
    ["un >= -1", ">=", un, num("-1"), "true"],
    ["un <= 0", "<=", un, num("0"), K],
    ["-1 < un", "<", num("-1"), un, "true"],
    ["un != null", "!=", un, nullVal(DynamicPseudoType), "true"],
    ["un == -1", "==", un, num("-1"), "false"],
    ["un * 0", "*", un, num("0"), K],
    ["0 * un", "*", num("0"), un, K],
    ["un - un", "-", un, un, K],
    ["un / 0", "/", un, num("0"), K],
    ["id == null", "==", id, nullVal(DynamicPseudoType), "false"],
    ["u == null", "==", u, nullVal(DynamicPseudoType), K],
    ["ub == true", "==", ub, lit(true), K],
    ["ub == 1", "==", ub, num("1"), "false"],
    ["u + 1", "+", u, num("1"), K],
    ["u == 1", "==", u, num("1"), "false"],
    ['u == "a"', "==", u, stringVal("a"), K],
    ['[u] == ["a"]', "==", lit([u]), lit(["a"]), K],
    ['[u] == ["a", "b"]', "==", lit([u]), lit(["a", "b"]), "false"],
  ];
  it.each(cases)("%s", (_n, op, a, b, want) => {
    const r = binaryOp(op, a, b);
    expect(r.ok ? formatValue(r.value) : r.detail).toBe(want);
  });
  it("!ub and -un", () => {
    const n = unaryOp("!", ub);
    const m = unaryOp("-", un);
    expect(n.ok && formatValue(n.value)).toBe(K);
    expect(m.ok && formatValue(m.value)).toBe(K);
  });
  it("conversions with unknown elements", () => {
    const a = convert(lit({ a: u, b: 1 }), mapOf(DynamicPseudoType));
    expect(a.ok && formatValue(a.value)).toBe('tomap({\n  "a" = (known after apply)\n  "b" = "1"\n})');
    const b = convert(lit([ub, "x"]), listOf(DynamicPseudoType));
    expect(b.ok && formatValue(b.value)).toBe('tolist([\n  (known after apply),\n  "x",\n])');
    const c = convert(lit([u, "b", u]), setOf(DynamicPseudoType));
    expect(c.ok && formatValue(c.value)).toBe('toset([\n  "b",\n  (known after apply),\n  (known after apply),\n])');
    expect(c.ok && formatValue(length(c.value))).toBe(K);
    expect(formatValue(length(lit([u])))).toBe("1");
  });
  // issensitive(<expr>) answers: true when the (unknown) result is marked, unknown when not.
  it("marks on unknown results follow cty's Function.Call", () => {
    const S = (v: Value) => mark(v, SENSITIVE);
    const marked = (r: OpResult) => r.ok && r.value.marks.has(SENSITIVE);
    expect(marked(binaryOp("+", S(num("1")), un))).toBe(true);
    expect(marked(binaryOp("+", un, S(num("1"))))).toBe(true);
    expect(marked(binaryOp("*", S(num("1")), un))).toBe(true);
    expect(marked(binaryOp("%", S(num("2")), un))).toBe(true);
    expect(marked(binaryOp(">", S(num("1")), un))).toBe(true);
    expect(marked(binaryOp("<=", S(num("1")), un))).toBe(true);
    expect(marked(binaryOp("==", S(num("1")), un))).toBe(true);
    expect(marked(binaryOp("!=", un, S(num("1"))))).toBe(true);
    expect(marked(binaryOp("==", lit([S(num("1")), u]), lit([1, "a"])))).toBe(true);
    expect(marked(binaryOp("&&", S(lit(true)), ub))).toBe(false);
    expect(marked(binaryOp("&&", S(lit(false)), ub))).toBe(false);
    expect(marked(binaryOp("&&", ub, S(lit(true))))).toBe(false);
    expect(marked(unaryOp("!", S(ub)))).toBe(false);
    expect(marked(unaryOp("-", S(un)))).toBe(false);
    expect(marked(binaryOp("&&", S(lit(true)), lit(true)))).toBe(true);
    expect(marked(unaryOp("-", S(num("1"))))).toBe(true);
  });
  it("logical operators do not short-circuit (terraform console answers)", () => {
    expect(bin("&&", lit(false), nullVal(DynamicPseudoType))).toBe("Operation failed: Error during operation: argument must not be null.");
    expect(bin("||", lit(true), nullVal(DynamicPseudoType))).toBe("Operation failed: Error during operation: argument must not be null.");
    expect(bin("&&", lit(false), stringVal("x"))).toBe("Invalid operand: Unsuitable value for right operand: a bool is required.");
  });
});
