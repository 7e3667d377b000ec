// Built-in functions: collections. Each follows the OpenTofu function of the same name — the
// go-cty stdlib function where OpenTofu registers that one (concat, element, flatten, merge, …),
// or OpenTofu's own (length, coalesce, index, lookup, matchkeys, one, sum, transpose, …) — with
// the same parameter flags (which decide how unknown, null and marked arguments are handled),
// result types, refinements and error texts.
import {
  BigFloat,
  DynamicPseudoType,
  DynamicVal,
  EmptyTuple,
  EmptyTupleVal,
  False,
  Func,
  NaNError,
  NumberType,
  OperationError,
  SENSITIVE,
  StringType,
  True,
  add,
  argError,
  callError,
  compareStrings,
  convert,
  elementPairs,
  equals,
  friendlyName,
  goQuote,
  isWhollyKnown,
  length as collectionLength,
  listOf,
  listVal,
  listValEmpty,
  mapOf,
  mapVal,
  mapValEmpty,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  refine,
  refineNonNull,
  setOf,
  setVal,
  setValEmpty,
  staticReturnType,
  stringVal,
  tupleOf,
  tupleVal,
  typeEquals,
  unifyUnsafe,
  unknownVal,
  unmark,
  unmarkDeep,
  withMarks,
  type FunctionResult,
  type Marks,
  type Type,
  type Value,
} from "../../values/index.js";
import { graphemes } from "../../values/graphemes.js";
import type { FunctionContext } from "./context.js";
import { goInt } from "./goint.js";

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/** Elements of a known list, set or tuple (sets in cty's order). */
function elems(v: Value): readonly Value[] {
  return v.kind === "list" || v.kind === "set" || v.kind === "tuple" ? v.elements : [];
}

function isSeqType(t: Type): boolean {
  return t.kind === "list" || t.kind === "set" || t.kind === "tuple";
}

/** A list of the given elements, or an empty list of `element` when there are none. */
function listOrEmpty(items: readonly Value[], element: Type): Value {
  return items.length === 0 ? listValEmpty(element) : listVal(items);
}

function isTrue(v: Value): boolean {
  return v.kind === "bool" && v.value;
}

/** cty's Value.Equals, reduced to "known true / known false / unknown". */
function equalsState(a: Value, b: Value): boolean | undefined {
  const eq = equals(a, b);
  return eq.kind === "bool" ? eq.value : undefined;
}

/** OpenTofu's redactIfSensitive: a Go-quoted string, or "(sensitive value)". */
function redactIfSensitive(s: string, marks: Marks): string {
  return marks.has(SENSITIVE) ? "(sensitive value)" : goQuote(s);
}

/** Number of grapheme clusters in a string (cty's Strlen). */
export function graphemeCount(s: string): number {
  return graphemes(s).length;
}

/** cty's Strlen on a possibly unknown or marked string. */
function strlen(v: Value): Value {
  const [s, marks] = unmarkDeep(v);
  if (s.kind === "string") return withMarks(numberIntVal(graphemeCount(s.value)), marks);
  let out = refine(unknownVal(NumberType)).notNull();
  const prefix = s.kind === "unknown" ? s.refinement.stringPrefix : undefined;
  if (prefix) out = out.numberRangeLowerBound(BigFloat.fromInt(graphemeCount(prefix)), true);
  return withMarks(out.newValue(), marks);
}

// ---------------------------------------------------------------------------------------------

const lengthFunc = new Func({
  params: [{ name: "value", type: DynamicPseudoType, allowDynamicType: true, allowUnknown: true, allowMarked: true }],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "string" || t.kind === "dynamic" || t.kind === "tuple" || t.kind === "object" || t.kind === "list" || t.kind === "map" || t.kind === "set") {
      return ok(NumberType);
    }
    return callError("argument must be a string, a collection type, or a structural type");
  },
  refineResult: refineNonNull,
  impl: (args) => {
    const coll = args[0] as Value;
    const t = coll.type;
    switch (t.kind) {
      case "dynamic":
        return ok(withMarks(unknownVal(NumberType), coll.marks));
      case "tuple":
        return ok(withMarks(numberIntVal(t.elements.length), coll.marks));
      case "object":
        return ok(withMarks(numberIntVal(t.attributes.size), coll.marks));
      case "string":
        return ok(strlen(coll));
      default:
        return ok(collectionLength(coll));
    }
  },
});

const allTrueFunc = new Func({
  params: [{ name: "list", type: listOf({ kind: "bool" }) }],
  type: staticReturnType({ kind: "bool" }),
  refineResult: refineNonNull,
  impl: (args) => {
    for (const v of elems(args[0] as Value)) {
      if (v.kind === "unknown") return ok(unknownVal({ kind: "bool" }));
      if (v.kind === "null" || !isTrue(v)) return ok(False);
    }
    return ok(True);
  },
});

const anyTrueFunc = new Func({
  params: [{ name: "list", type: listOf({ kind: "bool" }) }],
  type: staticReturnType({ kind: "bool" }),
  refineResult: refineNonNull,
  impl: (args) => {
    let hasUnknown = false;
    for (const v of elems(args[0] as Value)) {
      if (v.kind === "unknown") hasUnknown = true;
      else if (isTrue(v)) return ok(True);
    }
    return ok(hasUnknown ? unknownVal({ kind: "bool" }) : False);
  },
});

