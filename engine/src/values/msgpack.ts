// cty/msgpack: the DynamicValue wire format of the provider protocol. Encoding is written here
// byte by byte so that it matches Go's vmihailenco encoder exactly (compact integers, float64 for
// non-integers, str8, fixext for 1/2/4/8/16-byte payloads, map keys in sorted order, integer keys
// in the refinement map). Decoding (msgpackread.ts) keeps whether a number came as an integer or
// a float, because cty gives them different precisions. Unknowns travel as extension 0 (wholly
// unknown) or extension 12 (refined: not-null, string prefix, number bounds, length bounds).

import { BigFloat, PARSE_PREC } from "./bigfloat.js";
import { graphemes } from "./graphemes.js";
import { MsgpackReadError, readMsgpack, type MsgNode } from "./msgpackread.js";
import { failAtTracked, pathError, stepInto, trackedOnFailure, type PathResult } from "./path.js";
import { marshalType, typeFromJSON, type Type } from "./types.js";
import {
  DynamicVal,
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
  refine,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  unknownVal,
  type Path,
  type Value,
} from "./value.js";

export type MsgpackResult<T> = PathResult<T>;

const utf8 = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;
const utf8Decoder = new TextDecoder("utf-8", { fatal: false });

/** A growable byte buffer with msgpack's primitive encoders. */
class Writer {
  private buf = new Uint8Array(64);
  private n = 0;

  private ensure(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.n++] = b & 0xff;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }

  private be(v: bigint, size: number): void {
    for (let i = size - 1; i >= 0; i--) this.byte(Number((v >> BigInt(i * 8)) & 0xffn));
  }

  nil(): void {
    this.byte(0xc0);
  }

  bool(b: boolean): void {
    this.byte(b ? 0xc3 : 0xc2);
  }

  /** vmihailenco EncodeInt with compact ints: the smallest encoding of the value. */
  int(v: bigint): void {
    if (v >= 0n) {
      if (v <= 0x7fn) this.byte(Number(v));
      else if (v <= 0xffn) {
        this.byte(0xcc);
        this.be(v, 1);
      } else if (v <= 0xffffn) {
        this.byte(0xcd);
        this.be(v, 2);
      } else if (v <= 0xffffffffn) {
        this.byte(0xce);
        this.be(v, 4);
      } else {
        this.byte(0xcf);
        this.be(v, 8);
      }
      return;
    }
    const u = (x: bigint, bits: number) => BigInt.asUintN(bits, x);
    if (v >= -32n) this.byte(Number(u(v, 8)));
    else if (v >= -128n) {
      this.byte(0xd0);
      this.be(u(v, 8), 1);
    } else if (v >= -32768n) {
      this.byte(0xd1);
      this.be(u(v, 16), 2);
    } else if (v >= -2147483648n) {
      this.byte(0xd2);
      this.be(u(v, 32), 4);
    } else {
      this.byte(0xd3);
      this.be(u(v, 64), 8);
    }
  }

  float64(f: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, f);
    this.byte(0xcb);
    this.bytes(b);
  }

  str(s: string): void {
    // Short ASCII (most names and values) is written in place, without an encoded copy.
    if (s.length < 32 && ASCII.test(s)) {
      this.ensure(1 + s.length);
      this.buf[this.n++] = 0xa0 | s.length;
      for (let i = 0; i < s.length; i++) this.buf[this.n++] = s.charCodeAt(i);
      return;
    }
    const b = utf8.encode(s);
    const l = b.length;
    if (l < 32) this.byte(0xa0 | l);
    else if (l <= 0xff) {
      this.byte(0xd9);
      this.byte(l);
    } else if (l <= 0xffff) {
      this.byte(0xda);
      this.be(BigInt(l), 2);
    } else {
      this.byte(0xdb);
      this.be(BigInt(l), 4);
    }
    this.bytes(b);
  }

  bin(b: Uint8Array): void {
    const l = b.length;
    if (l <= 0xff) {
      this.byte(0xc4);
      this.byte(l);
    } else if (l <= 0xffff) {
      this.byte(0xc5);
      this.be(BigInt(l), 2);
    } else {
      this.byte(0xc6);
      this.be(BigInt(l), 4);
    }
    this.bytes(b);
  }

  arrayLen(l: number): void {
    if (l < 16) this.byte(0x90 | l);
    else if (l <= 0xffff) {
      this.byte(0xdc);
      this.be(BigInt(l), 2);
    } else {
      this.byte(0xdd);
      this.be(BigInt(l), 4);
    }
  }

  mapLen(l: number): void {
    if (l < 16) this.byte(0x80 | l);
    else if (l <= 0xffff) {
      this.byte(0xde);
      this.be(BigInt(l), 2);
    } else {
      this.byte(0xdf);
      this.be(BigInt(l), 4);
    }
  }

  ext(type: number, data: Uint8Array): void {
    const l = data.length;
    const fixed: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
    const code = fixed[l];
    if (code !== undefined) this.byte(code);
    else if (l <= 0xff) {
      this.byte(0xc7);
      this.byte(l);
    } else if (l <= 0xffff) {
      this.byte(0xc8);
      this.be(BigInt(l), 2);
    } else {
      this.byte(0xc9);
      this.be(BigInt(l), 4);
    }
    this.byte(type);
    this.bytes(data);
  }

  result(): Uint8Array {
    // A copy: making a view (subarray) of the buffer costs more than copying a few bytes.
    return this.buf.slice(0, this.n);
  }
}

