// Diagnostics are values (OpenTofu's tfdiags, HCL's hcl.Diagnostic): parsers and decoders return
// them alongside their result so one run reports every problem at once.
import type { Range } from "./pos.js";

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  summary: string;
  detail: string;
  /** The part of the source the problem is about (underlined when rendered). */
  subject?: Range;
  /** A wider range that gives the subject its context (included in the rendered snippet). */
  context?: Range;
  /**
   * The object the problem is about, when that is not plain from the source alone: the resource
   * instance or provider instance whose provider (or provisioner) reported it, as OpenTofu's
   * `InConfigBody(body, addr)` records it. Rendered as "with <address>," and `-json`'s `address`.
   */
  address?: string;
}

export function errorDiag(summary: string, detail: string, subject?: Range, context?: Range): Diagnostic {
  const d: Diagnostic = { severity: "error", summary, detail };
  if (subject) d.subject = subject;
  if (context) d.context = context;
  return d;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  for (const d of diags) if (d.severity === "error") return true;
  return false;
}