const coalesceFunc = new Func({
  params: [],
  varParam: { name: "vals", type: DynamicPseudoType, allowUnknown: true, allowDynamicType: true, allowNull: true },
  type: (args) => {
    const u = unifyUnsafe(args.map((a) => a.type));
    return u ? ok(u.type) : callError("all arguments must have the same type");
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    for (const arg of args) {
      const c = convert(arg, retType);
      const v = c.ok ? c.value : arg;
      if (v.kind === "unknown") return ok(unknownVal(retType));
      if (v.kind === "null") continue;
      if (retType.kind === "string" && v.kind === "string" && v.value === "") continue;
      return ok(v);
    }
    return callError("no non-null, non-empty-string arguments");
  },
});

const coalesceListFunc = new Func({
  params: [],
  varParam: { name: "vals", type: DynamicPseudoType, allowUnknown: true, allowDynamicType: true, allowNull: true },
  type: (args) => {
    if (args.length === 0) return callError("at least one argument is required");
    for (const arg of args) {
      if (arg.kind === "unknown") return ok(DynamicPseudoType);
      if (arg.type.kind !== "list" && arg.type.kind !== "tuple") return callError("coalescelist arguments must be lists or tuples");
    }
    const first = (args[0] as Value).type;
    return ok(args.every((a) => typeEquals(a.type, first)) ? first : DynamicPseudoType);
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    for (const arg of args) {
      if (arg.kind === "unknown") return ok(unknownVal(retType));
      if (arg.kind === "null") continue;
      if (elems(arg).length > 0) return ok(arg);
    }
    return callError("no non-null arguments");
  },
});

const compactFunc = new Func({
  params: [{ name: "list", type: listOf(StringType) }],
  type: staticReturnType(listOf(StringType)),
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const list = args[0] as Value;
    if (!isWhollyKnown(list)) return ok(unknownVal(retType));
    const out = elems(list).filter((v) => v.kind === "string" && v.value !== "");
    return ok(listOrEmpty(out, StringType));
  },
});

const concatFunc = new Func({
  params: [],
  varParam: { name: "seqs", type: DynamicPseudoType, allowMarked: true },
  type: (args) => {
    if (args.length === 0) return callError("at least one argument is required");
    if ((args[0] as Value).type.kind === "list" && args.every((a) => a.type.kind === "list")) {
      const u = unifyUnsafe(args.map((a) => a.type));
      if (u) return ok(u.type);
    }
    const etys: Type[] = [];
    for (let i = 0; i < args.length; i++) {
      const [val] = unmarkDeep(args[i] as Value);
      const t = val.type;
      if (t.kind === "tuple") etys.push(...t.elements);
      else if (t.kind === "list") {
        // The tuple type needs the element count, which an unknown list does not have yet.
        if (val.kind === "unknown") return ok(DynamicPseudoType);
        for (let j = 0; j < elems(val).length; j++) etys.push(t.element);
      } else {
        return argError(i, `all arguments must be lists or tuples; got ${friendlyName(t)}`);
      }
    }
    return ok(tupleOf(etys));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const vals: Value[] = [];
    const markses: Marks[] = [];
    for (let i = 0; i < args.length; i++) {
      let seq = args[i] as Value;
      if (retType.kind === "list") {
        const c = convert(seq, retType);
        if (!c.ok) return argError(i, c.error.message);
        seq = c.value;
      }
      const [plain, marks] = unmark(seq);
      markses.push(marks);
      vals.push(...elems(plain));
    }
    if (retType.kind === "list") return ok(withMarks(listOrEmpty(vals, retType.element), ...markses));
    return ok(withMarks(tupleVal(vals), ...markses));
  },
});

const containsFunc = new Func({
  params: [
    { name: "list", type: DynamicPseudoType },
    { name: "value", type: DynamicPseudoType },
  ],
  type: staticReturnType({ kind: "bool" }),
  refineResult: refineNonNull,
  impl: (args) => {
    const list = args[0] as Value;
    const value = args[1] as Value;
    if (!isSeqType(list.type)) return callError("argument must be list, tuple, or set");
    const items = elems(list);
    if (items.length === 0) return ok(False);
    let containsUnknown = false;
    for (const v of items) {
      const eq = equalsState(value, v);
      if (eq === undefined) containsUnknown = true;
      else if (eq) return ok(True);
    }
    return ok(containsUnknown ? unknownVal({ kind: "bool" }) : False);
  },
});

const distinctFunc = new Func({
  params: [{ name: "list", type: listOf(DynamicPseudoType) }],
  type: (args) => ok((args[0] as Value).type),
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const list = args[0] as Value;
    if (!isWhollyKnown(list)) return ok(unknownVal(retType));
    const out: Value[] = [];
    for (const v of elems(list)) {
      if (!out.some((o) => equalsState(o, v) === true)) out.push(v);
    }
    return ok(listOrEmpty(out, retType.kind === "list" ? retType.element : DynamicPseudoType));
  },
});

const chunklistFunc = new Func({
  params: [
    { name: "list", type: listOf(DynamicPseudoType), allowMarked: true },
    { name: "size", type: NumberType, allowMarked: true },
  ],
  type: (args) => ok(listOf((args[0] as Value).type)),
  refineResult: refineNonNull,
  impl: (args) => {
    const [list, listMarks] = unmark(args[0] as Value);
    const [sizeVal, sizeMarks] = unmark(args[1] as Value);
    const size = goInt(sizeVal);
    if (!size.ok) return callError(`invalid size: ${size.error}`);
    if (size.value < 0n) return callError("the size argument must be positive");
    const items = elems(list);
    if (items.length === 0) return ok(withMarks(listValEmpty(list.type), listMarks, sizeMarks));
    if (size.value === 0n) return ok(withMarks(listVal([list]), listMarks, sizeMarks));
    const n = size.value > BigInt(items.length) ? items.length : Number(size.value);
    const chunks: Value[] = [];
    for (let i = 0; i < items.length; i += n) chunks.push(listVal(items.slice(i, i + n)));
    return ok(withMarks(listVal(chunks), listMarks, sizeMarks));
  },
});