/** Extension type for a wholly unknown value. */
export const UNKNOWN_EXT = 0;
/** Extension type for an unknown value with refinements. */
export const REFINED_UNKNOWN_EXT = 12;

const enum RefinementKey {
  Nullness = 1,
  StringPrefix = 2,
  NumberMin = 3,
  NumberMax = 4,
  LengthMin = 5,
  LengthMax = 6,
}

/** cty msgpack.Marshal: encodes a value of (or conforming to) the given schema type. */
export function marshalMsgpack(v: Value, type: Type): MsgpackResult<Uint8Array> {
  return trackedOnFailure((path) => {
    const w = new Writer();
    marshal(v, type, path, w);
    return w.result();
  });
}

function marshal(v: Value, t: Type, path: Path | undefined, w: Writer): void {
  if (v.marks.size > 0) failAtTracked(path, "value has marks, so it cannot be serialized");
  if (t.kind === "dynamic" && v.type.kind !== "dynamic") {
    w.arrayLen(2);
    w.bin(utf8.encode(marshalType(v.type)));
    marshal(v, v.type, path, w);
    return;
  }
  if (v.kind === "unknown") {
    marshalUnknown(v, w);
    return;
  }
  if (v.kind === "null") {
    w.nil();
    return;
  }
  switch (v.kind) {
    case "string":
      w.str(v.value);
      return;
    case "number":
      marshalNumber(v.value, w);
      return;
    case "bool":
      w.bool(v.value);
      return;
    case "list":
    case "set":
    case "tuple":
      w.arrayLen(v.elements.length);
      v.elements.forEach((e, i) => {
        const et = t.kind === "tuple" ? (t.elements[i] ?? e.type) : t.kind === "list" || t.kind === "set" ? t.element : e.type;
        marshal(e, et, stepInto(path, () => ({ kind: "index", key: v.kind === "set" ? e : numberIntVal(i) })), w);
      });
      return;
    case "map":
      w.mapLen(v.attrs.size);
      for (const [k, e] of v.attrs) {
        w.str(k);
        marshal(e, t.kind === "map" ? t.element : e.type, stepInto(path, () => ({ kind: "index", key: stringVal(k) })), w);
      }
      return;
    case "object": {
      // An object type's attributes are held in name order already (objectOf).
      const names = t.kind === "object" ? [...t.attributes.keys()] : [...v.attrs.keys()];
      w.mapLen(names.length);
      for (const k of names) {
        const at = t.kind === "object" ? (t.attributes.get(k) as Type) : (v.attrs.get(k) as Value).type;
        w.str(k);
        marshal(v.attrs.get(k) ?? nullVal(at), at, stepInto(path, () => ({ kind: "attr", name: k })), w);
      }
      return;
    }
  }
}

function marshalNumber(f: BigFloat, w: Writer): void {
  if (f.isInf()) {
    w.float64(f.neg ? -Infinity : Infinity);
    return;
  }
  const i = f.toInt64();
  if (i !== undefined) {
    w.int(i);
    return;
  }
  const fl = f.toFloat64Exact();
  if (fl !== undefined) {
    w.float64(fl);
    return;
  }
  w.str(f.text("f"));
}

