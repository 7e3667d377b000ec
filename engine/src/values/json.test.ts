import { describe, expect, it } from "vitest";
import { decodeJSONImplied, impliedTypeJSON, marshalJSON, unmarshalJSON } from "./json.js";
import { formatPathError } from "./path.js";
import { lit, num, show, ty } from "./testutil.js";
import { DynamicPseudoType, NumberType, StringType, typeString } from "./types.js";
import { SENSITIVE, listValEmpty, mark, nullVal, setVal, stringVal, unknownVal, type Value } from "./value.js";
import { binaryOp } from "./ops.js";

const enc = (v: Value, t = v.type) => {
  const r = marshalJSON(v, t);
  return r.ok ? r.value : `error: ${formatPathError(r.error)}`;
};
const dec = (src: string, t: string) => {
  const r = unmarshalJSON(src, ty(t));
  return r.ok ? show(r.value) : `error: ${formatPathError(r.error)}`;
};
const implied = (src: string) => {
  const r = decodeJSONImplied(src);
  return r.ok ? show(r.value) : `error: ${formatPathError(r.error)}`;
};

// jsonencode(v) is json.Marshal(v, type(v)); the answers are terraform console's.
describe("JSON marshal (jsonencode answers)", () => {
  const third = (binaryOp("/", num("1"), num("3")) as { value: Value }).value;
  const cases: Array<[string, Value, string]> = [
    ["keys sorted, HTML escaped", lit({ b: 1, a: "<x>&" }), '{"a":"\\u003cx\\u003e\\u0026","b":1}'],
    ["1/3 with all digits", third, "0." + "3".repeat(154) + "5"],
    ["tuple with null", lit([1, "a", nullVal(DynamicPseudoType), true]), '[1,"a",null,true]'],
    ["empty list", listValEmpty(StringType), "[]"],
    ["empty object", lit({}), "{}"],
    ["line separator escaped, é kept", stringVal("\u2028é"), '"\\u2028é"'],
    ["1e21 in full", num("1e21"), "1000000000000000000000"],
    ["negative zero", num("-0"), "-0"],
    ["set in order", setVal([num("2"), num("1")]), "[1,2]"],
    ["control characters", stringVal("\u0001\t"), '"\\u0001\\t"'],
    ["nested", lit({ z: [{ y: true }], a: { b: "c" } }), '{"a":{"b":"c"},"z":[{"y":true}]}'],
  ];
  it.each(cases)("%s", (_n, v, want) => {
    expect(enc(v)).toBe(want);
  });
  it("infinity cannot be serialized", () => {
    const inf = (binaryOp("/", num("1"), num("0")) as { value: Value }).value;
    expect(enc(inf)).toBe("error: cannot serialize infinity as JSON");
  });
  it("unknown values cannot be serialized", () => {
    expect(enc(lit({ a: unknownVal(StringType) }))).toBe("error: .a: value is not known");
  });
  it("marked values cannot be serialized", () => {
    expect(enc(lit([mark(stringVal("s"), SENSITIVE)]))).toBe("error: [0]: value has marks, so it cannot be serialized as JSON");
  });
  it("a dynamic schema type wraps the value with its type", () => {
    expect(enc(lit({ a: 1 }), DynamicPseudoType)).toBe('{"value":{"a":1},"type":["object",{"a":"number"}]}');
    expect(enc(lit({ a: "x" }), ty("object({a=any})"))).toBe('{"a":{"value":"x","type":"string"}}');
  });
  it("object attributes missing from the value are written as null", () => {
    expect(enc(lit({ a: 1 }), ty("object({a=number,b=string})"))).toBe('{"a":1,"b":null}');
  });
});