/** Resolves an element() index as cty does: modulo the length, counting back from the end when negative. */
function wrapIndex(index: bigint, len: number): number {
  let i = index % BigInt(len);
  if (i < 0n) i += BigInt(len);
  return Number(i);
}

const elementFunc = new Func({
  params: [
    { name: "list", type: DynamicPseudoType, allowMarked: true },
    { name: "index", type: NumberType },
  ],
  type: (args) => {
    const t = (args[0] as Value).type;
    const index = args[1] as Value;
    if (t.kind === "list") return ok(t.element);
    if (t.kind === "tuple") {
      if (index.kind === "unknown") return ok(DynamicPseudoType);
      const i = goInt(index);
      if (!i.ok) return callError(`invalid index: ${i.error}`);
      if (t.elements.length === 0) return callError("cannot use element function with an empty list");
      return ok(t.elements[wrapIndex(i.value, t.elements.length)] as Type);
    }
    return callError(`cannot read elements from ${friendlyName(t)}`);
  },
  impl: (args, retType) => {
    const i = goInt(args[1] as Value);
    if (!i.ok) return callError(`invalid index: ${i.error}`);
    const [input, marks] = unmark(args[0] as Value);
    if (input.kind === "unknown") return ok(unknownVal(retType));
    const items = elems(input);
    if (items.length === 0) return callError("cannot use element function with an empty list");
    return ok(withMarks(items[wrapIndex(i.value, items.length)] as Value, marks));
  },
});

type Flattened = { out: Value[]; marks: Marks[]; known: boolean };

/** cty's flattener: nested lists, sets and tuples spliced in, with the marks found on the way. */
function flattener(v: Value): Flattened {
  const [list, listMarks] = unmark(v);
  const marks: Marks[] = listMarks.size > 0 ? [listMarks] : [];
  if (collectionLengthUnknown(list)) return { out: [], marks, known: false };
  const out: Value[] = [];
  let known = true;
  for (const val of elems(list)) {
    // An unknown of unknown type could turn out to be a list needing flattening.
    if (val.kind === "unknown" && val.type.kind === "dynamic" && val.marks.size === 0 && !val.refinement.notNull) known = false;
    if (val.kind !== "null" && isSeqType(val.type)) {
      if (val.kind === "unknown") {
        known = false;
        marks.push(val.marks);
        continue;
      }
      const sub = flattener(val);
      marks.push(...sub.marks);
      if (sub.known) out.push(...sub.out);
      else known = false;
    } else {
      out.push(val);
    }
  }
  return { out, marks, known };
}

function collectionLengthUnknown(v: Value): boolean {
  if (v.type.kind === "tuple") return false;
  return collectionLength(v).kind !== "number";
}

const flattenFunc = new Func({
  params: [{ name: "list", type: DynamicPseudoType, allowMarked: true }],
  type: (args) => {
    const v = args[0] as Value;
    if (!isWhollyKnown(v)) return ok(DynamicPseudoType);
    if (!isSeqType(v.type)) return callError("can only flatten lists, sets and tuples");
    const f = flattener(v);
    if (!f.known) return ok(DynamicPseudoType);
    return ok(tupleOf(f.out.map((e) => e.type)));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [plain, marks] = unmark(args[0] as Value);
    if (elems(plain).length === 0) return ok(withMarks(EmptyTupleVal, marks));
    const f = flattener(args[0] as Value);
    if (!f.known) return ok(withMarks(unknownVal(retType), ...f.marks));
    return ok(withMarks(tupleVal(f.out), ...f.marks));
  },
});

const indexFunc = new Func({
  params: [
    { name: "list", type: DynamicPseudoType },
    { name: "value", type: DynamicPseudoType },
  ],
  type: staticReturnType(NumberType),
  refineResult: refineNonNull,
  impl: (args) => {
    const list = args[0] as Value;
    if (list.type.kind !== "list" && list.type.kind !== "tuple") return callError("argument must be a list or tuple");
    const items = elems(list);
    if (items.length === 0) return callError("cannot search an empty list");
    for (let i = 0; i < items.length; i++) {
      const eq = equalsState(items[i] as Value, args[1] as Value);
      if (eq === undefined) return ok(unknownVal(NumberType));
      if (eq) return ok(numberIntVal(i));
    }
    return callError("item not found");
  },
});

const keysFunc = new Func({
  params: [{ name: "inputMap", type: DynamicPseudoType, allowUnknown: true, allowMarked: true }],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "map") return ok(listOf(StringType));
    if (t.kind === "object") return ok(t.attributes.size === 0 ? EmptyTuple : tupleOf([...t.attributes.keys()].map(() => StringType)));
    return argError(0, "must have map or object type");
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [m, marks] = unmark(args[0] as Value);
    const t = m.type;
    if (t.kind === "object") {
      // Unknown objects are allowed here: the keys come from the type alone.
      const names = [...t.attributes.keys()].sort(compareStrings);
      return ok(withMarks(tupleVal(names.map((n) => stringVal(n))), marks));
    }
    if (m.kind !== "map") return ok(withMarks(unknownVal(retType), marks));
    return ok(withMarks(listOrEmpty([...m.attrs.keys()].map((k) => stringVal(k)), StringType), marks));
  },
});

