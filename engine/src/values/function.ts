// Functions over values with cty's calling rules (cty/function): parameters say whether they accept
// null, unknown, dynamically-typed and marked values; the call machinery enforces that, returns an
// unknown result early when a parameter does not take unknowns, strips marks from parameters that
// do not take them and puts them back on the result, and refines unknown results. `callFunction`
// adds what HCL's function-call expression does around it: argument conversion and the error texts
// OpenTofu prints ("Invalid function argument", "Error in function call").

import { convert } from "./convert.js";
import { friendlyNameForConstraint, typeEquals, type Type } from "./types.js";
import {
  containsMarked,
  refine,
  unknownVal,
  unmarkDeep,
  withMarks,
  type Marks,
  type RefinementBuilder,
  type Value,
} from "./value.js";

export interface Parameter {
  readonly name: string;
  readonly type: Type;
  readonly allowNull?: boolean;
  readonly allowUnknown?: boolean;
  readonly allowDynamicType?: boolean;
  readonly allowMarked?: boolean;
}

/** An error about one argument (cty's ArgError) or about the call as a whole. */
export type FunctionError = { readonly kind: "arg"; readonly index: number; readonly message: string } | { readonly kind: "call"; readonly message: string };

export type FunctionResult<T> = { ok: true; value: T } | { ok: false; error: FunctionError };

export interface FunctionSpec {
  readonly description?: string;
  readonly params: readonly Parameter[];
  readonly varParam?: Parameter;
  /** The result type for these arguments (called with marks removed where parameters want that). */
  readonly type: (args: readonly Value[]) => FunctionResult<Type>;
  /** Refinements that hold for every unknown result. */
  readonly refineResult?: (b: RefinementBuilder) => RefinementBuilder;
  readonly impl: (args: readonly Value[], retType: Type) => FunctionResult<Value>;
}

export function argError(index: number, message: string): { ok: false; error: FunctionError } {
  return { ok: false, error: { kind: "arg", index, message } };
}

export function callError(message: string): { ok: false; error: FunctionError } {
  return { ok: false, error: { kind: "call", message } };
}

/** A type function that always answers the same type. */
export function staticReturnType(t: Type): (args: readonly Value[]) => FunctionResult<Type> {
  return () => ({ ok: true, value: t });
}

/** The common RefineResult: the result is never null. */
export function refineNonNull(b: RefinementBuilder): RefinementBuilder {
  return b.notNull();
}

export class Func {
  constructor(readonly spec: FunctionSpec) {}

  get params(): readonly Parameter[] {
    return this.spec.params;
  }

  get varParam(): Parameter | undefined {
    return this.spec.varParam;
  }

  private paramFor(i: number): Parameter | undefined {
    return this.spec.params[i] ?? this.spec.varParam;
  }

  /** cty's ReturnTypeForValues: checks arguments against the parameters and asks for the type. */
  returnTypeForValues(args: readonly Value[]): FunctionResult<Type> {
    const n = this.spec.params.length;
    if (!this.spec.varParam && args.length !== n) {
      return callError(`wrong number of arguments (${n} required; ${args.length} given)`);
    }
    if (this.spec.varParam && args.length < n) {
      return callError(`wrong number of arguments (at least ${n} required; ${args.length} given)`);
    }
    const checked = [...args];
    for (let i = 0; i < args.length; i++) {
      const p = this.paramFor(i) as Parameter;
      let v = args[i] as Value;
      if (!p.allowMarked && containsMarked(v)) {
        v = unmarkDeep(v)[0];
        checked[i] = v;
      }
      if (v.kind === "null" && !p.allowNull) return argError(i, "argument must not be null");
      if (v.type.kind === "dynamic") {
        if (!p.allowDynamicType) return { ok: true, value: { kind: "dynamic" } };
      } else if (!conforms(v.type, p.type)) {
        return argError(i, `${friendlyNameForConstraint(p.type)} required`);
      }
    }
    return this.spec.type(checked);
  }

