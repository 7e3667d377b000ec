import { describe, expect, it } from "vitest";
import { convert } from "./convert.js";
import { formatValue } from "./format.js";
import { parseLiteralExpr } from "./testutil.js";
import { CONVERSION_ORACLE } from "./testdata/conversion-oracle.js";
import { BoolType, DynamicPseudoType, NumberType, StringType, listOf, mapOf, setOf, type Type } from "./types.js";
import type { Value } from "./value.js";

const targets: Record<string, Type> = {
  tolist: listOf(DynamicPseudoType),
  toset: setOf(DynamicPseudoType),
  tomap: mapOf(DynamicPseudoType),
  tostring: StringType,
  tonumber: NumberType,
  tobool: BoolType,
};

function evaluate(src: string): string {
  const v = parseLiteralExpr(src, (name, arg): Value | undefined => {
    const t = targets[name];
    if (!t) throw new Error(`unknown function ${name}`);
    const r = convert(arg, t);
    return r.ok ? r.value : undefined;
  });
  return v ? formatValue(v) : "ERROR";
}

// Every expression was evaluated by `terraform console`; the expected text is what it printed.
describe("conversion functions match terraform console (generated corpus)", () => {
  it.each(CONVERSION_ORACLE)("%s", (expr, want) => {
    expect(evaluate(expr)).toBe(want);
  });
});
