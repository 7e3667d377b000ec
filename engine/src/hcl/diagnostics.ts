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
  /**
   * What similar diagnostics are folded by in the terminal (tfdiags' Consolidate groups by
   * summary): set where one summary covers distinct causes, such as deprecation warnings.
   */
  consolidationKey?: string;
  /**
   * The expression the problem was found in and the scope it was evaluated in (HCL's
   * `Expression` and `EvalContext`), for the values listed under the snippet. Set only through
   * `withExpression`, which keeps it out of equality checks and JSON; `copyDiagnostic` keeps it.
   */
  readonly expression?: DiagnosticExpression;
  /**
   * Raised by a check block: one of its rules, or the read of its nested data source (tofu's
   * CheckRuleDiagnosticExtra). Set only through `markFromCheckBlock`, which keeps it out of
   * equality checks and JSON; `copyDiagnostic` keeps it.
   */
  readonly fromCheckBlock?: true;
}

/** One line of the "├────" section: a traversal and what its value was (tofu's `snippet.values`). */
export interface DiagnosticExpressionValue {
  traversal: string;
  statement: string;
}

/** A function parameter in `snippet.function_call.signature` (type in cty's JSON type form). */
export interface DiagnosticFunctionParam {
  name: string;
  type: unknown;
}

/** The call a diagnostic is about (tofu's `snippet.function_call`), shown as "while calling f(a, b...)". */
export interface DiagnosticFunctionCall {
  called_as: string;
  signature?: {
    name: string;
    params: DiagnosticFunctionParam[];
    variadic_param?: DiagnosticFunctionParam;
    return_type: unknown;
  };
}

/**
 * What an expression's diagnostic can say about the values it saw. The evaluator (`lang/eval`)
 * implements it; the statements are worked out only when the diagnostic is rendered, so errors
 * that are caught and dropped (`try`, `can`) cost nothing more.
 */
export interface DiagnosticExpression {
  /** Each relevant traversal and a statement about its value, sorted by traversal. */
  values(): DiagnosticExpressionValue[];
  functionCall(): DiagnosticFunctionCall | undefined;
}

/**
 * Attaches an expression to a diagnostic, unless one is already attached (as HCL's evaluator
 * keeps the innermost expression). The field is not enumerable: diagnostics stay plain values
 * for comparison and serialisation, and only this module's helpers carry it across copies.
 */
export function withExpression<D extends Diagnostic>(d: D, expression: DiagnosticExpression): D {
  if (d.expression === undefined) Object.defineProperty(d, "expression", { value: expression, writable: true, configurable: true, enumerable: false });
  return d;
}

export function markFromCheckBlock<D extends Diagnostic>(d: D): D {
  Object.defineProperty(d, "fromCheckBlock", { value: true, writable: true, configurable: true, enumerable: false });
  return d;
}

/** A changed copy of a diagnostic that keeps its expression and check-block mark (object spread would drop them). */
export function copyDiagnostic(d: Diagnostic, changes: Partial<Omit<Diagnostic, "expression" | "fromCheckBlock">>): Diagnostic {
  const out: Diagnostic = { ...d, ...changes };
  if (d.fromCheckBlock) markFromCheckBlock(out);
  return d.expression ? withExpression(out, d.expression) : out;
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
