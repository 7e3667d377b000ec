import { describe, expect, it } from "vitest";
import { BigFloat, DynamicVal, boolVal, numberVal, numberIntVal, nullVal, StringType, stringVal, unknownVal, listValEmpty } from "../values/index.js";
import {
  NoKey,
  compareInstanceKeys,
  instanceKeyEqual,
  instanceKeyFromLiteral,
  instanceKeyLess,
  instanceKeyString,
  instanceKeyValue,
  intKey,
  parseInstanceKey,
  stringKey,
  toHCLQuotedString,
  type InstanceKey,
} from "./index.js";

const WHOLE = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

describe("parseInstanceKey", () => {
  it("maps strings and whole numbers", () => {
    expect(parseInstanceKey(stringVal("a"))).toEqual({ key: stringKey("a") });
    expect(parseInstanceKey(numberIntVal(3))).toEqual({ key: intKey(3) });
    expect(parseInstanceKey(numberIntVal(-1))).toEqual({ key: intKey(-1) });
  });
  it("rejects fractions and other types with OpenTofu's texts", () => {
    expect(parseInstanceKey(numberVal(BigFloat.parse("1.5") as BigFloat)).error).toBe(WHOLE);
    expect(parseInstanceKey(boolVal(true)).error).toBe("either a string or an integer is required");
    expect(parseInstanceKey(listValEmpty(StringType)).error).toBe("either a string or an integer is required");
  });
  it("treats unknown and null as programmer errors", () => {
    expect(() => parseInstanceKey(unknownVal(StringType))).toThrow();
    expect(() => parseInstanceKey(nullVal(StringType))).toThrow();
    expect(() => parseInstanceKey(DynamicVal)).toThrow();
  });
  it("reads traversal literals", () => {
    expect(instanceKeyFromLiteral({ type: "number", text: "2" })).toEqual({ key: intKey(2) });
    expect(instanceKeyFromLiteral({ type: "number", text: "2.5" }).error).toBe(WHOLE);
    expect(instanceKeyFromLiteral({ type: "string", value: "x" })).toEqual({ key: stringKey("x") });
    expect(instanceKeyFromLiteral({ type: "bool", value: true }).error).toBe("either a string or an integer is required");
  });
});

describe("instanceKeyString", () => {
  const cases: [InstanceKey, string][] = [
    [NoKey, ""],
    [intKey(0), "[0]"],
    [intKey(-3), "[-3]"],
    [stringKey("a"), '["a"]'],
    [stringKey(""), '[""]'],
    [stringKey('say "hi"\\'), '["say \\"hi\\"\\\\"]'],
    [stringKey("a\nb\tc\rd"), '["a\\nb\\tc\\rd"]'],
    [stringKey("${x} %{y} $ % $$"), '["$${x} %%{y} $ % $$"]'],
    [stringKey("\u0000\u00a0é😀"), '["\\u0000\\u00a0é😀"]'],
    [stringKey("\u{e0001}"), '["\\U000e0001"]'],
  ];
  it.each(cases)("%j -> %s", (k, want) => {
    expect(instanceKeyString(k)).toBe(want);
  });
  it("quotes like HCL", () => {
    expect(toHCLQuotedString("")).toBe('""');
  });
});

describe("ordering and equality", () => {
  it("sorts NoKey, then ints numerically, then strings bytewise", () => {
    const keys: InstanceKey[] = [stringKey("b"), intKey(10), stringKey("B"), NoKey, intKey(2), stringKey("a")];
    expect([...keys].sort(compareInstanceKeys).map(instanceKeyString)).toEqual(["", "[2]", "[10]", '["B"]', '["a"]', '["b"]']);
    expect(instanceKeyLess(NoKey, intKey(0))).toBe(true);
    expect(instanceKeyLess(intKey(0), NoKey)).toBe(false);
    expect(instanceKeyLess(intKey(99), stringKey("0"))).toBe(true);
    expect(instanceKeyLess(intKey(1), intKey(1))).toBe(false);
  });
  it("compares by kind and value", () => {
    expect(instanceKeyEqual(NoKey, NoKey)).toBe(true);
    expect(instanceKeyEqual(intKey(1), intKey(1))).toBe(true);
    expect(instanceKeyEqual(intKey(1), stringKey("1"))).toBe(false);
    expect(instanceKeyEqual(stringKey("a"), NoKey)).toBe(false);
  });
});

describe("instanceKeyValue", () => {
  it("gives count.index and each.key values", () => {
    expect(instanceKeyValue(intKey(4))).toEqual(numberIntVal(4));
    expect(instanceKeyValue(stringKey("k"))).toEqual(stringVal("k"));
    expect(() => instanceKeyValue(NoKey)).toThrow();
    expect(() => intKey(1.5)).toThrow();
  });
});
