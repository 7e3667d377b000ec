// Conversion between types, exactly as cty's convert package: safe conversions never fail for a
// known value (number→string, list→set is *not* safe), unsafe ones may (string→number). Unknowns
// and nulls convert to unknowns and nulls of the target type; marks survive every conversion.

import { BigFloat, PARSE_PREC } from "./bigfloat.js";
import { mismatchMessage } from "./mismatch.js";
import { pathError, type PathError } from "./path.js";
import {
  isPrimitive,
  listOf,
  mapOf,
  objectOf,
  setOf,
  tupleOf,
  typeEquals,
  withoutOptionalAttributesDeep,
  friendlyName,
  type Type,
} from "./types.js";
import { unifyTypes } from "./unify.js";
import {
  False,
  True,
  canListVal,
  isWhollyKnown,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberVal,
  objectVal,
  refine,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  unknownVal,
  unmark,
  withMarks,
  type Path,
  type Value,
} from "./value.js";

/** Thrown inside a conversion and caught at the public boundary; never escapes this module. */
class ConversionFailure extends Error {
  constructor(readonly pathError: PathError) {
    super(pathError.message);
  }
}

/**
 * Where a conversion is, as a linked list built without allocating Values; it becomes a Path only
 * when a conversion fails (most never do, and large collections convert element by element).
 */
export type PathLink =
  | { readonly parent: PathLink; readonly index: number }
  | { readonly parent: PathLink; readonly key: string }
  | { readonly parent: PathLink; readonly attr: string }
  | undefined;

function at(parent: PathLink, index: number): PathLink {
  return { parent, index };
}

function keyAt(parent: PathLink, key: string): PathLink {
  return { parent, key };
}

function attrAt(parent: PathLink, attr: string): PathLink {
  return { parent, attr };
}

function materialize(link: PathLink): Path {
  const steps: Path[number][] = [];
  for (let l = link; l; l = l.parent) {
    if ("index" in l) steps.push({ kind: "index", key: numberVal(BigFloat.fromInt(l.index)) });
    else if ("key" in l) steps.push({ kind: "index", key: stringVal(l.key) });
    else steps.push({ kind: "attr", name: l.attr });
  }
  return steps.reverse();
}

function fail(path: PathLink, message: string): never {
  throw new ConversionFailure(pathError(materialize(path), message));
}

/** Internal conversion: throws ConversionFailure. */
export type ConversionFn = (v: Value, path: PathLink) => Value;

export type ConvertResult = { ok: true; value: Value } | { ok: false; error: PathError };

/** A conversion ready to apply to values of its input type. */
export type Conversion = (v: Value) => ConvertResult;

function run(conv: ConversionFn, v: Value): ConvertResult {
  try {
    return { ok: true, value: conv(v, undefined) };
  } catch (e) {
    if (e instanceof ConversionFailure) return { ok: false, error: e.pathError };
    throw e;
  }
}

/** Safe conversion from one type to another, or undefined when none exists. */
export function getConversion(from: Type, to: Type): Conversion | undefined {
  const c = getConversionInternal(from, to, false);
  return c && ((v) => run(c, v));
}

/** Unsafe conversion (may fail for particular values), or undefined when none can ever work. */
export function getConversionUnsafe(from: Type, to: Type): Conversion | undefined {
  const c = getConversionInternal(from, to, true);
  return c && ((v) => run(c, v));
}

/** cty convert.Convert: the value as the wanted type, or why it cannot be. */
export function convert(v: Value, want: Type): ConvertResult {
  if (typeEquals(v.type, want)) return { ok: true, value: v };
  const c = getConversionInternal(v.type, want, true);
  if (!c) return { ok: false, error: pathError([], mismatchMessage(v.type, want)) };
  return run(c, v);
}

export function getConversionInternal(from: Type, to: Type, unsafe: boolean): ConversionFn | undefined {
  const conv = getConversionKnown(from, to, unsafe);
  if (!conv) return undefined;
  const wrapped: ConversionFn = (v, path) => {
    if (v.marks.size > 0) {
      const [plain, marks] = unmark(v);
      return withMarks(wrapped(plain, path), marks);
    }
    if (to.kind === "dynamic") return v;
    if (v.kind === "unknown" || v.kind === "null") {
      const out = dynamicReplace(v.type, withoutOptionalAttributesDeep(to));
      if (v.kind === "null") return nullVal(out);
      return prepareUnknownResult(v, out);
    }
    return conv(v, path);
  };
  return wrapped;
}

