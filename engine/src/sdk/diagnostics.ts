// Diagnostics as values (OpenTofu's tfdiags): handlers return them, the server sends them. A
// handler may also throw a ProviderError, which becomes one error diagnostic; any other thrown
// error becomes an "Unexpected provider error" so that the plugin process keeps serving.

import type { ProtoAttributePath, ProtoAttributePathStep, ProtoDiagnostic } from "../providers/proto/index.js";
import type { Path } from "../values/index.js";

export type Severity = "error" | "warning";

export interface Diagnostic {
  readonly severity: Severity;
  readonly summary: string;
  readonly detail?: string;
  /** The attribute the diagnostic is about; Terraform points at it in the configuration. */
  readonly path?: Path;
}

export function errorDiagnostic(summary: string, detail?: string, path?: Path): Diagnostic {
  return { severity: "error", summary, ...(detail !== undefined ? { detail } : {}), ...(path ? { path } : {}) };
}

export function warningDiagnostic(summary: string, detail?: string, path?: Path): Diagnostic {
  return { severity: "warning", summary, ...(detail !== undefined ? { detail } : {}), ...(path ? { path } : {}) };
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}

/** Throw from a handler to fail the operation with one error diagnostic. */
export class ProviderError extends Error {
  constructor(
    readonly summary: string,
    readonly detail?: string,
    readonly path?: Path,
  ) {
    super(detail ? `${summary}: ${detail}` : summary);
  }
}

/** A thrown value as diagnostics. */
export function diagnosticsFromError(e: unknown, what: string): Diagnostic[] {
  if (e instanceof ProviderError) return [errorDiagnostic(e.summary, e.detail, e.path)];
  const message = e instanceof Error ? e.message : String(e);
  return [errorDiagnostic("Unexpected provider error", `${what} failed: ${message}`)];
}

export function pathToProto(path: Path): ProtoAttributePath {
  const steps: ProtoAttributePathStep[] = path.map((s) => {
    if (s.kind === "attr") return { attribute_name: s.name };
    if (s.key.kind === "string") return { element_key_string: s.key.value };
    if (s.key.kind === "number") return { element_key_int: Number(s.key.value.toBigInt() ?? 0n) };
    throw new Error("attribute paths index only by string or number");
  });
  return { steps };
}

export function diagnosticToProto(d: Diagnostic): ProtoDiagnostic {
  const out: ProtoDiagnostic = { severity: d.severity === "error" ? "ERROR" : "WARNING", summary: d.summary, detail: d.detail ?? "" };
  if (d.path && d.path.length > 0) out.attribute = pathToProto(d.path);
  return out;
}
