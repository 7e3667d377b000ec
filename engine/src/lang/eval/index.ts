// Expression evaluation (HCL's hclsyntax/json Value methods on `values`): the evaluation context,
// the evaluator, and the functions that evaluate expressions themselves. See README.md.
export { EvalContext, type FunctionResolver } from "./context.js";
export {
  evaluate,
  functionCallError,
  literalValue,
  startRange,
  traverseAbs,
  traverseRel,
  unknownFunctionCall,
  type EvalResult,
  type UnknownFunctionInfo,
} from "./expression.js";
export { evaluateAny, evaluateJSON } from "./json.js";
export { ClosureFunc, type ExpressionClosure } from "./closure.js";
export { evalFunctions, canFunc, tryFunc } from "./functions.js";
export { anyExpressionVariables, expressionVariables, forEachJSONTemplate } from "./variables.js";
export { nameSuggestion } from "./suggest.js";
export { countAttrProblem, eachAttrProblem } from "./repetition.js";
export { allFromExpr, compactValueStr, describeValue, fromExpr, traversalStr, type DiagnosticCauses } from "./diagvalues.js";
