// The traversals an expression reads from its scope (hclsyntax's Variables): every scope
// traversal, except those rooted at a `for` expression's own key/value symbols and bare object
// keys that name themselves. Used to find references before evaluating and by `try`/`can`.
import { exprAsKeyword, parseJSONStringTemplate, type AnyExpression, type Expression, type JSONValue, type Traverser } from "../../hcl/index.js";
import { assertNever } from "../../values/index.js";

export function expressionVariables(expr: Expression): Traverser[][] {
  const out: Traverser[][] = [];
  walk(expr, new Set(), out);
  return out;
}

function walk(e: Expression, locals: ReadonlySet<string>, out: Traverser[][]): void {
  switch (e.kind) {
    case "Literal":
    case "AnonSymbol":
    case "SyntaxError":
      return;
    case "ScopeTraversal": {
      const root = e.traversal[0];
      if (root?.kind === "Root" && !locals.has(root.name)) out.push(e.traversal);
      return;
    }
    case "Template":
      for (const p of e.parts) walk(p, locals, out);
      return;
    case "TemplateWrap":
      walk(e.wrapped, locals, out);
      return;
    case "TemplateJoin":
      walk(e.tuple, locals, out);
      return;
    case "RelativeTraversal":
      walk(e.source, locals, out);
      return;
    case "FunctionCall":
      for (const a of e.args) walk(a, locals, out);
      return;
    case "Conditional":
      walk(e.condition, locals, out);
      walk(e.trueResult, locals, out);
      walk(e.falseResult, locals, out);
      return;
    case "BinaryOp": {
      // Down a left-leaning chain in a loop: thousands of terms must not exhaust the stack.
      const rights: Expression[] = [];
      let cur: Expression = e;
      while (cur.kind === "BinaryOp") {
        rights.push(cur.rhs);
        cur = cur.lhs;
      }
      walk(cur, locals, out);
      for (let i = rights.length - 1; i >= 0; i--) walk(rights[i] as Expression, locals, out);
      return;
    }
    case "UnaryOp":
      walk(e.operand, locals, out);
      return;
    case "Tuple":
      for (const x of e.exprs) walk(x, locals, out);
      return;
    case "Object":
      for (const item of e.items) {
        walk(item.key, locals, out);
        walk(item.value, locals, out);
      }
      return;
    case "ObjectKey":
      if (e.forceNonLiteral || exprAsKeyword(e.wrapped) === "") walk(e.wrapped, locals, out);
      return;
    case "For": {
      walk(e.collExpr, locals, out);
      const inner = new Set(locals);
      if (e.keyVar) inner.add(e.keyVar);
      inner.add(e.valVar);
      if (e.keyExpr) walk(e.keyExpr, inner, out);
      walk(e.valExpr, inner, out);
      if (e.condExpr) walk(e.condExpr, inner, out);
      return;
    }
    case "Index":
      walk(e.collection, locals, out);
      walk(e.key, locals, out);
      return;
    case "Splat":
      walk(e.source, locals, out);
      walk(e.each, locals, out);
      return;
    case "Parentheses":
      walk(e.expression, locals, out);
      return;
    default:
      assertNever(e);
  }
}

/** The traversals an expression of either syntax reads (hcl.Expression's Variables): a JSON string's template's too. */
export function anyExpressionVariables(expr: AnyExpression): Traverser[][] {
  if (expr.kind !== "JSONExpr") return expressionVariables(expr);
  const out: Traverser[][] = [];
  jsonVariables(expr.value, out);
  return out;
}

function jsonVariables(v: JSONValue, out: Traverser[][]): void {
  forEachJSONTemplate(v, (t) => out.push(...expressionVariables(t)));
}

/**
 * Every string of a JSON-syntax value (object keys included) parsed as the template HCL's JSON
 * syntax makes of it; strings that do not parse are skipped (their errors belong to evaluation).
 */
export function forEachJSONTemplate(v: JSONValue, visit: (template: Expression) => void): void {
  switch (v.kind) {
    case "JSONString": {
      const t = parseJSONStringTemplate(v);
      if (t.diagnostics.length === 0) visit(t.result);
      return;
    }
    case "JSONArray":
      for (const x of v.values) forEachJSONTemplate(x, visit);
      return;
    case "JSONObject":
      for (const a of v.attrs) {
        forEachJSONTemplate({ kind: "JSONString", value: a.name, range: a.nameRange }, visit);
        forEachJSONTemplate(a.value, visit);
      }
      return;
    default:
      return;
  }
}
