import { describe, expect, it } from "vitest";
import { SENSITIVE, StringType, mark, stringVal, unknownVal, type Value } from "../../values/index.js";
import { compileRegexp } from "./goregexp.js";
import { testContext, describeOracle, loadOracle, functionCaller } from "./oracle.testkit.js";
import { regexFunctions } from "./regex.js";


describeOracle("regex and regexall match terraform console", loadOracle("regex.terraform.json"));

const fns = regexFunctions(testContext);

const call = functionCaller(fns);

const s = stringVal;
const unknownStr = unknownVal(StringType);

describe("unknown and sensitive arguments", () => {
  it("cannot know the result type without the pattern", () => {
    expect(call("regex", unknownStr, s("a"))).toBe("unknown(any)");
    expect(call("regexall", unknownStr, s("a"))).toBe("unknown(list(any))!");
  });

  it("knows the result type from the pattern alone", () => {
    expect(call("regex", s("a(b)(c)"), unknownStr)).toBe("unknown(tuple([string,string]))!");
    expect(call("regex", s("(?P<x>a)"), unknownStr)).toBe("unknown(object({x=string}))!");
    expect(call("regexall", s("a"), unknownStr)).toBe("unknown(list(string))!");
  });

  it("reports a bad pattern even while the string is unknown", () => {
    expect(call("regex", s("(a"), unknownStr)).toBe(
      'Invalid function argument: Invalid value for "pattern" parameter: invalid regexp pattern: missing closing ) in (a.',
    );
  });

  it("marks results of sensitive inputs", () => {
    expect(call("regex", s("b+"), mark(s("abbc"), SENSITIVE))).toBe('"bb"@sensitive');
    expect(call("regexall", mark(s("b"), SENSITIVE), s("abcb"))).toBe('list("b", "b")@sensitive');
  });
});

describe("Go regexp semantics", () => {
  it("skips an empty match right after a previous match", () => {
    const c = compileRegexp("a*");
    if (!c.ok) throw new Error("compile");
    expect(c.re.findAllSubmatchIndex("baaac").map((m) => m.slice(0, 2))).toEqual([
      [0, 0],
      [1, 4],
      [5, 5],
    ]);
    expect(c.re.replaceAll("baaac", "-")).toBe("-b-c-");
  });

  it("expands templates as Regexp.Expand", () => {
    const c = compileRegexp("(?P<w>\\w)(\\d)?");
    if (!c.ok) throw new Error("compile");
    expect(c.re.replaceAll("a1b", "[$w|$2|$1x|${1}x|$$|$]")).toBe("[a|1||ax|$|$][b|||bx|$|$]");
  });

  it("accepts a repeated group name as Go does", () => {
    const c = compileRegexp("(?P<n>a)(?P<n>b)");
    expect(c.ok && c.re.subexpNames).toEqual(["", "n", "n"]);
  });
});
