// Static analysis of expressions, for arguments that are read without evaluation (HCL's
// AbsTraversalForExpr, ExprAsKeyword, ExprList, ExprMap): `depends_on = [aws_instance.a]`,
// `ignore_changes = all`, `replace_triggered_by`, provider references, and so on. Works on both
// native expressions and JSON expressions (whose strings hold the native syntax).
import type { Expression, Traverser } from "./ast.js";
import type { AnyExpression, JSONExpression } from "./content.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { parseExpression } from "./parse.js";
import { exprStartRange } from "./start_range.js";
import type { Range } from "./pos.js";

const NOT_TRAVERSAL =
  "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

function unwrapNative(e: Expression): Expression {
  return e.kind === "ObjectKey" ? e.wrapped : e;
}

/** A JSON string's contents parsed as a native expression, positioned just inside its quotes. */
function jsonStringExpr(e: JSONExpression): { expr: Expression; diagnostics: Diagnostic[] } | undefined {
  if (e.value.kind !== "JSONString") return undefined;
  const start = e.value.range.start;
  const r = parseExpression(e.value.value, e.value.range.filename, { line: start.line, column: start.column + 1, byte: start.byte + 1 });
  return { expr: r.result, diagnostics: r.diagnostics };
}

function nativeTraversal(e: Expression): Traverser[] | undefined {
  const x = unwrapNative(e);
  if (x.kind === "ScopeTraversal") return x.traversal;
  // hclsyntax's RelativeTraversalExpr.AsTraversal: `null.foo` (a keyword literal, then steps).
  if (x.kind === "RelativeTraversal") {
    const src = nativeTraversal(x.source);
    return src ? [...src, ...x.traversal] : undefined;
  }
  if (x.kind === "Literal") {
    // The keywords parse as literals, but name roots when read as traversals.
    if (x.value.type === "null") return [{ kind: "Root", name: "null", range: x.range }];
    if (x.value.type === "bool") return [{ kind: "Root", name: x.value.value ? "true" : "false", range: x.range }];
  }
  return undefined;
}

/** The absolute traversal an expression is written as (`a.b[0]`), or an "Invalid expression" error. */
export function absTraversalForExpr(e: AnyExpression): { traversal: Traverser[]; diagnostics: Diagnostic[] } {
  let native: Expression | undefined;
  if (e.kind === "JSONExpr") {
    // HCL's JSON AsTraversal drops the string's own parse errors: a string that is no traversal
    // is the same "Invalid expression" as any other value that is not.
    const parsed = jsonStringExpr(e);
    native = parsed && parsed.diagnostics.length === 0 ? parsed.expr : undefined;
  } else native = e;
  const t = native ? nativeTraversal(native) : undefined;
  if (!t) return { traversal: [], diagnostics: [errorDiag("Invalid expression", NOT_TRAVERSAL, e.range)] };
  return { traversal: t, diagnostics: [] };
}

/** The single identifier an expression consists of (`all`, `create_before_destroy`), or "". */
export function exprAsKeyword(e: AnyExpression): string {
  const { traversal } = absTraversalForExpr(e);
  const only = traversal[0];
  return traversal.length === 1 && only?.kind === "Root" ? only.name : "";
}

/** The items of a static list expression (`[a, b]`), or "Invalid expression". */
export function exprList(e: AnyExpression): { items: AnyExpression[]; diagnostics: Diagnostic[] } {
  if (e.kind === "JSONExpr") {
    if (e.value.kind === "JSONArray") return { items: e.value.values.map((v) => ({ kind: "JSONExpr", value: v, range: v.range })), diagnostics: [] };
  } else {
    const x = unwrapNative(e);
    if (x.kind === "Tuple") return { items: x.exprs, diagnostics: [] };
  }
  return { items: [], diagnostics: [errorDiag("Invalid expression", "A static list expression is required.", exprStartRange(e))] };
}

export interface ExprMapItem {
  key: AnyExpression;
  value: AnyExpression;
}

/** The key/value pairs of a static map expression (`{a = b}`), or "Invalid expression". */
export function exprMap(e: AnyExpression): { items: ExprMapItem[]; diagnostics: Diagnostic[] } {
  if (e.kind === "JSONExpr") {
    if (e.value.kind === "JSONObject") {
      return {
        items: e.value.attrs.map((a) => ({
          key: { kind: "JSONExpr", value: { kind: "JSONString", value: a.name, range: a.nameRange }, range: a.nameRange },
          value: { kind: "JSONExpr", value: a.value, range: a.value.range },
        })),
        diagnostics: [],
      };
    }
  } else {
    const x = unwrapNative(e);
    if (x.kind === "Object") return { items: x.items.map((i) => ({ key: i.key, value: i.value })), diagnostics: [] };
  }
  return { items: [], diagnostics: [errorDiag("Invalid expression", "A static map expression is required.", exprStartRange(e))] };
}

/** The range of an expression of either syntax. */
export function anyExprRange(e: AnyExpression): Range {
  return e.range;
}
