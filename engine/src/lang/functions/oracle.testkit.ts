// Comparing our function results with answers recorded from `terraform console` (see
// engine/scripts/function-oracle.mjs). Browser-safe: the test files read the JSON and pass it in.
import { builtinFunctions } from "./index.js";
import type { FunctionContext } from "./context.js";
import { noContext, normalizeDetail, type OracleAnswer, type OracleFile } from "./testoracle.js";
import { evaluate } from "./testeval.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callFunction, formatValue, type Func, type Value } from "../../values/index.js";
import { show } from "../../values/testutil.js";
import { withoutPanicTrace } from "./panictrace.testkit.js";

import { expected } from "./testoracle.js";

export { expected, normalizeDetail, type OracleAnswer, type OracleFile } from "./testoracle.js";

/** A context for tests that must not touch files, time or randomness, rooted at "/". */
export const testContext: FunctionContext = { ...noContext, baseDir: "/" };

/** Our answer in the shape of a recorded one. */
export function answer(expr: string, vars: Record<string, Value> = {}): OracleAnswer {
  const r = evaluate(expr, builtinFunctions(testContext), vars);
  if (r.ok) return { ok: true, output: formatValue(r.value) };
  return { ok: false, summary: r.summary, detail: normalizeDetail(r.detail) };
}

/** A recorded answer file in ./testdata, by name. */
export function loadOracle(name: string): OracleFile {
  return JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8")) as OracleFile;
}

/**
 * One test per expression `terraform console` answered: our result and error texts must match
 * (Go's stack trace after a recovered panic excepted).
 */
export function describeOracle(title: string, oracle: OracleFile): void {
  describe(title, () => {
    it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
      expect(answer(expr)).toEqual(expected(withoutPanicTrace(want)));
    });
  });
}

/** Calls one function of a category's table, showing the result or "summary: detail". */
export function functionCaller(fns: Readonly<Record<string, Func>>): (name: string, ...args: Value[]) => string {
  return (name, ...args) => {
    const fn = fns[name];
    if (!fn) throw new Error(`no function ${name}`);
    const r = callFunction(name, fn, args);
    return r.ok ? show(r.value) : `${r.summary}: ${r.detail}`;
  };
}