const lookupFunc = new Func({
  params: [
    { name: "inputMap", type: DynamicPseudoType, allowMarked: true },
    { name: "key", type: StringType, allowMarked: true },
  ],
  varParam: { name: "default", type: DynamicPseudoType, allowUnknown: true, allowDynamicType: true, allowNull: true, allowMarked: true },
  type: (args) => {
    if (args.length < 1 || args.length > 3) return callError(`lookup() takes two or three arguments, got ${args.length}`);
    const t = (args[0] as Value).type;
    if (t.kind === "object") {
      const keyArg = args[1] as Value;
      if (keyArg.kind === "unknown") return ok(DynamicPseudoType);
      const key = unmark(keyArg)[0];
      const name = key.kind === "string" ? key.value : "";
      const attr = t.attributes.get(name);
      if (attr) return ok(attr);
      if (args.length === 3) return ok((args[2] as Value).type);
      return argError(0, `the given object has no attribute ${goQuote(name)}`);
    }
    if (t.kind === "map") {
      if (args.length === 3 && !convert(args[2] as Value, t.element).ok) {
        return argError(2, "the default value must have the same type as the map elements");
      }
      return ok(t.element);
    }
    return argError(0, "lookup() requires a map as the first argument");
  },
  impl: (args, retType) => {
    const [mapVar, mapMarks] = unmark(args[0] as Value);
    const [keyVal, keyMarks] = unmark(args[1] as Value);
    const marks = [mapMarks, keyMarks];
    const key = keyVal.kind === "string" ? keyVal.value : "";
    if (mapVar.kind === "unknown") return ok(withMarks(unknownVal(retType), ...marks));
    if (mapVar.kind === "map" || mapVar.kind === "object") {
      const found = mapVar.attrs.get(key);
      if (found) return ok(withMarks(found, ...marks));
    }
    if (args.length === 3) {
      const c = convert(args[2] as Value, retType);
      if (!c.ok) return callError(c.error.message);
      return ok(withMarks(c.value, ...marks));
    }
    return callError(`lookup failed to find key ${redactIfSensitive(key, keyMarks)}`);
  },
});

const matchkeysFunc = new Func({
  params: [
    { name: "values", type: listOf(DynamicPseudoType) },
    { name: "keys", type: listOf(DynamicPseudoType) },
    { name: "searchset", type: listOf(DynamicPseudoType) },
  ],
  type: (args) => {
    if (!unifyUnsafe([(args[1] as Value).type, (args[2] as Value).type])) return callError("keys and searchset must be of the same type");
    return ok((args[0] as Value).type);
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const ety = retType.kind === "list" ? retType.element : DynamicPseudoType;
    const values = args[0] as Value;
    if (elems(values).length !== elems(args[1] as Value).length) return callError("length of keys and values should be equal");
    const u = unifyUnsafe([(args[1] as Value).type, (args[2] as Value).type]);
    const keysC = u ? convert(args[1] as Value, u.type) : undefined;
    const searchC = u ? convert(args[2] as Value, u.type) : undefined;
    const keys = keysC?.ok ? keysC.value : (args[1] as Value);
    const searchset = searchC?.ok ? searchC.value : (args[2] as Value);
    if (elems(searchset).length === 0) return ok(listValEmpty(ety));
    if (!isWhollyKnown(values) || !isWhollyKnown(keys)) return ok(unknownVal(retType));
    const out: Value[] = [];
    const keyItems = elems(keys);
    for (let i = 0; i < keyItems.length; i++) {
      for (const search of elems(searchset)) {
        const eq = equalsState(keyItems[i] as Value, search);
        if (eq === undefined) return ok(listValEmpty(ety));
        if (eq) {
          out.push(elems(values)[i] as Value);
          break;
        }
      }
    }
    return ok(listOrEmpty(out, ety));
  },
});

const mergeFunc = new Func({
  params: [],
  varParam: { name: "maps", type: DynamicPseudoType, allowDynamicType: true, allowNull: true, allowMarked: true },
  type: (args) => {
    if (args.length === 0) return ok(objectOf({}));
    const attrs = new Map<string, Type>();
    let first: Type | undefined;
    let matching = true;
    let attrsKnown = true;
    for (const raw of args) {
      const t = raw.type;
      if (t.kind === "dynamic") return ok(DynamicPseudoType);
      if (t.kind !== "map" && t.kind !== "object") return callError(`arguments must be maps or objects, got ${goQuote(friendlyName(t))}`);
      const arg = unmark(raw)[0];
      if (t.kind === "object" && arg.kind !== "null") {
        for (const [n, at] of t.attributes) attrs.set(n, at);
      } else if (t.kind === "map") {
        if (arg.kind === "map") for (const k of arg.attrs.keys()) attrs.set(k, t.element);
        else if (arg.kind === "unknown") attrsKnown = false;
      }
      if (first === undefined) first = t;
      else if (!typeEquals(t, first)) matching = false;
    }
    if (matching && first) return ok(first);
    if (!attrsKnown) return ok(DynamicPseudoType);
    return ok(objectOf(attrs));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const out = new Map<string, Value>();
    const markses: Marks[] = [];
    for (const raw of args) {
      if (raw.kind === "null") continue;
      const [arg, marks] = unmark(raw);
      markses.push(marks);
      if (arg.kind === "map" || arg.kind === "object") for (const [k, v] of arg.attrs) out.set(k, v);
    }
    if (retType.kind === "map") {
      return ok(withMarks(out.size === 0 ? mapValEmpty(retType.element) : mapVal(out), ...markses));
    }
    if (retType.kind === "object") {
      // Attributes of null objects are part of a matching type but not of the value: keep them as nulls.
      for (const [n, t] of retType.attributes) if (!out.has(n)) out.set(n, nullVal(t));
    }
    return ok(withMarks(objectVal(out), ...markses));
  },
});

