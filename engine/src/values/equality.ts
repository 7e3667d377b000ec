// Equality as cty defines it (Value.Equals with its unknown/null short-circuits, RawEquals for
// tests), number equality by canonical text, and the ordering cty uses to iterate sets.

import type { BigFloat } from "./bigfloat.js";
import { compareStrings, hasDynamicTypes, typeEquals, type Type } from "./types.js";
import {
  False,
  True,
  containsMarked,
  definitelyNotNull,
  refineNotNull,
  unknownVal,
  unmarkDeep,
  withMarks,
  type Value,
} from "./value.js";
import { BoolType } from "./types.js";
import { rangeIncludes } from "./range.js";
import { goQuote } from "./gostrings.js";

/** cty's rawNumberEqual: integers compare exactly, other numbers by their shortest text. */
export function numbersEqual(a: BigFloat, b: BigFloat): boolean {
  if (a.sign() !== b.sign()) return false;
  const ai = a.isInt();
  const bi = b.isInt();
  if (ai !== bi) return false;
  if (ai) return a.toBigInt() === b.toBigInt();
  if (a.isInf() || b.isInf()) return a.isInf() && b.isInf();
  return a.text("f") === b.text("f");
}

function unknownBool(): Value {
  return refineNotNull(unknownVal(BoolType));
}

/**
 * `==`: a bool, unknown when the answer depends on unknowns, with the marks of both operands.
 * Nulls of any type equal each other; values of different types are never equal.
 */
export function equals(a: Value, b: Value): Value {
  if (containsMarked(a) || containsMarked(b)) {
    const [ua, ma] = unmarkDeep(a);
    const [ub, mb] = unmarkDeep(b);
    return withMarks(equals(ua, ub), ma, mb);
  }
  if (a.kind === "null" && definitelyNotNull(b)) return False;
  if (b.kind === "null" && definitelyNotNull(a)) return False;
  if (a.kind !== "unknown" && b.kind === "unknown" && rangeIncludes(b, a) === false) return False;
  if (b.kind !== "unknown" && a.kind === "unknown" && rangeIncludes(a, b) === false) return False;

  if (a.kind === "unknown" && b.kind === "unknown") return unknownBool();
  if (a.kind === "unknown" || b.kind === "unknown") {
    const known = a.kind === "unknown" ? b : a;
    const unk = a.kind === "unknown" ? a : b;
    if (known.kind === "null" || hasDynamicTypes(unk.type)) return unknownBool();
    if (!typeEquals(known.type, unk.type)) return False;
    return unknownBool();
  }
  if (a.kind === "null" && b.kind === "null") return True;
  if (a.kind === "null" || b.kind === "null") return False;

  if (!hasWhollyKnownType(a) || !hasWhollyKnownType(b)) {
    if (!couldConform(a.type, b.type) && !couldConform(b.type, a.type)) return False;
    return unknownBool();
  }
  if (!typeEquals(a.type, b.type)) return False;
  return knownEquals(a, b);
}

function knownEquals(a: Value, b: Value): Value {
  switch (a.kind) {
    case "number":
      return b.kind === "number" && numbersEqual(a.value, b.value) ? True : False;
    case "bool":
      return b.kind === "bool" && a.value === b.value ? True : False;
    case "string":
      return b.kind === "string" && a.value === b.value ? True : False;
    case "list":
    case "tuple": {
      if (b.kind !== a.kind || a.elements.length !== b.elements.length) return False;
      for (let i = 0; i < a.elements.length; i++) {
        const eq = equals(a.elements[i] as Value, b.elements[i] as Value);
        if (eq.kind === "unknown") return unknownBool();
        if (eq.kind === "bool" && !eq.value) return False;
      }
      return True;
    }
    case "set": {
      if (b.kind !== "set") return False;
      if (!a.elements.every(isWhollyKnownShallow) || !b.elements.every(isWhollyKnownShallow)) return unknownBool();
      const has = (xs: readonly Value[], y: Value) => xs.some((x) => setEquivalent(x, y));
      let equal = true;
      for (const x of a.elements) if (!has(b.elements, x)) equal = false;
      for (const y of b.elements) if (!has(a.elements, y)) equal = false;
      return equal ? True : False;
    }
    case "map":
    case "object": {
      if (b.kind !== a.kind || a.attrs.size !== b.attrs.size) return False;
      for (const [k, av] of a.attrs) {
        const bv = b.attrs.get(k);
        if (!bv) return False;
        const eq = equals(av, bv);
        if (eq.kind === "unknown") return unknownBool();
        if (eq.kind === "bool" && !eq.value) return False;
      }
      return True;
    }
    default:
      return False;
  }
}

function isWhollyKnownShallow(v: Value): boolean {
  return v.kind !== "unknown";
}

function setEquivalent(a: Value, b: Value): boolean {
  const eq = equals(a, b);
  return eq.kind === "bool" && eq.value;
}

/** cty's HasWhollyKnownType: known collections are judged by their elements, not their type. */
function hasWhollyKnownType(v: Value): boolean {
  switch (v.kind) {
    case "null":
      return true;
    case "unknown":
      if (v.type.kind === "dynamic") return false;
      return isCollectionOrStructural(v.type) ? !hasDynamicTypes(v.type) : true;
    case "list":
    case "set":
    case "tuple":
      return v.elements.every(hasWhollyKnownType);
    case "map":
    case "object":
      for (const e of v.attrs.values()) if (!hasWhollyKnownType(e)) return false;
      return true;
    default:
      return true;
  }
}

