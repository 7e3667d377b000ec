// What the conformance harnesses of every module (states, providers, core, configs; run by
// scripts/conformance.mjs over ../shared/conformance) report for a case: its expect.md restated
// as got-versus-want checks, and a result made from them. Node-only test code, in no module's
// public surface.
import path from "node:path";
import { isDeepStrictEqual } from "node:util";

export interface CaseResult {
  ok: boolean;
  message: string;
}

/** One expectation: `got` must deep-equal `want` (plain data only). */
export interface Check {
  name: string;
  got: unknown;
  want: unknown;
}

/** A check whose `got` is computed lazily; an exception becomes the got value, so it fails. */
export function check(name: string, want: unknown, got: () => unknown): Check {
  try {
    return { name, got: got(), want };
  } catch (e) {
    return { name, got: `threw: ${e instanceof Error ? e.message : String(e)}`, want };
  }
}

export function checkPasses(c: Check): boolean {
  return isDeepStrictEqual(c.got, c.want);
}

/** How a failed check reads in a case result. */
export function checkFailure(c: Check): string {
  return `${c.name}: got ${JSON.stringify(c.got)}, want ${JSON.stringify(c.want)}`;
}

/** A harness that threw while computing a case's checks. */
export function harnessError(e: unknown): CaseResult {
  return { ok: false, message: `harness error: ${e instanceof Error ? e.message : String(e)}` };
}

/**
 * The result of a case from all of its checks (undefined: the `area` harness has none for the
 * case in `dir`): ok when every check passes, else every failing check.
 */
export function caseResult(area: string, dir: string, checks: readonly Check[] | undefined): CaseResult {
  if (!checks) return { ok: false, message: `no ${area} conformance checks for ${path.basename(dir)}` };
  const bad = checks.filter((c) => !checkPasses(c));
  if (bad.length > 0) return { ok: false, message: bad.map(checkFailure).join("\n") };
  return { ok: true, message: `${checks.length} checks` };
}