function getConversionKnown(from: Type, to: Type, unsafe: boolean): ConversionFn | undefined {
  if (to.kind === "dynamic") return (v) => v;
  if (unsafe && from.kind === "dynamic") return dynamicFixup(to);
  if (isPrimitive(from) && isPrimitive(to)) {
    return primitiveConversion(from.kind, to.kind, unsafe);
  }
  if (to.kind === "object" && from.kind === "object") return objectToObject(from, to, unsafe);
  if (to.kind === "tuple" && from.kind === "tuple") return tupleToTuple(from, to, unsafe);
  if (to.kind === "list" && (from.kind === "list" || from.kind === "set")) {
    if (typeEquals(from.element, to.element)) return collectionToList(to.element, undefined);
    const ec = getConversionInternal(from.element, to.element, unsafe);
    return ec && collectionToList(to.element, ec);
  }
  if (to.kind === "set" && (from.kind === "list" || from.kind === "set")) {
    // list→set loses order and may merge duplicates, so it is unsafe.
    if (from.kind === "list" && !unsafe) return undefined;
    if (typeEquals(from.element, to.element)) return collectionToSet(to.element, undefined);
    const ec = getConversionInternal(from.element, to.element, unsafe);
    return ec && collectionToSet(to.element, ec);
  }
  if (to.kind === "map" && from.kind === "map") {
    const ec = getConversionInternal(from.element, to.element, unsafe);
    return ec && collectionToMap(to.element, ec);
  }
  if (to.kind === "list" && from.kind === "tuple") return tupleToSequence(from.elements, to.element, unsafe, "list");
  if (to.kind === "set" && from.kind === "tuple") return tupleToSequence(from.elements, to.element, unsafe, "set");
  if (to.kind === "map" && from.kind === "object") return objectToMap(from, to.element, unsafe);
  if (to.kind === "object" && from.kind === "map") {
    // Whether the keys match the attributes is only known per value, so this is unsafe.
    if (!unsafe) return undefined;
    return mapToObject(from, to, unsafe);
  }
  return undefined;
}

const stringTrue = stringVal("true");
const stringFalse = stringVal("false");

function primitiveConversion(from: string, to: string, unsafe: boolean): ConversionFn | undefined {
  if (from === "number" && to === "string") {
    return (v) => (v.kind === "number" ? stringVal(v.value.text("f")) : v);
  }
  if (from === "bool" && to === "string") {
    return (v) => (v.kind === "bool" && v.value ? stringTrue : stringFalse);
  }
  if (!unsafe) return undefined;
  if (from === "string" && to === "number") {
    return (v, path) => {
      const s = v.kind === "string" ? v.value : "";
      const f = BigFloat.parse(s, PARSE_PREC);
      if (!f) fail(path, "a number is required");
      return numberVal(f);
    };
  }
  if (from === "string" && to === "bool") {
    return (v, path) => {
      const s = v.kind === "string" ? v.value : "";
      switch (s) {
        case "true":
        case "1":
          return True;
        case "false":
        case "0":
          return False;
      }
      switch (s.toLowerCase()) {
        case "true":
          fail(path, 'a bool is required; to convert from string, use lowercase "true"');
        // falls through (fail never returns)
        case "false":
          fail(path, 'a bool is required; to convert from string, use lowercase "false"');
      }
      fail(path, "a bool is required");
    };
  }
  return undefined;
}

/** Conversion from a dynamically-typed placeholder: decided per value, with paths kept. */
function dynamicFixup(want: Type): ConversionFn {
  return (v, path) => {
    const r = convert(v, want);
    if (!r.ok) throw new ConversionFailure(pathError([...materialize(path), ...r.error.path], r.error.message));
    return r.value;
  };
}

