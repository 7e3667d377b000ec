// Legacy flatmap attributes (`"tags.%": "1"`, `"tags.Name": "x"`, `"ports.#": "2"`,
// `"ports.0": "80"`) as a value of a schema's object type: OpenTofu's
// hcl2shim.HCL2ValueFromFlatmap, which ResourceInstanceObjectSrc.Decode uses for objects from
// states older than v4 that no provider has upgraded yet (`show`, `state show`, references).
// The format cannot tell nested objects from keys with dots, so maps are of primitives only.
import {
  compareStrings,
  convert,
  formatPathError,
  friendlyName,
  goQuote,
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
  type Type,
  type Value,
} from "../values/index.js";

/** What the pre-0.12 SDK stored for a value not known yet (hcl2shim.UnknownVariableValue). */
export const UNKNOWN_VARIABLE_VALUE = "74D93920-ED26-11E3-AC10-0800200C9A66";

type Result = { ok: true; value: Value } | { ok: false; error: string };

/** HCL2ValueFromFlatmap: `type` must be an object type (a resource schema's). */
export function valueFromFlatmap(m: ReadonlyMap<string, string>, type: Type): Result {
  if (type.kind !== "object") throw new Error(`valueFromFlatmap called on ${friendlyName(type)}`);
  return decodeObject(m, "", type.attributes);
}

function decodeValue(m: ReadonlyMap<string, string>, key: string, ty: Type): Result {
  switch (ty.kind) {
    case "string":
    case "number":
    case "bool":
      return decodePrimitive(m, key, ty);
    case "object":
      return decodeObject(m, `${key}.`, ty.attributes);
    case "tuple":
      return decodeTuple(m, `${key}.`, ty);
    case "map":
      return decodeMap(m, `${key}.`, ty);
    case "list":
      return decodeList(m, `${key}.`, ty);
    case "set":
      return decodeSet(m, `${key}.`, ty);
    case "dynamic":
      return { ok: false, error: `cannot decode ${friendlyName(ty)} from flatmap` };
  }
}

function decodePrimitive(m: ReadonlyMap<string, string>, key: string, ty: Type): Result {
  const raw = m.get(key);
  if (raw === undefined) return { ok: true, value: nullVal(ty) };
  if (raw === UNKNOWN_VARIABLE_VALUE) return { ok: true, value: unknownVal(ty) };
  const c = convert(stringVal(raw), ty);
  // Only tampered-with state gets here: the SDK wrote what the schema said.
  if (!c.ok) return { ok: false, error: `invalid value for ${goQuote(key)} in state: ${formatPathError(c.error)}` };
  return { ok: true, value: c.value };
}

function decodeObject(m: ReadonlyMap<string, string>, prefix: string, attrs: ReadonlyMap<string, Type>): Result {
  const vals = new Map<string, Value>();
  for (const [name, aty] of attrs) {
    const r = decodeValue(m, prefix + name, aty);
    if (!r.ok) return r;
    vals.set(name, r.value);
  }
  return { ok: true, value: objectVal(vals) };
}

/** The element count of a list, set or tuple at `prefix` (which ends in a dot). */
function sequenceCount(m: ReadonlyMap<string, string>, prefix: string): "null" | "unknown" | { count: string } {
  // An unknown container has no count, only its own key.
  if (m.get(prefix.replace(/\.+$/, "")) === UNKNOWN_VARIABLE_VALUE) return "unknown";
  const count = m.get(`${prefix}#`);
  if (count === undefined) return "null";
  if (count === UNKNOWN_VARIABLE_VALUE) return "unknown";
  return { count };
}

