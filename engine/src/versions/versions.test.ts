// Cases from go-versions' own tests (raw_test.go, ruby_style_test.go, set_test.go) and OpenTofu's
// lock file tests, so the error texts and canonical forms match what `tofu` prints.
import { describe, expect, it } from "vitest";
import { scanConstraint } from "./scan.js";
import {
  compareVersions,
  constraintsOnlyUnspecified,
  meetsConstraints,
  mustParseVersion,
  mustParseVersionConstraints,
  newestMatching,
  parseVersion,
  parseVersionConstraint,
  parseVersionConstraints,
  sortVersions,
  versionConstraintsString,
  versionString,
} from "./index.js";

describe("scanConstraint", () => {
  const cases: [string, Partial<{ op: string; sep: string; nums: string[]; numCt: number; pre: string; meta: string }>, string][] = [
    ["", {}, ""],
    ["garbage", {}, "garbage"],
    ["1.0.0", { nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["1.0", { nums: ["1", "0", ""], numCt: 2 }, ""],
    ["1", { nums: ["1", "", ""], numCt: 1 }, ""],
    ["10.0.0.0", { nums: ["10", "0", "0"], numCt: 4 }, ""],
    ["*.*", { nums: ["*", "*", ""], numCt: 2 }, ""],
    ["1.0.x", { nums: ["1", "0", "x"], numCt: 3 }, ""],
    ["1.0.0-beta1", { nums: ["1", "0", "0"], numCt: 3, pre: "beta1" }, ""],
    ["1.0.0+abc123", { nums: ["1", "0", "0"], numCt: 3, meta: "abc123" }, ""],
    ["1.0.0-beta1+abc123", { nums: ["1", "0", "0"], numCt: 3, pre: "beta1", meta: "abc123" }, ""],
    ["1.0.0garbage", { nums: ["1", "0", "0"], numCt: 3 }, "garbage"],
    [">= 1.0.0", { op: ">=", sep: " ", nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["~> 1.0.0", { op: "~>", sep: " ", nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["1.0.0, 2.0.0", { nums: ["1", "0", "0"], numCt: 3 }, ", 2.0.0"],
    ["<=1.0.0", { op: "<=", nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["^1.0.0", { op: "^", nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["1.0.0 - 2.0.0", { nums: ["1", "0", "0"], numCt: 3 }, " - 2.0.0"],
    ["1.0.0 || 2.0.0", { nums: ["1", "0", "0"], numCt: 3 }, " || 2.0.0"],
    // The Ragel machine accepts input that stops inside a part.
    ["1.0.", { nums: ["1", "0", ""], numCt: 2 }, ""],
    ["1.0.0-", { nums: ["1", "0", "0"], numCt: 3 }, ""],
    ["1.0.0-beta_1", { nums: ["1", "0", "0"], numCt: 3, pre: "beta" }, "_1"],
  ];
  it.each(cases)("%j", (input, want, wantRemain) => {
    const { raw, remain } = scanConstraint(input);
    expect(remain).toBe(wantRemain);
    expect(raw).toEqual({ op: "", sep: "", nums: ["", "", ""], numCt: 0, pre: "", meta: "", ...want });
  });
});

describe("parseVersion", () => {
  const cases: [string, string][] = [
    ["1.2.3", "1.2.3"],
    ["1.2", "1.2.0"],
    ["1", "1.0.0"],
    ["01.2.3", "1.2.3"],
    ["1.2.3-beta.1+tci.12345", "1.2.3-beta.1+tci.12345"],
    ["", "error: empty specification"],
    ["v1.0.0", 'error: a "v" prefix should not be used'],
    [" 1.0.0", "error: extraneous spaces at start of specification"],
    ["1.0.0 ", "error: extraneous spaces at end of specification"],
    [">= 1.0.0", 'error: can\'t use constraint operator ">="; an exact version is required'],
    ["=1.0.0", 'error: invalid sequence "=" at start of specification'],
    ["1.0.0, 2.0.0", "error: can't specify multiple versions; a single exact version is required"],
    ["1.0.0 - 2.0.0", "error: can't specify version range; a single exact version is required"],
    ["garbage", "error: invalid specification; required format is three positive integers separated by periods"],
    ["1.0.0garbage", 'error: invalid characters "garbage"'],
    ["1.0.0.0", "error: too many numbered portions; only three are allowed (major, minor, patch)"],
    ["1.*", "error: can't use wildcard for minor number; an exact version is required"],
  ];
  it.each(cases)("%j", (input, want) => {
    const r = parseVersion(input);
    expect(r.ok ? versionString(r.value) : `error: ${r.error}`).toBe(want);
  });
});

describe("parseVersionConstraint (one selection)", () => {
  const cases: [string, string][] = [
    ["", "error: empty specification"],
    ["1", "= 1.*.*"],
    ["1.1", "= 1.1.*"],
    ["1.0-beta2", "= 1.0.0-beta2"],
    ["1.0.0+foo.bar", "= 1.0.0+foo.bar"],
    [">1.1.1", "> 1.1.1"],
    ["~> 1.1.1", "~patch 1.1.1"],
    ["~> 1.1", "~minor 1.1.*"],
    ["~> 1", "~minor 1.*.*"],
    ["!= 1.1.1", "!= 1.1.1"],
    ["1.0.0.0", "error: too many numbered portions; only three are allowed (major, minor, patch)"],
    ["v1.0.0", 'error: a "v" prefix should not be used when specifying versions'],
    [">= v1.0.0", 'error: a "v" prefix should not be used when specifying versions'],
    ["=> 1.1.1", 'error: invalid constraint operator "=>"; did you mean ">="?'],
    ["=< 1.1.1", 'error: invalid constraint operator "=<"; did you mean "<="?'],
    ["=  1.1.1", 'error: only one space is expected after the operator "="'],
    ["garbage", 'error: invalid characters "garbage"'],
    ["& 1.1.0", 'error: invalid constraint operator "&"'],
    ["1.*.*", "error: can't use wildcard for minor number; omit segments that should be unconstrained"],
    ["1.0.x", "error: can't use wildcard for patch number; omit segments that should be unconstrained"],
    ["1.0 || 2.0", "error: only one constraint may be specified"],
    ["1.0.0, 2.0.0", "error: only one constraint may be specified"],
    ["1.0.0 - 2.0.0", "error: range constraints are not supported"],
  ];
  it.each(cases)("%j", (input, want) => {
    const r = parseVersionConstraint(input);
    const b = r.ok ? r.value.boundary : undefined;
    const num = (n: number | undefined) => (n === undefined ? "*" : String(n));
    const got = r.ok && b
      ? `${r.value.op} ${num(b.major)}.${num(b.minor)}.${num(b.patch)}${b.prerelease ? `-${b.prerelease}` : ""}${b.metadata ? `+${b.metadata}` : ""}`
      : `error: ${r.ok ? "" : r.error}`;
    expect(got).toBe(want);
  });
});

describe("parseVersionConstraints and the canonical string", () => {
  const cases: [string, string][] = [
    ["", ""],
    ["1.1.1", "1.1.1"],
    [">= 1.0, < 2", ">= 1.0.0, < 2.0.0"],
    ["< 2, >= 1.0", ">= 1.0.0, < 2.0.0"],
    ["~> 1", "~> 1.0"],
    ["~> 1.2", "~> 1.2"],
    ["~> 1.2.0", "~> 1.2.0"],
    ["1.2", "1.2.0"],
    ["= 1.0", "1.0.0"],
    ["!= 1.1, >= 1.0", ">= 1.0.0, != 1.1.0"],
    [">= 1.0.0, >= 1.0, >= 1", ">= 1.0.0"],
    ["< 2.0.0, > 1.0.0, 1.5.0, ~> 1.5", "> 1.0.0, 1.5.0, ~> 1.5, < 2.0.0"],
    [">=1.0,<2.0", ">= 1.0.0, < 2.0.0"],
    ["2.0.0-beta1", "2.0.0-beta1"],
    ["~> v1.1.1", 'error: invalid specification "~> v1.1.1": a "v" prefix should not be used when specifying versions'],
    [">= 1.0, < v2.0", 'error: invalid specification "< v2.0": a "v" prefix should not be used when specifying versions'],
    [">= 1.0 < 2", 'error: missing comma after ">= 1.0"'],
  ];
  it.each(cases)("%j", (input, want) => {
    const r = parseVersionConstraints(input);
    expect(r.ok ? versionConstraintsString(r.value) : `error: ${r.error}`).toBe(want);
  });
  it("reports an operator with nothing after it the way go-versions does", () => {
    const r = parseVersionConstraints(">= 1.0, garbage");
    expect(r.ok ? "" : r.error).toBe('missing comma after ""');
  });
});

describe("meetsConstraints", () => {
  const cases: [string, string, boolean][] = [
    [">= 1.0.0", "1.0.0", true],
    [">= 1.0.0", "1.0.1", true],
    [">= 1.0.0", "0.0.1", false],
    [">= 1.0.0", "1.0.0-beta1", false],
    // Prereleases only when named exactly.
    [">= 1.0.0", "2.0.0-beta1", false],
    ["2.0.0-beta1", "2.0.0-beta1", true],
    ["= 2.0.0-beta1", "2.0.0-beta1", true],
    ["!= 2.0.0-beta1", "2.0.0-beta2", false],
    [">= 1.0.0, < 2.0.0", "1.2.3", true],
    [">= 1.0.0, < 2.0.0", "2.0.0", false],
    ["!= 0.9.0", "0.9.0", false],
    ["!= 0.9.0", "0.9.1", true],
    ["~> 1.2", "1.9.0", true],
    ["~> 1.2", "2.0.0", false],
    ["~> 1.2", "1.1.9", false],
    ["~> 1.2.3", "1.2.9", true],
    ["~> 1.2.3", "1.3.0", false],
    ["~> 1", "1.0.0", true],
    ["~> 1", "1.99.0", true],
    ["1.2", "1.2.0", true],
    ["1.2", "1.2.1", false],
    ["1.0.0", "1.0.0+build", false],
    [">= 1.0.0", "1.0.0+build", true],
    ["<= 1.0.0", "1.0.0+build", true],
    [">= 0.0.0", "0.0.0", false],
    ["", "0.0.0", true],
    ["", "3.0.0", true],
    ["", "3.0.0-rc1", false],
  ];
  it.each(cases)("%j admits %s: %s", (constraints, version, want) => {
    expect(meetsConstraints(mustParseVersion(version), mustParseVersionConstraints(constraints))).toBe(want);
  });
});

describe("ordering and selection", () => {
  it("sorts by semver precedence", () => {
    const list = ["1.0.0", "1.0.0-rc.1", "1.0.0-beta.11", "1.0.0-beta.2", "1.0.0-beta", "1.0.0-alpha.beta", "1.0.0-alpha.1", "1.0.0-alpha", "0.9.10", "0.9.9", "10.0.0", "2.0.0"];
    expect(sortVersions(list.map(mustParseVersion)).map(versionString)).toEqual([
      "0.9.9",
      "0.9.10",
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "2.0.0",
      "10.0.0",
    ]);
    expect(compareVersions(mustParseVersion("1.0.0+a"), mustParseVersion("1.0.0+b"))).toBe(0);
  });

  const available = ["1.0.0", "1.1.0", "1.2.0", "2.0.0-beta1", "2.0.0", "2.1.0"].map(mustParseVersion);
  const cases: [string, string | undefined][] = [
    ["", "2.1.0"],
    ["~> 1.0", "1.2.0"],
    ["~> 1.1.0", "1.1.0"],
    [">= 1.0.0, < 2.0.0", "1.2.0"],
    [">= 2.0.0-beta1", "2.1.0"],
    ["2.0.0-beta1", "2.0.0-beta1"],
    ["> 2.1.0", undefined],
    ["!= 2.1.0, >= 2.0.0", "2.0.0"],
  ];
  it.each(cases)("newest matching %j is %s", (constraints, want) => {
    const got = newestMatching(available, mustParseVersionConstraints(constraints));
    expect(got && versionString(got)).toBe(want);
  });

  it("spots constraints that allow only 0.0.0", () => {
    expect(constraintsOnlyUnspecified(mustParseVersionConstraints("0.0.0"))).toBe(true);
    expect(constraintsOnlyUnspecified(mustParseVersionConstraints("= 0.0"))).toBe(true);
    expect(constraintsOnlyUnspecified(mustParseVersionConstraints(">= 0.0.0"))).toBe(false);
    expect(constraintsOnlyUnspecified(mustParseVersionConstraints("1.0.0"))).toBe(false);
  });
});
