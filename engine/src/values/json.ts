// cty/json: values to and from JSON given a type, plus the type implied by a JSON document.
// Numbers keep their full text both ways (no float64 round trip); strings are escaped like Go's
// encoding/json (`<` as \u003c); object keys are sorted; a `dynamic` type wraps the value as
// {"value": …, "type": …} so the real type survives.

import { BigFloat, PARSE_PREC } from "./bigfloat.js";
import { convert } from "./convert.js";
import { parseGoJSON, type JsonNode } from "./gojson.js";
import { NESTED_TOO_DEEPLY, catchPathFailure as guard, failAt as fail, failAtTracked, stepInto, trackedOnFailure, type PathResult } from "./path.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  compareStrings,
  marshalType,
  objectOf,
  tupleOf,
  typeFromJSON,
  type Type,
} from "./types.js";
import { goJSONString } from "./gostrings.js";
import {
  False,
  True,
  isExactValueType,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  mapValOfExactType,
  nullVal,
  numberIntVal,
  numberVal,
  objectVal,
  objectValOfExactType,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  unknownVal,
  type Path,
  type Value,
} from "./value.js";

export type JSONResult<T> = PathResult<T>;

// ---------------------------------------------------------------------------------------------
// Marshal

/** cty json.Marshal: the value as JSON text, shaped by `type` (which the value must conform to). */
export function marshalJSON(v: Value, type: Type): JSONResult<string> {
  return trackedOnFailure((path) => {
    const out: string[] = [];
    marshal(v, type, path, out);
    return out.join("");
  });
}

