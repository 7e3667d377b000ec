// Custom conditions (OpenTofu's eval_conditions.go): resource and data source preconditions and
// postconditions, output preconditions and `check` block assertions. Each rule's condition is
// evaluated in the scope of its object (postconditions also see `self`, the object's new value);
// false reports "<rule type> failed" with the rule's error_message, at the severity the caller
// chooses (errors, except check assertions, which only warn); an unknown result is left for
// apply. An error message derived from sensitive or ephemeral values is not shown (a warning
// says why). Every result is recorded in the run's check state.
import type { AbsResourceInstance, ModuleInstance } from "../addrs/index.js";
import { exprVariables, modulePathString, resourceAddrString, type CheckRule, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic, type Severity, type Traverser } from "../hcl/index.js";
import { EvalContext, evaluateAny, fromExpr } from "../lang/eval/index.js";
import type { CheckStatus } from "../states/index.js";
import { BoolType, EPHEMERAL, SENSITIVE, StringType, convert, formatPathError, unmark, unmarkDeep, type Value } from "../values/index.js";
import { CHECK_RULE_DESCRIPTION, runChecks, type CheckRuleType } from "./checks.js";
import { evalScope, referencesOf } from "./evaluate.js";
import type { RepetitionData } from "./expand.js";
import type { RunState } from "./run.js";

/** The traversals of a rule's condition and error message (for graph edges and scopes). */
export function checkReferences(rule: CheckRule): Traverser[][] {
  return [...(rule.condition ? exprVariables(rule.condition) : []), ...(rule.errorMessage ? exprVariables(rule.errorMessage) : [])];
}

/**
 * Whether a variable validation rule refers to more than input variables (locals, resources,
 * `path`, ...): a root variable's rule like that is checked in the walk, once those are known.
 */
export function refersBeyondVariables(rule: { readonly condition?: AnyExpression | undefined; readonly errorMessage?: AnyExpression | undefined }): boolean {
  const traversals = [...(rule.condition ? exprVariables(rule.condition) : []), ...(rule.errorMessage ? exprVariables(rule.errorMessage) : [])];
  return referencesOf(traversals).refs.some((r) => r.subject.kind !== "InputVariable");
}

export function hasConditions(r: Resource): boolean {
  return r.preconditions.length + r.postconditions.length > 0;
}

/** Where a rule is evaluated. */
export interface RuleScope {
  readonly module: ModuleInstance;
  readonly repetition: RepetitionData;
  readonly hasCount?: boolean;
  readonly hasForEach?: boolean;
  /** Resource postconditions: the object's new value, as `self`. */
  readonly self?: Value;
}

/** The checkable a set of rules belongs to: its configuration address and this instance's address. */
export interface Checkable {
  readonly configAddr: string;
  readonly objectAddr: string;
}

/**
 * Evaluates rules of one type for one object, records their statuses, and returns diagnostics:
 * failures at `severity`, configuration problems (invalid results or messages) always as errors.
 */
export function evalCheckRules(
  run: RunState,
  type: CheckRuleType,
  rules: readonly CheckRule[],
  object: Checkable,
  scope: RuleScope,
  severity: Severity,
): Diagnostic[] {
  const checks = runChecks(run);
  if (rules.length === 0 || !checks.hasChecks(object.configAddr)) return [];
  const diagnostics: Diagnostic[] = [];
  rules.forEach((rule, i) => {
    const r = evalCheckRule(run, type, rule, scope, severity);
    diagnostics.push(...r.diagnostics);
    checks.reportCheckResult(object.configAddr, object.objectAddr, type, i, r.status, r.failureMessage);
  });
  return diagnostics;
}

function ruleContext(run: RunState, rule: CheckRule, scope: RuleScope): { ctx: EvalContext; diagnostics: Diagnostic[] } {
  const s = evalScope(run, scope, checkReferences(rule));
  if (!scope.self) return s;
  const vars = new Map(s.ctx.variables ?? []);
  vars.set("self", scope.self);
  return { ctx: new EvalContext(vars, s.ctx.functions), diagnostics: s.diagnostics };
}

