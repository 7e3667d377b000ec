// DynamicValue and RawState decoding/encoding against a schema's implied type. DynamicValues are
// providers/schema's (msgpack out, msgpack or JSON in, byte for byte as cty). Stored state
// (RawState.json) is decoded leniently here: attributes the schema no longer has are dropped and
// missing ones become null, as terraform-plugin-go does.

import type { ProtoDynamicValue, ProtoRawState } from "../providers/proto/index.js";
import { encodeDynamicValue, type DynamicResult } from "../providers/schema/index.js";
import {
  convert,
  decodeJSONImplied,
  formatPathError,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  unknownVal,
  unmarshalJSON,
  type Type,
  type Value,
} from "../values/index.js";

export { decodeDynamicValue as decodeDynamic } from "../providers/schema/index.js";
export type Decoded = DynamicResult;

const utf8 = new TextDecoder();

/** Encodes a value the SDK built against its type; failure is a bug in the SDK or a handler. */
export function encodeDynamic(v: Value, type: Type): ProtoDynamicValue {
  const r = encodeDynamicValue(v, type);
  if (!r.ok) throw new Error(`cannot encode value: ${r.error}`);
  return r.value;
}

/** Stored state JSON against `type`, dropping attributes the type lacks. */
export function decodeStateJSON(json: string, type: Type): Decoded {
  const strict = unmarshalJSON(json, type);
  if (strict.ok) return strict;
  const implied = decodeJSONImplied(json);
  if (!implied.ok) return { ok: false, error: formatPathError(implied.error) };
  try {
    return { ok: true, value: conform(implied.value, type) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

export function decodeRawState(raw: ProtoRawState | null | undefined, type: Type): Decoded {
  if (raw?.json && raw.json.length > 0) return decodeStateJSON(utf8.decode(raw.json), type);
  if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) return decodeFlatmap(raw.flatmap, type);
  return { ok: true, value: nullVal(type) };
}

/** A value of some implied type reshaped into `type`: extra attributes dropped, missing ones null. */
export function conform(v: Value, type: Type): Value {
  if (v.kind === "null") return nullVal(type);
  if (v.kind === "unknown") return unknownVal(type);
  switch (type.kind) {
    case "object": {
      if (v.kind !== "object" && v.kind !== "map") throw new Error(`an object is required, got ${v.kind}`);
      const attrs = new Map<string, Value>();
      for (const [k, at] of type.attributes) {
        const e = v.attrs.get(k);
        attrs.set(k, e ? conform(e, at) : nullVal(at));
      }
      return objectVal(attrs);
    }
    case "list":
    case "set": {
      if (v.kind !== "list" && v.kind !== "set" && v.kind !== "tuple") throw new Error(`a ${type.kind} is required, got ${v.kind}`);
      const els = v.elements.map((e) => conform(e, type.element));
      if (type.kind === "list") return els.length ? listVal(els) : listValEmpty(type.element);
      return els.length ? setVal(els) : setValEmpty(type.element);
    }
    case "map": {
      if (v.kind !== "map" && v.kind !== "object") throw new Error(`a map is required, got ${v.kind}`);
      if (v.attrs.size === 0) return mapValEmpty(type.element);
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) attrs.set(k, conform(e, type.element));
      return mapVal(attrs);
    }
    case "tuple": {
      if (v.kind !== "tuple" && v.kind !== "list") throw new Error(`a tuple is required, got ${v.kind}`);
      return tupleVal(type.elements.map((et, i) => (v.elements[i] ? conform(v.elements[i] as Value, et) : nullVal(et))));
    }
    case "dynamic":
      return v;
    default: {
      const c = convert(v, type);
      if (!c.ok) throw new Error(formatPathError(c.error));
      return c.value;
    }
  }
}

/**
 * The legacy flatmap state format (Terraform 0.11): `"a" = "x"`, `"l.#" = "2"`, `"l.0" = …`,
 * `"m.%" = "1"`, `"m.k" = …`, nested objects as `"b.0.x"`. Enough for the shapes the SDK's own
 * schemas produce; sets are read like lists (their flatmap keys were hashes, taken in key order).
 */
export function decodeFlatmap(flat: Readonly<Record<string, string>>, type: Type): Decoded {
  try {
    return { ok: true, value: fromFlat(flat, "", type) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

function fromFlat(flat: Readonly<Record<string, string>>, prefix: string, type: Type): Value {
  const key = (k: string) => (prefix ? `${prefix}.${k}` : k);
  switch (type.kind) {
    case "object": {
      const attrs = new Map<string, Value>();
      for (const [k, at] of type.attributes) attrs.set(k, fromFlat(flat, key(k), at));
      return objectVal(attrs);
    }
    case "list":
    case "set": {
      const count = flat[`${prefix}.#`];
      if (count === undefined) return nullVal(type);
      const subkeys = new Set<string>();
      for (const k of Object.keys(flat)) {
        if (!k.startsWith(`${prefix}.`) || k === `${prefix}.#`) continue;
        subkeys.add(k.slice(prefix.length + 1).split(".")[0] as string);
      }
      const ordered = [...subkeys].sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : 1));
      const els = ordered.map((sk) => fromFlat(flat, `${prefix}.${sk}`, type.element));
      if (type.kind === "list") return els.length ? listVal(els) : listValEmpty(type.element);
      return els.length ? setVal(els) : setValEmpty(type.element);
    }
    case "map": {
      const count = flat[`${prefix}.%`];
      if (count === undefined) return nullVal(type);
      const attrs = new Map<string, Value>();
      for (const k of Object.keys(flat)) {
        if (!k.startsWith(`${prefix}.`) || k === `${prefix}.%`) continue;
        const rest = k.slice(prefix.length + 1);
        if (type.element.kind === "object" || type.element.kind === "list" || type.element.kind === "map") {
          const head = rest.split(".")[0] as string;
          if (!attrs.has(head)) attrs.set(head, fromFlat(flat, `${prefix}.${head}`, type.element));
        } else {
          attrs.set(rest, fromFlat(flat, k, type.element));
        }
      }
      return attrs.size ? mapVal(attrs) : mapValEmpty(type.element);
    }
    default: {
      const s = flat[prefix];
      if (s === undefined) return nullVal(type);
      if (s === "74D93920-ED26-11E3-AC10-0800200C9A66") return unknownVal(type);
      const c = convert(stringVal(s), type);
      if (!c.ok) throw new Error(`${prefix}: ${c.error.message}`);
      return c.value;
    }
  }
}

