// Type unification as cty's convert package does it: find one type that every given type can be
// converted to, preferring the most general of the given types (compareTypes + sortTypes), and
// building a new object/tuple type (or falling back to a map/list) when all inputs are structural.

import { getConversionInternal, type ConversionFn } from "./convert.js";
import { DynamicPseudoType, isPrimitive, listOf, mapOf, objectOf, setOf, tupleOf, typeEquals, type Type } from "./types.js";
import { DynamicVal } from "./value.js";

export interface Unified {
  readonly type: Type;
  /** One per input type; undefined where no conversion is needed. */
  readonly conversions: ReadonlyArray<ConversionFn | undefined>;
}

/** Safe unification (cty convert.Unify). */
export function unify(types: readonly Type[]): Unified | undefined {
  return unifyTypes(types, false);
}

/** Unsafe unification (cty convert.UnifyUnsafe), as used for `[1, "a"]` to list. */
export function unifyUnsafe(types: readonly Type[]): Unified | undefined {
  return unifyTypes(types, true);
}

export function unifyTypes(types: readonly Type[], unsafe: boolean): Unified | undefined {
  if (types.length === 0) return undefined;
  // Happy path (as in cty): all types already equal, nothing to convert.
  const first = types[0] as Type;
  if (types.every((t) => typeEquals(t, first))) return { type: first, conversions: types.map(() => undefined) };
  let mapCt = 0;
  let listCt = 0;
  let setCt = 0;
  let objectCt = 0;
  let tupleCt = 0;
  let dynamicCt = 0;
  for (const t of types) {
    if (t.kind === "map") mapCt++;
    else if (t.kind === "list") listCt++;
    else if (t.kind === "set") setCt++;
    else if (t.kind === "object") objectCt++;
    else if (t.kind === "tuple") tupleCt++;
    else if (t.kind === "dynamic") dynamicCt++;
  }
  const n = types.length;
  const hasDynamic = dynamicCt > 0;
  // Inputs all of one structural kind may unify to a type none of them is (cty tries this before
  // its general search, since an unsafe object conversion to a subset type would win otherwise).
  // Objects often hold map data and tuples list data, so those mixes are tried as maps and lists.
  if (mapCt > 0 && mapCt + dynamicCt === n) return unifyCollectionTypes(mapOf, types, unsafe, hasDynamic);
  if (mapCt > 0 && mapCt + objectCt + dynamicCt === n) {
    const asMap = unifyStructuralAs("object", types, unsafe);
    if (asMap) return asMap;
  } else if (listCt > 0 && listCt + dynamicCt === n) return unifyCollectionTypes(listOf, types, unsafe, hasDynamic);
  else if (listCt > 0 && listCt + tupleCt + dynamicCt === n) {
    const asList = unifyStructuralAs("tuple", types, unsafe);
    if (asList) return asList;
  } else if (setCt > 0 && setCt + dynamicCt === n) return unifyCollectionTypes(setOf, types, unsafe, hasDynamic);
  else if (objectCt > 0 && objectCt + dynamicCt === n) return hasDynamic ? unifyAllAsDynamic(types) : unifyObjectTypes(types, unsafe);
  else if (tupleCt > 0 && tupleCt + dynamicCt === n) return hasDynamic ? unifyAllAsDynamic(types) : unifyTupleTypes(types, unsafe);
  else if (objectCt > 0 && tupleCt > 0) return undefined;

  for (const wantIdx of sortTypes(types)) {
    const want = types[wantIdx] as Type;
    const convs: Array<ConversionFn | undefined> = [];
    let ok = true;
    for (let i = 0; i < types.length; i++) {
      const t = types[i] as Type;
      if (i === wantIdx || typeEquals(t, want)) {
        convs.push(undefined);
        continue;
      }
      const c = getConversionInternal(t, want, unsafe);
      if (!c) {
        ok = false;
        break;
      }
      convs.push(c);
    }
    if (ok) return { type: want, conversions: convs };
  }
  return undefined;
}

/**
 * With a dynamic input the path unification takes cannot be predicted until it is known, so
 * the result is DynamicPseudoType and every conversion yields DynamicVal (cty's unifyAllAsDynamic).
 */
function unifyAllAsDynamic(types: readonly Type[]): Unified {
  return { type: DynamicPseudoType, conversions: types.map(() => () => DynamicVal) };
}