describe("JSON unmarshal with a type", () => {
  const cases: Array<[string, string, string]> = [
    ['{"a":1,"b":"x"}', "object({a=number,b=string})", 'object{a: 1, b: "x"}'],
    ['{"a":1}', "object({a=number,b=string})", "object{a: 1, b: null(string)}"],
    ['{"a":1,"c":2}', "object({a=number})", 'error: unsupported attribute "c"'],
    // Located deep inside (paths are worked out again only for a failure).
    ['{"a":{"m":[1,{}]}}', "object({a=object({m=list(number)})})", "error: .a.m[1]: number is required"],
    ['{"m":{"k":[true,"x"]}}', "object({m=map(tuple([bool,bool]))})", 'error: .m["k"][1]: a bool is required'],
    ["[1,2]", "list(number)", "list(1, 2)"],
    ["[2,1,2]", "set(number)", "set(1, 2)"],
    ['{"k":"v"}', "map(string)", 'map{"k": "v"}'],
    ["{}", "map(string)", "map<map(string)>{}"],
    ['[1,"a"]', "tuple([number,string])", 'tuple(1, "a")'],
    ["[1]", "tuple([number,string])", "error: not enough tuple elements (need 2)"],
    ["[1,2,3]", "tuple([number,string])", "error: too many tuple elements (need 2)"],
    ['{"a":1}', "list(number)", "error: need JSON array for list"],
    ["[1]", "map(number)", "error: need JSON object for map"],
    ["[1]", "object({a=number})", "error: need JSON object for object"],
    ['["x"]', "set(number)", "error: [(not yet known)]: a number is required"],
    ["1", "any", "error: need JSON object for dynamically-typed value"],
    ["12345678901234567890.5", "number", "12345678901234567890.5"],
    ['"12"', "number", "12"],
    ['"x"', "number", "error: a number is required"],
    ["true", "number", "error: number is required"],
    ["1.5", "string", '"1.5"'],
    ["true", "string", '"true"'],
    ['"true"', "bool", "true"],
    ['"maybe"', "bool", "error: a bool is required"],
    ["1", "bool", "error: bool is required"],
    ["null", "list(string)", "null(list(string))"],
    ['{"value":"x","type":"string"}', "any", '"x"'],
    ['{"value":[1],"type":["list","number"]}', "any", "list(1)"],
    ['{"value":1}', "any", "error: missing type in dynamically-typed value"],
    ['[1,"x"]', "list(number)", "error: [1]: a number is required"],
    ['{"a":{"b":"q"}}', "object({a=object({b=number})})", "error: .a.b: a number is required"],
    ["[1,]", "list(number)", "error: invalid character ']' looking for beginning of value"],
    ["[1] x", "list(number)", "error: extraneous data after JSON object"],
  ];
  it.each(cases)("%s as %s", (src, t, want) => {
    expect(dec(src, t)).toBe(want);
  });
});

describe("implied types (jsondecode answers)", () => {
  it.each([
    ['{"a":1e400}', "object{a: 1" + "0".repeat(400) + "}"],
    ['[1,"a",null]', 'tuple(1, "a", null(any))'],
    ["12345678901234567890.5", "12345678901234567890.5"],
    ['{"a":1,"a":2}', "object{a: 2}"],
    ['"\\u00e9\\n"', '"é\\n"'],
    ["[]", "tuple()"],
  ])("%s", (src, want) => {
    expect(implied(src)).toBe(want);
  });
  it("types", () => {
    const r = impliedTypeJSON('{"b":[true,{"c":null}],"a":"x"}');
    expect(r.ok && typeString(r.value)).toBe("object({a=string,b=tuple([bool,object({c=any})])})");
    const n = impliedTypeJSON("3");
    expect(n.ok && n.value).toBe(NumberType);
  });
});

describe("input nested deeper than the stack allows", () => {
  // Regression: 20,000 nested arrays overflowed the recursive decoder and crashed the caller.
  it("is a failed result, not an exception", () => {
    const deep = "[".repeat(20000) + "]".repeat(20000);
    const r = decodeJSONImplied(deep);
    expect(r.ok).toBe(false);
    expect(!r.ok && formatPathError(r.error)).toBe("value is nested too deeply to decode");
  });
  it("is a failed result however the stack runs out (V8 may report it as a SyntaxError from a regex)", () => {
    for (const depth of [3000, 5000, 12000]) {
      const r = decodeJSONImplied('{"a":'.repeat(depth) + "1" + "}".repeat(depth));
      expect(!r.ok && formatPathError(r.error)).toBe("value is nested too deeply to decode");
    }
  });
});
