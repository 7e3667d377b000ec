// HCL's Expression.StartRange: the part of an expression a diagnostic about "this expression is
// the wrong kind of thing" underlines, for both syntaxes (a string's first part without its
// quotes, a call's name and open parenthesis, a collection's opening bracket).
import type { Expression } from "./ast.js";
import type { AnyExpression } from "./content.js";
import { startRange as jsonStartRange } from "./json/parser.js";
import { rangeBetween, type Range } from "./pos.js";

export function exprStartRange(e: AnyExpression): Range {
  return e.kind === "JSONExpr" ? jsonStartRange(e.value) : nativeStartRange(e);
}

function nativeStartRange(e: Expression): Range {
  switch (e.kind) {
    case "FunctionCall":
      return rangeBetween(e.nameRange, e.openParenRange);
    case "Conditional":
      return nativeStartRange(e.condition);
    case "BinaryOp":
      return nativeStartRange(e.lhs);
    case "UnaryOp":
      return e.symbolRange;
    case "Tuple":
    case "Object":
    case "For":
    case "Index":
      return e.openRange;
    case "Splat":
      return e.markerRange;
    case "Template":
      return e.parts[0] ? nativeStartRange(e.parts[0]) : e.range;
    case "TemplateJoin":
      return nativeStartRange(e.tuple);
    case "ObjectKey":
      return nativeStartRange(e.wrapped);
    default:
      return e.range;
  }
}