  /** cty's Function.Call. */
  call(args: readonly Value[]): FunctionResult<Value> {
    const rt = this.returnTypeForValues(args);
    if (!rt.ok) return rt;
    const resultMarks: Marks[] = [];
    const callArgs = [...args];
    let returnUnknown = false;
    // Every argument is visited before returning an unknown early, so all marks are collected.
    for (let i = 0; i < args.length; i++) {
      const p = this.paramFor(i) as Parameter;
      const v = args[i] as Value;
      if (!p.allowMarked) {
        const [plain, marks] = unmarkDeep(v);
        if (marks.size > 0) {
          callArgs[i] = plain;
          resultMarks.push(marks);
        }
      }
      if (v.kind === "unknown" && !p.allowUnknown) returnUnknown = true;
      // A dynamically-typed argument (a literal null for a DynamicPseudoType parameter) that the
      // parameter does not accept leaves the result type undecided: Terraform answers unknown.
      if (v.type.kind === "dynamic" && !p.allowDynamicType) returnUnknown = true;
    }
    if (returnUnknown) return { ok: true, value: withMarks(this.refined(unknownVal(rt.value)), ...resultMarks) };
    const r = this.spec.impl(callArgs, rt.value);
    if (!r.ok) return r;
    let out = withMarks(r.value, ...resultMarks);
    if (out.kind === "unknown") out = this.refined(out);
    if (!conforms(out.type, rt.value)) {
      throw new Error(`function returned ${friendlyNameForConstraint(out.type)}, but its type function said ${friendlyNameForConstraint(rt.value)}`);
    }
    return { ok: true, value: out };
  }

  private refined(v: Value): Value {
    const f = this.spec.refineResult;
    // As cty, an unknown of undecided type (DynamicVal) is left unrefined.
    return f && v.type.kind !== "dynamic" ? f(refine(v)).newValue() : v;
  }
}

/** cty's TestConformance, as a yes/no: equal types, with dynamic parts of `want` matching anything. */
export function conforms(given: Type, want: Type): boolean {
  if (want.kind === "dynamic") return true;
  if (typeEquals(given, want)) return true;
  switch (want.kind) {
    case "list":
    case "set":
    case "map":
      return given.kind === want.kind && conforms(given.element, want.element);
    case "object": {
      if (given.kind !== "object" || given.attributes.size !== want.attributes.size) return false;
      for (const [n, t] of want.attributes) {
        const g = given.attributes.get(n);
        if (!g || !conforms(g, t)) return false;
      }
      return true;
    }
    case "tuple":
      return (
        given.kind === "tuple" &&
        given.elements.length === want.elements.length &&
        want.elements.every((t, i) => conforms(given.elements[i] as Type, t))
      );
    default:
      return false;
  }
}

export type CallResult = { ok: true; value: Value } | { ok: false; summary: string; detail: string; argIndex?: number };

/**
 * Calls `fn` as HCL's function-call expression does: each argument is converted to its parameter's
 * type first, and errors come back with the summaries and details OpenTofu shows.
 */
export function callFunction(name: string, fn: Func, args: readonly Value[]): CallResult {
  const params = fn.params;
  if (args.length < params.length) {
    const missing = params[args.length] as Parameter;
    const qual = fn.varParam ? " at least" : "";
    return {
      ok: false,
      summary: "Not enough function arguments",
      detail: `Function ${JSON.stringify(name)} expects${qual} ${params.length} argument(s). Missing value for ${JSON.stringify(missing.name)}.`,
    };
  }
  if (!fn.varParam && args.length > params.length) {
    return {
      ok: false,
      summary: "Too many function arguments",
      detail: `Function ${JSON.stringify(name)} expects only ${params.length} argument(s).`,
    };
  }
  const converted: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const p = fn.params[i] ?? fn.varParam;
    const v = args[i] as Value;
    if (!p) {
      converted.push(v);
      continue;
    }
    const c = convert(v, p.type);
    if (!c.ok) {
      return { ok: false, summary: "Invalid function argument", detail: `Invalid value for ${JSON.stringify(p.name)} parameter: ${c.error.message}.`, argIndex: i };
    }
    converted.push(c.value);
  }
  const r = fn.call(converted);
  if (r.ok) return r;
  const e = r.error;
  if (e.kind === "arg") {
    const p = fn.params[e.index] ?? fn.varParam;
    if (p) return { ok: false, summary: "Invalid function argument", detail: `Invalid value for ${JSON.stringify(p.name)} parameter: ${e.message}.`, argIndex: e.index };
    // An index past every parameter (OpenTofu's fileexists does this): HCL reports the call.
    return { ok: false, summary: "Error in function call", detail: `Call to function ${JSON.stringify(name)} failed: ${e.message}.` };
  }
  return { ok: false, summary: "Error in function call", detail: `Call to function ${JSON.stringify(name)} failed: ${e.message}.` };
}
