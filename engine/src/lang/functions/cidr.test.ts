import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BoolType, SENSITIVE, StringType, callFunction, formatValue, mark, stringVal, unknownVal, type Value } from "../../values/index.js";
import { cidrFunctions } from "./cidr.js";
import { evaluate } from "./testeval.js";
import { expected, normalizeDetail, noContext, type OracleAnswer, type OracleFile } from "./testoracle.js";

const fns = cidrFunctions(noContext);
// Only this module's functions, so these tests do not depend on the other categories.
const table = new Map(Object.entries(fns));

function answer(expr: string): OracleAnswer {
  const r = evaluate(expr, table);
  return r.ok ? { ok: true, output: formatValue(r.value) } : { ok: false, summary: r.summary, detail: normalizeDetail(r.detail) };
}

const oracle = JSON.parse(readFileSync(new URL("./testdata/cidr.terraform.json", import.meta.url), "utf8")) as OracleFile;

// Every expression was evaluated by `terraform console`; results and error texts must match.
describe("cidr functions match terraform console", () => {
  it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
    expect(answer(expr)).toEqual(expected(want));
  });
});

function call(name: string, ...args: Value[]): string {
  const fn = fns[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

// cidrcontains exists only in OpenTofu: these are the cases of OpenTofu's own tests
// (internal/lang/funcs/cidr_test.go) and of its documentation, plus edges of the same rules.
describe("cidrcontains (OpenTofu)", () => {
  const s = stringVal;
  it.each([
    ["192.168.2.0/20", "192.168.2.1", "true"],
    ["192.168.2.0/20", "192.168.2.0/22", "true"],
    ["192.168.2.0/20", "192.126.2.1", "false"],
    ["192.168.2.0/20", "192.126.2.0/18", "false"],
    ["fe80::/48", "fe80::1", "true"],
    ["fe80::/48", "fe81::1", "false"],
    ["10.0.0.0/8", "10.0.0.0/8", "true"],
    ["10.0.0.0/8", "10.0.0.0/7", "false"],
    ["10.0.0.0/8", "10.255.255.255", "true"],
    ["10.0.0.0/8", "11.0.0.0", "false"],
    ["10.1.2.3/8", "10.200.0.0/16", "true"],
    ["0.0.0.0/0", "255.255.255.255", "true"],
    ["010.0.0.0/8", "10.0.0.1", "true"],
    ["::/0", "ffff::/16", "true"],
    ["fe80::/64", "fe80::/63", "false"],
    ["192.168.0.0/16", "::ffff:192.168.1.1", "true"],
    ["192.168.2.0/20", "fe80::1", "Error in function call: Call to function \"cidrcontains\" failed: address family mismatch: 192.168.2.0/20 vs. fe80::1."],
    ["192.168.2.0/20", "fe80::/24", "Error in function call: Call to function \"cidrcontains\" failed: address family mismatch: 192.168.2.0/20 vs. fe80::/24."],
    ["fe80::/48", "192.168.2.1", "Error in function call: Call to function \"cidrcontains\" failed: address family mismatch: fe80::/48 vs. 192.168.2.1."],
    ["fe80::/48", "192.168.2.0/20", "Error in function call: Call to function \"cidrcontains\" failed: address family mismatch: fe80::/48 vs. 192.168.2.0/20."],
    ["not-a-cidr", "192.168.2.1", "Error in function call: Call to function \"cidrcontains\" failed: invalid CIDR address: not-a-cidr."],
    ["192.168.2.0/20", "not-an-address", "Error in function call: Call to function \"cidrcontains\" failed: invalid IP address or prefix: not-an-address."],
    ["192.168.2.1", "192.168.2.1", "Error in function call: Call to function \"cidrcontains\" failed: invalid CIDR address: 192.168.2.1."],
  ])("cidrcontains(%j, %j)", (prefix, addr, want) => {
    expect(call("cidrcontains", s(prefix), s(addr))).toBe(want);
  });

  it("returns an unrefined unknown bool for unknown arguments and keeps marks", () => {
    expect(call("cidrcontains", unknownVal(StringType), s("10.0.0.1"))).toBe("(known after apply)");
    const r = callFunction("cidrcontains", fns.cidrcontains!, [unknownVal(StringType), s("10.0.0.1")]);
    expect(r.ok && r.value.kind === "unknown" && r.value.type).toEqual(BoolType);
    expect(r.ok && r.value.kind === "unknown" && r.value.refinement.notNull).toBeFalsy();
    expect(call("cidrcontains", mark(s("10.0.0.0/8"), SENSITIVE), s("10.0.0.1"))).toBe("(sensitive value)");
  });
});

describe("cidr functions: unknown arguments and Go panics", () => {
  it("gives a non-null unknown string when an argument is unknown", () => {
    const r = callFunction("cidrhost", fns.cidrhost!, [unknownVal(StringType), stringVal("1")]);
    expect(r.ok && r.value.kind === "unknown" && r.value.refinement.notNull).toBe(true);
    expect(call("cidrsubnets", stringVal("10.0.0.0/8"), unknownVal(StringType))).toBe("(known after apply)");
  });

  // Numbers too big for the address make go-cidr index out of range; OpenTofu reports cty's
  // "panic in function implementation" followed by a Go stack trace, which we leave out.
  it.each([
    ["cidrhost", ["10.0.0.0/8", "4722366482869645213696"]],
    ["cidrhost", ["10.0.0.0/8", "9223372036854775808"]],
    ["cidrsubnet", ["10.0.0.0/8", "8", "18446744073709551616"]],
    ["cidrsubnet", ["::/0", "64", "18446744073709551616"]],
  ])("%s(%j) reports the panic's first line", (name, args) => {
    const vals = args.map((a, i) => (i === 0 ? stringVal(a) : stringVal(a)));
    expect(call(name, ...vals)).toBe(`Error in function call: Call to function "${name}" failed: panic in function implementation: runtime error: index out of range [-1].`);
  });
});
