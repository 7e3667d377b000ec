// Function signatures as JSON, the format of `tofu metadata functions -json` (format_version 1.0),
// which language servers and editors read: each function's parameters with their type constraints,
// whether they take null, and the type the function returns when every argument is an unknown
// value of its parameter's type (so "dynamic" wherever the result depends on the arguments).
import { BoolType, DynamicPseudoType, goJSONString, typeToJSON, unknownVal, type Func, type Parameter, type Type, type TypeJSON } from "../../values/index.js";

export const FUNCTIONS_FORMAT_VERSION = "1.0";

export interface ParameterJSON {
  readonly name: string;
  readonly description?: string;
  readonly is_nullable?: boolean;
  readonly type: TypeJSON;
}

export interface FunctionSignatureJSON {
  readonly description?: string;
  readonly return_type: TypeJSON;
  readonly parameters?: readonly ParameterJSON[];
  readonly variadic_parameter?: ParameterJSON;
}

export interface FunctionDocs {
  readonly description?: string;
  /** Descriptions of parameters, by parameter name. */
  readonly params?: Readonly<Record<string, string>>;
}

export type SignatureResult = { ok: true; signature: FunctionSignatureJSON } | { ok: false; error: string };

function parameterJSON(p: Parameter, docs: FunctionDocs | undefined): ParameterJSON {
  const description = docs?.params?.[p.name];
  return { name: p.name, ...(description ? { description } : {}), ...(p.allowNull ? { is_nullable: true } : {}), type: typeToJSON(p.type) };
}

/**
 * `try` and `can` take expressions, not values, so their parameters have no type to report and
 * their result type is fixed by what they do: OpenTofu describes them with these fixed signatures.
 */
const EXPRESSION_FUNCTIONS: Readonly<Record<string, { readonly returns: Type; readonly variadic: boolean }>> = {
  try: { returns: DynamicPseudoType, variadic: true },
  can: { returns: BoolType, variadic: false },
};

/** The signature of one function, or why its result type cannot be worked out. */
export function functionSignature(name: string, fn: Func, docs?: FunctionDocs): SignatureResult {
  const desc = docs?.description ? { description: docs.description } : {};
  const fixed = EXPRESSION_FUNCTIONS[name.replace(/^core::/, "")];
  if (fixed) {
    const p = fixed.variadic ? fn.varParam : fn.params[0];
    const param: ParameterJSON = { name: p?.name ?? "expression", type: typeToJSON(DynamicPseudoType) };
    return { ok: true, signature: { ...desc, return_type: typeToJSON(fixed.returns), ...(fixed.variadic ? { variadic_parameter: param } : { parameters: [param] }) } };
  }
  const probe = [...fn.params, ...(fn.varParam ? [fn.varParam] : [])].map((p) => unknownVal(p.type));
  const ret = fn.returnTypeForValues(probe);
  if (!ret.ok) return { ok: false, error: ret.error.message };
  return {
    ok: true,
    signature: {
      ...desc,
      return_type: typeToJSON(ret.value),
      ...(fn.params.length > 0 ? { parameters: fn.params.map((p) => parameterJSON(p, docs)) } : {}),
      ...(fn.varParam ? { variadic_parameter: parameterJSON(fn.varParam, docs) } : {}),
    },
  };
}

/** Compact JSON as Go's encoding/json writes it: HTML-safe string escapes, struct fields in order. */
function goJSON(v: unknown): string {
  if (typeof v === "string") return goJSONString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) return `[${v.map(goJSON).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${entries.map(([k, x]) => `${goJSONString(k)}:${goJSON(x)}`).join(",")}}`;
  }
  throw new Error(`unexpected ${typeof v} in function signature JSON`);
}

/** Byte-wise order, as Go sorts map keys when encoding. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type SignaturesResult = { ok: true; json: string } | { ok: false; errors: ReadonlyArray<{ readonly name: string; readonly error: string }> };

/** The whole document for a function table, names sorted as Go's encoder sorts map keys. */
export function marshalFunctionSignatures(table: ReadonlyMap<string, Func>, docsFor: (name: string) => FunctionDocs | undefined): SignaturesResult {
  const signatures: Record<string, FunctionSignatureJSON> = {};
  const errors: Array<{ name: string; error: string }> = [];
  for (const name of [...table.keys()].sort(byteOrder)) {
    const r = functionSignature(name, table.get(name) as Func, docsFor(name));
    if (r.ok) signatures[name] = r.signature;
    else errors.push({ name, error: r.error });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, json: goJSON({ format_version: FUNCTIONS_FORMAT_VERSION, function_signatures: signatures }) };
}