/** cty's unifyCollectionTypes: unify the element types, then convert each collection to that. */
function unifyCollectionTypes(collection: (e: Type) => Type, types: readonly Type[], unsafe: boolean, hasDynamic: boolean): Unified | undefined {
  if (hasDynamic) return unifyAllAsDynamic(types);
  const u = unifyTypes(
    types.map((t) => (t.kind === "list" || t.kind === "set" || t.kind === "map" ? t.element : DynamicPseudoType)),
    unsafe,
  );
  if (!u) return undefined;
  const ret = collection(u.type);
  const convs = conversionsTo(types, ret, unsafe);
  return convs ? { type: ret, conversions: convs } : undefined;
}

/**
 * cty's unifyObjectsAsMaps / unifyTuplesAsList: the objects (tuples) among `types` first unify
 * to one map (list) type; that type then stands in for them in a second unification, which must
 * give a map (list). Each structural input converts in two steps.
 */
function unifyStructuralAs(kind: "object" | "tuple", types: readonly Type[], unsafe: boolean): Unified | undefined {
  const idxs: number[] = [];
  types.forEach((t, i) => t.kind === kind && idxs.push(i));
  const structural = idxs.map((i) => types[i] as Type);
  const first = kind === "object" ? unifyObjectTypesToMap(structural, unsafe) : unifyTupleTypesToList(structural, unsafe);
  const wanted = kind === "object" ? "map" : "list";
  if (!first || first.type.kind !== wanted) return undefined;
  const replaced = types.map((t) => (t.kind === kind ? first.type : t));
  const second = unifyTypes(replaced, unsafe);
  if (!second || second.type.kind !== wanted) return undefined;
  const convs = [...second.conversions];
  idxs.forEach((idx, k) => {
    const outer = convs[idx];
    const inner = first.conversions[k];
    if (!inner) return;
    convs[idx] = outer ? (v, path) => outer(inner(v, path), path) : inner;
  });
  return { type: second.type, conversions: convs };
}

function conversionsTo(types: readonly Type[], ret: Type, unsafe: boolean): Array<ConversionFn | undefined> | undefined {
  const convs: Array<ConversionFn | undefined> = [];
  for (const t of types) {
    if (typeEquals(t, ret)) {
      convs.push(undefined);
      continue;
    }
    const c = getConversionInternal(t, ret, unsafe);
    if (!c) return undefined;
    convs.push(c);
  }
  return convs;
}

function unifyObjectTypes(types: readonly Type[], unsafe: boolean): Unified | undefined {
  const first = types[0];
  if (!first || first.kind !== "object") return undefined;
  for (const t of types.slice(1)) {
    if (t.kind !== "object" || t.attributes.size !== first.attributes.size) return unifyObjectTypesToMap(types, unsafe);
    for (const n of t.attributes.keys()) if (!first.attributes.has(n)) return unifyObjectTypesToMap(types, unsafe);
  }
  const attrs = new Map<string, Type>();
  for (const name of first.attributes.keys()) {
    const across = types.map((t) => (t.kind === "object" ? (t.attributes.get(name) as Type) : DynamicPseudoType));
    const u = unifyTypes(across, unsafe);
    if (!u) return undefined;
    attrs.set(name, u.type);
  }
  const ret = objectOf(attrs);
  const convs = conversionsTo(types, ret, unsafe);
  if (!convs) return unifyObjectTypesToMap(types, unsafe);
  return { type: ret, conversions: convs };
}

function unifyObjectTypesToMap(types: readonly Type[], unsafe: boolean): Unified | undefined {
  const atys: Type[] = [];
  for (const t of types) if (t.kind === "object") atys.push(...t.attributes.values());
  const u = unifyTypes(atys, unsafe);
  if (!u) return undefined;
  const ret = mapOf(u.type);
  const convs = conversionsTo(types, ret, unsafe);
  if (!convs) return undefined;
  return { type: ret, conversions: convs };
}

function unifyTupleTypes(types: readonly Type[], unsafe: boolean): Unified | undefined {
  const first = types[0];
  if (!first || first.kind !== "tuple") return undefined;
  for (const t of types.slice(1)) {
    if (t.kind !== "tuple" || t.elements.length !== first.elements.length) return unifyTupleTypesToList(types, unsafe);
  }
  const els: Type[] = [];
  for (let i = 0; i < first.elements.length; i++) {
    const across = types.map((t) => (t.kind === "tuple" ? (t.elements[i] as Type) : DynamicPseudoType));
    const u = unifyTypes(across, unsafe);
    if (!u) return undefined;
    els.push(u.type);
  }
  const ret = tupleOf(els);
  const convs = conversionsTo(types, ret, unsafe);
  if (!convs) return unifyTupleTypesToList(types, unsafe);
  return { type: ret, conversions: convs };
}

