// cty/json: values to and from JSON given a type, plus the type implied by a JSON document.
// Numbers keep their full text both ways (no float64 round trip); strings are escaped like Go's
// encoding/json (`<` as \u003c); object keys are sorted; a `dynamic` type wraps the value as
// {"value": …, "type": …} so the real type survives.

import { BigFloat, PARSE_PREC } from "./bigfloat.js";
import { convert } from "./convert.js";
import { catchPathFailure as guard, failAt as fail, type PathResult } from "./path.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  compareStrings,
  goJSONString,
  marshalType,
  objectOf,
  tupleOf,
  typeFromJSON,
  type Type,
} from "./types.js";
import {
  False,
  True,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberIntVal,
  numberVal,
  objectVal,
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
  return guard(() => {
    const out: string[] = [];
    marshal(v, type, [], out);
    return out.join("");
  });
}

function marshal(v: Value, t: Type, path: Path, out: string[]): void {
  if (v.marks.size > 0) fail(path, "value has marks, so it cannot be serialized as JSON");
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
  if (v.kind === "unknown") fail(path, "value is not known");
  switch (v.kind) {
    case "string":
      out.push(goJSONString(v.value));
      return;
    case "number":
      if (v.value.isInf()) fail(path, "cannot serialize infinity as JSON");
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
        marshal(e, et, [...path, { kind: "index", key: v.kind === "set" ? e : numberIntVal(i) }], out);
      });
      out.push("]");
      return;
    }
    case "map":
    case "object": {
      out.push("{");
      let first = true;
      const names = t.kind === "object" ? [...t.attributes.keys()] : [...v.attrs.keys()];
      for (const k of names.sort(compareStrings)) {
        if (!first) out.push(",");
        first = false;
        const e = v.attrs.get(k) ?? nullVal(t.kind === "object" ? (t.attributes.get(k) as Type) : DynamicPseudoType);
        const et = t.kind === "object" ? (t.attributes.get(k) as Type) : t.kind === "map" ? t.element : e.type;
        const step = v.kind === "object" ? { kind: "attr" as const, name: k } : { kind: "index" as const, key: stringVal(k) };
        out.push(goJSONString(k), ":");
        marshal(e, et, [...path, step], out);
      }
      out.push("}");
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A JSON reader that keeps numbers as text

type JSONNode =
  | { readonly t: "null" }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "num"; readonly text: string }
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "arr"; readonly items: readonly JSONNode[] }
  | { readonly t: "obj"; readonly entries: ReadonlyArray<readonly [string, JSONNode]> };

class Reader {
  i = 0;
  constructor(private readonly s: string) {}

  error(msg: string): never {
    fail([], msg);
  }

