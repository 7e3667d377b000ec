// The static evaluator of one module instance chain (OpenTofu's StaticEvaluator): evaluates
// expressions that may use only variables, locals, path.*, terraform.workspace and built-in
// functions, for a named purpose (a StaticIdentifier) that errors mention.
import type { Reference } from "../../addrs/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic } from "../../hcl/index.js";
import type { EvalContext } from "../../lang/eval/index.js";
import { EPHEMERAL, SENSITIVE, StringType, convert, formatPathError, unmarkDeep, type Func, type Type, type Value } from "../../values/index.js";
import { exprStartRange } from "../body.js";
import type { Module } from "../module.js";
import type { StaticModuleCall } from "./call.js";
import { defaultStaticFunctions } from "./functions.js";
import { staticIdentifierString, type StaticIdentifier } from "./identifier.js";
import { StaticScope, type ScopeResult } from "./scope.js";

export class StaticEvaluator {
  readonly functions: ReadonlyMap<string, Func>;

  constructor(
    readonly module: Module,
    readonly call: StaticModuleCall,
  ) {
    this.functions = call.functions ?? defaultStaticFunctions();
  }

  private scope(ident: StaticIdentifier): StaticScope {
    return new StaticScope(this, [ident]);
  }

  /** The expression's value; errors come with "depends on" context for each failed reference. */
  evaluate(expr: AnyExpression, ident: StaticIdentifier): ScopeResult {
    return this.scope(ident).evalExpr(expr);
  }

  /** An evaluation context holding what the references need (for callers that evaluate themselves). */
  evalContext(ident: StaticIdentifier, refs: readonly Reference[]): { ctx: EvalContext; diagnostics: Diagnostic[] } {
    return this.scope(ident).evalContext(refs);
  }

  /**
   * DecodeExpression: the value converted to `type`, refusing sensitive and ephemeral values
   * (sensitivity is checked first, so a value that is both reports only that).
   */
  decodeExpression(expr: AnyExpression, ident: StaticIdentifier, type: Type): { value: Value | undefined; diagnostics: Diagnostic[] } {
    const r = this.evaluate(expr, ident);
    const diagnostics = r.diagnostics;
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
    const [plain, marks] = unmarkDeep(r.value);
    const name = staticIdentifierString(ident);
    if (marks.has(SENSITIVE)) {
      diagnostics.push(
        errorDiag("Sensitive value not allowed", `Sensitive values, or values derived from sensitive values, cannot be used as ${name}.`, expr.range),
      );
      return { value: undefined, diagnostics };
    }
    if (marks.has(EPHEMERAL)) {
      diagnostics.push(
        errorDiag("Ephemeral value not allowed", `Ephemeral values, or values derived from ephemeral values, cannot be used as ${name}.`, expr.range),
      );
      return { value: undefined, diagnostics };
    }
    // gohcl.DecodeValue into a Go value of the type.
    const unsuitable = (message: string) => {
      diagnostics.push(errorDiag("Unsuitable value type", `Unsuitable value: ${message}`, exprStartRange(expr), expr.range));
      return { value: undefined, diagnostics };
    };
    const c = convert(plain, type);
    if (!c.ok) return unsuitable(formatPathError(c.error));
    if (c.value.kind === "null") return unsuitable("null value is not allowed");
    if (c.value.kind === "unknown") return unsuitable("value must be known");
    return { value: c.value, diagnostics };
  }

  /** decodeExpression into a string. */
  decodeString(expr: AnyExpression, ident: StaticIdentifier): { value: string | undefined; diagnostics: Diagnostic[] } {
    const r = this.decodeExpression(expr, ident, StringType);
    return { value: r.value?.kind === "string" ? r.value.value : undefined, diagnostics: r.diagnostics };
  }
}