function marshalUnknown(v: Extract<Value, { kind: "unknown" }>, w: Writer): void {
  const r = v.refinement;
  if (v.type.kind === "dynamic") {
    w.ext(UNKNOWN_EXT, new Uint8Array([0]));
    return;
  }
  const inner = new Writer();
  let count = 0;
  if (r.notNull) {
    inner.int(BigInt(RefinementKey.Nullness));
    inner.bool(false);
    count++;
  }
  switch (v.type.kind) {
    case "string": {
      let prefix = r.stringPrefix ?? "";
      if (utf8.encode(prefix).length > 256) prefix = truncatePrefix(prefix);
      if (prefix !== "") {
        inner.int(BigInt(RefinementKey.StringPrefix));
        inner.str(prefix);
        count++;
      }
      break;
    }
    case "number":
      for (const [key, bound] of [
        [RefinementKey.NumberMin, r.numberLower],
        [RefinementKey.NumberMax, r.numberUpper],
      ] as const) {
        if (!bound || bound.value.isInf()) continue;
        inner.int(BigInt(key));
        inner.arrayLen(2);
        marshalNumber(bound.value, inner);
        inner.bool(bound.inclusive);
        count++;
      }
      break;
    case "list":
    case "set":
    case "map":
      if ((r.lengthLower ?? 0) !== 0) {
        inner.int(BigInt(RefinementKey.LengthMin));
        inner.int(BigInt(r.lengthLower ?? 0));
        count++;
      }
      if (r.lengthUpper !== undefined) {
        inner.int(BigInt(RefinementKey.LengthMax));
        inner.int(BigInt(r.lengthUpper));
        count++;
      }
      break;
    default:
      break;
  }
  if (count === 0) {
    w.ext(UNKNOWN_EXT, new Uint8Array([0]));
    return;
  }
  const payload = new Writer();
  payload.mapLen(count);
  payload.bytes(inner.result());
  w.ext(REFINED_UNKNOWN_EXT, payload.result());
}

