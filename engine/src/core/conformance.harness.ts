// The conformance harness for areas "B" (OpenTofu cases 010–016: provider for_each at run time)
// and "E" (cases 040–071: planning behaviours), used by scripts/conformance.mjs and by
// conformance.test.ts. Each case runs against Context (plan, apply) with the bundled `test`
// provider started as real plugin processes (LEGACY-AWS as the same executable named `aws`;
// cases with their own schema or RPC overrides select a profile of it, see
// providers-bundled/test/profiles.ts). The expectations of each expect.md are restated in
// conformance/ as checks of got-versus-want; a case passes when every check does. Node-only.
import path from "node:path";
import { case010, case011, case012, case013, case014, case015, case016 } from "./conformance/area_b.js";
import { case063, case065, case066, case068, case070, case071 } from "./conformance/area_e_cbd.js";
import { case050, case051, case052, case053, case054, case055, case056, case057, case058, case059, case060, case061, case062, case064, case067 } from "./conformance/area_e_lifecycle.js";
import { case047, case048, case049, case069 } from "./conformance/area_e_modes.js";
import { case040, case041, case042, case043, case044, case045, case046 } from "./conformance/area_e_moves.js";
import { runChecks, type CaseResult, type Check, type Checks } from "./conformance/kit.js";

export type { CaseResult, Check } from "./conformance/kit.js";

type CaseFn = (t: Checks, dir: string) => Promise<void>;

const CASES: Readonly<Record<string, CaseFn>> = {
  "010": case010,
  "011": case011,
  "012": case012,
  "013": case013,
  "014": case014,
  "015": case015,
  "016": case016,
  "040": case040,
  "041": case041,
  "042": case042,
  "043": case043,
  "044": case044,
  "045": case045,
  "046": case046,
  "047": case047,
  "048": case048,
  "049": case049,
  "050": case050,
  "051": case051,
  "052": case052,
  "053": case053,
  "054": case054,
  "055": case055,
  "056": case056,
  "057": case057,
  "058": case058,
  "059": case059,
  "060": case060,
  "061": case061,
  "062": case062,
  "063": case063,
  "064": case064,
  "065": case065,
  "066": case066,
  "067": case067,
  "068": case068,
  "069": case069,
  "070": case070,
  "071": case071,
};

/** The case's number ("010") from its directory name. */
function caseId(dir: string): string {
  return path.basename(dir).slice(0, 3);
}

/** Every check of a case, run (undefined when the harness has no checks for it). */
export async function planningCaseChecks(dir: string): Promise<Check[] | undefined> {
  const fn = CASES[caseId(dir)];
  if (!fn) return undefined;
  return (await runChecks((t) => fn(t, dir))).checks;
}

/** Runs one case: ok when every check passes, else the first failing check. */
export async function runPlanningCase(dir: string): Promise<CaseResult> {
  const fn = CASES[caseId(dir)];
  if (!fn) return { ok: false, message: `no checks for case ${path.basename(dir)}` };
  return (await runChecks((t) => fn(t, dir))).result;
}