const oneFunc = new Func({
  params: [{ name: "list", type: DynamicPseudoType }],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "list" || t.kind === "set") return ok(t.element);
    if (t.kind === "tuple" && t.elements.length === 0) return ok(DynamicPseudoType);
    if (t.kind === "tuple" && t.elements.length === 1) return ok(t.elements[0] as Type);
    return argError(0, "must be a list, set, or tuple value with either zero or one elements");
  },
  impl: (args, retType) => {
    const val = args[0] as Value;
    if (val.type.kind === "list" || val.type.kind === "set") {
      const len = collectionLength(val);
      if (len.kind !== "number") return ok(unknownVal(retType));
      const items = elems(val);
      if (items.length === 0) return ok(nullVal(retType));
      if (items.length === 1) return ok(items[0] as Value);
    } else if (val.type.kind === "tuple") {
      const items = elems(val);
      if (items.length === 0) return ok(nullVal(retType));
      if (items.length === 1) return ok(items[0] as Value);
    }
    return argError(0, "must be a list, set, or tuple value with either zero or one elements");
  },
});

function num(v: Value): BigFloat {
  return v.kind === "number" ? v.value : BigFloat.zero();
}

const rangeFunc = new Func({
  params: [],
  varParam: { name: "params", type: NumberType },
  type: staticReturnType(listOf(NumberType)),
  refineResult: refineNonNull,
  impl: (args) => {
    let start: Value;
    let end: Value;
    let step: Value;
    const zero = numberIntVal(0);
    switch (args.length) {
      case 1:
        start = zero;
        end = args[0] as Value;
        step = numberIntVal(num(end).cmp(num(zero)) < 0 ? -1 : 1);
        break;
      case 2:
        start = args[0] as Value;
        end = args[1] as Value;
        step = numberIntVal(num(end).cmp(num(start)) < 0 ? -1 : 1);
        break;
      case 3:
        start = args[0] as Value;
        end = args[1] as Value;
        step = args[2] as Value;
        break;
      default:
        return callError("must have one, two, or three arguments");
    }
    // cty compares the step with its Zero value by identity, so a zero step given by the
    // caller is never "zero" there: it loops until the 1024-element limit instead.
    const down = num(step).sign() < 0;
    if (down ? num(end).cmp(num(start)) > 0 : num(end).cmp(num(start)) < 0) {
      return argError(1, down ? "end must be less than start when step is negative" : "end must be greater than start when step is positive");
    }
    const vals: Value[] = [];
    let n = start;
    try {
      for (;;) {
        const c = num(n).cmp(num(end));
        if (down ? c <= 0 : c >= 0) break;
        if (vals.length >= 1024) {
          return callError("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
        }
        vals.push(n);
        n = add(n, step);
      }
    } catch (e) {
      if (e instanceof OperationError || e instanceof NaNError) return callError(e.message);
      throw e;
    }
    return ok(listOrEmpty(vals, NumberType));
  },
});

const reverseFunc = new Func({
  params: [{ name: "list", type: DynamicPseudoType, allowMarked: true }],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "tuple") return ok(tupleOf([...t.elements].reverse()));
    if (t.kind === "list" || t.kind === "set") return ok(listOf(t.element));
    return argError(0, `can only reverse list or tuple values, not ${friendlyName(t)}`);
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [input, marks] = unmark(args[0] as Value);
    const out = [...elems(input)].reverse();
    if (retType.kind === "tuple") return ok(withMarks(tupleVal(out), marks));
    return ok(withMarks(listOrEmpty(out, retType.kind === "list" ? retType.element : DynamicPseudoType), marks));
  },
});

// ---------------------------------------------------------------------------------------------
// Set operations (cty's setOperationReturnType / setOperationImpl)

function setOperationReturnType(args: readonly Value[]): FunctionResult<Type> {
  const etys: Type[] = [];
  for (const arg of args) {
    const ety = arg.type.kind === "set" ? arg.type.element : DynamicPseudoType;
    // Empty sets of unknown element type convert to anything, so they do not take part.
    if (arg.kind === "set" && arg.elements.length === 0 && ety.kind === "dynamic") continue;
    etys.push(ety);
  }
  if (etys.length === 0) return ok(setOf(DynamicPseudoType));
  const u = unifyUnsafe(etys);
  if (!u) return callError("given sets must all have compatible element types");
  return ok(setOf(u.type));
}

type SetOp = (acc: readonly Value[], next: readonly Value[]) => Value[];

function contains(set: readonly Value[], v: Value): boolean {
  return set.some((x) => equalsState(x, v) === true);
}

const union: SetOp = (a, b) => [...a, ...b];
const intersection: SetOp = (a, b) => a.filter((x) => contains(b, x));
const subtraction: SetOp = (a, b) => a.filter((x) => !contains(b, x));

