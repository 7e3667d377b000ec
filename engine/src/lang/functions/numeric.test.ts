import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NumberType, SENSITIVE, StringType, mark, numberIntVal, stringVal, unknownVal, type Value } from "../../values/index.js";
import { num, show } from "../../values/testutil.js";
import { goPow } from "./gomath.js";
import { numericFunctions } from "./numeric.js";
import { answer, expected, testContext, type OracleAnswer, type OracleFile, functionCaller } from "./oracle.testkit.js";
import { withoutPanicTrace } from "./panictrace.testkit.js";

const oracle = JSON.parse(readFileSync(new URL("./testdata/numeric.terraform.json", import.meta.url), "utf8")) as OracleFile;

// Where OpenTofu (our reference) answers differently from the recorded Terraform, and why.
const openTofuAnswers: Record<string, { answer: OracleAnswer; reason: string }> = {
  'parseint(sensitive("x"), 10)': {
    answer: { ok: false, summary: "Invalid function argument", detail: 'Invalid value for "number" parameter: cannot parse (sensitive value) as a base 10 integer.' },
    reason: "OpenTofu's parseint redacts a sensitive argument in its error (redactIfSensitive); Terraform 1.11 prints it",
  },
  'parseint("x", sensitive(10))': {
    answer: { ok: false, summary: "Invalid function argument", detail: 'Invalid value for "number" parameter: cannot parse "x" as a base (sensitive value) integer.' },
    reason: "as above, for a sensitive base",
  },
};

// Every expression was evaluated by `terraform console`; results and error texts must match.
describe("numeric functions match terraform console", () => {
  it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
    const tofu = openTofuAnswers[expr];
    expect(answer(expr)).toEqual(tofu ? tofu.answer : expected(withoutPanicTrace(want)));
  });
});

const fns = numericFunctions(testContext);

const call = functionCaller(fns);

const unknownNum = unknownVal(NumberType);
const sensitive = (v: Value) => mark(v, SENSITIVE);

describe("unknown and sensitive arguments", () => {
  it("gives never-null unknown numbers", () => {
    for (const name of ["abs", "ceil", "floor", "signum"]) expect(call(name, unknownNum)).toBe("unknown(number)!");
    expect(call("max", numberIntVal(1), unknownNum)).toBe("unknown(number)!");
    expect(call("min", unknownNum)).toBe("unknown(number)!");
    expect(call("pow", unknownNum, numberIntVal(2))).toBe("unknown(number)!");
    expect(call("log", numberIntVal(2), unknownNum)).toBe("unknown(number)!");
    expect(call("parseint", unknownVal(StringType), numberIntVal(10))).toBe("unknown(number)!");
  });

  it("keeps sensitivity", () => {
    expect(call("abs", sensitive(num("-2.5")))).toBe("2.5@sensitive");
    expect(call("max", sensitive(numberIntVal(1)), numberIntVal(2))).toBe("2@sensitive");
    expect(call("parseint", sensitive(stringVal("ff")), numberIntVal(16))).toBe("255@sensitive");
    expect(call("ceil", sensitive(num("1.5")))).toBe("2@sensitive");
  });

  it("parseint checks the type of its untyped first parameter", () => {
    expect(call("parseint", numberIntVal(10), numberIntVal(10))).toBe(
      'Invalid function argument: Invalid value for "number" parameter: first argument must be a string, not number.',
    );
  });
});

describe("Go's math.Pow", () => {
  it("follows Go's special cases", () => {
    expect(goPow(0, -1)).toBe(Infinity);
    expect(Object.is(goPow(-0, 3), -0)).toBe(true);
    expect(goPow(-0, -3)).toBe(-Infinity);
    expect(goPow(-1, Infinity)).toBe(1);
    expect(goPow(0.5, Infinity)).toBe(0);
    expect(goPow(-Infinity, 3)).toBe(-Infinity);
    expect(goPow(-Infinity, -3)).toBe(-0);
    expect(Number.isNaN(goPow(-2, 0.5))).toBe(true);
  });

  it("squares repeatedly for integer powers (not always correctly rounded)", () => {
    expect(goPow(2, 10)).toBe(1024);
    expect(goPow(2, -1074)).toBe(5e-324);
    expect(goPow(2, 1024)).toBe(Infinity);
    expect(goPow(10, 22)).toBe(1e22);
  });
});
