// The evaluation context (hcl.EvalContext): variables by root name and functions by name, with a
// parent chain so that `for` expressions, splats and templates can add names without copying.
import type { AnonSymbolExpr, Diagnostic, Range } from "../../hcl/index.js";
import type { Func, Value } from "../../values/index.js";

/**
 * A function table that finds more functions than it lists: OpenTofu's provider-defined
 * functions (`provider::aws::arn_parse`), which the scope looks up by name when a call names them
 * and whose lookup can fail with a diagnostic of its own ("Unknown function provider").
 */
export interface FunctionResolver extends ReadonlyMap<string, Func> {
  /** The function a call names, `undefined` when this table knows nothing of the name. */
  resolveFunction(name: string, range: Range): { fn?: Func; diagnostics: Diagnostic[] } | undefined;
}

function isResolver(m: ReadonlyMap<string, Func>): m is FunctionResolver {
  return typeof (m as Partial<FunctionResolver>).resolveFunction === "function";
}

export class EvalContext {
  /** Values bound to a splat's anonymous symbol while its `each` expression is evaluated. */
  private readonly symbols: Map<AnonSymbolExpr, Value> | undefined;

  constructor(
    readonly variables: ReadonlyMap<string, Value> | undefined,
    readonly functions: ReadonlyMap<string, Func> | undefined,
    readonly parent?: EvalContext,
    symbol?: [AnonSymbolExpr, Value],
  ) {
    this.symbols = symbol ? new Map([symbol]) : undefined;
  }

  static of(variables: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>, functions?: ReadonlyMap<string, Func>): EvalContext {
    const vars = variables instanceof Map ? (variables as ReadonlyMap<string, Value>) : new Map(Object.entries(variables));
    return new EvalContext(vars, functions);
  }

  /** A child scope with more variables (a `for` expression's key and value symbols). */
  child(variables?: ReadonlyMap<string, Value>, functions?: ReadonlyMap<string, Func>): EvalContext {
    return new EvalContext(variables, functions, this);
  }

  /** A child scope in which a splat's anonymous symbol stands for `value`. */
  withSymbol(symbol: AnonSymbolExpr, value: Value): EvalContext {
    return new EvalContext(undefined, undefined, this, [symbol, value]);
  }

  symbolValue(symbol: AnonSymbolExpr): Value | undefined {
    for (let c: EvalContext | undefined = this; c; c = c.parent) {
      const v = c.symbols?.get(symbol);
      if (v) return v;
    }
    return undefined;
  }

  /** The variable's value; `undefined` when no context in the chain defines it. */
  variable(name: string): Value | undefined {
    for (let c: EvalContext | undefined = this; c; c = c.parent) {
      const v = c.variables?.get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** Whether any context in the chain has a variables table (else variables are not allowed). */
  hasVariables(): boolean {
    for (let c: EvalContext | undefined = this; c; c = c.parent) if (c.variables) return true;
    return false;
  }

  variableNames(): string[] {
    const out: string[] = [];
    for (let c: EvalContext | undefined = this; c; c = c.parent) if (c.variables) out.push(...c.variables.keys());
    return out;
  }

  function(name: string): Func | undefined {
    for (let c: EvalContext | undefined = this; c; c = c.parent) {
      const f = c.functions?.get(name);
      if (f) return f;
    }
    return undefined;
  }

  /** A function no table lists, from the innermost table that can find more (FunctionResolver). */
  resolveFunction(name: string, range: Range): { fn?: Func; diagnostics: Diagnostic[] } | undefined {
    for (let c: EvalContext | undefined = this; c; c = c.parent) {
      if (c.functions && isResolver(c.functions)) return c.functions.resolveFunction(name, range);
    }
    return undefined;
  }

  hasFunctions(): boolean {
    for (let c: EvalContext | undefined = this; c; c = c.parent) if (c.functions) return true;
    return false;
  }

  /** Names for "Did you mean" suggestions: HCL looks only at the innermost function table. */
  functionNames(): string[] {
    for (let c: EvalContext | undefined = this; c; c = c.parent) if (c.functions) return [...c.functions.keys()];
    return [];
  }
}
