// Evaluation with a nil HCL context (`expr.Value(nil)`), as OpenTofu evaluates values in .tfvars
// files and raw `-var` strings: no variables, no functions, and — in JSON syntax — strings are
// taken literally rather than as templates (hcl/json treats a nil context that way).
import { errorDiag, formatRange, type AnyExpression, type Diagnostic, type JSONValue, type Range } from "../../hcl/index.js";
import { EvalContext, evaluate, type EvalResult } from "../../lang/eval/index.js";
import { DynamicPseudoType, DynamicVal, assertNever, boolVal, nullVal, objectVal, parseNumberVal, stringVal, tupleVal, type Value } from "../../values/index.js";

/** A context with no variables table and no functions table: both are "not allowed here". */
export const NIL_CONTEXT = new EvalContext(undefined, undefined);

/** expr.Value(nil) for an expression of either syntax. */
export function evaluateWithoutContext(expr: AnyExpression): EvalResult {
  if (expr.kind === "JSONExpr") return jsonLiteral(expr.value);
  return evaluate(expr, NIL_CONTEXT);
}

function jsonLiteral(v: JSONValue): EvalResult {
  switch (v.kind) {
    case "JSONString":
      return { value: stringVal(v.value), diagnostics: [] };
    case "JSONNumber":
      return { value: parseNumberVal(v.text) ?? DynamicVal, diagnostics: [] };
    case "JSONBool":
      return { value: boolVal(v.value), diagnostics: [] };
    case "JSONNull":
      return { value: nullVal(DynamicPseudoType), diagnostics: [] };
    case "JSONInvalid":
      return { value: DynamicVal, diagnostics: [] };
    case "JSONArray": {
      const diagnostics: Diagnostic[] = [];
      const vals = v.values.map((el) => {
        const r = jsonLiteral(el);
        diagnostics.push(...r.diagnostics);
        return r.value;
      });
      return { value: tupleVal(vals), diagnostics };
    }
    case "JSONObject": {
      const diagnostics: Diagnostic[] = [];
      const attrs = new Map<string, Value>();
      const ranges = new Map<string, Range>();
      for (const attr of v.attrs) {
        const val = jsonLiteral(attr.value);
        diagnostics.push(...val.diagnostics);
        const prev = ranges.get(attr.name);
        if (prev) {
          diagnostics.push(
            errorDiag("Duplicate object attribute", `An attribute named ${JSON.stringify(attr.name)} was already defined at ${formatRange(prev)}.`, attr.nameRange),
          );
          continue;
        }
        attrs.set(attr.name, val.value);
        ranges.set(attr.name, attr.nameRange);
      }
      return { value: objectVal(attrs), diagnostics };
    }
    default:
      return assertNever(v);
  }
}