function isCollectionOrStructural(t: Type): boolean {
  return t.kind === "list" || t.kind === "set" || t.kind === "map" || t.kind === "object" || t.kind === "tuple";
}

/** A loose version of cty's TestConformance: could a value of `have` later turn out to be `want`? */
function couldConform(have: Type, want: Type): boolean {
  if (have.kind === "dynamic" || want.kind === "dynamic") return true;
  if (have.kind !== want.kind) return false;
  switch (have.kind) {
    case "list":
    case "set":
    case "map":
      return couldConform(have.element, (want as typeof have).element);
    case "object": {
      if (want.kind !== "object" || have.attributes.size !== want.attributes.size) return false;
      for (const [n, t] of have.attributes) {
        const w = want.attributes.get(n);
        if (!w || !couldConform(t, w)) return false;
      }
      return true;
    }
    case "tuple":
      return (
        want.kind === "tuple" &&
        have.elements.length === want.elements.length &&
        have.elements.every((t, i) => couldConform(t, want.elements[i] as Type))
      );
    default:
      return true;
  }
}

/**
 * Exact structural identity, including unknowns, refinements and marks: for tests, and for
 * deciding whether something changed.
 */
export function rawEquals(a: Value, b: Value): boolean {
  if (!typeEquals(a.type, b.type)) return false;
  if (a.marks.size !== b.marks.size) return false;
  for (const m of a.marks) if (!b.marks.has(m)) return false;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "unknown": {
      const ra = a.refinement;
      const rb = (b as typeof a).refinement;
      return (
        ra.notNull === rb.notNull &&
        (ra.stringPrefix ?? "") === (rb.stringPrefix ?? "") &&
        boundEq(ra.numberLower, rb.numberLower) &&
        boundEq(ra.numberUpper, rb.numberUpper) &&
        (ra.lengthLower ?? 0) === (rb.lengthLower ?? 0) &&
        ra.lengthUpper === rb.lengthUpper
      );
    }
    case "null":
      return true;
    case "string":
    case "bool":
      return a.value === (b as typeof a).value;
    case "number":
      return numbersEqual(a.value, (b as typeof a).value);
    case "list":
    case "set":
    case "tuple": {
      const be = (b as typeof a).elements;
      return a.elements.length === be.length && a.elements.every((e, i) => rawEquals(e, be[i] as Value));
    }
    case "map":
    case "object": {
      const ba = (b as typeof a).attrs;
      if (a.attrs.size !== ba.size) return false;
      for (const [k, v] of a.attrs) {
        const o = ba.get(k);
        if (!o || !rawEquals(v, o)) return false;
      }
      return true;
    }
  }
}

function boundEq(a: { value: BigFloat; inclusive: boolean } | undefined, b: typeof a): boolean {
  if (!a || !b) return a === b;
  return a.inclusive === b.inclusive && a.value.cmp(b.value) === 0;
}

/**
 * cty's set ordering (setRules.Less): nulls last, unknowns after knowns, strings by bytes,
 * numbers numerically, false before true, anything else by its hash text.
 */
export function compareValuesForSet(a: Value, b: Value): number {
  if (rawEquals(a, b)) return 0;
  const aNull = a.kind === "null";
  const bNull = b.kind === "null";
  if (aNull !== bNull) return aNull ? 1 : -1;
  if (aNull) return 0;
  const aUnk = a.kind === "unknown";
  const bUnk = b.kind === "unknown";
  if (aUnk !== bUnk) return aUnk ? 1 : -1;
  if (aUnk) return 0;
  if (a.kind === "string" && b.kind === "string") return compareStrings(a.value, b.value);
  if (a.kind === "number" && b.kind === "number") return a.value.cmp(b.value);
  if (a.kind === "bool" && b.kind === "bool") return a.value === b.value ? 0 : a.value ? 1 : -1;
  return compareStrings(cachedHash(a), cachedHash(b));
}

// Hash texts of large elements are costly and sorting asks for them repeatedly.
const hashCache = new WeakMap<Value, string>();

function cachedHash(v: Value): string {
  let h = hashCache.get(v);
  if (h === undefined) {
    h = setHashString(v);
    hashCache.set(v, h);
  }
  return h;
}

/** cty's makeSetHashBytes, as a string (its UTF-8 bytes are Go's). */
export function setHashString(v: Value): string {
  switch (v.kind) {
    case "unknown":
      return "?";
    case "null":
      return "~";
    case "number":
      return v.value.text("g", 10);
    case "bool":
      return v.value ? "T" : "F";
    case "string":
      return goQuote(v.value);
    case "map":
      return `{${[...v.attrs.entries()].map(([k, e]) => `${goQuote(k)}:${setHashString(e)};`).join("")}}`;
    case "list":
    case "set":
      return `[${v.elements.map((e) => `${setHashString(e)};`).join("")}]`;
    case "object":
    case "tuple":
      return `<${elementsInOrder(v)
        .map((e) => `${setHashString(e)};`)
        .join("")}>`;
  }
}

function elementsInOrder(v: Value): Value[] {
  if (v.kind === "object" || v.kind === "map") return [...v.attrs.values()];
  if (v.kind === "tuple" || v.kind === "list" || v.kind === "set") return [...v.elements];
  return [];
}