function setOperationImpl(op: SetOp, allowUnknowns: boolean) {
  return (args: readonly Value[], retType: Type): FunctionResult<Value> => {
    let acc: Value[] = [];
    for (let i = 0; i < args.length; i++) {
      const c = convert(args[i] as Value, retType);
      if (!c.ok) return argError(i, c.error.message);
      // Only union can answer while elements are unknown: knowing them could merge elements.
      if (!allowUnknowns && !isWhollyKnown(c.value)) return ok(unknownVal(retType));
      acc = i === 0 ? [...elems(c.value)] : op(acc, elems(c.value));
    }
    const ety = retType.kind === "set" ? retType.element : DynamicPseudoType;
    return ok(acc.length === 0 ? setValEmpty(ety) : setVal(acc));
  };
}

function setFunc(op: SetOp, allowUnknowns: boolean, names: [string, string], variadic: boolean): Func {
  const setParam = (name: string) => ({ name, type: setOf(DynamicPseudoType), allowDynamicType: true });
  return new Func({
    params: variadic ? [setParam(names[0])] : [setParam(names[0]), setParam(names[1])],
    ...(variadic ? { varParam: setParam(names[1]) } : {}),
    type: setOperationReturnType,
    refineResult: refineNonNull,
    impl: setOperationImpl(op, allowUnknowns),
  });
}

const setProductFunc = new Func({
  params: [],
  varParam: { name: "sets", type: DynamicPseudoType, allowMarked: true, allowUnknown: true },
  type: (args) => {
    if (args.length < 2) return callError("at least two arguments are required");
    let listCount = 0;
    const elemTys: Type[] = [];
    for (let i = 0; i < args.length; i++) {
      const t = (args[i] as Value).type;
      if (t.kind === "set") elemTys.push(t.element);
      else if (t.kind === "list") {
        elemTys.push(t.element);
        listCount++;
      } else if (t.kind === "tuple") {
        // A tuple is accepted only when its elements have a common type.
        listCount++;
        if (t.elements.length === 0) {
          elemTys.push(DynamicPseudoType);
          continue;
        }
        const u = unifyUnsafe(t.elements);
        if (!u) return argError(i, "all elements must be of the same type");
        elemTys.push(u.type);
      } else {
        return argError(i, "a set or a list is required");
      }
    }
    const ety = tupleOf(elemTys);
    return ok(listCount === args.length ? listOf(ety) : setOf(ety));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    if (retType.kind !== "list" && retType.kind !== "set") return ok(DynamicVal);
    const ety = retType.element;
    const markses: Marks[] = [];
    const plain: Value[] = [];
    let hasUnknownLength = false;
    for (const raw of args) {
      const [arg, marks] = unmark(raw);
      markses.push(marks);
      plain.push(arg);
      if (arg.kind === "unknown" || (arg.type.kind !== "tuple" && collectionLength(arg).kind !== "number")) hasUnknownLength = true;
    }
    if (hasUnknownLength) return ok(withMarks(unknownProduct(retType, plain), ...markses));
    const lists = plain.map(elems);
    if (lists.some((l) => l.length === 0)) {
      return ok(withMarks(retType.kind === "list" ? listValEmpty(ety) : setValEmpty(ety), ...markses));
    }
    const subEtys = ety.kind === "tuple" ? ety.elements : [];
    const product: Value[] = [];
    const idx = lists.map(() => 0);
    for (;;) {
      const tuple: Value[] = [];
      for (let j = 0; j < lists.length; j++) {
        let v = (lists[j] as Value[])[idx[j] as number] as Value;
        const want = subEtys[j] as Type;
        if (!typeEquals(v.type, want)) {
          const c = convert(v, want);
          if (!c.ok) return callError(`failed to convert argVals[${j}][${idx[j]}] to ${friendlyName(want)}; this is a bug in cty`);
          v = c.value;
        }
        tuple.push(v);
      }
      product.push(tupleVal(tuple));
      let j = lists.length - 1;
      for (; j >= 0; j--) {
        idx[j] = (idx[j] as number) + 1;
        if ((idx[j] as number) < (lists[j] as Value[]).length) break;
        idx[j] = 0;
      }
      if (j < 0) break;
    }
    return ok(withMarks(retType.kind === "list" ? listVal(product) : setVal(product), ...markses));
  },
});

/** The unknown result of setproduct when some argument's length is unknown, with cty's length bounds. */
function unknownProduct(retType: Type, args: readonly Value[]): Value {
  const ret = unknownVal(retType);
  let maxLength = 1;
  for (const arg of args) {
    let argMax: number;
    if (arg.type.kind === "tuple") argMax = arg.type.elements.length;
    else if (arg.kind === "unknown") argMax = arg.refinement.lengthUpper ?? Number.MAX_SAFE_INTEGER;
    else argMax = elems(arg).length;
    // Bounds on very large inputs are not worth tracking (cty's thresholds).
    if (argMax > 1024) return ret;
    maxLength *= argMax;
    if (maxLength > 2048) return ret;
  }
  if (maxLength === 0) return refine(ret).collectionLength(0).newValue();
  return refine(ret).collectionLengthLowerBound(1).collectionLengthUpperBound(maxLength).newValue();
}

// ---------------------------------------------------------------------------------------------

type SliceIndexes = { ok: true; start: number; end: number; known: boolean } | { ok: false; error: FunctionResult<never> };

