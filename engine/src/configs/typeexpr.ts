// Reading a `type = ...` argument as a type constraint: the HCL expression (native, or a JSON
// string holding native syntax) is mapped onto the `values` module's ConstraintExpr, which then
// decodes it into a Type plus the `optional()` defaults. This is HCL's ext/typeexpr front end.
import { errorDiag, parseExpression, rangeBetween, type AnyExpression, type Diagnostic, type Expression, type Range } from "../hcl/index.js";
import { exprAsKeyword } from "../hcl/index.js";
import { typeConstraintWithDefaults, DynamicPseudoType, type ConstraintExpr, type Defaults, type Type, type TypeDiagnosticSite } from "../values/index.js";
import { staticValue } from "./body.js";

const NOT_A_TYPE = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";

export interface TypeConstraint {
  type: Type;
  defaults: Defaults | undefined;
  diagnostics: Diagnostic[];
}

/** Decodes a type constraint expression with `optional(type, default)` allowed in object types. */
export function typeConstraintForExpr(e: AnyExpression): TypeConstraint {
  let native: Expression | undefined;
  if (e.kind === "JSONExpr") {
    if (e.value.kind !== "JSONString") return invalidType(NOT_A_TYPE, e);
    const start = e.value.range.start;
    const parsed = parseExpression(e.value.value, e.range.filename, { line: start.line, column: start.column + 1, byte: start.byte + 1 });
    if (parsed.diagnostics.some((d) => d.severity === "error")) return { type: DynamicPseudoType, defaults: undefined, diagnostics: parsed.diagnostics };
    native = parsed.result;
  } else native = e;
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<ConstraintExpr, Expression>();
  const cexpr = toConstraintExpr(native, diagnostics, false, sources);
  if (diagnostics.length > 0) return { type: DynamicPseudoType, defaults: undefined, diagnostics };
  const r = typeConstraintWithDefaults(cexpr);
  return {
    type: r.type,
    defaults: r.defaults,
    diagnostics: r.diagnostics.map((d) => errorDiag(d.summary, d.detail, (d.site && siteRange(d.site, sources)) ?? e.range)),
  };
}

/** Where in the source a decoding problem is, as HCL's typeexpr reports it. */
function siteRange(site: TypeDiagnosticSite, sources: ReadonlyMap<ConstraintExpr, Expression>): Range | undefined {
  const src = sources.get(site.expr);
  if (!src) return undefined;
  const x = unwrap(src);
  if (x.kind !== "FunctionCall" || site.part === "whole") return src.range;
  switch (site.part) {
    case "name":
      return x.nameRange;
    case "args":
      return rangeBetween(x.openParenRange, x.closeParenRange);
    case "extraArgs": {
      const second = x.args[1];
      const last = x.args[x.args.length - 1];
      return second && last ? rangeBetween(second.range, last.range) : rangeBetween(x.openParenRange, x.closeParenRange);
    }
  }
}

function invalidType(detail: string, e: { range: AnyExpression["range"] }): TypeConstraint {
  return { type: DynamicPseudoType, defaults: undefined, diagnostics: [errorDiag("Invalid type specification", detail, e.range)] };
}

function unwrap(e: Expression): Expression {
  let x = e;
  while (x.kind === "Parentheses" || x.kind === "ObjectKey") x = x.kind === "Parentheses" ? x.expression : x.wrapped;
  return x;
}

/** The ConstraintExpr for `e`, remembering in `sources` which expression each node came from. */
function toConstraintExpr(e: Expression, diags: Diagnostic[], isDefault: boolean, sources: Map<ConstraintExpr, Expression>): ConstraintExpr {
  const c = constraintNode(e, diags, isDefault, sources);
  sources.set(c, e);
  return c;
}

function constraintNode(e: Expression, diags: Diagnostic[], isDefault: boolean, sources: Map<ConstraintExpr, Expression>): ConstraintExpr {
  if (isDefault) {
    const r = staticValue(e);
    diags.push(...r.diagnostics.filter((d) => d.severity === "error"));
    return { kind: "value", value: r.value };
  }
  const x = unwrap(e);
  switch (x.kind) {
    case "ScopeTraversal": {
      const kw = exprAsKeyword(x);
      if (kw !== "") return { kind: "keyword", name: kw };
      break;
    }
    case "FunctionCall":
      return { kind: "call", name: x.name, args: x.args.map((a, i) => toConstraintExpr(a, diags, x.name === "optional" && i === 1, sources)) };
    case "Object": {
      const attrs: { name: string; type: ConstraintExpr }[] = [];
      for (const item of x.items) {
        const name = exprAsKeyword(item.key);
        if (name === "") {
          diags.push(errorDiag("Invalid type specification", "Object constructor map keys must be attribute names.", item.key.range));
          continue;
        }
        attrs.push({ name, type: toConstraintExpr(item.value, diags, false, sources) });
      }
      return { kind: "object", attrs };
    }
    case "Tuple":
      return { kind: "tuple", elements: x.exprs.map((el) => toConstraintExpr(el, diags, false, sources)) };
    case "Literal":
    case "Template":
    case "TemplateWrap": {
      // Constant values are only meaningful as optional()'s default; elsewhere they are an error
      // which the decoder reports in its own words.
      const r = staticValue(x);
      return { kind: "value", value: r.value };
    }
    default:
      break;
  }
  diags.push(errorDiag("Invalid type specification", NOT_A_TYPE, x.range));
  return { kind: "keyword", name: "any" };
}
