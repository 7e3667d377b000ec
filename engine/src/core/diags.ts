// Diagnostics helpers for core: provider diagnostics placed in the configuration
// (OpenTofu's tfdiags InConfigBody, approximated to the block's range) and a few shared texts.
import type { Diagnostic, Range } from "../hcl/index.js";
import type { ProviderDiagnostic } from "../providers/index.js";
import { formatPath } from "../values/index.js";

/** Provider diagnostics as core diagnostics; an attribute path is named in the detail. */
export function providerDiagnostics(diags: readonly ProviderDiagnostic[], subject: Range | undefined): Diagnostic[] {
  return diags.map((d) => {
    const out: Diagnostic = { severity: d.severity, summary: d.summary, detail: d.detail };
    if (d.attribute && d.attribute.length > 0 && !d.detail.includes(formatPath(d.attribute))) {
      out.detail = d.detail === "" ? `(at ${formatPath(d.attribute)})` : d.detail;
    }
    const where = d.subject ?? subject;
    if (where) out.subject = where;
    return out;
  });
}

/** An error without a source range (tfdiags.Sourceless). */
export function sourceless(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}