function sliceIndexes(args: readonly Value[]): SliceIndexes {
  const list = unmark(args[0] as Value)[0];
  let length: number | undefined;
  if (list.type.kind === "tuple") length = list.type.elements.length;
  else if (collectionLength(list).kind === "number") length = elems(list).length;
  let start = 0;
  let end = 0;
  const startArg = args[1] as Value;
  const endArg = args[2] as Value;
  if (startArg.kind !== "unknown") {
    const i = goInt(startArg);
    if (!i.ok) return { ok: false, error: argError(1, `invalid start index: ${i.error}`) };
    if (i.value < 0n) return { ok: false, error: argError(1, "start index must not be less than zero") };
    if (length !== undefined && i.value > BigInt(length)) {
      return { ok: false, error: argError(1, "start index must not be greater than the length of the list") };
    }
    start = Number(i.value);
  }
  if (endArg.kind !== "unknown") {
    const i = goInt(endArg);
    if (!i.ok) return { ok: false, error: argError(2, `invalid end index: ${i.error}`) };
    if (i.value < 0n) return { ok: false, error: argError(2, "end index must not be less than zero") };
    if (length !== undefined && i.value > BigInt(length)) {
      return { ok: false, error: argError(2, "end index must not be greater than the length of the list") };
    }
    end = Number(i.value);
  }
  const known = startArg.kind !== "unknown" && endArg.kind !== "unknown";
  if (known && start > end) return { ok: false, error: argError(1, "start index must not be greater than end index") };
  return { ok: true, start, end, known };
}

const sliceFunc = new Func({
  params: [
    { name: "list", type: DynamicPseudoType, allowMarked: true },
    { name: "start_index", type: NumberType },
    { name: "end_index", type: NumberType },
  ],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "set") {
      return argError(
        0,
        "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
      );
    }
    if (t.kind !== "list" && t.kind !== "tuple") return argError(0, "must be a list or tuple value");
    const idx = sliceIndexes(args);
    if (!idx.ok) return idx.error;
    if (t.kind === "list") return ok(t);
    if (!idx.known) return ok(DynamicPseudoType);
    return ok(tupleOf(t.elements.slice(idx.start, idx.end)));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [input, marks] = unmark(args[0] as Value);
    if (retType.kind === "dynamic") return ok(withMarks(DynamicVal, marks));
    const idx = sliceIndexes(args);
    if (!idx.ok) return idx.error;
    const out = elems(input).slice(idx.start, idx.end);
    if (retType.kind === "tuple") return ok(withMarks(tupleVal(out), marks));
    return ok(withMarks(listOrEmpty(out, retType.kind === "list" ? retType.element : DynamicPseudoType), marks));
  },
});

const sortFunc = new Func({
  params: [{ name: "list", type: listOf(StringType), allowUnknown: true }],
  type: staticReturnType(listOf(StringType)),
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const list = args[0] as Value;
    if (!isWhollyKnown(list)) {
      // The order is not known yet, but the length will not change.
      let b = refine(unknownVal(retType));
      if (list.kind === "unknown") {
        const r = list.refinement;
        if (r.lengthLower) b = b.collectionLengthLowerBound(r.lengthLower);
        if (r.lengthUpper !== undefined) b = b.collectionLengthUpperBound(r.lengthUpper);
      } else {
        b = b.collectionLength(elems(list).length);
      }
      return ok(b.newValue());
    }
    const items = elems(list);
    if (items.length === 0) return ok(list);
    const strs: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const v = items[i] as Value;
      if (v.kind !== "string") return callError(`given list element ${i} is null; a null string cannot be sorted`);
      strs.push(v.value);
    }
    strs.sort(compareStrings);
    return ok(listVal(strs.map((s) => stringVal(s))));
  },
});

const sumFunc = new Func({
  params: [{ name: "list", type: DynamicPseudoType }],
  type: staticReturnType(NumberType),
  refineResult: refineNonNull,
  impl: (args) => {
    const list = args[0] as Value;
    const t = list.type;
    const iterable = t.kind === "list" || t.kind === "set" || t.kind === "map" || t.kind === "tuple" || t.kind === "object";
    if (!iterable) return argError(0, "cannot sum noniterable");
    const items = list.kind === "map" || list.kind === "object" ? [...list.attrs.values()] : elems(list);
    if (items.length === 0) return argError(0, "cannot sum an empty list");
    if (!isSeqType(t)) return argError(0, `argument must be list, set, or tuple. Received ${friendlyName(t)}`);
    if (!isWhollyKnown(list)) return ok(unknownVal(NumberType));
    const notNumbers = argError(0, "argument must be list, set, or tuple of number values");
    let s: Value | undefined;
    try {
      for (const v of items) {
        if (v.kind === "null") return notNumbers;
        const c = convert(v, NumberType);
        if (!c.ok) return notNumbers;
        s = s === undefined ? c.value : add(s, c.value);
      }
    } catch (e) {
      if (e instanceof OperationError || e instanceof NaNError) return callError("can't compute sum of opposing infinities");
      throw e;
    }
    return ok(s as Value);
  },
});

