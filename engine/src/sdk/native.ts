// Plain JavaScript views of values, so that handlers can read `state.name` instead of walking
// `Value` trees: strings, numbers, booleans, arrays, plain objects, `null`, and the `UNKNOWN`
// marker for a value not known yet. `fromNative` turns such data back into a value of a given
// type (absent object attributes become null), which is how handler results reach the wire.

import {
  BigFloat,
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  boolVal,
  friendlyName,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberFloatVal,
  numberIntVal,
  numberVal,
  objectOf,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleOf,
  tupleVal,
  unknownVal,
  unmarkDeep,
  type Type,
  type Value,
} from "../values/index.js";

/** Stands for an unknown value in native data. */
export const UNKNOWN: unique symbol = Symbol("unknown");

/** Values may appear anywhere in native data and are taken as they are. */
export type Native = null | undefined | typeof UNKNOWN | string | number | bigint | boolean | NativeList | NativeObject | Value;
export type NativeList = readonly Native[];
export interface NativeObject {
  readonly [key: string]: Native;
}

/** True for a `Value` (as opposed to native data). */
export function isValue(n: unknown): n is Value {
  if (typeof n !== "object" || n === null) return false;
  const v = n as { kind?: unknown; marks?: unknown; type?: unknown };
  return typeof v.kind === "string" && v.marks instanceof Set && typeof v.type === "object";
}

/** The value as native data (marks dropped; numbers as JS numbers). */
export function toNative(v: Value): Native {
  const [u] = unmarkDeep(v);
  return native(u);
}

/** toNative for an object value; a null or unknown object gives an empty object. */
export function toNativeObject(v: Value): NativeObject {
  const n = toNative(v);
  return n !== null && typeof n === "object" && !Array.isArray(n) ? (n as NativeObject) : {};
}

function native(v: Value): Native {
  switch (v.kind) {
    case "unknown":
      return UNKNOWN;
    case "null":
      return null;
    case "string":
    case "bool":
      return v.value;
    case "number":
      return Number(v.value.text("g"));
    case "list":
    case "set":
    case "tuple":
      return v.elements.map(native);
    case "map":
    case "object": {
      const out: Record<string, Native> = {};
      for (const [k, e] of v.attrs) out[k] = native(e);
      return out;
    }
  }
}

/** Thrown for native data that does not fit the type: a bug in the handler that produced it. */
export class NativeTypeError extends Error {}

/** Native data as a value of `type`. */
export function fromNative(n: Native, type: Type, path = ""): Value {
  if (n === null || n === undefined) return nullVal(type);
  if (n === UNKNOWN) return unknownVal(type);
  if (isValue(n)) return unmarkDeep(n)[0];
  const bad = (): never => {
    throw new NativeTypeError(`${path || "value"}: ${describe(n)} does not fit ${friendlyName(type)}`);
  };
  switch (type.kind) {
    case "string":
      if (typeof n === "string") return stringVal(n);
      if (typeof n === "number" || typeof n === "bigint") return stringVal(String(n));
      if (typeof n === "boolean") return stringVal(n ? "true" : "false");
      return bad();
    case "number":
      if (typeof n === "number") return Number.isSafeInteger(n) ? numberIntVal(n) : numberFloatVal(n);
      if (typeof n === "bigint") return numberIntVal(n);
      if (typeof n === "string") {
        const f = BigFloat.parse(n);
        return f ? numberVal(f) : bad();
      }
      return bad();
    case "bool":
      if (typeof n === "boolean") return boolVal(n);
      if (n === "true" || n === "false") return boolVal(n === "true");
      return bad();
    case "list":
    case "set": {
      if (!Array.isArray(n)) return bad();
      const els = (n as NativeList).map((e, i) => fromNative(e, type.element, `${path}[${i}]`));
      if (type.kind === "list") return els.length === 0 ? listValEmpty(type.element) : listVal(els);
      return els.length === 0 ? setValEmpty(type.element) : setVal(els);
    }
    case "map": {
      if (!isNativeObject(n)) return bad();
      const entries = Object.entries(n).filter(([, e]) => e !== undefined);
      if (entries.length === 0) return mapValEmpty(type.element);
      return mapVal(Object.fromEntries(entries.map(([k, e]) => [k, fromNative(e, type.element, `${path}[${JSON.stringify(k)}]`)])));
    }
    case "object": {
      if (!isNativeObject(n)) return bad();
      for (const k of Object.keys(n)) {
        if (!type.attributes.has(k) && n[k] !== undefined) {
          throw new NativeTypeError(`${path || "value"}: unexpected attribute ${JSON.stringify(k)}`);
        }
      }
      const attrs = new Map<string, Value>();
      for (const [k, at] of type.attributes) attrs.set(k, fromNative(n[k], at, path ? `${path}.${k}` : k));
      return objectVal(attrs);
    }
    case "tuple": {
      if (!Array.isArray(n) || n.length !== type.elements.length) return bad();
      return tupleVal((n as NativeList).map((e, i) => fromNative(e, type.elements[i] as Type, `${path}[${i}]`)));
    }
    case "dynamic":
      return fromNative(n, inferType(n), path);
  }
}

/** The type native data has on its own (for dynamically-typed attributes). */
export function inferType(n: Native): Type {
  if (n === null || n === undefined || n === UNKNOWN) return DynamicPseudoType;
  if (typeof n === "string") return StringType;
  if (typeof n === "number" || typeof n === "bigint") return NumberType;
  if (typeof n === "boolean") return BoolType;
  if (Array.isArray(n)) return tupleOf((n as NativeList).map(inferType));
  const attrs: Record<string, Type> = {};
  for (const [k, e] of Object.entries(n as NativeObject)) if (e !== undefined) attrs[k] = inferType(e);
  return objectOf(attrs);
}

function isNativeObject(n: Native): n is NativeObject {
  return typeof n === "object" && n !== null && !Array.isArray(n);
}

function describe(n: Native): string {
  if (Array.isArray(n)) return "an array";
  if (typeof n === "object") return "an object";
  return `a ${typeof n}`;
}