function evalCheckRule(
  run: RunState,
  type: CheckRuleType,
  rule: CheckRule,
  scope: RuleScope,
  severity: Severity,
): { status: CheckStatus; failureMessage?: string; diagnostics: Diagnostic[] } {
  const cond = rule.condition;
  if (!cond) return { status: "error", diagnostics: [] }; // reported when the configuration was decoded
  const { ctx, diagnostics } = ruleContext(run, rule, scope);
  if (hasErrors(diagnostics)) return { status: "error", diagnostics };
  const message = rule.errorMessage ? evalErrorMessage(rule.errorMessage, ctx) : { message: "", diagnostics: [] };
  diagnostics.push(...message.diagnostics);
  const r = evaluateAny(cond, ctx);
  diagnostics.push(...r.diagnostics);
  if (hasErrors(diagnostics)) return { status: "error", diagnostics };
  const [result] = unmarkDeep(r.value);
  if (result.kind === "unknown") {
    if (type === "CheckAssertion") {
      diagnostics.push(fromExpr({
        severity: "warning",
        summary: `${CHECK_RULE_DESCRIPTION[type]} known after apply`,
        detail: "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
        subject: cond.range,
      }, cond, ctx));
    }
    return { status: "unknown", diagnostics };
  }
  if (result.kind === "null") {
    diagnostics.push(fromExpr(errorDiag("Invalid condition result", "Condition expression must return either true or false, not null.", cond.range), cond, ctx));
    return { status: "error", diagnostics };
  }
  const b = convert(result, BoolType);
  if (!b.ok) {
    diagnostics.push(fromExpr(errorDiag("Invalid condition result", `Invalid condition result value: ${formatPathError(b.error)}.`, cond.range), cond, ctx));
    return { status: "error", diagnostics };
  }
  if (b.value.kind === "bool" && b.value.value) return { status: "pass", diagnostics };
  diagnostics.push(fromExpr({
    severity,
    summary: `${CHECK_RULE_DESCRIPTION[type]} failed`,
    detail: message.message || "This check failed, but has an invalid error message as described in the other accompanying messages.",
    subject: cond.range,
  }, cond, ctx));
  return { status: "fail", failureMessage: message.message, diagnostics };
}

/** The error message as a trimmed string; empty (with a diagnostic) when it cannot be shown. */
function evalErrorMessage(expr: AnyExpression, ctx: EvalContext): { message: string; diagnostics: Diagnostic[] } {
  const r = evaluateAny(expr, ctx);
  const diagnostics = [...r.diagnostics];
  if (hasErrors(diagnostics)) return { message: "", diagnostics };
  const [plain, marks] = unmark(r.value);
  const c = convert(plain, StringType);
  if (!c.ok) {
    diagnostics.push(errorDiag("Invalid error message", `Unsuitable value for error message: ${formatPathError(c.error)}.`, expr.range));
    return { message: "", diagnostics };
  }
  if (c.value.kind === "unknown") return { message: "", diagnostics };
  if (c.value.kind === "null") {
    diagnostics.push(errorDiag("Invalid error message", "Unsuitable value for error message: must not be null.", expr.range));
    return { message: "", diagnostics };
  }
  const deepMarks = unmarkDeep(r.value)[1];
  if (marks.has(SENSITIVE) || deepMarks.has(SENSITIVE)) {
    diagnostics.push({
      severity: "warning",
      summary: "Error message refers to sensitive values",
      detail:
        "The error expression used to explain this condition refers to sensitive values, so OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
      subject: expr.range,
    });
    return { message: "", diagnostics };
  }
  // Checked after sensitivity, as OpenTofu does: a message that is both is reported as sensitive.
  if (marks.has(EPHEMERAL) || deepMarks.has(EPHEMERAL)) {
    diagnostics.push({
      severity: "warning",
      summary: "Error message refers to ephemeral values",
      detail:
        "The error expression used to explain this condition refers to ephemeral values, so OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function.",
      subject: expr.range,
    });
    return { message: "", diagnostics };
  }
  return { message: c.value.kind === "string" ? c.value.value.trim() : "", diagnostics };
}

/** The checkable of a resource instance: `module.a.aws_x.y` and `module.a[0].aws_x.y[1]`. */
export function resourceCheckable(addr: AbsResourceInstance, rc: Resource): Checkable {
  const path = addr.module.steps.map((s) => s.name);
  return { configAddr: `${path.length === 0 ? "" : `${modulePathString(path)}.`}${resourceAddrString(rc)}`, objectAddr: addr.toString() };
}

/**
 * A resource instance's preconditions (before its change is planned or applied, or its data
 * read) or postconditions (against its new value, `self`). Failures are errors, warnings in a
 * refresh-only plan and in the refresh a destroy plan starts with.
 */
export function resourceConditions(
  run: RunState,
  when: "pre" | "post",
  addr: AbsResourceInstance,
  rc: Resource,
  repetition: RepetitionData,
  self?: Value,
): Diagnostic[] {
  const severity: Severity = run.opts.refreshOnly || run.opts.preDestroyRefresh ? "warning" : "error";
  const scope: RuleScope = { module: addr.module, repetition, hasCount: !!rc.count, hasForEach: !!rc.forEach, ...(self ? { self } : {}) };
  return when === "pre"
    ? evalCheckRules(run, "ResourcePrecondition", rc.preconditions, resourceCheckable(addr, rc), scope, severity)
    : evalCheckRules(run, "ResourcePostcondition", rc.postconditions, resourceCheckable(addr, rc), scope, severity);
}