const transposeFunc = new Func({
  params: [{ name: "values", type: mapOf(listOf(StringType)) }],
  type: staticReturnType(mapOf(listOf(StringType))),
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const input = args[0] as Value;
    if (!isWhollyKnown(input)) return ok(unknownVal(retType));
    const tmp = new Map<string, string[]>();
    for (const [k, inner] of elementPairs(input)) {
      if (inner.kind === "null") return callError("input must not contain null list");
      for (const v of elems(inner)) {
        if (v.kind === "null") return callError("input list must not contain null string");
        if (v.kind !== "string" || k.kind !== "string") return callError("input must be a map of lists of strings");
        const list = tmp.get(v.value) ?? [];
        list.push(k.value);
        tmp.set(v.value, list);
      }
    }
    if (tmp.size === 0) return ok(mapValEmpty(listOf(StringType)));
    const out = new Map<string, Value>();
    for (const [k, list] of tmp) out.set(k, listVal(list.sort(compareStrings).map((s) => stringVal(s))));
    return ok(mapVal(out));
  },
});

const valuesFunc = new Func({
  params: [{ name: "mapping", type: DynamicPseudoType, allowMarked: true }],
  type: (args) => {
    const t = (args[0] as Value).type;
    if (t.kind === "map") return ok(listOf(t.element));
    if (t.kind === "object") {
      const names = [...t.attributes.keys()].sort(compareStrings);
      return ok(tupleOf(names.map((n) => t.attributes.get(n) as Type)));
    }
    return callError("values() requires a map as the first argument");
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [m, marks] = unmark(args[0] as Value);
    const vals = m.kind === "map" || m.kind === "object" ? [...m.attrs.values()] : [];
    if (retType.kind === "tuple") return ok(withMarks(tupleVal(vals), marks));
    return ok(withMarks(listOrEmpty(vals, retType.kind === "list" ? retType.element : DynamicPseudoType), marks));
  },
});

const zipmapFunc = new Func({
  params: [
    { name: "keys", type: listOf(StringType), allowMarked: true },
    { name: "values", type: DynamicPseudoType, allowMarked: true },
  ],
  type: (args) => {
    const keys = args[0] as Value;
    const vt = (args[1] as Value).type;
    if (vt.kind === "list") return ok(mapOf(vt.element));
    if (vt.kind === "tuple") {
      // The object type needs every key name.
      if (!isWhollyKnown(keys)) return ok(DynamicPseudoType);
      const keysRaw = elems(unmark(keys)[0]);
      if (keysRaw.length !== vt.elements.length) {
        return callError(`number of keys (${keysRaw.length}) does not match number of values (${vt.elements.length})`);
      }
      const atys = new Map<string, Type>();
      for (let i = 0; i < keysRaw.length; i++) {
        const k = unmark(keysRaw[i] as Value)[0];
        if (k.kind !== "string") return callError(`keys list has null value at index ${i}`);
        atys.set(k.value, vt.elements[i] as Type);
      }
      return ok(objectOf(atys));
    }
    return callError("values argument must be a list or tuple value");
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const [keys, keysMarks] = unmark(args[0] as Value);
    const [values, valuesMarks] = unmark(args[1] as Value);
    const marks: Marks[] = [keysMarks, valuesMarks];
    if (!isWhollyKnown(keys)) return ok(withMarks(unknownVal(retType), ...marks));
    const keyItems = elems(keys);
    const valItems = elems(values);
    if (keyItems.length !== valItems.length) {
      return callError(`number of keys (${keyItems.length}) does not match number of values (${valItems.length})`);
    }
    const out = new Map<string, Value>();
    for (let i = 0; i < keyItems.length; i++) {
      // Map keys cannot carry marks, so a marked key marks the whole result.
      const [k, kMarks] = unmark(keyItems[i] as Value);
      marks.push(kMarks);
      if (k.kind !== "string") return callError(`keys list has null value at index ${i}`);
      out.set(k.value, valItems[i] as Value);
    }
    if (retType.kind === "map") return ok(withMarks(out.size === 0 ? mapValEmpty(retType.element) : mapVal(out), ...marks));
    if (retType.kind === "object") return ok(withMarks(objectVal(out), ...marks));
    return callError(`internally selected incorrect result type ${friendlyName(retType)} (this is a bug)`);
  },
});

/** `list` and `map` were removed in Terraform v0.12; OpenTofu keeps them only to explain that. */
function removedFunc(message: string): Func {
  return new Func({
    params: [],
    varParam: { name: "vals", type: DynamicPseudoType, allowUnknown: true, allowDynamicType: true, allowNull: true },
    type: () => callError(message),
    impl: () => callError(message),
  });
}

export function collectionsFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    alltrue: allTrueFunc,
    anytrue: anyTrueFunc,
    chunklist: chunklistFunc,
    coalesce: coalesceFunc,
    coalescelist: coalesceListFunc,
    compact: compactFunc,
    concat: concatFunc,
    contains: containsFunc,
    distinct: distinctFunc,
    element: elementFunc,
    flatten: flattenFunc,
    index: indexFunc,
    keys: keysFunc,
    length: lengthFunc,
    list: removedFunc(
      'the "list" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list',
    ),
    lookup: lookupFunc,
    map: removedFunc(
      'the "map" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map',
    ),
    matchkeys: matchkeysFunc,
    merge: mergeFunc,
    one: oneFunc,
    range: rangeFunc,
    reverse: reverseFunc,
    setintersection: setFunc(intersection, false, ["first_set", "other_sets"], true),
    setproduct: setProductFunc,
    setsubtract: setFunc(subtraction, false, ["a", "b"], false),
    setunion: setFunc(union, true, ["first_set", "other_sets"], true),
    slice: sliceFunc,
    sort: sortFunc,
    sum: sumFunc,
    transpose: transposeFunc,
    values: valuesFunc,
    zipmap: zipmapFunc,
  };
}

