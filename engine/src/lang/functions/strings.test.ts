import { describe, expect, it } from "vitest";
import {
  BoolType,
  DynamicVal,
  SENSITIVE,
  StringType,
  listOf,
  listVal,
  mark,
  numberIntVal,
  refine,
  stringVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { testContext, describeOracle, loadOracle, functionCaller } from "./oracle.testkit.js";
import { stringsFunctions } from "./strings.js";


describeOracle("string functions match terraform console", loadOracle("strings.terraform.json"));

const fns = stringsFunctions(testContext);

const call = functionCaller(fns);

const s = stringVal;
const sensitive = (v: Value) => mark(v, SENSITIVE);
const unknownStr = unknownVal(StringType);
const prefixed = (p: string) => refine(unknownVal(StringType)).notNull().stringPrefixFull(p).newValue();

describe("unknown, null and sensitive arguments", () => {
  it("gives a never-null unknown for an unknown string", () => {
    for (const name of ["upper", "lower", "strrev", "title", "trimspace", "chomp"]) {
      expect(call(name, unknownStr)).toBe("unknown(string)!");
    }
    expect(call("substr", unknownStr, numberIntVal(0), numberIntVal(1))).toBe("unknown(string)!");
    expect(call("split", s(","), unknownStr)).toBe("unknown(list(string))!");
    expect(call("replace", s("a"), unknownStr, s("b"))).toBe("unknown(string)!");
    expect(call("endswith", unknownStr, s("a"))).toBe("unknown(bool)!");
  });

  it("strcontains leaves its unknown result unrefined, as OpenTofu does", () => {
    expect(call("strcontains", unknownStr, s("a"))).toBe("unknown(bool)");
  });

  it("takes a dynamically-typed unknown as an unknown string (HCL converts it first)", () => {
    expect(call("upper", DynamicVal)).toBe("unknown(string)!");
    expect(call("title", DynamicVal)).toBe("unknown(string)!");
  });

  it("startswith decides from a refined prefix when it can", () => {
    expect(call("startswith", prefixed("hello"), s("he"))).toBe("true");
    expect(call("startswith", prefixed("hello"), s("hex"))).toBe("false");
    expect(call("startswith", prefixed("hello"), s("hello world"))).toBe("unknown(bool)!");
    expect(call("startswith", unknownStr, s(""))).toBe("true");
    expect(call("startswith", unknownStr, s("a"))).toBe("unknown(bool)!");
    expect(call("startswith", s("abc"), unknownStr)).toBe("unknown(bool)!");
    // Lengths compare in UTF-8 bytes: the 1-byte known prefix "a" is shorter than "é" (2 bytes).
    expect(call("startswith", prefixed("a"), s("é"))).toBe("unknown(bool)!");
    expect(call("startswith", prefixed("éa"), s("a"))).toBe("false");
  });

  it("join waits for every element to be known", () => {
    expect(call("join", s(","), listVal([s("a"), unknownStr]))).toBe("unknown(string)!");
    expect(call("join", s(","), unknownVal(listOf(StringType)))).toBe("unknown(string)!");
  });

  it("carries sensitivity from any argument to the result", () => {
    expect(call("upper", sensitive(s("abc")))).toBe('"ABC"@sensitive');
    expect(call("join", s("-"), listVal([s("a"), sensitive(s("b"))]))).toBe('"a-b"@sensitive');
    expect(call("replace", s("abc"), sensitive(s("/b/")), s("x"))).toBe('"axc"@sensitive');
    expect(call("startswith", sensitive(prefixed("abc")), s("a"))).toBe("true@sensitive");
    expect(call("substr", s("abc"), sensitive(numberIntVal(1)), numberIntVal(1))).toBe('"b"@sensitive');
  });

  it("rejects nulls with cty's message", () => {
    expect(call("upper", stringValNull())).toBe('Invalid function argument: Invalid value for "str" parameter: argument must not be null.');
    expect(call("startswith", stringValNull(), s("a"))).toBe('Invalid function argument: Invalid value for "str" parameter: argument must not be null.');
  });

  it("returns bools of the right type", () => {
    expect(call("endswith", s("abc"), s("c"))).toBe("true");
    expect(call("strcontains", s("abc"), s("x"))).toBe("false");
    expect(unknownVal(BoolType).type.kind).toBe("bool");
  });
});

function stringValNull(): Value {
  return { kind: "null", type: StringType, marks: new Set() };
}

describe("absurd sizes", () => {
  it("indent refuses padding no string can hold", () => {
    expect(call("indent", numberIntVal(1e12), s("a\nb"))).toBe(
      'Error in function call: Call to function "indent" failed: panic in function implementation: strings: Repeat output length overflow.',
    );
  });
});
