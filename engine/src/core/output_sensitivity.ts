// A root module output may not hold a sensitive value unless it is declared sensitive: the plan
// walk and the validate walk check it alike (OpenTofu's NodeApplyableOutput).
import type { Output } from "../configs/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { SENSITIVE, unmarkDeepWithPaths, type Value } from "../values/index.js";

const SENSITIVE_OUTPUT_DETAIL =
  "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, OpenTofu requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true";

/** For a root module output not declared sensitive. */
export function sensitiveOutputDiagnostics(o: Output, value: Value): Diagnostic[] {
  const [, pvm] = unmarkDeepWithPaths(value);
  if (!pvm.some((p) => p.marks.has(SENSITIVE))) return [];
  return [errorDiag("Output refers to sensitive values", SENSITIVE_OUTPUT_DETAIL, o.declRange)];
}
