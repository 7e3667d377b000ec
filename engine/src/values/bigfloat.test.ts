import { describe, expect, it } from "vitest";
import { BigFloat, NaNError } from "./bigfloat.js";
import { binaryOp } from "./ops.js";
import { show } from "./testutil.js";
import { ARITHMETIC_ORACLE } from "./testdata/arithmetic-oracle.js";
import { NUMBER_LITERAL_ORACLE } from "./testdata/number-literal-oracle.js";
import { numberVal } from "./value.js";

const P = (s: string) => {
  const v = BigFloat.parse(s);
  if (!v) throw new Error(`bad number ${s}`);
  return v;
};

describe("BigFloat parse + shortest text (observed with terraform console)", () => {
  const cases: Array<[string, string]> = [
    ["0.1", "0.1"],
    ["1e21", "1000000000000000000000"],
    ["9007199254740993", "9007199254740993"],
    ["1e-7", "0.0000001"],
    ["1e-30", "0.000000000000000000000000000001"],
    ["3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"],
    ["0.000001", "0.000001"],
    ["1e400", "1" + "0".repeat(400)],
    ["-0", "-0"],
    ["0", "0"],
    ["Inf", "+Inf"],
    ["-Inf", "-Inf"],
    ["1.50", "1.5"],
    [".5", "0.5"],
    ["5.", "5"],
    ["+7", "7"],
  ];
  it.each(cases)("%s prints as %s", (src, want) => {
    expect(P(src).text("f")).toBe(want);
  });
  it.each([" 1", "0x10", "1_000", "abc", "", "1e", "--1", "Infinity", "1 "])("rejects %j", (s) => {
    expect(BigFloat.parse(s)).toBeUndefined();
  });
});

describe("BigFloat arithmetic matches cty", () => {
  it("1/3 prints the 512-bit shortest form", () => {
    expect(P("1").quo(P("3")).text("f")).toBe(
      "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335",
    );
  });
  it("0.1 + 0.2 is exactly 0.3 at 512 bits", () => {
    expect(P("0.1").add(P("0.2")).text("f")).toBe("0.3");
    expect(P("0.1").add(P("0.2")).cmp(P("0.3"))).toBe(0);
  });
  it("2/3*3 == 2, 1/7*7 == 1, 0.1*3 == 0.3", () => {
    const mul = (a: BigFloat, b: BigFloat) => {
      const r = a.mul(b, 512);
      return r.withPrec(Math.max(a.prec, b.prec, r.minPrec()));
    };
    expect(mul(P("2").quo(P("3")), P("3")).text("f")).toBe("2");
    expect(mul(P("1").quo(P("7")), P("7")).text("f")).toBe("1");
    expect(mul(P("0.1"), P("3")).text("f")).toBe("0.3");
  });
  it("1.5e300 * 1e300 * 1e300 shows binary rounding like Go", () => {
    const mul = (a: BigFloat, b: BigFloat) => {
      const r = a.mul(b, 512);
      return r.withPrec(Math.max(a.prec, b.prec, r.minPrec()));
    };
    const got = mul(mul(P("1.5e300"), P("1e300")), P("1e300")).text("f");
    expect(got).toBe(
      "15" + "0".repeat(152) + "2" + "0".repeat(746),
    );
  });
  it("integers beyond 2^53 stay exact", () => {
    expect(P("9007199254740993").add(P("0")).text("f")).toBe("9007199254740993");
    expect(P("12345678901234567890123").mul(P("10")).text("f")).toBe("123456789012345678901230");
  });
  it("float64 values print at 53 bits (pow(2,64) = 18446744073709550000)", () => {
    const f = BigFloat.fromFloat64(2 ** 64);
    expect(f.text("f")).toBe("18446744073709550000");
    expect(f.add(P("1")).text("f")).toBe("18446744073709551617");
    expect(BigFloat.fromFloat64(0.1).text("f")).toBe("0.1");
    expect(BigFloat.fromFloat64(0.1).withPrec(512).text("f")).toBe("0.1000000000000000055511151231257827021181583404541015625");
  });
  it("division by zero gives infinities, 0/0 is NaN", () => {
    expect(P("1").quo(P("0")).text("f")).toBe("+Inf");
    expect(P("-1").quo(P("0")).text("f")).toBe("-Inf");
    expect(() => P("0").quo(P("0"))).toThrow(NaNError);
    expect(() => BigFloat.inf(false).add(BigFloat.inf(true))).toThrow(NaNError);
    expect(() => BigFloat.inf(false).mul(P("0"))).toThrow(NaNError);
  });
  it("compares", () => {
    expect(P("1").cmp(P("2"))).toBe(-1);
    expect(P("-0").cmp(P("0"))).toBe(0);
    expect(BigFloat.inf(true).cmp(P("-1e400"))).toBe(-1);
    expect(P("0.3").cmp(P("0.30000000000000000001"))).toBe(-1);
  });
  it("int64 and float64 views", () => {
    expect(P("300").toInt64()).toBe(300n);
    expect(P("1.5").toInt64()).toBeUndefined();
    expect(P("1.5").toFloat64Exact()).toBe(1.5);
    expect(P("0.1").toFloat64Exact()).toBeUndefined();
    expect(P("0.1").toFloat64()).toBe(0.1);
    expect(P("1e400").toFloat64()).toBe(Infinity);
    expect(P("9223372036854775808").toInt64()).toBeUndefined();
    expect(P("-9223372036854775808").toInt64()).toBe(-(2n ** 63n));
  });
  it("formats %g with 10 digits like Go's String()", () => {
    expect(P("1").text("g", 10)).toBe("1");
    expect(P("1234567890123").text("g", 10)).toBe("1.23456789e+12");
    expect(P("0.5").text("g", 10)).toBe("0.5");
    expect(P("0.00001").text("g", 10)).toBe("1e-05");
    expect(P("100").text("g", 10)).toBe("100");
  });
});

describe("arithmetic matches terraform console exactly (generated corpus)", () => {
  it.each(ARITHMETIC_ORACLE)("%s", (_expr, op, a, b, want) => {
    const r = binaryOp(op, numberVal(P(a)), numberVal(P(b)));
    expect(r.ok ? show(r.value) : r.detail).toBe(want);
  });
});

describe("number literals print like terraform console (generated corpus)", () => {
  it.each(NUMBER_LITERAL_ORACLE)("%s", (src, want) => {
    expect(P(src).text("f")).toBe(want);
  });
});
