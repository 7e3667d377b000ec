// Diagnostics in a compact, comparable form for table-driven tests.
import type { Diagnostic, Range } from "../hcl/index.js";

export function rangeText(r: Range | undefined): string | undefined {
  if (!r) return undefined;
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

export interface PlainDiag {
  severity: string;
  summary: string;
  detail?: string;
  subject?: string;
}

/** severity, summary, detail and subject as "line:col-line:col". */
export function plain(diags: readonly Diagnostic[], withDetail = true): PlainDiag[] {
  return diags.map((d) => {
    const p: PlainDiag = { severity: d.severity, summary: d.summary };
    if (withDetail) p.detail = d.detail;
    const s = rangeText(d.subject);
    if (s) p.subject = s;
    return p;
  });
}
