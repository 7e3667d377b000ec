import { describe, expect, it } from "vitest";
import {
  DynamicVal,
  NumberType,
  SENSITIVE,
  StringType,
  listOf,
  listVal,
  mark,
  stringVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { conversionFunctions } from "./conversion.js";
import { answer, testContext, describeOracle, loadOracle, functionCaller } from "./oracle.testkit.js";


describeOracle("conversion and sensitivity functions match terraform console", loadOracle("conversion.terraform.json"));

const fns = conversionFunctions(testContext);

const call = functionCaller(fns);

const sensitive = (v: Value) => mark(v, SENSITIVE);

describe("unknown values", () => {
  it("to* functions answer an unknown of the wanted type (element type still open)", () => {
    expect(call("tostring", unknownVal(NumberType))).toBe("unknown(string)");
    expect(call("tolist", unknownVal(listOf(StringType)))).toBe("unknown(list(any))");
    expect(call("tonumber", DynamicVal)).toBe("unknown(number)");
  });

  it("to* functions drop the marks of an unknown, exactly as go-cty's early unknown return does", () => {
    // The parameter accepts marks but not unknowns, so cty returns UnknownVal(type) before the
    // implementation could carry the marks over. Pinned so that a change here is deliberate.
    expect(call("tostring", sensitive(unknownVal(StringType)))).toBe("unknown(string)");
  });

  it("sensitive and nonsensitive keep unknowns unknown", () => {
    expect(call("sensitive", unknownVal(StringType))).toBe("unknown(string)@sensitive");
    expect(call("nonsensitive", sensitive(unknownVal(StringType)))).toBe("unknown(string)");
    expect(call("sensitive", DynamicVal)).toBe("unknown(any)@sensitive");
  });

  it("issensitive is OpenTofu 1.11's: unknown for any unknown, marked or not (Terraform says true when marked)", () => {
    expect(call("issensitive", unknownVal(StringType))).toBe("unknown(bool)!");
    expect(call("issensitive", DynamicVal)).toBe("unknown(bool)!");
    expect(call("issensitive", sensitive(unknownVal(StringType)))).toBe("unknown(bool)!");
  });
});

describe("marks", () => {
  it("nonsensitive removes only the value's own sensitive mark", () => {
    const v = sensitive(listVal([sensitive(stringVal("a"))]));
    expect(call("nonsensitive", mark(v, "other"))).toBe('list("a"@sensitive)@other');
  });

  it("never prints a sensitive value in a conversion error", () => {
    expect(call("tobool", sensitive(stringVal("maybe")))).toBe(
      'Invalid function argument: Invalid value for "v" parameter: cannot convert this sensitive string to bool.',
    );
  });
});
