// The values an expression's diagnostic lists under its source snippet (OpenTofu's
// jsonentities newDiagnosticExpressionValues and newDiagnosticSnippetFunctionCall): every
// traversal the expression reads, looked up in the scope it was evaluated in (the longest prefix
// that resolves), each with a statement about its value. Diagnostics keep the expression and
// scope (HCL's Diagnostic.Expression and EvalContext); the statements are made when rendered.
import {
  hasErrors,
  parseJSONStringTemplate,
  withExpression,
  type AnyExpression,
  type Diagnostic,
  type DiagnosticExpression,
  type DiagnosticExpressionValue,
  type DiagnosticFunctionCall,
  type DiagnosticFunctionParam,
  type JSONValue,
  type Traverser,
} from "../../hcl/index.js";
import {
  DynamicPseudoType,
  EPHEMERAL,
  SENSITIVE,
  compareStrings,
  friendlyName,
  goQuote,
  typeToJSON,
  unknownVal,
  type Func,
  type Parameter,
  type Value,
} from "../../values/index.js";
import type { EvalContext } from "./context.js";
import { literalValue, traverseAbs } from "./expression.js";
import { anyExpressionVariables } from "./variables.js";

/**
 * What a diagnostic says it was caused by (tofu's DiagnosticExtraBecauseUnknown and
 * DiagnosticExtraBecauseConfidentialValues): only then are unknown, sensitive and ephemeral
 * values described as such, so readers are not misled into blaming them for other errors.
 */
export interface DiagnosticCauses {
  readonly unknown?: boolean;
  readonly confidential?: boolean;
}

const NO_CAUSES: DiagnosticCauses = {};

/**
 * Records on `d` the expression it is about and the scope it was evaluated in, unless it already
 * has one (the innermost expression wins, as in HCL). `calledAs` names the function whose call
 * failed, for the "while calling" line.
 */
export function fromExpr<D extends Diagnostic>(
  d: D,
  expr: AnyExpression | undefined,
  ctx: EvalContext | undefined,
  causes: DiagnosticCauses = NO_CAUSES,
  calledAs?: string,
): D {
  if (d.expression !== undefined) return d;
  return withExpression(d, new ExpressionValues(expr, ctx, causes, calledAs));
}

/** `fromExpr` for every diagnostic in a list that has no expression yet. */
export function allFromExpr(ds: readonly Diagnostic[], expr: AnyExpression, ctx: EvalContext): void {
  for (const d of ds) fromExpr(d, expr, ctx);
}

class ExpressionValues implements DiagnosticExpression {
  constructor(
    private readonly expr: AnyExpression | undefined,
    private readonly ctx: EvalContext | undefined,
    private readonly causes: DiagnosticCauses,
    private readonly calledAs: string | undefined,
  ) {}

  values(): DiagnosticExpressionValue[] {
    const { expr, ctx } = this;
    if (!expr || !ctx) return [];
    const out: DiagnosticExpressionValue[] = [];
    const seen = new Set<string>();
    for (const full of anyExpressionVariables(expr)) {
      // The whole traversal may be what failed: report the longest prefix that has a value.
      for (let n = full.length; n >= 1; n--) {
        const traversal = full.slice(0, n);
        const r = traverseAbs(traversal, ctx);
        if (hasErrors(r.diagnostics)) continue;
        const name = traversalStr(traversal);
        if (seen.has(name)) break;
        const statement = describeValue(r.value, this.causes.unknown === true, this.causes.confidential === true);
        if (statement !== "") {
          out.push({ traversal: name, statement });
          seen.add(name);
        }
        break;
      }
    }
    return out.sort((a, b) => compareStrings(a.traversal, b.traversal));
  }

  functionCall(): DiagnosticFunctionCall | undefined {
    const calledAs = this.calledAs;
    if (calledAs === undefined || calledAs === "") return undefined;
    // Only the diagnostic's own scope is asked (as tofu does): a call inside a `for` body is
    // evaluated in a child scope without functions, so it names the call but not its signature.
    const f = this.ctx?.functions?.get(calledAs);
    if (!f) return { called_as: calledAs };
    const sep = calledAs.lastIndexOf("::");
    return { called_as: calledAs, signature: describeFunction(sep >= 0 ? calledAs.slice(sep + 2) : calledAs, f) };
  }
}