/** Fills dynamic parts of `out` from the corresponding parts of `from` (cty's dynamicReplace). */
export function dynamicReplace(from: Type | undefined, out: Type): Type {
  if (!from || from.kind === "dynamic") return out;
  switch (out.kind) {
    case "dynamic":
      return from;
    case "string":
    case "number":
    case "bool":
      return out;
    case "map":
      if (from.kind === "map") return mapOf(dynamicReplace(from.element, out.element));
      if (from.kind === "object") {
        const u = unifyTypes([...from.attributes.values()], true);
        return mapOf(dynamicReplace(u?.type, out.element));
      }
      return out;
    case "object": {
      const attrs = new Map<string, Type>();
      for (const [n, at] of out.attributes) {
        if (from.kind === "map") attrs.set(n, dynamicReplace(from.element, at));
        else if (from.kind === "object") {
          const inner = from.attributes.get(n);
          attrs.set(n, inner ? dynamicReplace(inner, at) : at);
        } else attrs.set(n, at);
      }
      return objectOf(attrs, out.optional);
    }
    case "set":
    case "list": {
      const make = out.kind === "set" ? setOf : listOf;
      if (from.kind === "set" || from.kind === "list") return make(dynamicReplace(from.element, out.element));
      if (from.kind === "tuple") {
        const u = unifyTypes(from.elements, true);
        return make(dynamicReplace(u?.type, out.element));
      }
      return out;
    }
    case "tuple":
      return tupleOf(
        out.elements.map((et, i) => dynamicReplace(from.kind === "tuple" ? from.elements[i] : undefined, et)),
      );
  }
}

/** cty's prepareUnknownResult: carries refinements the conversion cannot change. */
function prepareUnknownResult(src: Value, target: Type): Value {
  const r = src.kind === "unknown" ? src.refinement : { notNull: false };
  let ret: Value = unknownVal(target);
  if (r.notNull) ret = refine(ret).notNull().newValue();
  const st = src.type;
  const isColl = (t: Type) => t.kind === "list" || t.kind === "set" || t.kind === "map";
  if (st.kind === "object" && target.kind === "map") {
    return refine(ret).collectionLength(st.attributes.size).newValue();
  }
  if (st.kind === "tuple" && target.kind === "list") {
    return refine(ret).collectionLength(st.elements.length).newValue();
  }
  if (st.kind === "tuple" && target.kind === "set") {
    const l = st.elements.length;
    if (l <= 1) return refine(ret).collectionLength(l).newValue();
    return refine(ret).collectionLengthLowerBound(1).collectionLengthUpperBound(l).newValue();
  }
  if (isColl(st) && isColl(target)) {
    let b = refine(ret);
    const lower = r.lengthLower ?? 0;
    if (target.kind === "set") {
      if (lower > 0) b = b.collectionLengthLowerBound(1);
    } else if (lower > 0) {
      b = b.collectionLengthLowerBound(lower);
    }
    if (r.lengthUpper !== undefined) b = b.collectionLengthUpperBound(r.lengthUpper);
    return b.newValue();
  }
  return ret;
}

function knownElements(v: Value): readonly Value[] {
  if (v.kind === "list" || v.kind === "set" || v.kind === "tuple") return v.elements;
  if (v.kind === "map" || v.kind === "object") return [...v.attrs.values()];
  return [];
}

function collectionToList(ety: Type, conv: ConversionFn | undefined): ConversionFn {
  return (v, path) => {
    // A set holding unknowns may shrink when they become known, so the list's length is unknown.
    if (v.kind === "set" && v.type.kind === "set" && v.elements.length > 1 && !isWhollyKnown(v)) {
      return unknownVal(listOf(ety.kind === "dynamic" ? v.type.element : withoutOptionalAttributesDeep(ety)));
    }
    const elems = knownElements(v).map((e, i) => (conv ? conv(e, at(path, i)) : e));
    if (elems.length === 0) {
      if (ety.kind === "dynamic") return listValEmpty(v.type.kind === "list" || v.type.kind === "set" ? v.type.element : ety);
      return listValEmpty(withoutOptionalAttributesDeep(ety));
    }
    if (!canListVal(elems)) fail(path, "element types must all match for conversion to list");
    return listVal(elems);
  };
}

function collectionToSet(ety: Type, conv: ConversionFn | undefined): ConversionFn {
  return (v, path) => {
    const elems = knownElements(v).map((e, i) => (conv ? conv(e, at(path, i)) : e));
    if (elems.length === 0) {
      if (ety.kind === "dynamic") return setValEmpty(v.type.kind === "list" || v.type.kind === "set" ? v.type.element : ety);
      return setValEmpty(withoutOptionalAttributesDeep(ety));
    }
    if (!canListVal(elems)) fail(path, "element types must all match for conversion to set");
    return setVal(elems);
  };
}

