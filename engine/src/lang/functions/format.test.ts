import { describe, expect, it } from "vitest";
import {
  DynamicVal,
  NumberType,
  SENSITIVE,
  StringType,
  listOf,
  listVal,
  mark,
  numberIntVal,
  stringVal,
  tupleOf,
  tupleVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { formatFunctions } from "./format.js";
import { testContext, describeOracle, loadOracle, functionCaller } from "./oracle.testkit.js";


describeOracle("format and formatlist match terraform console", loadOracle("format.terraform.json"));

const fns = formatFunctions(testContext);

const call = functionCaller(fns);

const s = stringVal;
const n = numberIntVal;
const unknownStr = unknownVal(StringType);

describe("format with unknown arguments", () => {
  it("refines the result with the literal text before the first verb", () => {
    // The last character is dropped: a later combining mark could still change it.
    expect(call("format", s("Hello, %s!"), unknownStr)).toBe('unknown(string)! prefix="Hello,"');
    expect(call("format", s("é%s"), unknownStr)).toBe("unknown(string)!");
    expect(call("format", s("%s!"), unknownStr)).toBe("unknown(string)!");
  });

  it("needs every nested value known", () => {
    expect(call("format", s("x%v"), tupleVal([n(1), unknownVal(NumberType)]))).toBe("unknown(string)!");
  });

  it("gives an unknown for an unknown format string, before looking at the verbs", () => {
    expect(call("format", unknownStr, s("a"))).toBe("unknown(string)!");
  });

  it("still reports verb errors when every argument is known", () => {
    expect(call("format", s("%d"), s("x"))).toBe(
      'Error in function call: Call to function "format" failed: unsupported value for "%d" at 0: a number is required.',
    );
  });
});

describe("formatlist with unknown arguments", () => {
  it("is unknown while a list's length is unknown", () => {
    expect(call("formatlist", s("%s"), unknownVal(listOf(StringType)))).toBe("unknown(list(string))!");
    // A value of undecided type leaves even the result type undecided (cty returns DynamicVal).
    expect(call("formatlist", s("%s"), DynamicVal)).toBe("unknown(any)");
    expect(call("format", s("%s"), DynamicVal)).toBe("unknown(any)");
  });

  it("checks lengths against an unknown tuple, whose length is in its type", () => {
    expect(call("formatlist", s("%s%s"), unknownVal(tupleOf([StringType, StringType])), listVal([s("a")]))).toBe(
      'Invalid function argument: Invalid value for "args" parameter: argument 2 has length 1, which is inconsistent with argument 1 of length 2.',
    );
    expect(call("formatlist", s("%s%s"), unknownVal(tupleOf([StringType])), listVal([s("a")]))).toBe("unknown(list(string))!");
  });

  it("makes only the affected elements unknown", () => {
    expect(call("formatlist", s("<%s>"), listVal([s("a"), unknownStr, s("c")]))).toBe('list("<a>", unknown(string)!, "<c>")');
    expect(call("formatlist", s("%s-%s"), listVal([s("a"), s("b")]), unknownStr)).toBe("list(unknown(string)!, unknown(string)!)");
  });
});

describe("sensitive arguments", () => {
  it("marks the whole result", () => {
    expect(call("format", s("%s/%s"), s("a"), mark(s("b"), SENSITIVE))).toBe('"a/b"@sensitive');
    expect(call("formatlist", s("%s"), listVal([s("a"), mark(s("b"), SENSITIVE)]))).toBe('list("a", "b")@sensitive');
  });
});

describe("absurd widths", () => {
  it("fail instead of building a string no engine can hold", () => {
    expect(call("format", s("%999999999999s"), s("a"))).toBe('Error in function call: Call to function "format" failed: width or precision too large at offset 0.');
    expect(call("format", s("%.999999999999f"), n(1))).toBe('Error in function call: Call to function "format" failed: width or precision too large at offset 0.');
  });
});