/** jsonentities.DescribeFunction: parameters with their type constraints, and the return type for them. */
function describeFunction(name: string, f: Func): NonNullable<DiagnosticFunctionCall["signature"]> {
  const param = (p: Parameter): DiagnosticFunctionParam => ({ name: p.name, type: typeToJSON(p.type) });
  const argTypes = f.params.map((p) => p.type);
  if (f.varParam) argTypes.push(f.varParam.type);
  const rt = f.returnTypeForValues(argTypes.map((t) => unknownVal(t)));
  return {
    name,
    params: f.params.map(param),
    ...(f.varParam ? { variadic_param: param(f.varParam) } : {}),
    return_type: typeToJSON(rt.ok ? rt.value : DynamicPseudoType),
  };
}

/** The statement about one value ("is 2", "is a string, known only after apply", ...); "" to say nothing. */
export function describeValue(v: Value, includeUnknown: boolean, includeConfidential: boolean): string {
  if (v.marks.has(SENSITIVE)) return includeConfidential ? "has a sensitive value" : "";
  if (v.marks.has(EPHEMERAL)) return includeConfidential ? "has an ephemeral value" : "";
  if (v.kind !== "unknown") return `is ${compactValueStr(v)}`;
  const ty = v.type;
  if (!includeUnknown) return ty.kind === "dynamic" ? "" : `is a ${friendlyName(ty)}`;
  if (ty.kind === "dynamic") return "will be known only after apply";
  const name = friendlyName(ty);
  if (ty.kind === "list" || ty.kind === "set" || ty.kind === "map") {
    // Length refinements give a hint; very large upper bounds would only distract.
    const maxLimit = 1024;
    const min = v.refinement.lengthLower ?? 0;
    const max = v.refinement.lengthUpper ?? Number.MAX_SAFE_INTEGER;
    if (min === max) return `is a ${name} of length ${min}, known only after apply`;
    if (min !== 0 && max <= maxLimit) return `is a ${name} with between ${min} and ${max} elements, known only after apply`;
    if (min !== 0) return `is a ${name} with at least ${min} elements, known only after apply`;
    if (max <= maxLimit) return `is a ${name} with up to ${max} elements, known only after apply`;
  }
  return `is a ${name}, known only after apply`;
}

/**
 * A one-line summary of a known value: primitives in full, collections and structures by type
 * and size only (their elements might be sensitive even when the whole is not marked).
 */
export function compactValueStr(v: Value): string {
  if (v.marks.has(SENSITIVE)) return "(sensitive value)";
  if (v.marks.has(EPHEMERAL)) return "(ephemeral value)";
  switch (v.kind) {
    case "null":
      return "null";
    case "unknown":
      return "(not yet known)";
    case "bool":
      return v.value ? "true" : "false";
    case "number":
      return v.value.text("g", 10);
    case "string":
      return goQuote(v.value);
    case "list":
    case "set":
    case "tuple":
    case "map":
    case "object": {
      if (v.kind === "object" && v.type.kind === "object") {
        const names = [...v.type.attributes.keys()];
        if (names.length === 0) return "object with no attributes";
        if (names.length === 1) return `object with 1 attribute ${goQuote(names[0] as string)}`;
        return `object with ${names.length} attributes`;
      }
      const n = "attrs" in v ? v.attrs.size : v.elements.length;
      const name = friendlyName(v.type);
      if (n === 0) return `empty ${name}`;
      return n === 1 ? `${name} with 1 element` : `${name} with ${n} elements`;
    }
  }
}

/** A traversal as HCL-like text: `var.a["k"][0]`, with `[...]` for keys that are not primitive. */
export function traversalStr(traversal: readonly Traverser[]): string {
  let out = "";
  for (const step of traversal) {
    if (step.kind === "Root") out += step.name;
    else if (step.kind === "Attr") out += `.${step.name}`;
    else {
      const key = literalValue(step.key);
      const k = key.type.kind;
      out += `[${k === "string" || k === "number" || k === "bool" ? compactValueStr(key) : "..."}]`;
    }
  }
  return out;
}