/** Keeps the refinement blob small: at most 255 bytes, never ending inside a character. */
function truncatePrefix(prefix: string): string {
  let out = "";
  let size = 0;
  for (const ch of prefix) {
    const n = utf8.encode(ch).length;
    if (size + n > 255) break;
    out += ch;
    size += n;
  }
  // The cut may have split a grapheme cluster, so drop the last one as cty does.
  const gs = graphemes(out);
  gs.pop();
  return gs.join("");
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** cty msgpack.Unmarshal: decodes bytes as a value of the given schema type. */
export function unmarshalMsgpack(bytes: Uint8Array, type: Type): MsgpackResult<Value> {
  let node: MsgNode;
  try {
    node = readMsgpack(bytes);
  } catch (e) {
    if (e instanceof MsgpackReadError) return { ok: false, error: pathError([], `invalid msgpack: ${e.message}`) };
    throw e;
  }
  return trackedOnFailure((path) => unmarshal(node, type, path));
}

function stringKeyed(n: MsgNode, path: Path | undefined, what: string, badKey = "non-string key in map"): Array<[string, MsgNode]> {
  if (n.t !== "map") failAtTracked(path, what);
  return n.v.map(([k, v]): [string, MsgNode] => {
    if (k.t !== "str") failAtTracked(path, badKey);
    return [k.v, v];
  });
}

function unmarshal(n: MsgNode, t: Type, path: Path | undefined): Value {
  if (n.t === "ext") return unmarshalUnknown(n, t, path);
  if (t.kind === "dynamic") {
    if (n.t === "nil") return nullVal(t);
    if (n.t !== "arr" || n.v.length !== 2) failAtTracked(path, "dynamic value array must have exactly two elements");
    const [tj, inner] = n.v as [MsgNode, MsgNode];
    if (tj.t !== "bin" && tj.t !== "str") failAtTracked(path, "dynamic value type must be bytes");
    let parsed: unknown;
    try {
      parsed = JSON.parse(tj.t === "bin" ? utf8Decoder.decode(tj.v) : tj.v);
    } catch {
      failAtTracked(path, "invalid dynamic value type JSON");
    }
    const ty = typeFromJSON(parsed);
    if (!ty.ok) failAtTracked(path, ty.error);
    return unmarshal(inner, ty.type, path);
  }
  if (n.t === "nil") return nullVal(t);
  switch (t.kind) {
    case "bool":
      if (n.t !== "bool") failAtTracked(path, "bool is required");
      return n.v ? True : False;
    case "number":
      // Integers arrive at 64 bits of precision and floats at 53, exactly as cty decodes them.
      if (n.t === "int") return numberVal(BigFloat.fromBigInt(n.v, 64));
      if (n.t === "float") return numberVal(BigFloat.fromFloat64(n.v));
      if (n.t === "str") {
        const f = BigFloat.parse(n.v, PARSE_PREC);
        if (!f) failAtTracked(path, "number is required");
        return numberVal(f);
      }
      failAtTracked(path, "number is required");
    // falls through (fail never returns)
    case "string":
      if (n.t === "str") return stringVal(n.v);
      if (n.t === "bin") return stringVal(utf8Decoder.decode(n.v));
      failAtTracked(path, "string is required");
    // falls through
    case "list":
    case "set": {
      if (n.t !== "arr") failAtTracked(path, `a ${t.kind} is required`);
      const els = n.v.map((x, i) => unmarshal(x, t.element, stepInto(path, () => ({ kind: "index", key: numberIntVal(i) }))));
      if (els.length === 0) return t.kind === "list" ? listValEmpty(t.element) : setValEmpty(t.element);
      return t.kind === "list" ? listVal(els) : setVal(els);
    }
    case "tuple": {
      if (n.t !== "arr") failAtTracked(path, "a tuple is required");
      if (n.v.length !== t.elements.length) failAtTracked(path, `a tuple of length ${t.elements.length} is required`);
      return tupleVal(n.v.map((x, i) => unmarshal(x, t.elements[i] as Type, stepInto(path, () => ({ kind: "index", key: numberIntVal(i) })))));
    }
    case "map": {
      const attrs = new Map<string, Value>();
      for (const [k, x] of stringKeyed(n, path, "a map is required")) {
        attrs.set(k, unmarshal(x, t.element, stepInto(path, () => ({ kind: "index", key: stringVal(k) }))));
      }
      if (attrs.size === 0) return mapValEmpty(t.element);
      return isExactValueType(t) ? mapValOfExactType(t, attrs) : mapVal(attrs);
    }
    case "object": {
      if (n.t !== "map") failAtTracked(path, "an object is required");
      if (n.v.length !== t.attributes.size) {
        failAtTracked(path, `an object with ${t.attributes.size} attributes is required (${n.v.length} given)`);
      }
      const attrs = new Map<string, Value>();
      for (const [k, x] of stringKeyed(n, path, "an object is required", "all keys must be strings")) {
        const at = t.attributes.get(k);
        if (!at) failAtTracked(stepInto(path, () => ({ kind: "index", key: stringVal(k) })), "unsupported attribute");
        attrs.set(k, unmarshal(x, at, stepInto(path, () => ({ kind: "index", key: stringVal(k) }))));
      }
      for (const k of t.attributes.keys()) if (!attrs.has(k)) failAtTracked(path, `an object with ${t.attributes.size} attributes is required`);
      return isExactValueType(t) ? objectValOfExactType(t, attrs) : objectVal(attrs);
    }
  }
}

function unmarshalUnknown(ext: Extract<MsgNode, { t: "ext" }>, t: Type, path: Path | undefined): Value {
  const data = ext.data;
  if (data.length <= 1) return t.kind === "dynamic" ? DynamicVal : unknownVal(t);
  if (ext.type !== REFINED_UNKNOWN_EXT) {
    failAtTracked(path, `unsupported extension type 0x${(ext.type & 0xff).toString(16).padStart(2, "0")} with len ${data.length}`);
  }
  if (data.length > 1024) failAtTracked(path, "oversize unknown value refinement");
  if (t.kind === "dynamic") return DynamicVal;
  let payload: MsgNode;
  try {
    payload = readMsgpack(data);
  } catch {
    failAtTracked(path, "invalid unknown value refinement");
  }
  if (payload.t !== "map") failAtTracked(path, "invalid unknown value refinement");
  let b = refine(unknownVal(t));
  for (const [k, val] of payload.v) {
    if (k.t !== "int") continue;
    switch (Number(k.v)) {
      case RefinementKey.Nullness:
        if (val.t === "bool" && !val.v) b = b.notNull();
        break;
      case RefinementKey.StringPrefix:
        if (t.kind === "string" && val.t === "str" && val.v !== "") b = b.stringPrefixFull(val.v);
        break;
      case RefinementKey.NumberMin:
      case RefinementKey.NumberMax: {
        if (t.kind !== "number" || val.t !== "arr" || val.v.length !== 2) break;
        const n = unmarshal(val.v[0] as MsgNode, t, path);
        if (n.kind !== "number") break;
        const inc = val.v[1];
        const inclusive = inc?.t === "bool" && inc.v;
        b = Number(k.v) === RefinementKey.NumberMin ? b.numberRangeLowerBound(n.value, inclusive) : b.numberRangeUpperBound(n.value, inclusive);
        break;
      }
      case RefinementKey.LengthMin:
      case RefinementKey.LengthMax: {
        if ((t.kind !== "list" && t.kind !== "set" && t.kind !== "map") || val.t !== "int") break;
        const len = Number(val.v);
        b = Number(k.v) === RefinementKey.LengthMin ? b.collectionLengthLowerBound(len) : b.collectionLengthUpperBound(len);
        break;
      }
      default:
        // Unknown refinement keys are ignored so newer encoders stay readable.
        break;
    }
  }
  return b.newValue();
}

export function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

export function fromHex(s: string): Uint8Array {
  const parts = s.trim().split(/\s+/).filter(Boolean);
  return new Uint8Array(parts.map((p) => parseInt(p, 16)));
}
