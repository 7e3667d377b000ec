import { describe, expect, it } from "vitest";
import { BigFloat } from "./bigfloat.js";
import { convert } from "./convert.js";
import { rawEquals } from "./equality.js";
import { fromHex, hex, marshalMsgpack, unmarshalMsgpack } from "./msgpack.js";
import { formatPathError } from "./path.js";
import { lit, num, show, ty } from "./testutil.js";
import { BoolType, DynamicPseudoType, NumberType, StringType, listOf, type Type } from "./types.js";
import {
  DynamicVal,
  SENSITIVE,
  mark,
  nullVal,
  numberFloatVal,
  refine,
  setVal,
  stringVal,
  unknownVal,
  type Value,
} from "./value.js";

const enc = (v: Value, t: Type = v.type) => {
  const r = marshalMsgpack(v, t);
  return r.ok ? hex(r.value) : `error: ${formatPathError(r.error)}`;
};
const dec = (bytes: string, t: Type) => {
  const r = unmarshalMsgpack(fromHex(bytes), t);
  return r.ok ? show(r.value) : `error: ${formatPathError(r.error)}`;
};

const notNullString = refine(unknownVal(StringType)).notNull().newValue();

// ../shared/conformance/opentofu/cases/081-msgpack-unknown-value-encoding/expect.md
describe("case 081: msgpack unknown value encoding", () => {
  const cases: Array<[string, Value, Type, string]> = [
    ["null (any type)", nullVal(StringType), StringType, "c0"],
    ['string "hi"', stringVal("hi"), StringType, "a2 68 69"],
    ["0", num("0"), NumberType, "00"],
    ["-1", num("-1"), NumberType, "ff"],
    ["300", num("300"), NumberType, "cd 01 2c"],
    ["1.5", num("1.5"), NumberType, "cb 3f f8 00 00 00 00 00 00"],
    ["string under dynamic", stringVal("hi"), DynamicPseudoType, "92 c4 08 22 73 74 72 69 6e 67 22 a2 68 69"],
    ["wholly unknown", unknownVal(StringType), StringType, "d4 00 00"],
    ["unknown string, not null", notNullString, StringType, "c7 03 0c 81 01 c2"],
    [
      'unknown string, not null, prefix "foo-"',
      refine(unknownVal(StringType)).notNull().stringPrefixFull("foo-").newValue(),
      StringType,
      "c7 09 0c 82 01 c2 02 a4 66 6f 6f 2d",
    ],
    [
      "unknown number, lower bound 0 inclusive",
      refine(unknownVal(NumberType)).numberRangeLowerBound(BigFloat.fromInt(0), true).newValue(),
      NumberType,
      "c7 05 0c 81 03 92 00 c3",
    ],
    [
      "unknown list(string), length >= 1",
      refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(1).newValue(),
      listOf(StringType),
      "c7 03 0c 81 05 01",
    ],
    ["unknown bool, not null", refine(unknownVal(BoolType)).notNull().newValue(), BoolType, "c7 03 0c 81 01 c2"],
    ["unknown string under dynamic", unknownVal(StringType), DynamicPseudoType, "92 c4 08 22 73 74 72 69 6e 67 22 d4 00 00"],
    ["DynamicVal under dynamic", DynamicVal, DynamicPseudoType, "d4 00 00"],
  ];
  it.each(cases)("%s encodes as %s", (_n, v, t, bytes) => {
    expect(enc(v, t)).toBe(bytes);
  });
  it.each(cases)("%s round-trips", (_n, v, t, bytes) => {
    const r = unmarshalMsgpack(fromHex(bytes), t);
    expect(r.ok).toBe(true);
    if (r.ok) expect(rawEquals(r.value, v) || show(r.value) === show(v)).toBe(true);
  });
  it("decodes a refined prefix", () => {
    expect(dec("c7 09 0c 82 01 c2 02 a4 66 6f 6f 2d", StringType)).toBe('unknown(string)! prefix="foo-"');
  });
  it("any 1-byte extension is a wholly unknown value", () => {
    expect(dec("d4 05 00", NumberType)).toBe("unknown(number)");
  });
  it("rejects longer payloads of other extension types", () => {
    expect(dec("d5 05 00 00", NumberType)).toBe("error: unsupported extension type 0x05 with len 2");
  });
  it("ignores unknown refinement keys", () => {
    expect(dec("c7 05 0c 82 01 c2 63 c3", StringType)).toBe("unknown(string)!");
  });
  it("a dynamic unknown stays wholly unknown even when refined", () => {
    expect(enc(refine(DynamicVal).notNull().newValue(), DynamicPseudoType)).toBe("d4 00 00");
  });
});

