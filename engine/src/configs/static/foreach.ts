// The `for_each` rules shared by resources, modules and providers (OpenTofu's
// evalchecks.EvaluateForEachExpression): a map, object or set of strings; not null, not unknown,
// not sensitive, not ephemeral; the result as element keys to values (a set's values are its own keys).
import type { Reference } from "../../addrs/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic } from "../../hcl/index.js";
import { evaluateAny, fromExpr, type DiagnosticCauses, type EvalContext } from "../../lang/eval/index.js";
import { EPHEMERAL, SENSITIVE, friendlyName, isWhollyKnown, unmark, type Value } from "../../values/index.js";
import { referencesInExpr } from "./references.js";

export type ForEachContextFunc = (refs: readonly Reference[]) => { ctx: EvalContext; diagnostics: Diagnostic[] };

const UNKNOWN_DETAIL_MAP =
  "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n";
const UNKNOWN_DETAIL_SET =
  "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\n";
const TARGET_SUGGESTION =
  "Alternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge.";
const ALLOWED = "map, or set of strings";

/**
 * The instances a `for_each` value makes, by key, in key order. With `allowUnknown` (the
 * validate walk), a value or set not wholly known yet is no error: there are no instances to
 * give, and the plan walk checks it.
 */
export function evaluateForEachExpression(
  expr: AnyExpression,
  ctxFunc: ForEachContextFunc,
  opts: { allowUnknown?: boolean } = {},
): { instances: Map<string, Value>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const none = () => ({ instances: new Map<string, Value>(), diagnostics });
  const refs = referencesInExpr(expr);
  diagnostics.push(...refs.diagnostics);
  const c = ctxFunc(refs.refs);
  diagnostics.push(...c.diagnostics);
  // Without a valid scope there is nothing to evaluate.
  if (hasErrors(diagnostics)) return none();

  const r = evaluateAny(expr, c.ctx);
  diagnostics.push(...r.diagnostics);
  const val = r.value;
  const invalid = (detail: string, causes?: DiagnosticCauses) => fromExpr(errorDiag("Invalid for_each argument", detail, expr.range), expr, c.ctx, causes);

  // A set holding sensitive elements is itself sensitive in cty.
  const sensitive = val.marks.has(SENSITIVE) || (val.kind === "set" && val.elements.some((e) => e.marks.has(SENSITIVE)));
  if (sensitive) {
    diagnostics.push(
      invalid(
        "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.",
        { confidential: true },
      ),
    );
  }
  const ephemeral = val.marks.has(EPHEMERAL) || (val.kind === "set" && val.elements.some((e) => e.marks.has(EPHEMERAL)));
  if (ephemeral) {
    diagnostics.push(
      invalid(
        "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.",
        { confidential: true },
      ),
    );
  }
  const ty = val.type;
  const allowedType = ty.kind === "map" || ty.kind === "set" || ty.kind === "object";
  // A null is reported as null whatever its type (`for_each = null` is of dynamic type).
  if (val.kind !== "unknown" && val.kind !== "null" && !allowedType) {
    diagnostics.push(
      invalid(
        `The given "for_each" argument value is unsuitable: the "for_each" argument must be a ${ALLOWED}, and you have provided a value of type ${friendlyName(ty)}.`,
      ),
    );
  }
  if (hasErrors(diagnostics)) return none();

  if (val.kind === "null") {
    diagnostics.push(invalid(`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A ${ALLOWED} is allowed.`));
    return none();
  }
  if (val.kind === "unknown") {
    if (!opts.allowUnknown) diagnostics.push(invalid((ty.kind === "set" ? UNKNOWN_DETAIL_SET : UNKNOWN_DETAIL_MAP) + TARGET_SUGGESTION, { unknown: true }));
    return none();
  }
  const [plain] = unmark(val);
  const instances = new Map<string, Value>();
  if (plain.kind === "set") {
    if (!isWhollyKnown(plain)) {
      if (!opts.allowUnknown) diagnostics.push(invalid(UNKNOWN_DETAIL_SET + TARGET_SUGGESTION, { unknown: true }));
      return none();
    }
    // An empty set is fine whatever its element type (`toset([])` has dynamic elements).
    if (ty.kind === "set" && ty.element.kind !== "string" && plain.elements.length > 0) {
      diagnostics.push(
        invalid(
          `The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type ${friendlyName(ty.element)}.`,
        ),
      );
      return none();
    }
    for (const el of plain.elements) {
      const [e] = unmark(el);
      if (e.kind === "null") {
        diagnostics.push(invalid('The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.'));
        return none();
      }
      if (e.kind === "string") instances.set(e.value, el);
    }
  } else if (plain.kind === "map" || plain.kind === "object") {
    for (const [k, v] of plain.attrs) instances.set(k, v);
  }
  // cty's AsValueMap gives keys in lexical order.
  return { instances: new Map([...instances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), diagnostics };
}
