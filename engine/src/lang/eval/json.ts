// Evaluation of JSON-syntax expressions (hcl/json's expression.Value): strings are templates,
// object keys are templates too, numbers keep full precision, and duplicate keys are errors.
import {
  errorDiag,
  formatRange,
  parseJSONStringTemplate,
  type AnyExpression,
  type Diagnostic,
  type JSONValue,
  type Range,
} from "../../hcl/index.js";
import {
  DynamicPseudoType,
  DynamicVal,
  StringType,
  assertNever,
  boolVal,
  convert,
  nullVal,
  objectVal,
  parseNumberVal,
  tupleVal,
  type Value,
} from "../../values/index.js";
import type { EvalContext } from "./context.js";
import { evaluate, type EvalResult } from "./expression.js";

/** Evaluates an expression of either syntax. */
export function evaluateAny(expr: AnyExpression, ctx: EvalContext): EvalResult {
  return expr.kind === "JSONExpr" ? evaluateJSON(expr.value, ctx) : evaluate(expr, ctx);
}

export function evaluateJSON(v: JSONValue, ctx: EvalContext): EvalResult {
  switch (v.kind) {
    case "JSONString":
      return evalJSONString(v.value, v.range, ctx);
    case "JSONNumber":
      return { value: parseNumberVal(v.text) ?? DynamicVal, diagnostics: [] };
    case "JSONBool":
      return { value: boolVal(v.value), diagnostics: [] };
    case "JSONNull":
      return { value: nullVal(DynamicPseudoType), diagnostics: [] };
    case "JSONInvalid":
      return { value: DynamicVal, diagnostics: [] };
    case "JSONArray": {
      const diags: Diagnostic[] = [];
      const vals = v.values.map((el) => {
        const r = evaluateJSON(el, ctx);
        diags.push(...r.diagnostics);
        return r.value;
      });
      return { value: tupleVal(vals), diagnostics: diags };
    }
    case "JSONObject": {
      const diags: Diagnostic[] = [];
      const attrs = new Map<string, Value>();
      const ranges = new Map<string, Range>();
      let known = true;
      for (const attr of v.attrs) {
        const name = evalJSONString(attr.name, attr.nameRange, ctx);
        const val = evaluateJSON(attr.value, ctx);
        diags.push(...name.diagnostics, ...val.diagnostics);
        const c = convert(name.value, StringType);
        if (!c.ok) {
          diags.push(errorDiag("Invalid object key expression", `Cannot use this expression as an object key: ${c.error.message}.`, attr.nameRange));
          continue;
        }
        const key = c.value;
        if (key.kind === "null") {
          diags.push(errorDiag("Invalid object key expression", "Cannot use null value as an object key.", attr.nameRange));
          continue;
        }
        if (key.kind !== "string") {
          known = false;
          continue;
        }
        const prev = ranges.get(key.value);
        if (prev) {
          diags.push(
            errorDiag("Duplicate object attribute", `An attribute named ${JSON.stringify(key.value)} was already defined at ${formatRange(prev)}.`, attr.nameRange),
          );
          continue;
        }
        attrs.set(key.value, val.value);
        ranges.set(key.value, attr.nameRange);
      }
      if (!known) return { value: DynamicVal, diagnostics: diags };
      return { value: objectVal(attrs), diagnostics: diags };
    }
    default:
      return assertNever(v);
  }
}

function evalJSONString(value: string, range: Range, ctx: EvalContext): EvalResult {
  const parsed = parseJSONStringTemplate({ kind: "JSONString", value, range });
  if (parsed.diagnostics.length > 0) return { value: DynamicVal, diagnostics: parsed.diagnostics };
  return evaluate(parsed.result, ctx);
}
