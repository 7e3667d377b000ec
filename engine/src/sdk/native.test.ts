import { describe, expect, it } from "vitest";
import { NumberType, StringType, formatValue, listOf, mapOf, objectOf, setOf, unknownVal } from "../values/index.js";
import { NativeTypeError, UNKNOWN, fromNative, toNative } from "./native.js";

describe("native views", () => {
  const t = objectOf({ a: StringType, n: NumberType, l: listOf(StringType), m: mapOf(NumberType), s: setOf(StringType) });

  it("round-trips plain data, filling absent attributes with null", () => {
    const v = fromNative({ a: "x", n: 1.5, s: ["b", "a", "b"] }, t);
    expect(formatValue(v)).toBe('{\n  "a" = "x"\n  "l" = tolist(null) /* of string */\n  "m" = tomap(null) /* of number */\n  "n" = 1.5\n  "s" = toset([\n    "a",\n    "b",\n  ])\n}');
    expect(toNative(v)).toEqual({ a: "x", n: 1.5, l: null, m: null, s: ["a", "b"] });
  });

  it("maps unknowns both ways and rejects data that does not fit", () => {
    expect(toNative(fromNative({ a: UNKNOWN }, t))).toMatchObject({ a: UNKNOWN });
    expect(fromNative(UNKNOWN, StringType)).toEqual(unknownVal(StringType));
    expect(() => fromNative({ a: [1] }, t)).toThrow(NativeTypeError);
    expect(() => fromNative({ zz: 1 }, t)).toThrow(/unexpected attribute "zz"/);
  });
});
