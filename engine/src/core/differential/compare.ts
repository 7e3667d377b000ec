// Compares core's observations of a scenario with terraform's recorded ones and finds the first
// point where they part: the step (1-based) and the aspect. Later steps are not compared once
// a step differs, because they start from a different state and would only repeat the cause.
import type { Diag, StepObs } from "./observation.js";

/** In the order they are compared within a step. */
export const ASPECTS = ["plan.errors", "plan.changes", "plan.outputs", "plan.warnings", "apply.errors", "apply.warnings", "state"] as const;
export type Aspect = (typeof ASPECTS)[number];

export interface Mismatch {
  readonly scenario: string;
  readonly step: number;
  readonly aspect: Aspect;
  /** terraform's value and core's, as canonical JSON. */
  readonly terraform: string;
  readonly core: string;
}

/** JSON with object keys sorted, so key order never matters. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

/** terraform's summary → OpenTofu's, for diagnostics the two word differently (DIFFERENCES.md). */
export type Wording = ReadonlyMap<string, string>;

/**
 * The distinct summaries, sorted: how many times a diagnostic repeats is left out, because
 * OpenTofu reports some per instance where terraform gathers them into one.
 */
function summaries(ds: readonly Diag[] | undefined, wording?: Wording): string[] | undefined {
  if (!ds) return undefined;
  return [...new Set(ds.map((d) => wording?.get(d.summary) ?? d.summary))].sort();
}

function aspectValue(s: StepObs | undefined, a: Aspect, wording?: Wording): unknown {
  switch (a) {
    case "plan.errors":
      return summaries(s?.plan?.errors, wording);
    case "plan.changes":
      return s?.plan?.changes;
    case "plan.outputs":
      return s?.plan?.outputs;
    case "plan.warnings":
      return summaries(s?.plan?.warnings, wording);
    case "apply.errors":
      return summaries(s?.apply?.errors, wording);
    case "apply.warnings":
      return summaries(s?.apply?.warnings, wording);
    case "state":
      return s?.state;
  }
}

function diagsOf(s: StepObs | undefined, a: Aspect): Diag[] | undefined {
  const part = a.startsWith("plan.") ? s?.plan : s?.apply;
  return a.endsWith("errors") ? part?.errors : part?.warnings;
}

/** Only the parts of two records that differ, for a readable message. */
function narrow(t: unknown, c: unknown): [unknown, unknown] {
  if (t === null || c === null || typeof t !== "object" || typeof c !== "object" || Array.isArray(t) || Array.isArray(c)) return [t, c];
  const to = t as Record<string, unknown>;
  const co = c as Record<string, unknown>;
  const tn: Record<string, unknown> = {};
  const cn: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(to), ...Object.keys(co)])) {
    if (canonical(to[k]) === canonical(co[k])) continue;
    const [a, b] = narrow(to[k], co[k]);
    if (k in to) tn[k] = a;
    if (k in co) cn[k] = b;
  }
  return [tn, cn];
}

/** `wording` translates terraform's diagnostic summaries before they are compared. */
export function firstMismatch(scenario: string, terraform: readonly StepObs[], core: readonly StepObs[], wording?: Wording): Mismatch | undefined {
  for (let i = 0; i < Math.max(terraform.length, core.length); i++) {
    for (const aspect of ASPECTS) {
      const t = aspectValue(terraform[i], aspect, wording);
      const c = aspectValue(core[i], aspect);
      if (canonical(t) === canonical(c)) continue;
      // Diagnostics are compared by summary but shown with their details.
      const [tn, cn] = aspect.endsWith("errors") || aspect.endsWith("warnings") ? [diagsOf(terraform[i], aspect), diagsOf(core[i], aspect)] : narrow(t, c);
      return { scenario, step: i + 1, aspect, terraform: canonical(tn) ?? "(nothing)", core: canonical(cn) ?? "(nothing)" };
    }
  }
  return undefined;
}
