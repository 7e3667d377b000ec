import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SENSITIVE, StringType, callFunction, mark, stringVal, unknownVal, type Value } from "../../values/index.js";
import { show } from "../../values/testutil.js";
import { compileRegexp } from "./goregexp.js";
import { answer, expected, testContext, type OracleFile } from "./oracle.testkit.js";
import { withoutPanicTrace } from "./panictrace.testkit.js";
import { regexFunctions } from "./regex.js";

const oracle = JSON.parse(readFileSync(new URL("./testdata/regex.terraform.json", import.meta.url), "utf8")) as OracleFile;

// Every expression was evaluated by `terraform console`; results and error texts must match.
describe("regex and regexall match terraform console", () => {
  it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
    expect(answer(expr)).toEqual(expected(withoutPanicTrace(want)));
  });
});

const fns = regexFunctions(testContext);

function call(name: string, ...args: Value[]): string {
  const fn = fns[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? show(r.value) : `${r.summary}: ${r.detail}`;
}

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
