// Checking a category against its recorded `terraform console` answers, where OpenTofu (our
// reference) answers some expressions differently: those are listed with their OpenTofu answer
// and the reason in testdata/<category>.opentofu.json and asserted instead. Browser-safe: the
// test files read the JSON files and pass them in.
import type { FunctionContext } from "./context.js";
import { builtinFunctions } from "./index.js";
import { normalizeDetail, type OracleAnswer, type OracleFile } from "./oracle.testkit.js";
import { evaluate } from "./testeval.js";
import { formatValue } from "../../values/index.js";

export type Differences = Readonly<Record<string, { readonly answer: OracleAnswer; readonly reason: string }>>;

function normalized(a: OracleAnswer): OracleAnswer {
  return a.ok ? a : { ok: false, summary: a.summary, detail: normalizeDetail(a.detail) };
}

/** [expression, what we must answer] for every recorded expression. */
export function expectations(oracle: OracleFile, differences: Differences): Array<[string, OracleAnswer]> {
  for (const e of Object.keys(differences)) {
    if (!(e in oracle.answers)) throw new Error(`difference listed for an expression that was not recorded: ${e}`);
  }
  return Object.entries(oracle.answers).map(([e, a]) => [e, normalized(differences[e]?.answer ?? a)]);
}

export function answerIn(ctx: FunctionContext, expr: string): OracleAnswer {
  const r = evaluate(expr, builtinFunctions(ctx));
  return r.ok ? { ok: true, output: formatValue(r.value) } : { ok: false, summary: r.summary, detail: normalizeDetail(r.detail) };
}
