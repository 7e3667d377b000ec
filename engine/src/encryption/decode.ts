// Decoding a key provider's or method's arguments as gohcl decodes them into OpenTofu's config
// structs: every argument is evaluated in the context built for it (static values and the
// key providers it names), sensitive marks are dropped (the whole encryption block is treated as
// secret), and the value is converted to the Go field's kind: string, whole number, bytes (a list
// of numbers 0–255) or key material (a key provider's output object).
import { errorDiag, type AnyExpression, type Diagnostic, type Range } from "../hcl/index.js";
import { configBodyContent, jsonExprAsNative, type ConfigBody } from "../configs/body.js";
import { evaluateAny, type EvalContext } from "../lang/eval/index.js";
import {
  NumberType,
  StringType,
  convert,
  formatPathError,
  friendlyName,
  listOf,
  listVal,
  nullVal,
  numberIntVal,
  objectVal,
  unmarkDeep,
  type Value,
} from "../values/index.js";

/** What a key provider hands to a method (OpenTofu's keyprovider.Output). */
export interface KeyMaterial {
  readonly encryptionKey: Uint8Array;
  /** Absent when there was nothing to decrypt (no stored metadata for this key provider). */
  readonly decryptionKey: Uint8Array | undefined;
}

export type ArgKind = "string" | "strings" | "int" | "bytes" | "keys" | "bool";

export interface ArgSpec {
  readonly kind: ArgKind;
  readonly required?: boolean;
}

export type DecodedArg =
  | { kind: "string"; value: string }
  | { kind: "strings"; value: string[] }
  | { kind: "int"; value: number }
  | { kind: "bytes"; value: Uint8Array }
  | { kind: "keys"; value: KeyMaterial }
  | { kind: "bool"; value: boolean };

export interface DecodedArgs {
  readonly values: Map<string, DecodedArg>;
  readonly ranges: Map<string, Range>;
}

const BYTES = listOf(NumberType);

/** Key material as the `key_provider.<type>.<name>` value methods and chained providers read. */
export function keyMaterialValue(k: KeyMaterial): Value {
  const bytes = (b: Uint8Array | undefined): Value => (b && b.length > 0 ? listVal([...b].map((x) => numberIntVal(x))) : nullVal(BYTES));
  return objectVal({ encryption_key: bytes(k.encryptionKey), decryption_key: bytes(k.decryptionKey) });
}

function unsuitable(message: string, range: Range): Diagnostic {
  return errorDiag("Unsuitable value type", `Unsuitable value: ${message}`, range);
}

function toBytes(v: Value, range: Range, diagnostics: Diagnostic[]): Uint8Array | undefined {
  const c = convert(v, BYTES);
  if (!c.ok) {
    diagnostics.push(unsuitable(formatPathError(c.error), range));
    return undefined;
  }
  if (c.value.kind !== "list") return undefined;
  const out = new Uint8Array(c.value.elements.length);
  for (let i = 0; i < out.length; i++) {
    const e = c.value.elements[i] as Value;
    const n = e.kind === "number" && e.value.isInt() ? e.value.toBigInt() : undefined;
    if (n === undefined || n < 0n || n > 255n) {
      diagnostics.push(unsuitable(`element ${i}: value must be a whole number, between 0 and 255`, range));
      return undefined;
    }
    out[i] = Number(n);
  }
  return out;
}

/** keyprovider.Output decoded from a value: an object with `encryption_key` and maybe `decryption_key`. */
export function keyMaterialFromValue(v: Value, range: Range, diagnostics: Diagnostic[]): KeyMaterial | undefined {
  if (v.kind !== "object") {
    diagnostics.push(
      errorDiag("Expected key_provider value", `Expected a key_provider compatible value, found ${friendlyName(v.type)} instead`, range),
    );
    return undefined;
  }
  const enc = v.attrs.get("encryption_key");
  if (!enc) {
    diagnostics.push(
      errorDiag("Missing encryption_key value", "An encryption_key value is required in the key_provider compatible object at this location", range),
    );
    return undefined;
  }
  const encryptionKey = enc.kind === "null" ? new Uint8Array(0) : toBytes(enc, range, diagnostics);
  const dec = v.attrs.get("decryption_key");
  const decryptionKey = dec === undefined || dec.kind === "null" ? undefined : toBytes(dec, range, diagnostics);
  if (!encryptionKey) return undefined;
  return { encryptionKey, decryptionKey: decryptionKey && decryptionKey.length > 0 ? decryptionKey : undefined };
}

