// The static scope (OpenTofu's staticScopeData behind a lang.Scope): which references are
// allowed in a static context, and the values of those that are — variables from the module's
// call, locals evaluated recursively (with a stack of identifiers to find cycles and to add
// "depends on" context to errors), `path.*` and `terraform.workspace`.
import type { Reference } from "../../addrs/index.js";
import { errorDiag, formatRange, hasErrors, type AnyExpression, type Diagnostic, type Range } from "../../hcl/index.js";
import { EvalContext, evaluateAny, nameSuggestion } from "../../lang/eval/index.js";
import {
  DynamicPseudoType,
  DynamicVal,
  EPHEMERAL,
  SENSITIVE,
  applyDefaults,
  convert,
  nullVal,
  objectVal,
  stringVal,
  unknownVal,
  withMarks,
  type Value,
} from "../../values/index.js";
import type { StaticEvaluator } from "./evaluator.js";
import { staticIdentifierString, type StaticIdentifier } from "./identifier.js";
import { referencesInExpr } from "./references.js";

export interface ScopeResult {
  value: Value;
  diagnostics: Diagnostic[];
}

/** A lang.Scope over the static view of one module, evaluating for the top of `stack`. */
export class StaticScope {
  constructor(
    readonly evaluator: StaticEvaluator,
    /** Never empty: the first entry is what the evaluation was asked for. */
    readonly stack: readonly StaticIdentifier[],
  ) {}

  private get top(): StaticIdentifier {
    return this.stack[this.stack.length - 1] as StaticIdentifier;
  }

  /** Scope.EvalExpr: references checked and resolved, then the expression evaluated. */
  evalExpr(expr: AnyExpression): ScopeResult {
    const r = referencesInExpr(expr);
    const diagnostics = [...r.diagnostics];
    const ctx = this.evalContext(r.refs);
    diagnostics.push(...ctx.diagnostics);
    // Stopping here avoids repeating the same problems from the evaluator.
    if (hasErrors(diagnostics)) return { value: DynamicVal, diagnostics };
    const v = evaluateAny(expr, ctx.ctx);
    diagnostics.push(...v.diagnostics);
    return { value: v.value, diagnostics };
  }

  /** Scope.EvalContext: the variables the references need, after checking they are static. */
  evalContext(refs: readonly Reference[]): { ctx: EvalContext; diagnostics: Diagnostic[] } {
    const functions = this.evaluator.functions;
    const diagnostics = this.staticValidateReferences(refs);
    if (hasErrors(diagnostics)) return { ctx: new EvalContext(new Map(), functions), diagnostics };

    const vars = new Map<string, Value>();
    const locals = new Map<string, Value>();
    const paths = new Map<string, Value>();
    const terraform = new Map<string, Value>();
    const tofu = new Map<string, Value>();
    for (const ref of refs) {
      const s = ref.subject;
      switch (s.kind) {
        case "InputVariable": {
          const r = this.getInputVariable(s.name, ref.sourceRange);
          diagnostics.push(...r.diagnostics);
          vars.set(s.name, r.value);
          break;
        }
        case "LocalValue": {
          const r = this.getLocalValue(s.name, ref.sourceRange);
          diagnostics.push(...r.diagnostics);
          locals.set(s.name, r.value);
          break;
        }
        case "PathAttr": {
          const r = this.getPathAttr(s.name, ref.sourceRange);
          diagnostics.push(...r.diagnostics);
          paths.set(s.name, r.value);
          break;
        }
        case "TerraformAttr": {
          const r = this.getTerraformAttr(s.name, ref.sourceRange);
          diagnostics.push(...r.diagnostics);
          (s.alias === "tofu" ? tofu : terraform).set(s.name, r.value);
          break;
        }
        default:
          // Everything else was refused by staticValidateReferences.
          break;
      }
    }
    const variables = new Map<string, Value>([
      ["var", objectVal(vars)],
      ["local", objectVal(locals)],
      ["path", objectVal(paths)],
      ["terraform", objectVal(terraform)],
      ["tofu", objectVal(tofu)],
    ]);
    return { ctx: new EvalContext(variables, functions), diagnostics };
  }

