import { describe, expect, it } from "vitest";
import { convert } from "./convert.js";
import { formatValue } from "./format.js";
import { binaryOp } from "./ops.js";
import { parseLiteralExpr } from "./testutil.js";
import { EQUALITY_ORACLE } from "./testdata/equality-oracle.js";
import { DynamicPseudoType, listOf, mapOf, setOf, type Type } from "./types.js";
import type { Value } from "./value.js";

const targets: Record<string, Type> = {
  tolist: listOf(DynamicPseudoType),
  toset: setOf(DynamicPseudoType),
  tomap: mapOf(DynamicPseudoType),
};

function operand(src: string): Value | undefined {
  return parseLiteralExpr(src, (name, arg) => {
    const t = targets[name];
    if (!t) throw new Error(`unknown function ${name}`);
    const r = convert(arg, t);
    return r.ok ? r.value : undefined;
  });
}

function evaluate(expr: string): string {
  const [a, b] = expr.split(" == ");
  const l = operand(a as string);
  const r = operand(b as string);
  if (!l || !r) return "ERROR";
  const res = binaryOp("==", l, r);
  return res.ok ? formatValue(res.value) : "ERROR";
}

// Every expression was evaluated by `terraform console`; the expected text is what it printed.
describe("equality matches terraform console (generated corpus)", () => {
  it.each(EQUALITY_ORACLE)("%s", (expr, want) => {
    expect(evaluate(expr)).toBe(want);
  });
});