function collectionToMap(ety: Type, conv: ConversionFn): ConversionFn {
  return (v, path) => {
    const elems = new Map<string, Value>();
    if (v.kind === "map") {
      for (const [k, e] of v.attrs) elems.set(k, conv(e, keyAt(path, k)));
    }
    if (elems.size === 0) {
      if (ety.kind === "dynamic") return mapValEmpty(v.type.kind === "map" ? v.type.element : ety);
      return mapValEmpty(withoutOptionalAttributesDeep(ety));
    }
    return finishMap(elems, ety, path, false);
  };
}

/** Unifies map element types when the element type is structural, then checks they all match. */
function finishMap(elems: Map<string, Value>, ety: Type, path: PathLink, unsafe: boolean): Value {
  let out = elems;
  if (ety.kind === "list" || ety.kind === "set" || ety.kind === "map" || ety.kind === "object") {
    out = unifyElements(elems, path, unsafe);
  }
  // As cty.MapVal, a DynamicPseudoType-typed element (a literal null) takes the others' type.
  let first: Type | undefined;
  for (const [k, e] of out) {
    if (e.type.kind === "dynamic") continue;
    if (!first) {
      first = e.type;
      continue;
    }
    if (!typeEquals(first, e.type)) fail(keyAt(path, k), `${friendlyName(first)} is required`);
  }
  return mapVal(out);
}

function unifyElements(elems: Map<string, Value>, path: PathLink, unsafe: boolean): Map<string, Value> {
  const u = unifyTypes(
    [...elems.values()].map((e) => e.type),
    unsafe,
  );
  if (!u) fail(path, "collection elements cannot be unified");
  const out = new Map<string, Value>();
  for (const [k, e] of elems) {
    if (typeEquals(e.type, u.type)) {
      out.set(k, e);
      continue;
    }
    const c = getConversionInternal(e.type, u.type, unsafe);
    if (!c) fail(path, "collection elements cannot be unified");
    out.set(k, c(e, keyAt(path, k)));
  }
  return out;
}

function unifyList(elems: Value[], path: PathLink, unsafe: boolean): Value[] {
  if (canListVal(elems)) return elems;
  const u = unifyTypes(
    elems.map((e) => e.type),
    unsafe,
  );
  if (!u) fail(path, "collection elements cannot be unified");
  return elems.map((e, i) => {
    if (typeEquals(e.type, u.type)) return e;
    const c = getConversionInternal(e.type, u.type, unsafe);
    if (!c) fail(path, "collection elements cannot be unified");
    return c(e, at(path, i));
  });
}

function tupleToSequence(etys: readonly Type[], want: Type, unsafe: boolean, kind: "list" | "set"): ConversionFn | undefined {
  if (etys.length === 0) {
    const empty = withoutOptionalAttributesDeep(want);
    return () => (kind === "list" ? listValEmpty(empty) : setValEmpty(empty));
  }
  let ety = want;
  if (ety.kind === "dynamic") {
    const u = unifyTypes(etys, unsafe);
    if (!u) return undefined;
    ety = u.type;
    // Still undecided after unification: only a tuple of dynamic values can make such a list.
    if (ety.kind === "dynamic" && etys.some((t) => t.kind !== "dynamic")) return undefined;
  }
  const convs: Array<ConversionFn | undefined> = [];
  for (const t of etys) {
    if (typeEquals(t, ety)) {
      convs.push(undefined);
      continue;
    }
    const c = getConversionInternal(t, ety, unsafe);
    if (!c) return undefined;
    convs.push(c);
  }
  return (v, path) => {
    let elems = knownElements(v).map((e, i) => {
      const c = convs[i];
      return c ? c(e, at(path, i)) : e;
    });
    if (kind === "list") {
      elems = unifyList(elems, path, unsafe);
      if (!canListVal(elems)) fail(path, "element types must all match for conversion to list");
      return listVal(elems);
    }
    if (!canListVal(elems)) elems = unifyList(elems, path, unsafe);
    if (!canListVal(elems)) fail(path, "element types must all match for conversion to set");
    return setVal(elems);
  };
}