describe("msgpack known values", () => {
  const cases: Array<[string, Value, Type, string]> = [
    ["true", lit(true), BoolType, "c3"],
    ["false", lit(false), BoolType, "c2"],
    ["127", num("127"), NumberType, "7f"],
    ["128", num("128"), NumberType, "cc 80"],
    ["65536", num("65536"), NumberType, "ce 00 01 00 00"],
    ["2^32", num("4294967296"), NumberType, "cf 00 00 00 01 00 00 00 00"],
    ["-32", num("-32"), NumberType, "e0"],
    ["-33", num("-33"), NumberType, "d0 df"],
    ["-129", num("-129"), NumberType, "d1 ff 7f"],
    ["-40000", num("-40000"), NumberType, "d2 ff ff 63 c0"],
    ["-2^40", num("-1099511627776"), NumberType, "d3 ff ff ff 00 00 00 00 00"],
    ["2^63 is not an int64: float64", num("9223372036854775808"), NumberType, "cb 43 e0 00 00 00 00 00 00"],
    ["2^64+1 is text", num("18446744073709551617"), NumberType, "b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 37"],
    ["0.1 is text (not exact in float64)", num("0.1"), NumberType, "a3 30 2e 31"],
    ["float64 0.1 is float64", numberFloatVal(0.1), NumberType, "cb 3f b9 99 99 99 99 99 9a"],
    ["-0 is 0", num("-0"), NumberType, "00"],
    ["str8 for 32 bytes", stringVal("a".repeat(32)), StringType, "d9 20 " + "61 ".repeat(32).trim()],
    ["list", lit(["a", "b"]), ty("list(string)"), "92 a1 61 a1 62"],
    ["set sorted", setVal([num("2"), num("1")]), ty("set(number)"), "92 01 02"],
    ["object sorted keys with nulls", lit({ b: 1, a: nullVal(StringType) }), ty("object({a=string,b=number})"), "82 a1 61 c0 a1 62 01"],
    ["map", lit({ k: "v" }), ty("map(string)"), "81 a1 6b a1 76"],
    ["tuple", lit([1, "x"]), ty("tuple([number,string])"), "92 01 a1 78"],
    ["object attribute under dynamic", lit({ a: 1 }), ty("object({a=any})"), "81 a1 61 92 c4 08 22 6e 75 6d 62 65 72 22 01"],
    ["null under dynamic", nullVal(DynamicPseudoType), DynamicPseudoType, "c0"],
  ];
  it.each(cases)("%s", (_n, v, t, bytes) => {
    expect(enc(v, t)).toBe(bytes);
  });
  it.each(cases.filter((c) => c[0] !== "-0 is 0" && !c[0].startsWith("2^63")))("%s decodes back", (_n, v, t, bytes) => {
    const r = unmarshalMsgpack(fromHex(bytes), t);
    const want = convert(v, t);
    expect(want.ok).toBe(true);
    expect(r.ok && show(r.value)).toBe(want.ok && show(want.value));
  });
  it("floats decode at float64 precision, as cty's NumberFloatVal", () => {
    expect(dec("cb 43 e0 00 00 00 00 00 00", NumberType)).toBe("9223372036854776000");
    const third = unmarshalMsgpack(fromHex("cb 3f d5 55 55 55 55 55 55"), NumberType);
    expect(third.ok && show(third.value)).toBe("0.3333333333333333");
  });
  it("integers decode at 64 bits (uint64 max stays exact)", () => {
    expect(dec("cf ff ff ff ff ff ff ff ff", NumberType)).toBe("18446744073709551615");
    expect(dec("d3 80 00 00 00 00 00 00 00", NumberType)).toBe("-9223372036854775808");
  });
  it("accepts any map key order and a __proto__ attribute", () => {
    expect(dec("82 a1 62 01 a1 61 02", ty("object({a=number,b=number})"))).toBe("object{a: 2, b: 1}");
    expect(dec("81 a9 5f 5f 70 72 6f 74 6f 5f 5f 01", ty("map(number)"))).toBe('map{"__proto__": 1}');
  });
  it("rejects truncated and trailing data", () => {
    expect(dec("92 01", ty("list(number)"))).toBe("error: invalid msgpack: unexpected end of msgpack data");
    expect(dec("01 02", NumberType)).toBe("error: invalid msgpack: extra data after msgpack object");
  });
  it("-0 travels as the integer 0, as in cty", () => {
    expect(dec("00", NumberType)).toBe("0");
  });
  it("marked values cannot be serialized", () => {
    expect(enc(lit({ a: mark(stringVal("x"), SENSITIVE) }))).toBe("error: .a: value has marks, so it cannot be serialized");
    // Deep inside, the error still says where (paths are worked out again only for a failure).
    expect(enc(lit({ m: { k: [stringVal("ok"), mark(stringVal("x"), SENSITIVE)] } }))).toBe('error: .m.k[1]: value has marks, so it cannot be serialized');
  });
  it("writes short ASCII strings and longer or non-ASCII ones alike as str", () => {
    const long = "x".repeat(40);
    expect(marshalMsgpack(stringVal("héllo"), StringType)).toEqual({ ok: true, value: Uint8Array.from([0xa6, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f]) });
    expect(marshalMsgpack(stringVal(long), StringType)).toEqual({ ok: true, value: Uint8Array.from([0xd9, 40, ...Array.from({ length: 40 }, () => 0x78)]) });
    expect(marshalMsgpack(stringVal("a\u0000b"), StringType)).toEqual({ ok: true, value: Uint8Array.from([0xa3, 0x61, 0x00, 0x62]) });
  });
  it("decodes numbers sent as strings and float32", () => {
    expect(dec("a3 31 2e 35", NumberType)).toBe("1.5");
    expect(dec("ca 3f c0 00 00", NumberType)).toBe("1.5");
  });
  it("reports type mismatches", () => {
    expect(dec("a1 61", NumberType)).toBe("error: number is required");
    expect(dec("01", StringType)).toBe("error: string is required");
    expect(dec("81 a1 7a 01", ty("object({a=number})"))).toBe('error: ["z"]: unsupported attribute');
    expect(dec("81 a1 61 01", ty("object({a=number,b=number})"))).toBe("error: an object with 2 attributes is required (1 given)");
    expect(dec("81 01 01", ty("map(number)"))).toBe("error: non-string key in map");
    expect(dec("91 a1 7a", ty("list(number)"))).toBe("error: [0]: number is required");
    expect(dec("93 01 02 03", ty("tuple([number])"))).toBe("error: a tuple of length 1 is required");
  });
  it("round-trips a nested value with unknowns under a dynamic type", () => {
    const v = lit({ list: [1, "x"], u: unknownVal(StringType), n: nullVal(NumberType) });
    const r = marshalMsgpack(v, DynamicPseudoType);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const back = unmarshalMsgpack(r.value, DynamicPseudoType);
    expect(back.ok && show(back.value)).toBe(show(v));
  });
});
