// Custom `validation` rules (OpenTofu's tofu/eval_variable.go evalVariableValidations): each
// condition is evaluated with the variable's final value, an unknown result is skipped until more
// is known, and a false one is reported with the rule's error_message — never revealing a
// sensitive (or ephemeral) value.
import { errorDiag, formatRange, hasErrors, type AnyExpression, type Diagnostic, type Range } from "../../hcl/index.js";
import { EvalContext, evaluateAny, fromExpr } from "../../lang/eval/index.js";
import {
  BoolType,
  EPHEMERAL,
  SENSITIVE,
  StringType,
  convert,
  formatPathError,
  hasMark,
  objectVal,
  stringVal,
  unmark,
  type Func,
  type Value,
} from "../../values/index.js";
import type { InputVariableDeclaration, VariableValidation } from "./declaration.js";
import { evaluateWithoutContext } from "./nilcontext.js";

export type CheckStatus = "pass" | "fail" | "unknown" | "error";

export interface ValidationResult {
  readonly status: CheckStatus;
  /** The message reported for a failed rule. */
  readonly failureMessage?: string;
  readonly diagnostics: Diagnostic[];
}

/** What validation expressions can see besides the variable itself. */
export interface ValidationScope {
  /**
   * Final (marked) values of the module's other variables, reachable as `var.<name>`: OpenTofu,
   * like Terraform 1.9+, lets a validation rule refer to other objects in its module.
   */
  readonly variables?: ReadonlyMap<string, Value>;
  /** Other root names a caller can provide (`local`, `path`, `terraform`, ...). */
  readonly roots?: ReadonlyMap<string, Value>;
  /** The expression that set the value (a module call's argument), where a failure points. */
  readonly valueRange?: Range;
  /** The function table; without one every call is "Call to unknown function". */
  readonly functions?: ReadonlyMap<string, Func>;
}

const ERR_INVALID_CONDITION = "Invalid variable validation result";
const ERR_INVALID_VALUE = "Invalid value for variable";

/**
 * Runs every validation rule of one variable against its final value (already marked). Returns
 * the diagnostics of all rules and each rule's status in order.
 */
export function evalVariableValidations(
  decl: InputVariableDeclaration,
  value: Value,
  scope: ValidationScope = {},
): { statuses: ValidationResult[]; diagnostics: Diagnostic[] } {
  const statuses: ValidationResult[] = [];
  const diagnostics: Diagnostic[] = [];
  if (decl.validations.length === 0) return { statuses, diagnostics };
  const vars = new Map(scope.variables ?? []);
  // The value under test is injected directly: it is not "final" until its checks are reported.
  vars.set(decl.name, value);
  const rootVars = new Map(scope.roots ?? []);
  rootVars.set("var", objectVal(vars));
  const ctx = new EvalContext(rootVars, scope.functions ?? new Map<string, Func>());
  for (const rule of decl.validations) {
    const r = evalVariableValidation(rule, ctx, decl, scope.valueRange);
    statuses.push(r);
    diagnostics.push(...r.diagnostics);
  }
  return { statuses, diagnostics };
}

/** hcl.Diagnostics.Error(): how the error-message fallback warning quotes the original errors. */
function diagnosticsError(diags: readonly Diagnostic[]): string {
  const one = (d: Diagnostic) => `${d.subject ? formatRange(d.subject) : "<nil>"}: ${d.summary}; ${d.detail}`;
  const first = diags[0];
  if (!first) return "no diagnostics";
  if (diags.length === 1) return one(first);
  return `${one(first)}, and ${diags.length - 1} other diagnostic(s)`;
}

/**
 * Before error messages were expressions, JSON-syntax messages were taken literally even with
 * "${" in them. When the expression fails, a JSON string is still accepted as a literal, with a
 * warning (gohcl.DecodeExpression with a nil context).
 */
function literalErrorMessage(expr: AnyExpression): string | undefined {
  if (expr.kind !== "JSONExpr") return undefined;
  const r = evaluateWithoutContext(expr);
  if (hasErrors(r.diagnostics)) return undefined;
  const c = convert(r.value, StringType);
  if (!c.ok || c.value.kind !== "string") return undefined;
  return c.value.value;
}