function marshal(v: Value, t: Type, path: Path | undefined, out: string[]): void {
  if (v.marks.size > 0) failAtTracked(path, "value has marks, so it cannot be serialized as JSON");
  if (t.kind === "dynamic" && v.type.kind !== "dynamic") {
    out.push('{"value":');
    marshal(v, v.type, path, out);
    out.push(',"type":', marshalType(v.type), "}");
    return;
  }
  if (v.kind === "null") {
    out.push("null");
    return;
  }
  if (v.kind === "unknown") failAtTracked(path, "value is not known");
  switch (v.kind) {
    case "string":
      out.push(goJSONString(v.value));
      return;
    case "number":
      if (v.value.isInf()) failAtTracked(path, "cannot serialize infinity as JSON");
      out.push(v.value.text("f"));
      return;
    case "bool":
      out.push(v.value ? "true" : "false");
      return;
    case "list":
    case "set":
    case "tuple": {
      out.push("[");
      v.elements.forEach((e, i) => {
        if (i > 0) out.push(",");
        const et = t.kind === "tuple" ? (t.elements[i] ?? e.type) : t.kind === "list" || t.kind === "set" ? t.element : e.type;
        marshal(e, et, stepInto(path, () => ({ kind: "index", key: v.kind === "set" ? e : numberIntVal(i) })), out);
      });
      out.push("]");
      return;
    }
    case "map":
    case "object": {
      out.push("{");
      let first = true;
      // An object type's attributes are held in name order already (objectOf).
      const names = t.kind === "object" ? [...t.attributes.keys()] : [...v.attrs.keys()].sort(compareStrings);
      for (const k of names) {
        if (!first) out.push(",");
        first = false;
        const e = v.attrs.get(k) ?? nullVal(t.kind === "object" ? (t.attributes.get(k) as Type) : DynamicPseudoType);
        const et = t.kind === "object" ? (t.attributes.get(k) as Type) : t.kind === "map" ? t.element : e.type;
        out.push(goJSONString(k), ":");
        marshal(e, et, stepInto(path, () => (v.kind === "object" ? { kind: "attr" as const, name: k } : { kind: "index" as const, key: stringVal(k) })), out);
      }
      out.push("}");
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading: Go's parser (gojson.ts), which keeps numbers as text

const utf8 = new TextEncoder();

/**
 * The JSON document in `src`, or a failure with Go's syntax error text. What follows a complete
 * value is cty's "extraneous data" error; nesting past Go's limit or the parser's stack is the same
 * failure as nesting past what the decoders' stacks hold.
 */
function read(src: string): JsonNode {
  const r = parseGoJSON(utf8.encode(src));
  if (r.ok) return r.node;
  switch (r.error.kind) {
    case "syntax":
      return fail([], r.error.message);
    case "trailing":
      return fail([], "extraneous data after JSON object");
    case "depth":
      return fail([], NESTED_TOO_DEEPLY);
  }
}

// ---------------------------------------------------------------------------------------------
// Unmarshal

/** cty json.Unmarshal: decodes JSON text as a value of the given type. */
export function unmarshalJSON(src: string, type: Type): JSONResult<Value> {
  const parsed = guard(() => read(src));
  if (!parsed.ok) return parsed;
  return trackedOnFailure((path) => unmarshal(parsed.value, type, path));
}

function unmarshal(n: JsonNode, t: Type, path: Path | undefined): Value {
  if (n.t === "null") return nullVal(t);
  switch (t.kind) {
    case "bool":
      if (n.t === "bool") return n.v ? True : False;
      if (n.t === "string") {
        const c = convert(stringVal(n.v), BoolType);
        if (!c.ok) failAtTracked(path, c.error.message);
        return c.value;
      }
      failAtTracked(path, "bool is required");
    // falls through (fail never returns)
    case "number":
      if (n.t === "number" || n.t === "string") {
        const text = n.t === "number" ? n.raw : n.v;
        const f = BigFloat.parse(text, PARSE_PREC);
        if (!f) failAtTracked(path, "a number is required");
        return numberVal(f);
      }
      failAtTracked(path, "number is required");
    // falls through
    case "string":
      if (n.t === "string") return stringVal(n.v);
      if (n.t === "number") return stringVal(n.raw);
      if (n.t === "bool") return stringVal(n.v ? "true" : "false");
      failAtTracked(path, "string is required");
    // falls through
    case "list":
    case "set": {
      if (n.t !== "array") failAtTracked(path, `need JSON array for ${t.kind}`);
      // cty names set elements by an unknown key: they have no index.
      const els = n.items.map((item, i) =>
        unmarshal(item, t.element, stepInto(path, () => ({ kind: "index", key: t.kind === "set" ? unknownVal(t.element) : numberIntVal(i) }))),
      );
      if (els.length === 0) return t.kind === "list" ? listValEmpty(t.element) : setValEmpty(t.element);
      return t.kind === "list" ? listVal(els) : setVal(els);
    }
    case "map": {
      if (n.t !== "object") failAtTracked(path, "need JSON object for map");
      const attrs = new Map<string, Value>();
      for (const [k, item] of n.entries) attrs.set(k, unmarshal(item, t.element, stepInto(path, () => ({ kind: "index", key: stringVal(k) }))));
      if (attrs.size === 0) return mapValEmpty(t.element);
      return isExactValueType(t) ? mapValOfExactType(t, attrs) : mapVal(attrs);
    }
    case "tuple": {
      if (n.t !== "array") failAtTracked(path, "need JSON array for tuple");
      if (n.items.length > t.elements.length) failAtTracked(path, `too many tuple elements (need ${t.elements.length})`);
      if (n.items.length < t.elements.length) failAtTracked(path, `not enough tuple elements (need ${t.elements.length})`);
      return tupleVal(n.items.map((item, i) => unmarshal(item, t.elements[i] as Type, stepInto(path, () => ({ kind: "index", key: numberIntVal(i) })))));
    }
    case "object": {
      if (n.t !== "object") failAtTracked(path, "need JSON object for object");
      const attrs = new Map<string, Value>();
      for (const [k, item] of n.entries) {
        const at = t.attributes.get(k);
        if (!at) failAtTracked(path, `unsupported attribute ${JSON.stringify(k)}`);
        attrs.set(k, unmarshal(item, at, stepInto(path, () => ({ kind: "attr", name: k }))));
      }
      for (const [k, at] of t.attributes) if (!attrs.has(k)) attrs.set(k, nullVal(at));
      return isExactValueType(t) ? objectValOfExactType(t, attrs) : objectVal(attrs);
    }
    case "dynamic": {
      if (n.t !== "object") failAtTracked(path, "need JSON object for dynamically-typed value");
      let typeNode: JsonNode | undefined;
      let valueNode: JsonNode | undefined;
      for (const [k, item] of n.entries) {
        if (k === "type") typeNode = item;
        else if (k === "value") valueNode = item;
        else failAtTracked(path, `invalid key ${JSON.stringify(k)} in dynamically-typed value`);
      }
      if (!typeNode) failAtTracked(path, "missing type in dynamically-typed value");
      if (!valueNode) failAtTracked(path, "missing value in dynamically-typed value");
      const tr = typeFromJSON(plainJSON(typeNode));
      if (!tr.ok) failAtTracked(path, `failed to decode type: ${tr.error}`);
      return unmarshal(valueNode, tr.type, path);
    }
  }
}

function plainJSON(n: JsonNode): unknown {
  switch (n.t) {
    case "null":
      return null;
    case "bool":
      return n.v;
    case "number":
      return Number(n.raw);
    case "string":
      return n.v;
    case "array":
      return n.items.map(plainJSON);
    case "object": {
      const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of n.entries) o[k] = plainJSON(v);
      return o;
    }
  }
}

/** cty json.ImpliedType: objects → object types, arrays → tuples, null → dynamic. */
export function impliedTypeJSON(src: string): JSONResult<Type> {
  const parsed = guard(() => read(src));
  if (!parsed.ok) return parsed;
  return trackedOnFailure((path) => impliedType(parsed.value, path));
}

function impliedType(n: JsonNode, path: Path | undefined): Type {
  switch (n.t) {
    case "null":
      return DynamicPseudoType;
    case "bool":
      return BoolType;
    case "number":
      return NumberType;
    case "string":
      return StringType;
    case "array":
      return tupleOf(n.items.map((x, i) => impliedType(x, stepInto(path, () => ({ kind: "index", key: numberIntVal(i) })))));
    case "object": {
      const attrs = new Map<string, Type>();
      for (const [k, v] of n.entries) {
        // Like Go's decoder, a repeated key takes the last value.
        attrs.delete(k);
        attrs.set(k, impliedType(v, stepInto(path, () => ({ kind: "attr", name: k }))));
      }
      return objectOf(attrs);
    }
  }
}

/** Decodes JSON with its implied type (what `jsondecode` does). */
export function decodeJSONImplied(src: string): JSONResult<Value> {
  const parsed = guard(() => read(src));
  if (!parsed.ok) return parsed;
  return trackedOnFailure((path) => unmarshal(parsed.value, impliedType(parsed.value, path), path));
}