function parseCount(prefix: string, text: string): number | string {
  // Go's strconv.Atoi: an optional sign and decimal digits.
  if (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  return `invalid count value for ${goQuote(prefix)} in state: strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`;
}

function decodeTuple(m: ReadonlyMap<string, string>, prefix: string, ty: Type & { kind: "tuple" }): Result {
  const c = sequenceCount(m, prefix);
  if (c === "unknown") return { ok: true, value: unknownVal(ty) };
  if (c === "null") return { ok: true, value: nullVal(ty) };
  const count = parseCount(prefix, c.count);
  if (typeof count === "string") return { ok: false, error: count };
  if (count !== ty.elements.length) {
    return { ok: false, error: `wrong number of values for ${goQuote(prefix)} in state: got ${count}, but need ${ty.elements.length}` };
  }
  const vals: Value[] = [];
  for (const [i, ety] of ty.elements.entries()) {
    const r = decodeValue(m, `${prefix}${i}`, ety);
    if (!r.ok) return r;
    vals.push(r.value);
  }
  return { ok: true, value: tupleVal(vals) };
}

function decodeList(m: ReadonlyMap<string, string>, prefix: string, ty: Type & { kind: "list" }): Result {
  const c = sequenceCount(m, prefix);
  if (c === "unknown") return { ok: true, value: unknownVal(ty) };
  if (c === "null") return { ok: true, value: nullVal(ty) };
  const count = parseCount(prefix, c.count);
  if (typeof count === "string") return { ok: false, error: count };
  if (count <= 0) return { ok: true, value: listValEmpty(ty.element) };
  const vals: Value[] = [];
  for (let i = 0; i < count; i++) {
    const r = decodeValue(m, `${prefix}${i}`, ty.element);
    if (!r.ok) return r;
    vals.push(r.value);
  }
  return { ok: true, value: listVal(vals) };
}

/** The keys under `prefix`, sorted: Go walks its map at random, this walks it in one order. */
function keysUnder(m: ReadonlyMap<string, string>, prefix: string): string[] {
  return [...m.keys()].filter((k) => k.startsWith(prefix)).sort(compareStrings);
}

function decodeMap(m: ReadonlyMap<string, string>, prefix: string, ty: Type & { kind: "map" }): Result {
  if (m.get(prefix.replace(/\.+$/, "")) === UNKNOWN_VARIABLE_VALUE) return { ok: true, value: unknownVal(ty) };
  // The count itself does not matter; whether it is there tells null from empty.
  const count = m.get(`${prefix}%`);
  if (count === undefined) return { ok: true, value: nullVal(ty) };
  if (count === UNKNOWN_VARIABLE_VALUE) return { ok: true, value: unknownVal(ty) };
  const vals = new Map<string, Value>();
  for (const fullKey of keysUnder(m, prefix)) {
    // The rest of the key, dots and all, is the map key: maps hold primitives only.
    const key = fullKey.slice(prefix.length);
    if (key === "%") continue;
    const r = decodeValue(m, fullKey, ty.element);
    if (!r.ok) return r;
    vals.set(key, r.value);
  }
  return { ok: true, value: vals.size === 0 ? mapValEmpty(ty.element) : mapVal(vals) };
}

function decodeSet(m: ReadonlyMap<string, string>, prefix: string, ty: Type & { kind: "set" }): Result {
  const c = sequenceCount(m, prefix);
  if (c === "unknown") return { ok: true, value: unknownVal(ty) };
  if (c === "null") return { ok: true, value: nullVal(ty) };
  // Elements are keyed by the SDK's hash codes, not indexes: each distinct first step is one.
  const seen = new Set<string>();
  const vals: Value[] = [];
  for (const fullKey of keysUnder(m, prefix)) {
    const sub = fullKey.slice(prefix.length);
    if (sub === "#") continue;
    const dot = sub.indexOf(".");
    const key = dot === -1 ? fullKey : fullKey.slice(0, prefix.length + dot);
    if (seen.has(key)) continue;
    seen.add(key);
    const r = decodeValue(m, key, ty.element);
    if (!r.ok) return r;
    vals.push(r.value);
  }
  if (vals.length === 0 && c.count === "1") {
    // An empty set is not written at all, so a count of 1 with no keys is one empty element.
    vals.push(emptyElement(ty.element));
  } else if (vals.length === 0) return { ok: true, value: setValEmpty(ty.element) };
  return { ok: true, value: setVal(vals) };
}

function emptyElement(ety: Type): Value {
  switch (ety.kind) {
    case "map":
      return mapValEmpty(ety.element);
    case "list":
      return listValEmpty(ety.element);
    case "set":
      return setValEmpty(ety.element);
    case "object":
      return objectVal(new Map([...ety.attributes].map(([name, aty]) => [name, nullVal(aty)])));
    default:
      return nullVal(ety);
  }
}
