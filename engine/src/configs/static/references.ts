// The references an expression makes, as OpenTofu's lang.ReferencesInExpr finds them: every
// scope traversal (hclsyntax Variables), then every call to a provider-namespaced function
// (`provider::name::fn`), each parsed with addrs.parseRef. A malformed reference such as a bare
// `count` still yields its (empty-named) subject alongside the error, as OpenTofu's does.
import { parseRef, type Reference } from "../../addrs/index.js";
import type { AnyExpression, Diagnostic, Expression, Traverser } from "../../hcl/index.js";
import { forEachJSONTemplate } from "../../lang/eval/index.js";
import { exprVariables } from "../body.js";

export function referencesInExpr(expr: AnyExpression): { refs: Reference[]; diagnostics: Diagnostic[] } {
  return references([...exprVariables(expr), ...providerFunctionTraversals(expr)]);
}

/** lang.References: each traversal parsed; results kept even when they come with errors. */
export function references(traversals: readonly (readonly Traverser[])[]): { refs: Reference[]; diagnostics: Diagnostic[] } {
  const refs: Reference[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const t of traversals) {
    const root = t[0];
    if (!root || root.kind !== "Root") continue;
    const r = parseRef([...t]);
    diagnostics.push(...r.diagnostics);
    if (r.result) refs.push(r.result);
  }
  return { refs, diagnostics };
}

/** hcl's Functions filtered to the provider namespace, as single-step traversals over the name. */
export function providerFunctionTraversals(expr: AnyExpression): Traverser[][] {
  const out: Traverser[][] = [];
  if (expr.kind === "JSONExpr") forEachJSONTemplate(expr.value, (t) => walk(t, out));
  else walk(expr, out);
  return out;
}


function walk(e: Expression, out: Traverser[][]): void {
  switch (e.kind) {
    case "FunctionCall":
      if (e.name.startsWith("provider::")) out.push([{ kind: "Root", name: e.name, range: e.nameRange }]);
      for (const a of e.args) walk(a, out);
      return;
    case "Template":
      for (const p of e.parts) walk(p, out);
      return;
    case "TemplateWrap":
      walk(e.wrapped, out);
      return;
    case "TemplateJoin":
      walk(e.tuple, out);
      return;
    case "RelativeTraversal":
      walk(e.source, out);
      return;
    case "Conditional":
      walk(e.condition, out);
      walk(e.trueResult, out);
      walk(e.falseResult, out);
      return;
    case "BinaryOp":
      walk(e.lhs, out);
      walk(e.rhs, out);
      return;
    case "UnaryOp":
      walk(e.operand, out);
      return;
    case "Tuple":
      for (const x of e.exprs) walk(x, out);
      return;
    case "Object":
      for (const item of e.items) {
        walk(item.key, out);
        walk(item.value, out);
      }
      return;
    case "ObjectKey":
      walk(e.wrapped, out);
      return;
    case "For":
      walk(e.collExpr, out);
      if (e.keyExpr) walk(e.keyExpr, out);
      walk(e.valExpr, out);
      if (e.condExpr) walk(e.condExpr, out);
      return;
    case "Index":
      walk(e.collection, out);
      walk(e.key, out);
      return;
    case "Splat":
      walk(e.source, out);
      walk(e.each, out);
      return;
    case "Parentheses":
      walk(e.expression, out);
      return;
    case "Literal":
    case "ScopeTraversal":
    case "AnonSymbol":
    case "SyntaxError":
      return;
  }
}
