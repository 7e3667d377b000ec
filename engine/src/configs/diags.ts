// A warning constructor to go with hcl's errorDiag.
import type { Diagnostic, Range } from "../hcl/index.js";

export function warningDiag(summary: string, detail: string, subject?: Range, context?: Range): Diagnostic {
  const d: Diagnostic = { severity: "warning", summary, detail };
  if (subject) d.subject = subject;
  if (context) d.context = context;
  return d;
}