  ws(): void {
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else break;
    }
  }

  document(): JSONNode {
    const n = this.value();
    this.ws();
    if (this.i < this.s.length) this.error("extraneous data after JSON object");
    return n;
  }

  value(): JSONNode {
    this.ws();
    const c = this.s[this.i];
    switch (c) {
      case "{": {
        this.i++;
        const entries: Array<[string, JSONNode]> = [];
        this.ws();
        if (this.s[this.i] === "}") {
          this.i++;
          return { t: "obj", entries };
        }
        for (;;) {
          this.ws();
          if (this.s[this.i] !== '"') this.error("invalid JSON: object keys must be strings");
          const k = this.string();
          this.ws();
          if (this.s[this.i] !== ":") this.error("invalid JSON: expected ':'");
          this.i++;
          entries.push([k, this.value()]);
          this.ws();
          if (this.s[this.i] === ",") {
            this.i++;
            continue;
          }
          if (this.s[this.i] === "}") {
            this.i++;
            return { t: "obj", entries };
          }
          this.error("invalid JSON: expected ',' or '}'");
        }
      }
      case "[": {
        this.i++;
        const items: JSONNode[] = [];
        this.ws();
        if (this.s[this.i] === "]") {
          this.i++;
          return { t: "arr", items };
        }
        for (;;) {
          items.push(this.value());
          this.ws();
          if (this.s[this.i] === ",") {
            this.i++;
            continue;
          }
          if (this.s[this.i] === "]") {
            this.i++;
            return { t: "arr", items };
          }
          this.error("invalid JSON: expected ',' or ']'");
        }
      }
      case '"':
        return { t: "str", v: this.string() };
      default: {
        for (const [word, node] of [
          ["true", { t: "bool", v: true }],
          ["false", { t: "bool", v: false }],
          ["null", { t: "null" }],
        ] as const) {
          if (this.s.startsWith(word, this.i)) {
            this.i += word.length;
            return node;
          }
        }
        const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 4096));
        if (!m) this.error(this.i >= this.s.length ? "unexpected end of JSON input" : `invalid character '${c}' looking for beginning of value`);
        this.i += m[0].length;
        return { t: "num", text: m[0] };
      }
    }
  }

  string(): string {
    this.i++; // opening quote
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) this.error("unexpected end of JSON input");
      const c = this.s[this.i] as string;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === "\\") {
        const e = this.s[this.i + 1];
        this.i += 2;
        switch (e) {
          case '"':
          case "\\":
          case "/":
            out += e;
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = this.s.slice(this.i, this.i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.error("invalid JSON: bad unicode escape");
            const r = parseInt(hex, 16);
            this.i += 4;
            if (r < 0xd800 || r > 0xdfff) {
              out += String.fromCharCode(r);
              break;
            }
            // Like Go's unquote: a high surrogate escape directly followed by a low one is a
            // pair; any other surrogate escape becomes U+FFFD (the next escape is read anew).
            const next = /^\\u([0-9a-fA-F]{4})/.exec(this.s.slice(this.i, this.i + 6));
            const low = next ? parseInt(next[1] as string, 16) : -1;
            if (r <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(r, low);
              this.i += 6;
            } else {
              out += "\ufffd";
            }
            break;
          }
          default:
            this.error("invalid JSON: bad escape");
        }
        continue;
      }
      if (c.charCodeAt(0) < 0x20) this.error("invalid JSON: control character in string");
      out += c;
      this.i++;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Unmarshal

/** cty json.Unmarshal: decodes JSON text as a value of the given type. */
export function unmarshalJSON(src: string, type: Type): JSONResult<Value> {
  return guard(() => unmarshal(new Reader(src).document(), type, []));
}

