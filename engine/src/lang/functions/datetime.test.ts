import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SENSITIVE, StringType, callFunction, formatValue, mark, stringVal, unknownVal, type Value } from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { datetimeFunctions } from "./datetime.js";
import { parseDuration, parseGoRFC3339, parseStrictRFC3339 } from "./gotime.js";
import { answerIn, expectations, type Differences } from "./oraclefs.testkit.js";
import { testContext, type OracleFile } from "./oracle.testkit.js";

const read = (name: string) => JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8")) as unknown;
const oracle = read("datetime.terraform.json") as OracleFile;
const differences = read("datetime.opentofu.json") as Differences;

describe("datetime functions match terraform console (OpenTofu where it differs)", () => {
  it.each(expectations(oracle, differences))("%s", (expr, want) => {
    expect(answerIn(testContext, expr)).toEqual(want);
  });
});

function call(ctx: FunctionContext, name: string, ...args: Value[]): string {
  const fn = datetimeFunctions(ctx)[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

const at = (iso: string): FunctionContext => ({ ...testContext, now: () => new Date(iso) });

describe("timestamp and plantimestamp", () => {
  it("timestamp is the context's current time in UTC, without fractional seconds", () => {
    expect(call(at("2024-03-05T06:07:08.999Z"), "timestamp")).toBe('"2024-03-05T06:07:08Z"');
  });
  it("plantimestamp is unknown (and not refined) without a plan time, as during validation", () => {
    const fn = datetimeFunctions(testContext).plantimestamp;
    const r = fn ? callFunction("plantimestamp", fn, []) : undefined;
    expect(r?.ok && r.value.kind === "unknown" && !r.value.refinement.notNull).toBe(true);
  });
  it("plantimestamp is the plan's time", () => {
    expect(call({ ...testContext, planTimestamp: new Date("2030-01-02T03:04:05.5Z") }, "plantimestamp")).toBe('"2030-01-02T03:04:05Z"');
  });
});

describe("unknown and sensitive arguments", () => {
  const ts = stringVal("2020-01-01T00:00:00Z");
  it("formatdate and timecmp give a non-null unknown; timeadd's unknown is not refined (go-cty declares none)", () => {
    const u = unknownVal(StringType);
    expect(call(testContext, "formatdate", stringVal("YYYY"), u)).toBe("(known after apply)");
    const fd = callFunction("formatdate", datetimeFunctions(testContext).formatdate!, [stringVal("YYYY"), u]);
    expect(fd.ok && fd.value.kind === "unknown" && fd.value.refinement.notNull).toBe(true);
    const tc = callFunction("timecmp", datetimeFunctions(testContext).timecmp!, [u, ts]);
    expect(tc.ok && tc.value.kind === "unknown" && tc.value.refinement.notNull).toBe(true);
    const ta = callFunction("timeadd", datetimeFunctions(testContext).timeadd!, [ts, u]);
    expect(ta.ok && ta.value.kind === "unknown" && !ta.value.refinement.notNull).toBe(true);
  });
  it("a sensitive argument makes the result sensitive", () => {
    expect(call(testContext, "timeadd", mark(ts, SENSITIVE), stringVal("1h"))).toBe("(sensitive value)");
    expect(call(testContext, "formatdate", mark(stringVal("YYYY"), SENSITIVE), ts)).toBe("(sensitive value)");
  });
});

describe("RFC 3339 parsing", () => {
  it("keeps nanoseconds and the written offset", () => {
    expect(call(testContext, "timeadd", stringVal("2020-01-01T00:00:00.123456789+05:45"), stringVal("1ns"))).toBe('"2020-01-01T00:00:00+05:45"');
    expect(call(testContext, "timecmp", stringVal("2020-01-01T00:00:00.000000002Z"), stringVal("2020-01-01T00:00:00.000000001Z"))).toBe("1");
  });
  it("timecmp uses Go's lenient parser, as OpenTofu's own timecmp does", () => {
    expect(call(testContext, "timecmp", stringVal("2020-01-01T3:00:00Z"), stringVal("2020-01-01T03:00:00,0Z"))).toBe("0");
    expect(call(testContext, "timecmp", stringVal("2020-01-01T00:00:00+24:00"), stringVal("2019-12-31T00:00:00Z"))).toBe("0");
  });
  it("reports Go's ParseError fields", () => {
    expect(parseGoRFC3339("2020-13-01T00:00:00Z")).toEqual({ ok: false, error: { value: "2020-13-01T00:00:00Z", layoutElem: "01", valueElem: "-01T00:00:00Z", message: ": month out of range" } });
    expect(parseGoRFC3339("2020-01-01T00:00:00Zx")).toMatchObject({ ok: false, error: { layoutElem: "", valueElem: "x", message: ': extra text: "x"' } });
    expect(parseStrictRFC3339("2020-01-01T00:00:00+23:59").ok).toBe(true);
    expect(parseStrictRFC3339("2020-01-01T00:00:00+24:00")).toMatchObject({ ok: false, error: { layoutElem: "Z07:00", valueElem: "+24:00" } });
  });
  it("years before 1 and after 9999 come out of timeadd as Go formats them", () => {
    expect(call(testContext, "timeadd", stringVal("0000-01-01T00:00:00Z"), stringVal("-1h"))).toBe('"-0001-12-31T23:00:00Z"');
    expect(call(testContext, "timeadd", stringVal("9999-12-31T23:59:59Z"), stringVal("1s"))).toBe('"10000-01-01T00:00:00Z"');
  });
});

describe("Go duration syntax", () => {
  it.each([
    ["1h30m", 5_400_000_000_000n],
    ["-1.5h", -5_400_000_000_000n],
    ["+.5s", 500_000_000n],
    ["1µs1us1μs", 3_000n],
    ["1.0000000001s", 1_000_000_000n],
    ["0", 0n],
    ["9223372036854775807ns", 9_223_372_036_854_775_807n],
    ["-9223372036854775808ns", -9_223_372_036_854_775_808n],
  ])("%s", (text, ns) => {
    expect(parseDuration(text)).toEqual({ ok: true, ns });
  });
  it.each([
    ["", 'time: invalid duration ""'],
    ["1", 'time: missing unit in duration "1"'],
    ["1x", 'time: unknown unit "x" in duration "1x"'],
    ["1é", 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ["9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'],
  ])("%j is an error", (text, error) => {
    expect(parseDuration(text)).toEqual({ ok: false, error });
  });
});
