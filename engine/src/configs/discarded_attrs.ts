// OpenTofu 1.11's lint for object constructors written for an input variable (lang/lint's
// DiscardedObjectConstructorAttrs): an attribute the variable's object type does not have is
// dropped by the type conversion, most likely a typo. The walk follows the type into nested
// objects, the values of maps, the elements of lists, sets and tuples, and `for` expressions'
// results; it looks only at constructors written out in the expression (a value built elsewhere may
// rightly carry more) and only at keys that are constant.
import type { AnyExpression, Expression, ObjectConsKeyExpr, Range } from "../hcl/index.js";
import { nameSuggestion } from "../lang/eval/index.js";
import {
  NumberType,
  StringType,
  attrStep,
  convert,
  formatPath,
  indexStep,
  numberIntVal,
  stringVal,
  unknownVal,
  unmark,
  type Path,
  type Type,
} from "../values/index.js";
import { evaluateWithoutContext } from "./inputvars/nilcontext.js";

export interface DiscardedAttr {
  /** Where the constructor is, within the variable's value. */
  readonly path: Path;
  readonly name: string;
  readonly nameRange: Range;
  /** The constructor the attribute is written in. */
  readonly contextRange: Range;
  /** The attributes that constructor may have. */
  readonly allowed: readonly string[];
}

/** The attribute names in `expr` that converting it to `type` would discard. */
export function discardedObjectConstructorAttrs(expr: AnyExpression, type: Type): DiscardedAttr[] {
  const out: DiscardedAttr[] = [];
  if (expr.kind !== "JSONExpr") walk(expr, type, [], out);
  return out;
}

/** A constructor key's name when it is a constant (`foo`, `"foo"`, `("foo")`). */
function constantKey(key: ObjectConsKeyExpr): string | undefined {
  const r = evaluateWithoutContext(key);
  if (r.diagnostics.some((d) => d.severity === "error")) return undefined;
  const s = convert(unmark(r.value)[0], StringType);
  return s.ok && s.value.kind === "string" ? s.value.value : undefined;
}

function walk(expr: Expression, type: Type, path: Path, out: DiscardedAttr[]): void {
  switch (type.kind) {
    case "object": {
      if (expr.kind !== "Object") return;
      for (const item of expr.items) {
        const name = constantKey(item.key);
        if (name === undefined) continue;
        const at = type.attributes.get(name);
        if (at) walk(item.value, at, [...path, attrStep(name)], out);
        else out.push({ path, name, nameRange: item.key.range, contextRange: expr.range, allowed: [...type.attributes.keys()] });
      }
      return;
    }
    case "map":
      if (expr.kind === "Object") {
        for (const item of expr.items) {
          const key = constantKey(item.key);
          walk(item.value, type.element, [...path, indexStep(key === undefined ? unknownVal(StringType) : stringVal(key))], out);
        }
      } else if (expr.kind === "For" && expr.keyExpr) {
        walk(expr.valExpr, type.element, [...path, indexStep(unknownVal(StringType))], out);
      }
      return;
    case "list":
    case "set":
      if (expr.kind === "Tuple") expr.exprs.forEach((e, i) => walk(e, type.element, [...path, indexStep(numberIntVal(i))], out));
      else if (expr.kind === "For" && !expr.keyExpr) walk(expr.valExpr, type.element, [...path, indexStep(unknownVal(NumberType))], out);
      return;
    case "tuple":
      if (expr.kind === "Tuple" && expr.exprs.length === type.elements.length) {
        expr.exprs.forEach((e, i) => walk(e, type.elements[i] as Type, [...path, indexStep(numberIntVal(i))], out));
      }
      return;
    default:
      return;
  }
}

/** " Did you mean to set attribute "x" instead?" when a close name exists. */
export function discardedAttrSuggestion(d: DiscardedAttr): string {
  const similar = nameSuggestion(d.name, [...d.allowed].sort());
  return similar ? ` Did you mean to set attribute ${JSON.stringify(similar)} instead?` : "";
}

/** configs.lintVariableDefaultValue: the warnings for a variable's default value. */
export function discardedDefaultAttrWarnings(expr: AnyExpression, type: Type): Array<{ severity: "warning"; summary: string; detail: string; subject: Range }> {
  return discardedObjectConstructorAttrs(expr, type).map((d) => ({
    severity: "warning",
    summary: "Object attribute is ignored",
    detail: `${d.path.length === 0 ? "The object type for this variable" : `The object type for ${formatPath(d.path)}`} does not include an attribute named ${JSON.stringify(d.name)}, so this definition is unused.${discardedAttrSuggestion(d)}`,
    subject: d.nameRange,
  }));
}
