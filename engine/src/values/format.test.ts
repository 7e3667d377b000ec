import { describe, expect, it } from "vitest";
import { convert } from "./convert.js";
import { formatValue } from "./format.js";
import { lit, num } from "./testutil.js";
import { DynamicPseudoType, StringType, listOf, mapOf, setOf, objectOf } from "./types.js";
import { SENSITIVE, mark, nullVal, stringVal, tupleVal, unknownVal, type Value } from "./value.js";

const conv = (v: Value, t: Parameters<typeof convert>[1]) => {
  const r = convert(v, t);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

// Each expected text is what `terraform console` printed for the expression in the test name.
describe("console formatting (terraform console answers)", () => {
  it('"a\\nb" as a heredoc', () => {
    expect(formatValue(stringVal("a\nb"))).toBe("<<EOT\na\nb\nEOT");
  });
  it('{a="x\\ny"} as an indented heredoc', () => {
    expect(formatValue(lit({ a: "x\ny" }))).toBe('{\n  "a" = <<-EOT\n  x\n  y\n  EOT\n}');
  });
  it('["EOT\\nq"] picks another delimiter', () => {
    expect(formatValue(lit(["EOT\nq"]))).toBe("[\n  <<-EOT_\n  EOT\n  q\n  EOT_,\n]");
  });
  it('tolist([null, "a"])', () => {
    expect(formatValue(conv(tupleVal([nullVal(DynamicPseudoType), stringVal("a")]), listOf(DynamicPseudoType)))).toBe(
      'tolist([\n  tostring(null),\n  "a",\n])',
    );
  });
  it('sensitive("x")', () => {
    expect(formatValue(mark(stringVal("x"), SENSITIVE))).toBe("(sensitive value)");
  });
  it("{a = sensitive(1)}", () => {
    expect(formatValue(lit({ a: mark(num("1"), SENSITIVE) }))).toBe('{\n  "a" = (sensitive value)\n}');
  });
  it("tomap({a=null, b=[1]})", () => {
    expect(formatValue(conv(lit({ a: nullVal(DynamicPseudoType), b: [1] }), mapOf(DynamicPseudoType)))).toBe(
      'tomap({\n  "a" = null /* tuple */\n  "b" = [\n    1,\n  ]\n})',
    );
  });
  it("escapes with Go quoting", () => {
    expect(formatValue(stringVal('q"\\\\ ${x} \t'))).toBe('"q\\"\\\\\\\\ ${x} \\t"');
  });
  it('{"a b" = 1}', () => {
    expect(formatValue(lit({ "a b": 1 }))).toBe('{\n  "a b" = 1\n}');
  });
  it("typed nulls and unknowns", () => {
    expect(formatValue(nullVal(listOf(StringType)))).toBe("tolist(null) /* of string */");
    expect(formatValue(nullVal(setOf(StringType)))).toBe("toset(null) /* of string */");
    expect(formatValue(nullVal(objectOf({})))).toBe("null /* object */");
    expect(formatValue(unknownVal(StringType))).toBe("(known after apply)");
    expect(formatValue(lit({ a: unknownVal(StringType) }))).toBe('{\n  "a" = (known after apply)\n}');
  });
});