  /** Only variables, locals, path.* and terraform.* may be used in a static context. */
  staticValidateReferences(refs: readonly Reference[]): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    const top = staticIdentifierString(this.top);
    for (const ref of refs) {
      const s = ref.subject;
      const subject = ref.sourceRange;
      const detail = `Unable to use ${s.toString()} in static context, which is required by ${top}`;
      switch (s.kind) {
        case "LocalValue":
        case "InputVariable":
        case "PathAttr":
        case "TerraformAttr":
          continue;
        case "ModuleCallInstanceOutput":
          diagnostics.push(errorDiag("Module output not supported in static context", detail, subject));
          break;
        case "ProviderFunction":
          diagnostics.push(errorDiag("Provider function in static context", detail, subject));
          break;
        default:
          diagnostics.push(errorDiag("Dynamic value in static context", detail, subject));
      }
    }
    return diagnostics;
  }

  /** A nested scope for `ident`, or "Circular reference" when it is already being evaluated. */
  private scope(ident: StaticIdentifier): { scope: StaticScope | undefined; diagnostics: Diagnostic[] } {
    const name = staticIdentifierString(ident);
    for (const frame of this.stack) {
      if (staticIdentifierString(frame) === name) {
        return { scope: undefined, diagnostics: [errorDiag("Circular reference", `${name} is self referential`, ident.declRange)] };
      }
    }
    return { scope: new StaticScope(this.evaluator, [...this.stack, ident]), diagnostics: [] };
  }

  /** Says which value the top of the stack was waiting for, when resolving it failed. */
  private enhanceDiagnostics(ident: StaticIdentifier, diagnostics: Diagnostic[]): Diagnostic[] {
    if (!hasErrors(diagnostics)) return diagnostics;
    const top = this.top;
    return [
      ...diagnostics,
      errorDiag(
        "Unable to compute static value",
        `${staticIdentifierString(top)} depends on ${staticIdentifierString(ident)} which is not available`,
        top.declRange,
      ),
    ];
  }

  private getLocalValue(name: string, rng: Range | undefined): ScopeResult {
    const local = this.evaluator.module.locals.get(name);
    if (!local) return { value: DynamicVal, diagnostics: [errorDiag("Undefined local", `Undefined local local.${name}`, rng)] };
    const id: StaticIdentifier = { module: this.evaluator.call.addr, subject: `local.${local.name}`, declRange: local.declRange };
    const s = this.scope(id);
    if (!s.scope) return { value: DynamicVal, diagnostics: s.diagnostics };
    const r = s.scope.evalExpr(local.expr);
    return { value: r.value, diagnostics: this.enhanceDiagnostics(id, r.diagnostics) };
  }

  private getInputVariable(name: string, rng: Range | undefined): ScopeResult {
    const variable = this.evaluator.module.variables.get(name);
    if (!variable) return { value: DynamicVal, diagnostics: [errorDiag("Undefined variable", `Undefined variable var.${name}`, rng)] };
    if (variable.const === false) {
      return {
        value: DynamicVal,
        diagnostics: [
          errorDiag(
            "Unable to use variable in static context",
            `The variable ${JSON.stringify(variable.name)} cannot be used in a static context, because it is declared as "const = false".`,
            rng,
          ),
        ],
      };
    }
    const id: StaticIdentifier = { module: this.evaluator.call.addr, subject: `var.${variable.name}`, declRange: variable.declRange };
    const given = this.evaluator.call.vars(variable);
    const diagnostics = [...given.diagnostics];
    // A value too invalid to pass the caller's own checks would only give confusing errors below.
    if (hasErrors(given.diagnostics)) return { value: DynamicVal, diagnostics: this.enhanceDiagnostics(id, diagnostics) };

    // The declaration applied the way the dynamic phase does it (prepareFinalInputVariableValue);
    // the caller has already substituted the default for an unset optional variable.
    const convertTy = variable.constraintType ?? DynamicPseudoType;
    let defaultVal: Value | undefined;
    if (variable.default !== undefined) {
      const c = convert(variable.default, convertTy);
      if (!c.ok) {
        diagnostics.push(
          errorDiag(
            "Invalid default value for module argument",
            `The default value for variable ${JSON.stringify(variable.name)} is incompatible with its type constraint: ${c.error.message}.`,
            variable.declRange,
          ),
        );
        return { value: unknownVal(convertTy), diagnostics };
      }
      defaultVal = c.value;
    }

    let val: Value = given.value ?? nullVal(DynamicPseudoType);
    if (variable.typeDefaults && val.kind !== "null") val = applyDefaults(variable.typeDefaults, val);
    const converted = convert(val, convertTy);
    if (!converted.ok) {
      diagnostics.push(
        errorDiag(
          "Invalid value for input variable",
          `The given value is not suitable for ${id.subject} declared at ${formatRange(variable.declRange)}: ${converted.error.message}.`,
        ),
      );
      return { value: unknownVal(variable.type ?? DynamicPseudoType), diagnostics };
    }
    val = converted.value;

    // Only non-nullable variables take their default for null; nullable ones stay null.
    if (val.kind === "null" && !variable.nullable) {
      if (defaultVal !== undefined) val = defaultVal;
      else {
        diagnostics.push(
          errorDiag(
            "Required variable not set",
            `The given value is not suitable for ${id.subject} defined at ${formatRange(variable.declRange)}: required variable may not be set to null.`,
            variable.declRange,
          ),
        );
      }
    }
    if (variable.sensitive) val = withMarks(val, SENSITIVE);
    if (variable.ephemeral) val = withMarks(val, EPHEMERAL);
    // Validation rules are not evaluated here: the dynamic phase checks them later.
    return { value: val, diagnostics: this.enhanceDiagnostics(id, diagnostics) };
  }

  private getPathAttr(name: string, rng: Range | undefined): ScopeResult {
    switch (name) {
      case "cwd":
        return { value: stringVal(this.evaluator.call.cwd ?? this.evaluator.call.rootPath), diagnostics: [] };
      case "module":
        return { value: stringVal(this.evaluator.module.sourceDir), diagnostics: [] };
      case "root":
        return { value: stringVal(this.evaluator.call.rootPath), diagnostics: [] };
      default: {
        const suggestion = nameSuggestion(name, ["cwd", "module", "root"]);
        const hint = suggestion ? ` Did you mean ${JSON.stringify(suggestion)}?` : "";
        return {
          value: DynamicVal,
          diagnostics: [errorDiag('Invalid "path" attribute', `The "path" object does not have an attribute named ${JSON.stringify(name)}.${hint}`, rng)],
        };
      }
    }
  }

  private getTerraformAttr(name: string, rng: Range | undefined): ScopeResult {
    switch (name) {
      case "workspace":
        return { value: stringVal(this.evaluator.call.workspace), diagnostics: [] };
      case "env":
        return {
          value: DynamicVal,
          diagnostics: [
            errorDiag(
              'Invalid "terraform" attribute',
              'The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.',
              rng,
            ),
          ],
        };
      default:
        return {
          value: DynamicVal,
          diagnostics: [
            errorDiag(
              'Invalid "terraform" attribute',
              `The "terraform" object does not have an attribute named ${JSON.stringify(name)}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`,
              rng,
            ),
          ],
        };
    }
  }
}