export function evalVariableValidation(rule: VariableValidation, ctx: EvalContext, decl: InputVariableDeclaration, valueRange?: Range): ValidationResult {
  const diagnostics: Diagnostic[] = [];
  const cond = evaluateAny(rule.condition, ctx);
  diagnostics.push(...cond.diagnostics);
  const msg = evaluateAny(rule.errorMessage, ctx);
  let errorValue = msg.value;
  let errorDiags = msg.diagnostics;

  if (hasErrors(errorDiags)) {
    const literal = literalErrorMessage(rule.errorMessage);
    if (literal !== undefined) {
      errorValue = stringVal(literal);
      errorDiags = [
        {
          severity: "warning",
          summary: "Validation error message expression is invalid",
          detail: `The error message provided could not be evaluated as an expression, so OpenTofu is interpreting it as a string literal.\n\nIn future versions of OpenTofu, this will be considered an error. Please file a GitHub issue if this would break your workflow.\n\n${diagnosticsError(errorDiags)}`,
          subject: rule.errorMessage.range,
          context: rule.declRange,
        },
      ];
    }
    diagnostics.push(...errorDiags);
  }

  let result = cond.value;
  if (result.kind === "unknown") return { status: "unknown", diagnostics };
  if (result.kind === "null") {
    diagnostics.push(fromExpr(errorDiag(ERR_INVALID_CONDITION, "Validation condition expression must return either true or false, not null.", rule.condition.range), rule.condition, ctx));
    return { status: "error", diagnostics };
  }
  const asBool = convert(result, BoolType);
  if (!asBool.ok) {
    diagnostics.push(fromExpr(errorDiag(ERR_INVALID_CONDITION, `Invalid validation condition result value: ${formatPathError(asBool.error)}.`, rule.condition.range), rule.condition, ctx));
    return { status: "error", diagnostics };
  }
  // A condition over a sensitive variable is itself sensitive; that does not matter here.
  [result] = unmark(asBool.value);
  if (result.kind !== "bool" || result.value) return { status: "pass", diagnostics };

  let errorMessage = "";
  if (!hasErrors(errorDiags) && errorValue.kind === "unknown") {
    diagnostics.push(
      errorDiag(
        "Invalid error message",
        "Value used in error message is not known and can not be used in error_message until after apply.",
        rule.errorMessage.range,
      ),
    );
    return { status: "fail", failureMessage: errorMessage, diagnostics };
  }
  if (!hasErrors(errorDiags) && errorValue.kind !== "unknown" && errorValue.kind !== "null") {
    const s = convert(errorValue, StringType);
    if (!s.ok) {
      diagnostics.push(errorDiag("Invalid error message", `Unsuitable value for error message: ${formatPathError(s.error)}.`, rule.errorMessage.range));
    } else if (hasMark(s.value, SENSITIVE)) {
      diagnostics.push(
        errorDiag(
          "Error message refers to sensitive values",
          "The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
          rule.errorMessage.range,
        ),
      );
      errorMessage = "The error message included a sensitive value, so it will not be displayed.";
    } else if (hasMark(s.value, EPHEMERAL)) {
      diagnostics.push(
        errorDiag(
          "Error message refers to ephemeral values",
          "The error expression used to explain this condition refers to ephemeral values. OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function.",
          rule.errorMessage.range,
        ),
      );
      errorMessage = "The error message included an ephemeral value, so it will not be displayed.";
    } else if (s.value.kind === "string") {
      errorMessage = s.value.value.trim();
    }
  }
  if (errorMessage === "") errorMessage = "Failed to evaluate condition error message.";

  // A module call's argument is where the value came from; a root module variable (or one left
  // to its default) has no such expression, so the error points at the declaration.
  diagnostics.push(
    fromExpr(errorDiag(ERR_INVALID_VALUE, `${errorMessage}\n\nThis was checked by the validation rule at ${formatRange(rule.declRange)}.`, valueRange ?? decl.declRange), rule.condition, ctx),
  );
  return { status: "fail", failureMessage: errorMessage, diagnostics };
}