function tupleToTuple(from: Extract<Type, { kind: "tuple" }>, to: Extract<Type, { kind: "tuple" }>, unsafe: boolean): ConversionFn | undefined {
  if (from.elements.length !== to.elements.length) return undefined;
  const convs: Array<ConversionFn | undefined> = [];
  for (let i = 0; i < to.elements.length; i++) {
    const f = from.elements[i] as Type;
    const t = to.elements[i] as Type;
    if (typeEquals(f, t)) {
      convs.push(undefined);
      continue;
    }
    const c = getConversionInternal(f, t, unsafe);
    if (!c) return undefined;
    convs.push(c);
  }
  return (v, path) =>
    tupleVal(
      knownElements(v).map((e, i) => {
        const c = convs[i];
        return c ? c(e, at(path, i)) : e;
      }),
    );
}

function objectToObject(from: Extract<Type, { kind: "object" }>, to: Extract<Type, { kind: "object" }>, unsafe: boolean): ConversionFn | undefined {
  const convs = new Map<string, ConversionFn | undefined>();
  for (const [name, outT] of to.attributes) {
    const inT = from.attributes.get(name);
    if (!inT) {
      if (to.optional.has(name)) continue;
      return undefined;
    }
    if (typeEquals(inT, outT)) {
      convs.set(name, undefined);
      continue;
    }
    const c = getConversionInternal(inT, outT, unsafe);
    if (!c) return undefined;
    convs.set(name, c);
  }
  return (v, path) => {
    const out = new Map<string, Value>();
    if (v.kind === "object") {
      for (const [name, e] of v.attrs) {
        if (!convs.has(name)) continue;
        const c = convs.get(name);
        let r = c ? c(e, attrAt(path, name)) : e;
        if (r.kind === "null") r = withMarks(nullVal(withoutOptionalAttributesDeep(r.type)), r.marks);
        out.set(name, r);
      }
    }
    for (const name of to.optional) {
      if (!out.has(name)) out.set(name, nullVal(withoutOptionalAttributesDeep(to.attributes.get(name) as Type)));
    }
    return objectVal(out);
  };
}

function objectToMap(from: Extract<Type, { kind: "object" }>, want: Type, unsafe: boolean): ConversionFn | undefined {
  if (from.attributes.size === 0) {
    const empty = withoutOptionalAttributesDeep(want);
    return () => mapValEmpty(empty);
  }
  let ety = want;
  if (ety.kind === "dynamic") {
    const u = unifyTypes([...from.attributes.values()], unsafe);
    if (!u) return undefined;
    ety = u.type;
  }
  const convs = new Map<string, ConversionFn | undefined>();
  for (const [name, at] of from.attributes) {
    if (typeEquals(at, ety)) {
      convs.set(name, undefined);
      continue;
    }
    const c = getConversionInternal(at, ety, unsafe);
    if (!c) return undefined;
    convs.set(name, c);
  }
  return (v, path) => {
    const elems = new Map<string, Value>();
    if (v.kind === "object") {
      for (const [name, e] of v.attrs) {
        const c = convs.get(name);
        elems.set(name, c ? c(e, keyAt(path, name)) : e);
      }
    }
    return finishMap(elems, ety, path, unsafe);
  };
}

function mapToObject(from: Extract<Type, { kind: "map" }>, to: Extract<Type, { kind: "object" }>, unsafe: boolean): ConversionFn | undefined {
  const convs = new Map<string, ConversionFn | undefined>();
  for (const [name, at] of to.attributes) {
    if (typeEquals(at, from.element)) {
      convs.set(name, undefined);
      continue;
    }
    const c = getConversionInternal(from.element, at, unsafe);
    if (!c) return undefined;
    convs.set(name, c);
  }
  return (v, path) => {
    const out = new Map<string, Value>();
    if (v.kind === "map") {
      for (const [k, e] of v.attrs) {
        if (!to.attributes.has(k)) continue;
        const c = convs.get(k);
        out.set(k, c ? c(e, keyAt(path, k)) : e);
      }
    }
    for (const [name, at] of to.attributes) {
      if (out.has(name)) continue;
      if (to.optional.has(name)) out.set(name, nullVal(withoutOptionalAttributesDeep(at)));
      else fail(path, `map has no element for required attribute ${JSON.stringify(name)}`);
    }
    return objectVal(out);
  };
}