function unmarshal(n: JSONNode, t: Type, path: Path): Value {
  if (n.t === "null") return nullVal(t);
  switch (t.kind) {
    case "bool":
      if (n.t === "bool") return n.v ? True : False;
      if (n.t === "str") {
        const c = convert(stringVal(n.v), BoolType);
        if (!c.ok) fail(path, c.error.message);
        return c.value;
      }
      fail(path, "bool is required");
    // falls through (fail never returns)
    case "number":
      if (n.t === "num" || n.t === "str") {
        const text = n.t === "num" ? n.text : n.v;
        const f = BigFloat.parse(text, PARSE_PREC);
        if (!f) fail(path, "a number is required");
        return numberVal(f);
      }
      fail(path, "number is required");
    // falls through
    case "string":
      if (n.t === "str") return stringVal(n.v);
      if (n.t === "num") return stringVal(n.text);
      if (n.t === "bool") return stringVal(n.v ? "true" : "false");
      fail(path, "string is required");
    // falls through
    case "list":
    case "set": {
      if (n.t !== "arr") fail(path, `need JSON array for ${t.kind}`);
      // cty names set elements by an unknown key: they have no index.
      const els = n.items.map((item, i) =>
        unmarshal(item, t.element, [...path, { kind: "index", key: t.kind === "set" ? unknownVal(t.element) : numberIntVal(i) }]),
      );
      if (els.length === 0) return t.kind === "list" ? listValEmpty(t.element) : setValEmpty(t.element);
      return t.kind === "list" ? listVal(els) : setVal(els);
    }
    case "map": {
      if (n.t !== "obj") fail(path, "need JSON object for map");
      const attrs = new Map<string, Value>();
      for (const [k, item] of n.entries) attrs.set(k, unmarshal(item, t.element, [...path, { kind: "index", key: stringVal(k) }]));
      return attrs.size === 0 ? mapValEmpty(t.element) : mapVal(attrs);
    }
    case "tuple": {
      if (n.t !== "arr") fail(path, "need JSON array for tuple");
      if (n.items.length > t.elements.length) fail(path, `too many tuple elements (need ${t.elements.length})`);
      if (n.items.length < t.elements.length) fail(path, `not enough tuple elements (need ${t.elements.length})`);
      return tupleVal(n.items.map((item, i) => unmarshal(item, t.elements[i] as Type, [...path, { kind: "index", key: numberIntVal(i) }])));
    }
    case "object": {
      if (n.t !== "obj") fail(path, "need JSON object for object");
      const attrs = new Map<string, Value>();
      for (const [k, item] of n.entries) {
        const at = t.attributes.get(k);
        if (!at) fail(path, `unsupported attribute ${JSON.stringify(k)}`);
        attrs.set(k, unmarshal(item, at, [...path, { kind: "attr", name: k }]));
      }
      for (const [k, at] of t.attributes) if (!attrs.has(k)) attrs.set(k, nullVal(at));
      return objectVal(attrs);
    }
    case "dynamic": {
      if (n.t !== "obj") fail(path, "need JSON object for dynamically-typed value");
      let typeNode: JSONNode | undefined;
      let valueNode: JSONNode | undefined;
      for (const [k, item] of n.entries) {
        if (k === "type") typeNode = item;
        else if (k === "value") valueNode = item;
        else fail(path, `invalid key ${JSON.stringify(k)} in dynamically-typed value`);
      }
      if (!typeNode) fail(path, "missing type in dynamically-typed value");
      if (!valueNode) fail(path, "missing value in dynamically-typed value");
      const tr = typeFromJSON(plainJSON(typeNode));
      if (!tr.ok) fail(path, `failed to decode type: ${tr.error}`);
      return unmarshal(valueNode, tr.type, path);
    }
  }
}

function plainJSON(n: JSONNode): unknown {
  switch (n.t) {
    case "null":
      return null;
    case "bool":
      return n.v;
    case "num":
      return Number(n.text);
    case "str":
      return n.v;
    case "arr":
      return n.items.map(plainJSON);
    case "obj": {
      const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of n.entries) o[k] = plainJSON(v);
      return o;
    }
  }
}

/** cty json.ImpliedType: objects → object types, arrays → tuples, null → dynamic. */
export function impliedTypeJSON(src: string): JSONResult<Type> {
  return guard(() => impliedType(new Reader(src).document(), []));
}

function impliedType(n: JSONNode, path: Path): Type {
  switch (n.t) {
    case "null":
      return DynamicPseudoType;
    case "bool":
      return BoolType;
    case "num":
      return NumberType;
    case "str":
      return StringType;
    case "arr":
      return tupleOf(n.items.map((x, i) => impliedType(x, [...path, { kind: "index", key: numberIntVal(i) }])));
    case "obj": {
      const attrs = new Map<string, Type>();
      for (const [k, v] of n.entries) {
        // Like Go's decoder, a repeated key takes the last value.
        attrs.delete(k);
        attrs.set(k, impliedType(v, [...path, { kind: "attr", name: k }]));
      }
      return objectOf(attrs);
    }
  }
}

/** Decodes JSON with its implied type (what `jsondecode` does). */
export function decodeJSONImplied(src: string): JSONResult<Value> {
  const t = impliedTypeJSON(src);
  if (!t.ok) return t;
  return unmarshalJSON(src, t.value);
}