function unifyTupleTypesToList(types: readonly Type[], unsafe: boolean): Unified | undefined {
  const etys: Type[] = [];
  for (const t of types) if (t.kind === "tuple") etys.push(...t.elements);
  const u = unifyTypes(etys, unsafe);
  if (!u) return undefined;
  const ret = listOf(u.type);
  const convs = conversionsTo(types, ret, unsafe);
  if (!convs) return undefined;
  return { type: ret, conversions: convs };
}

/** cty's compareTypes: negative when a is the more general (preferred) type. */
export function compareTypes(a: Type, b: Type): number {
  if (a.kind === "dynamic" || b.kind === "dynamic") {
    if (a.kind !== "dynamic") return -1;
    if (b.kind !== "dynamic") return 1;
    return 0;
  }
  if (isPrimitive(a) && isPrimitive(b)) {
    if (a.kind === "string" || b.kind === "string") {
      if (a.kind !== "string") return 1;
      if (b.kind !== "string") return -1;
      return 0;
    }
  }
  if ((a.kind === "list" && b.kind === "list") || (a.kind === "set" && b.kind === "set") || (a.kind === "map" && b.kind === "map")) {
    return compareTypes(a.element, b.element);
  }
  let swap = 1;
  if (
    (a.kind === "tuple" && b.kind === "list") ||
    (a.kind === "object" && b.kind === "map") ||
    (a.kind === "set" && b.kind === "tuple") ||
    (a.kind === "set" && b.kind === "list")
  ) {
    [a, b] = [b, a];
    swap = -1;
  }
  if (b.kind === "set" && (a.kind === "tuple" || a.kind === "list")) return -1 * swap;
  if (a.kind === "list" && b.kind === "tuple") return -1 * swap;
  if (a.kind === "map" && b.kind === "object") return -1 * swap;
  if (a.kind === "object" && b.kind === "object") {
    if (a.attributes.size !== b.attributes.size) return 0;
    let aSuper = false;
    let bSuper = false;
    for (const [k, at] of a.attributes) {
      const bt = b.attributes.get(k);
      if (!bt) return 0;
      const c = compareTypes(at, bt);
      if (c < 0) aSuper = true;
      else if (c > 0) bSuper = true;
    }
    if (aSuper && bSuper) return 0;
    if (aSuper) return -1 * swap;
    if (bSuper) return 1 * swap;
    return 0;
  }
  if (a.kind === "tuple" && b.kind === "tuple") {
    if (a.elements.length !== b.elements.length) return 0;
    let aSuper = false;
    let bSuper = false;
    a.elements.forEach((at, i) => {
      const c = compareTypes(at, b.elements[i] as Type);
      if (c < 0) aSuper = true;
      else if (c > 0) bSuper = true;
    });
    if (aSuper && bSuper) return 0;
    if (aSuper) return -1 * swap;
    if (bSuper) return 1 * swap;
    return 0;
  }
  return 0;
}

/** cty's sortTypes: a topological order of "more general than", stable for incomparable types. */
export function sortTypes(types: readonly Type[]): number[] {
  const l = types.length;
  const edges: number[][] = Array.from({ length: l }, () => []);
  for (let i = 0; i < l - 1; i++) {
    for (let j = i + 1; j < l; j++) {
      const c = compareTypes(types[i] as Type, types[j] as Type);
      if (c < 0) (edges[i] as number[]).push(j);
      else if (c > 0) (edges[j] as number[]).push(i);
    }
  }
  const inDegree = new Array<number>(l).fill(0);
  for (const outs of edges) for (const j of outs) inDegree[j] = (inDegree[j] as number) + 1;
  const result: number[] = [];
  inDegree.forEach((n, i) => {
    if (n === 0) result.push(i);
  });
  for (let q = 0; q < result.length; q++) {
    for (const j of edges[result[q] as number] as number[]) {
      inDegree[j] = (inDegree[j] as number) - 1;
      if (inDegree[j] === 0) result.push(j);
    }
  }
  // Go returns a full-length slice even when a cycle left some indices unvisited (they stay 0).
  while (result.length < l) result.push(0);
  return result;
}
