// The order and grouping of human-readable diagnostics (tofu's views.View.Diagnostics): sorted as
// tfdiags' Diagnostics.Sort does, then warnings with the same summary folded into the first one
// (ConsolidateWarnings(1)). `-json` streams keep the order diagnostics were found in, as tofu's do.
import { copyDiagnostic, type Diagnostic, type Range } from "../hcl/index.js";

function sameRange(a: Range, b: Range): boolean {
  return (
    a.filename === b.filename &&
    a.start.line === b.start.line &&
    a.start.column === b.start.column &&
    a.start.byte === b.start.byte &&
    a.end.line === b.end.line &&
    a.end.column === b.end.column &&
    a.end.byte === b.end.byte
  );
}

function pathSegments(filename: string): number {
  return filename.split("/").length - 1;
}

/** sortDiagnostics.Less: a negative number when `a` goes before `b`, 0 when their order is kept. */
function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.severity !== b.severity) return a.severity === "warning" ? -1 : 1;
  const as = a.subject;
  const bs = b.subject;
  if ((as === undefined) !== (bs === undefined)) return as === undefined ? -1 : 1;
  if (as === undefined || bs === undefined || sameRange(as, bs)) return 0;
  if (as.filename !== bs.filename) {
    // The path with fewer segments first, so a root module's files come before its children's.
    const d = pathSegments(as.filename) - pathSegments(bs.filename);
    if (d !== 0) return d;
    return as.filename < bs.filename ? -1 : 1;
  }
  if (as.start.byte !== bs.start.byte) return as.start.byte - bs.start.byte;
  return as.end.byte - bs.end.byte;
}

/** Diagnostics.Sort: a stable sort (Array.prototype.sort is stable), so ties keep their order. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort(compareDiagnostics);
}

/**
 * Whether a check block raised the diagnostic (tofu's CheckRuleDiagnosticExtra with a check
 * container): the read of its nested data source marks its diagnostics; its rules' own are told
 * by their summary ("Check block assertion failed", "Check block data resource known after
 * apply", and the like).
 */
export function fromCheckBlock(d: Diagnostic): boolean {
  return d.fromCheckBlock === true || d.summary.startsWith("Check block assertion ") || d.summary.startsWith("Check block data resource ");
}

/**
 * Diagnostics.Consolidate(1, severity): the first diagnostic of that severity with a source
 * location stands for every later one with the same summary, whose count its detail ends with.
 * Diagnostics from check blocks are never folded (DoNotConsolidateDiagnostic), nor are ones
 * without a location.
 */
export function consolidate(diags: readonly Diagnostic[], severity: Diagnostic["severity"]): Diagnostic[] {
  const out: Array<{ first: Diagnostic; more: number }> = [];
  const groups = new Map<string, { first: Diagnostic; more: number }>();
  for (const d of diags) {
    const foldable = d.severity === severity && d.subject !== undefined && !fromCheckBlock(d);
    const key = d.consolidationKey ?? d.summary;
    const group = foldable ? groups.get(key) : undefined;
    if (group) {
      group.more++;
      continue;
    }
    const entry = { first: d, more: 0 };
    out.push(entry);
    if (foldable) groups.set(key, entry);
  }
  return out.map(({ first, more }) => {
    if (more === 0) return first;
    const note = more === 1 ? `(and one more similar ${severity} elsewhere)` : `(and ${more} more similar ${severity}s elsewhere)`;
    return copyDiagnostic(first, { detail: first.detail === "" ? note : `${first.detail}\n\n${note}` });
  });
}
