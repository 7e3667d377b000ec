// Functions whose arguments are expressions rather than values (HCL's customdecode
// ExpressionClosureType): `try` and `can` decide for themselves whether and how to evaluate
// each argument. The evaluator recognises them and hands over the unevaluated arguments.
import type { Expression, Range } from "../../hcl/index.js";
import { DynamicPseudoType, Func, type FunctionResult, type Value } from "../../values/index.js";
import type { EvalContext } from "./context.js";

/** An argument as the function sees it: an expression with its scope, or (after `...` expansion) a value. */
export type ExpressionClosure =
  | { readonly kind: "expr"; readonly expr: Expression; readonly ctx: EvalContext }
  | { readonly kind: "value"; readonly value: Value; readonly range: Range };

export class ClosureFunc extends Func {
  constructor(
    params: readonly string[],
    varParam: string | undefined,
    readonly run: (args: readonly ExpressionClosure[]) => FunctionResult<Value>,
  ) {
    super({
      params: params.map((name) => ({ name, type: DynamicPseudoType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true })),
      ...(varParam
        ? { varParam: { name: varParam, type: DynamicPseudoType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true } }
        : {}),
      type: () => ({ ok: true, value: DynamicPseudoType }),
      // Calling with values treats each value as an already-evaluated argument.
      impl: (args) => run(args.map((value) => ({ kind: "value", value, range: NO_RANGE }))),
    });
  }
}

const NO_RANGE: Range = { filename: "", start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 1, byte: 0 } };