function decodeOne(name: string, spec: ArgSpec, expr: AnyExpression, ctx: EvalContext, diagnostics: Diagnostic[]): DecodedArg | undefined {
  const r = evaluateAny(expr, ctx);
  diagnostics.push(...r.diagnostics);
  if (r.diagnostics.some((d) => d.severity === "error")) return undefined;
  const [v] = unmarkDeep(r.value);
  const range = expr.range;
  if (v.kind === "unknown") {
    diagnostics.push(unsuitable("value must be known", range));
    return undefined;
  }
  if (v.kind === "null") {
    // gohcl leaves an optional field at its zero value for null; a required one is an error.
    if (spec.required) diagnostics.push(unsuitable("null value is not allowed", range));
    return undefined;
  }
  switch (spec.kind) {
    case "string": {
      const c = convert(v, StringType);
      if (!c.ok || c.value.kind !== "string") {
        diagnostics.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: string required.`, range));
        return undefined;
      }
      return { kind: "string", value: c.value.value };
    }
    case "strings": {
      const c = convert(v, listOf(StringType));
      if (!c.ok || c.value.kind !== "list" || c.value.elements.some((e) => e.kind !== "string")) {
        diagnostics.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: list of string required.`, range));
        return undefined;
      }
      return { kind: "strings", value: c.value.elements.map((e) => (e.kind === "string" ? e.value : "")) };
    }
    case "bool": {
      if (v.kind !== "bool") {
        diagnostics.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: bool required.`, range));
        return undefined;
      }
      return { kind: "bool", value: v.value };
    }
    case "int": {
      const c = convert(v, NumberType);
      const n = c.ok && c.value.kind === "number" && c.value.value.isInt() ? c.value.value.toBigInt() : undefined;
      if (n === undefined || n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) {
        diagnostics.push(unsuitable("value must be a whole number", range));
        return undefined;
      }
      return { kind: "int", value: Number(n) };
    }
    case "bytes": {
      const b = toBytes(v, range, diagnostics);
      return b ? { kind: "bytes", value: b } : undefined;
    }
    case "keys": {
      const k = keyMaterialFromValue(v, range, diagnostics);
      return k ? { kind: "keys", value: k } : undefined;
    }
  }
}

/**
 * In JSON syntax, key material may be named by a reference written directly in quotes
 * (`"keys": "key_provider.pbkdf2.k"`, OpenTofu 1.12) as well as by a template
 * (`"${key_provider.pbkdf2.k}"`): a plain string that parses as a traversal is read as one.
 */
export function keysExpression(e: AnyExpression): AnyExpression {
  if (e.kind !== "JSONExpr" || e.value.kind !== "JSONString" || e.value.value.includes("${")) return e;
  const r = jsonExprAsNative(e);
  return r.expr && r.expr.kind === "ScopeTraversal" ? r.expr : e;
}

/** gohcl.DecodeBody over a flat struct of arguments: unknown arguments and blocks are errors. */
export function decodeArgs(body: ConfigBody, specs: ReadonlyMap<string, ArgSpec>, ctx: EvalContext): { args: DecodedArgs; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const { content, diagnostics: d } = configBodyContent(body, {
    attributes: [...specs].map(([name, s]) => ({ name, required: s.required === true })),
  });
  diagnostics.push(...d);
  const values = new Map<string, DecodedArg>();
  const ranges = new Map<string, Range>();
  for (const [name, spec] of specs) {
    const attr = content.attributes.get(name);
    if (!attr) continue;
    ranges.set(name, attr.expr.range);
    const v = decodeOne(name, spec, spec.kind === "keys" ? keysExpression(attr.expr) : attr.expr, ctx, diagnostics);
    if (v) values.set(name, v);
  }
  return { args: { values, ranges }, diagnostics };
}

export function argString(a: DecodedArgs, name: string): string | undefined {
  const v = a.values.get(name);
  return v?.kind === "string" ? v.value : undefined;
}

export function argInt(a: DecodedArgs, name: string): number | undefined {
  const v = a.values.get(name);
  return v?.kind === "int" ? v.value : undefined;
}

export function argBytes(a: DecodedArgs, name: string): Uint8Array | undefined {
  const v = a.values.get(name);
  return v?.kind === "bytes" ? v.value : undefined;
}

export function argKeys(a: DecodedArgs, name: string): KeyMaterial | undefined {
  const v = a.values.get(name);
  return v?.kind === "keys" ? v.value : undefined;
}
