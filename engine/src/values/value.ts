// Values: a discriminated union mirroring cty.Value. Every value carries its type and its marks
// (at least "sensitive"); unknown values carry refinements that narrow what they may become.
// Values are immutable; constructors check the invariants cty checks (homogeneous collections,
// NFC strings) and throw only for programmer errors.

import { BigFloat, PARSE_PREC } from "./bigfloat.js";
import { graphemes } from "./graphemes.js";
import { compareValuesForSet, equals } from "./equality.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  compareStrings,
  friendlyName,
  listOf,
  mapOf,
  objectOf,
  setOf,
  someNestedType,
  tupleOf,
  typeEquals,
  type Type,
} from "./types.js";

export type Mark = string;
export type Marks = ReadonlySet<Mark>;

/** The mark OpenTofu puts on sensitive values. */
export const SENSITIVE: Mark = "sensitive";
/** The mark OpenTofu puts on ephemeral values. */
export const EPHEMERAL: Mark = "ephemeral";

export const NO_MARKS: Marks = new Set<Mark>();

export interface NumberBound {
  readonly value: BigFloat;
  readonly inclusive: boolean;
}

/** What is known about an unknown value (cty's refinements). */
export interface Refinement {
  readonly notNull: boolean;
  /** Strings: the result will start with this. */
  readonly stringPrefix?: string;
  /** Numbers: bounds on the result. */
  readonly numberLower?: NumberBound;
  readonly numberUpper?: NumberBound;
  /** Collections: bounds on the number of elements (upper undefined = unbounded). */
  readonly lengthLower?: number;
  readonly lengthUpper?: number;
}

export const NO_REFINEMENT: Refinement = Object.freeze({ notNull: false });

interface Common {
  readonly type: Type;
  readonly marks: Marks;
}

export type UnknownValue = Common & { readonly kind: "unknown"; readonly refinement: Refinement };
export type NullValue = Common & { readonly kind: "null" };
export type StringValue = Common & { readonly kind: "string"; readonly value: string };
export type NumberValue = Common & { readonly kind: "number"; readonly value: BigFloat };
export type BoolValue = Common & { readonly kind: "bool"; readonly value: boolean };
export type SequenceValue = Common & { readonly kind: "list" | "set" | "tuple"; readonly elements: readonly Value[] };
export type MappingValue = Common & { readonly kind: "map" | "object"; readonly attrs: ReadonlyMap<string, Value> };

export type Value = UnknownValue | NullValue | StringValue | NumberValue | BoolValue | SequenceValue | MappingValue;
export type KnownValue = Exclude<Value, UnknownValue | NullValue>;

// ---------------------------------------------------------------------------------------------
// Constructors

export function unknownVal(type: Type, refinement: Refinement = NO_REFINEMENT): UnknownValue {
  return { kind: "unknown", type, marks: NO_MARKS, refinement };
}

export function nullVal(type: Type): NullValue {
  return { kind: "null", type, marks: NO_MARKS };
}

/** cty.DynamicVal: an unknown value of unknown type. */
export const DynamicVal: UnknownValue = unknownVal(DynamicPseudoType);

export function stringVal(s: string): StringValue {
  return { kind: "string", type: StringType, marks: NO_MARKS, value: s.normalize("NFC") };
}

export function numberVal(n: BigFloat): NumberValue {
  return { kind: "number", type: NumberType, marks: NO_MARKS, value: n };
}

/** cty.NumberIntVal: an integer at 64 bits of precision. */
export function numberIntVal(n: number | bigint): NumberValue {
  return numberVal(BigFloat.fromInt(n));
}

/** cty.NumberFloatVal: a float64 at 53 bits of precision. */
export function numberFloatVal(f: number): NumberValue {
  return numberVal(BigFloat.fromFloat64(f));
}

/** cty.ParseNumberVal: 512-bit parse of a decimal string; undefined when not a number. */
export function parseNumberVal(s: string): NumberValue | undefined {
  const f = BigFloat.parse(s, PARSE_PREC);
  return f ? numberVal(f) : undefined;
}

export function boolVal(b: boolean): BoolValue {
  return b ? True : False;
}

export const True: BoolValue = { kind: "bool", type: BoolType, marks: NO_MARKS, value: true };
export const False: BoolValue = { kind: "bool", type: BoolType, marks: NO_MARKS, value: false };
export const Zero: NumberValue = numberVal(BigFloat.zero(53));

/**
 * The element type of a collection built from `elements`, as cty's ListVal/SetVal/MapVal find
 * it: the first type that is not DynamicPseudoType. Elements typed DynamicPseudoType (a literal
 * null or DynamicVal) are allowed beside it and become a null or unknown of that type.
 */
function collectionElements(elements: readonly Value[], what: string): [Type, readonly Value[]] {
  if (elements.length === 0) throw new Error(`${what}: no elements`);
  let et: Type = DynamicPseudoType;
  let retype = false;
  for (const el of elements) {
    if (el.type.kind === "dynamic") {
      retype = true;
      continue;
    }
    if (et.kind === "dynamic") et = el.type;
    else if (!typeEquals(el.type, et)) {
      throw new Error(`${what}: inconsistent element types (${friendlyName(et)} and ${friendlyName(el.type)})`);
    }
  }
  if (!retype || et.kind === "dynamic") return [et, elements];
  return [et, elements.map((el) => (el.type.kind === "dynamic" ? retyped(el, et) : el))];
}

/** A DynamicPseudoType-typed null or unknown as the same of type `t`, keeping its marks. */
function retyped(v: Value, t: Type): Value {
  const out: Value = v.kind === "unknown" ? { ...v, type: t } : { kind: "null", type: t, marks: v.marks };
  return out;
}

/** A non-empty list; every element must have the same type. */
export function listVal(elements: readonly Value[]): SequenceValue {
  const [et, els] = collectionElements(elements, "listVal");
  return { kind: "list", type: listOf(et), marks: NO_MARKS, elements: [...els] };
}

export function listValEmpty(element: Type): SequenceValue {
  return { kind: "list", type: listOf(element), marks: NO_MARKS, elements: [] };
}

/** True if the values could form a list (all of one type, or DynamicPseudoType-typed: cty's CanListVal). */
export function canListVal(elements: readonly Value[]): boolean {
  let et: Type | undefined;
  for (const e of elements) {
    if (e.type.kind === "dynamic") continue;
    if (!et) et = e.type;
    else if (!typeEquals(e.type, et)) return false;
  }
  return true;
}

/**
 * A non-empty set. Marks on elements move to the set itself (sets cannot hold marked elements);
 * duplicates (by equality) collapse; the stored order is cty's iteration order.
 */
export function setVal(elements: readonly Value[]): Value {
  const [et, els] = collectionElements(elements, "setVal");
  const hoisted: Marks[] = [];
  const plain = els.map((e) => {
    const [u, m] = unmarkDeep(e);
    if (m.size > 0) hoisted.push(m);
    return u;
  });
  return withMarks(makeSet(setOf(et), plain), ...hoisted);
}

export function setValEmpty(element: Type): SequenceValue {
  return { kind: "set", type: setOf(element), marks: NO_MARKS, elements: [] };
}

function makeSet(type: Type, elements: readonly Value[]): SequenceValue {
  // Dedup by a canonical key (equal values always share one); values containing unknowns are
  // never equal to anything, so they are all kept.
  const kept: Value[] = [];
  const seen = new Map<string, Value[]>();
  for (const e of elements) {
    if (!isWhollyKnown(e)) {
      kept.push(e);
      continue;
    }
    const key = dedupKey(e);
    const bucket = seen.get(key);
    if (bucket?.some((k) => isEquivalentForSet(k, e))) continue;
    if (bucket) bucket.push(e);
    else seen.set(key, [e]);
    kept.push(e);
  }
  // A stable sort keeps insertion order among elements cty cannot order (unknowns).
  const indexed = kept.map((v, i) => ({ v, i }));
  indexed.sort((a, b) => compareValuesForSet(a.v, b.v) || a.i - b.i);
  return { kind: "set", type, marks: NO_MARKS, elements: indexed.map((x) => x.v) };
}

function isEquivalentForSet(a: Value, b: Value): boolean {
  const eq = equals(a, b);
  return eq.kind === "bool" && eq.value;
}

/** A string equal for all values that cty considers equal (numbers by exact value or text). */
function dedupKey(v: Value): string {
  switch (v.kind) {
    case "null":
      return "~";
    case "unknown":
      return "?";
    case "string":
      return JSON.stringify(v.value);
    case "bool":
      return v.value ? "T" : "F";
    case "number":
      return v.value.isInt() ? `i${v.value.toBigInt()?.toString() ?? ""}` : `f${v.value.text("f")}`;
    case "list":
    case "set":
    case "tuple":
      return `[${v.elements.map(dedupKey).join(",")}]`;
    case "map":
    case "object":
      return `{${[...v.attrs.entries()].map(([k, e]) => `${JSON.stringify(k)}:${dedupKey(e)}`).join(",")}}`;
  }
}

/** ASCII text is already in NFC. */
const ASCII_KEY = /^[\x00-\x7f]*$/;

/** The entries with their keys in NFC, in key order (already-ordered input, the usual case, is not re-sorted). */
function toEntries(attrs: Record<string, Value> | ReadonlyMap<string, Value>): Array<[string, Value]> {
  const entries: Array<[string, Value]> = attrs instanceof Map ? [...attrs.entries()] : Object.entries(attrs);
  let ordered = true;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as [string, Value];
    if (!ASCII_KEY.test(e[0])) entries[i] = [e[0].normalize("NFC"), e[1]];
    if (i > 0 && compareStrings((entries[i - 1] as [string, Value])[0], (entries[i] as [string, Value])[0]) > 0) ordered = false;
  }
  return ordered ? entries : entries.sort((a, b) => compareStrings(a[0], b[0]));
}

/** A non-empty map; every element must have the same type. */
export function mapVal(attrs: Record<string, Value> | ReadonlyMap<string, Value>): MappingValue {
  const entries = toEntries(attrs);
  const [et, els] = collectionElements(
    entries.map((e) => e[1]),
    "mapVal",
  );
  return { kind: "map", type: mapOf(et), marks: NO_MARKS, attrs: new Map(entries.map(([k], i) => [k, els[i] as Value])) };
}

export function mapValEmpty(element: Type): MappingValue {
  return { kind: "map", type: mapOf(element), marks: NO_MARKS, attrs: new Map() };
}

export function tupleVal(elements: readonly Value[]): SequenceValue {
  return { kind: "tuple", type: tupleOf(elements.map((e) => e.type)), marks: NO_MARKS, elements: [...elements] };
}

export const EmptyTupleVal: SequenceValue = tupleVal([]);

export function objectVal(attrs: Record<string, Value> | ReadonlyMap<string, Value>): MappingValue {
  const entries = toEntries(attrs);
  const types = new Map<string, Type>(entries.map(([k, v]) => [k, v.type]));
  return { kind: "object", type: objectOf(types), marks: NO_MARKS, attrs: new Map(entries) };
}

export const EmptyObjectVal: MappingValue = objectVal({});

const exactTypes = new WeakMap<Type, boolean>();

/**
 * Whether values decoded against `t` have exactly the type `t`: no DynamicPseudoType inside it and
 * no optional attributes. Decoders then build objects and maps of that type directly, without
 * working their types out again from the elements (cached per type: schemas reuse theirs).
 */
export function isExactValueType(t: Type): boolean {
  let exact = exactTypes.get(t);
  if (exact === undefined) {
    exact = !someNestedType(t, (x) => x.kind === "dynamic" || (x.kind === "object" && x.optional.size > 0));
    exactTypes.set(t, exact);
  }
  return exact;
}

/** objectVal for decoders, when isExactValueType(t) and each attribute value has exactly its type. */
export function objectValOfExactType(t: Extract<Type, { kind: "object" }>, attrs: ReadonlyMap<string, Value>): MappingValue {
  const ordered = new Map<string, Value>();
  for (const k of t.attributes.keys()) ordered.set(k, attrs.get(k) as Value);
  return { kind: "object", type: t, marks: NO_MARKS, attrs: ordered };
}

/** mapVal (non-empty) for decoders, when isExactValueType(t) and each element has exactly its element type. */
export function mapValOfExactType(t: Extract<Type, { kind: "map" }>, attrs: ReadonlyMap<string, Value>): MappingValue {
  return { kind: "map", type: t, marks: NO_MARKS, attrs: new Map(toEntries(attrs)) };
}


// ---------------------------------------------------------------------------------------------
// Predicates

export function isKnown(v: Value): boolean {
  return v.kind !== "unknown";
}

export function isNull(v: Value): boolean {
  return v.kind === "null";
}

/** True when the value and everything inside it is known. */
export function isWhollyKnown(v: Value): boolean {
  switch (v.kind) {
    case "unknown":
      return false;
    case "list":
    case "set":
    case "tuple":
      return v.elements.every(isWhollyKnown);
    case "map":
    case "object":
      for (const e of v.attrs.values()) if (!isWhollyKnown(e)) return false;
      return true;
    default:
      return true;
  }
}

/** True when the value cannot be null: known non-null, or unknown refined as not null. */
export function definitelyNotNull(v: Value): boolean {
  if (v.kind === "null") return false;
  if (v.kind === "unknown") return v.refinement.notNull;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Marks

function unionMarks(sets: readonly Marks[]): Marks {
  const nonEmpty = sets.filter((s) => s.size > 0);
  if (nonEmpty.length === 0) return NO_MARKS;
  if (nonEmpty.length === 1) return nonEmpty[0] as Marks;
  const out = new Set<Mark>();
  for (const s of nonEmpty) for (const m of s) out.add(m);
  return out;
}

function setMarks<V extends Value>(v: V, marks: Marks): V {
  if (marks === v.marks) return v;
  return { ...v, marks };
}

/** The value with the given marks added (cty's Mark / WithMarks). */
export function withMarks<V extends Value>(v: V, ...marks: ReadonlyArray<Marks | Mark>): V {
  const sets = marks.map((m) => (typeof m === "string" ? new Set([m]) : m));
  const merged = unionMarks([v.marks, ...sets]);
  if (merged.size === v.marks.size) return v;
  return setMarks(v, merged);
}

export function mark<V extends Value>(v: V, m: Mark): V {
  return withMarks(v, m);
}

export function isMarked(v: Value): boolean {
  return v.marks.size > 0;
}

export function hasMark(v: Value, m: Mark): boolean {
  return v.marks.has(m);
}

/** Removes the top-level marks only (cty's Unmark). */
export function unmark<V extends Value>(v: V): [V, Marks] {
  if (v.marks.size === 0) return [v, NO_MARKS];
  return [setMarks(v, NO_MARKS), v.marks];
}

/** True when the value or anything nested inside it is marked. */
export function containsMarked(v: Value): boolean {
  if (v.marks.size > 0) return true;
  switch (v.kind) {
    case "list":
    case "set":
    case "tuple":
      return v.elements.some(containsMarked);
    case "map":
    case "object":
      for (const e of v.attrs.values()) if (containsMarked(e)) return true;
      return false;
    default:
      return false;
  }
}

export type PathStep = { readonly kind: "attr"; readonly name: string } | { readonly kind: "index"; readonly key: Value };
export type Path = readonly PathStep[];

export interface PathValueMarks {
  readonly path: Path;
  readonly marks: Marks;
}

/** Removes marks at every depth, returning the union of all of them. */
export function unmarkDeep(v: Value): [Value, Marks] {
  const found: PathValueMarks[] = [];
  const out = unmarkDeepWalk(v, [], found);
  return [out, unionMarks(found.map((f) => f.marks))];
}

/** Removes marks at every depth, returning where each set of marks was (cty's UnmarkDeepWithPaths). */
export function unmarkDeepWithPaths(v: Value): [Value, PathValueMarks[]] {
  const found: PathValueMarks[] = [];
  const out = unmarkDeepWalk(v, [], found);
  return [out, found];
}

function unmarkDeepWalk(v: Value, path: Path, found: PathValueMarks[]): Value {
  if (v.marks.size > 0) found.push({ path, marks: v.marks });
  const plain = setMarks(v, NO_MARKS);
  switch (plain.kind) {
    case "list":
    case "tuple":
    case "set": {
      if (!plain.elements.some(containsMarked)) return plain;
      const els = plain.elements.map((e, i) =>
        unmarkDeepWalk(e, [...path, { kind: "index", key: plain.kind === "set" ? e : numberIntVal(i) }], found),
      );
      return { ...plain, elements: els };
    }
    case "map":
    case "object": {
      let any = false;
      for (const e of plain.attrs.values()) if (containsMarked(e)) any = true;
      if (!any) return plain;
      const attrs = new Map<string, Value>();
      for (const [k, e] of plain.attrs) {
        const step: PathStep = plain.kind === "map" ? { kind: "index", key: stringVal(k) } : { kind: "attr", name: k };
        attrs.set(k, unmarkDeepWalk(e, [...path, step], found));
      }
      return { ...plain, attrs };
    }
    default:
      return plain;
  }
}

/** Re-applies marks found by unmarkDeepWithPaths (cty's MarkWithPaths). */
export function markWithPaths(v: Value, pvm: readonly PathValueMarks[]): Value {
  let out = v;
  for (const { path, marks } of pvm) out = markAtPath(out, path, marks);
  return out;
}

function markAtPath(v: Value, path: Path, marks: Marks): Value {
  const [step, ...rest] = path;
  if (!step) return withMarks(v, marks);
  switch (v.kind) {
    case "list":
    case "tuple": {
      if (step.kind !== "index" || step.key.kind !== "number") return v;
      const i = Number(step.key.value.toInt64() ?? -1n);
      const el = v.elements[i];
      if (!el) return v;
      const els = [...v.elements];
      els[i] = markAtPath(el, rest, marks);
      return { ...v, elements: els };
    }
    case "set":
      // Set elements cannot be marked: the marks belong to the set.
      return withMarks(v, marks);
    case "map":
    case "object": {
      const key = step.kind === "attr" ? step.name : step.key.kind === "string" ? step.key.value : undefined;
      if (key === undefined) return v;
      const el = v.attrs.get(key);
      if (!el) return v;
      const attrs = new Map(v.attrs);
      attrs.set(key, markAtPath(el, rest, marks));
      return { ...v, attrs };
    }
    default:
      return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Refinements (cty's RefinementBuilder)

export class RefinementError extends Error {}

export class RefinementBuilder {
  private r: { -readonly [K in keyof Refinement]: Refinement[K] };

  constructor(private readonly orig: Value) {
    this.r = orig.kind === "unknown" ? { ...orig.refinement } : { notNull: orig.kind !== "null" };
  }

  private check(cond: boolean, msg: string): void {
    if (!cond) throw new RefinementError(msg);
  }

  notNull(): this {
    this.check(this.orig.kind !== "null", "refining null value as non-null");
    this.r.notNull = true;
    return this;
  }

  /** Prefix without its last grapheme cluster, since a later combining mark could change it. */
  stringPrefix(prefix: string): this {
    return this.stringPrefixFull(trimLastGrapheme(prefix.normalize("NFC")));
  }

  stringPrefixFull(prefix: string): this {
    this.check(this.orig.type.kind === "string" || this.orig.type.kind === "dynamic", "string prefix refinement on non-string");
    const o = this.orig;
    if (o.kind === "string") {
      this.check(o.value.startsWith(prefix), "refined prefix is inconsistent with known value");
      return this;
    }
    const cur = this.r.stringPrefix ?? "";
    if (cur.startsWith(prefix)) return this;
    this.check(prefix.startsWith(cur), "refined prefix is inconsistent with previous refined prefix");
    this.r.stringPrefix = prefix;
    return this;
  }

  numberRangeLowerBound(value: BigFloat, inclusive: boolean): this {
    this.checkNumber();
    const o = this.orig;
    if (o.kind === "number") {
      const c = o.value.cmp(value);
      this.check(c > 0 || (inclusive && c === 0), "refined lower bound is inconsistent with known value");
      return this;
    }
    const cur = this.r.numberLower;
    if (cur) {
      const c = value.cmp(cur.value);
      if (c < 0 || (c === 0 && (inclusive || !cur.inclusive))) return this;
    }
    const up = this.r.numberUpper;
    if (up) {
      const c = value.cmp(up.value);
      this.check(c < 0 || (c === 0 && inclusive && up.inclusive), "lower bound is greater than upper bound");
    }
    this.r.numberLower = { value, inclusive };
    return this;
  }

  numberRangeUpperBound(value: BigFloat, inclusive: boolean): this {
    this.checkNumber();
    const o = this.orig;
    if (o.kind === "number") {
      const c = o.value.cmp(value);
      this.check(c < 0 || (inclusive && c === 0), "refined upper bound is inconsistent with known value");
      return this;
    }
    const cur = this.r.numberUpper;
    if (cur) {
      const c = value.cmp(cur.value);
      if (c > 0 || (c === 0 && (inclusive || !cur.inclusive))) return this;
    }
    const lo = this.r.numberLower;
    if (lo) {
      const c = value.cmp(lo.value);
      this.check(c > 0 || (c === 0 && inclusive && lo.inclusive), "upper bound is less than lower bound");
    }
    this.r.numberUpper = { value, inclusive };
    return this;
  }

  numberRangeInclusive(min: BigFloat, max: BigFloat): this {
    return this.numberRangeLowerBound(min, true).numberRangeUpperBound(max, true);
  }

  collectionLengthLowerBound(n: number): this {
    this.checkCollection();
    const o = this.orig;
    if (o.kind === "list" || o.kind === "set" || o.kind === "map") {
      this.check(collectionLength(o) >= n, "refined length lower bound is inconsistent with known value");
      return this;
    }
    if ((this.r.lengthLower ?? 0) >= n) return this;
    this.check(this.r.lengthUpper === undefined || n <= this.r.lengthUpper, "length lower bound above upper bound");
    this.r.lengthLower = n;
    return this;
  }

  collectionLengthUpperBound(n: number): this {
    this.checkCollection();
    const o = this.orig;
    if (o.kind === "list" || o.kind === "set" || o.kind === "map") {
      this.check(collectionLength(o) <= n, "refined length upper bound is inconsistent with known value");
      return this;
    }
    if (this.r.lengthUpper !== undefined && this.r.lengthUpper <= n) return this;
    this.check(n >= (this.r.lengthLower ?? 0), "length upper bound below lower bound");
    this.r.lengthUpper = n;
    return this;
  }

  collectionLength(n: number): this {
    return this.collectionLengthLowerBound(n).collectionLengthUpperBound(n);
  }

  private checkNumber(): void {
    this.check(this.orig.type.kind === "number" || this.orig.type.kind === "dynamic", "numeric refinement on non-number");
  }

  private checkCollection(): void {
    const k = this.orig.type.kind;
    this.check(k === "list" || k === "set" || k === "map", "length refinement on non-collection");
  }

  newValue(): Value {
    const o = this.orig;
    if (o.kind !== "unknown") return o;
    const r = this.r;
    // An unknown refined to a single possible value becomes that known value, as in cty.
    if (r.notNull && r.numberLower && r.numberUpper && r.numberLower.inclusive && r.numberUpper.inclusive) {
      if (r.numberLower.value.cmp(r.numberUpper.value) === 0) return withMarks(numberVal(r.numberLower.value), o.marks);
    }
    if (r.notNull && r.lengthUpper === 0) {
      const t = o.type;
      if (t.kind === "list") return withMarks(listValEmpty(t.element), o.marks);
      if (t.kind === "set") return withMarks(setValEmpty(t.element), o.marks);
      if (t.kind === "map") return withMarks(mapValEmpty(t.element), o.marks);
    }
    // A list of exactly known length is a known list of unknown elements; so is a set of one,
    // whose single element has nothing to coalesce with.
    if (r.notNull && r.lengthUpper !== undefined && r.lengthUpper === (r.lengthLower ?? 0)) {
      const t = o.type;
      const n = r.lengthUpper;
      if (t.kind === "list") return withMarks(listVal(Array.from({ length: n }, () => unknownVal(t.element))), o.marks);
      if (t.kind === "set" && n === 1) return withMarks(setVal([unknownVal(t.element)]), o.marks);
    }
    const clean: { -readonly [K in keyof Refinement]: Refinement[K] } = { notNull: r.notNull };
    if (r.stringPrefix) clean.stringPrefix = r.stringPrefix;
    if (r.numberLower) clean.numberLower = r.numberLower;
    if (r.numberUpper) clean.numberUpper = r.numberUpper;
    if (r.lengthLower) clean.lengthLower = r.lengthLower;
    if (r.lengthUpper !== undefined) clean.lengthUpper = r.lengthUpper;
    return { ...o, refinement: clean };
  }
}

export function refine(v: Value): RefinementBuilder {
  return new RefinementBuilder(v);
}

/** Shorthand for refine(v).notNull().newValue(). */
export function refineNotNull(v: Value): Value {
  return refine(v).notNull().newValue();
}

function trimLastGrapheme(s: string): string {
  const gs = graphemes(s);
  gs.pop();
  return gs.join("");
}

function collectionLength(v: SequenceValue | MappingValue): number {
  return "attrs" in v ? v.attrs.size : v.elements.length;
}

/** Copies the refinements that apply to another type (used by conversion and operations). */
export function refinementOf(v: Value): Refinement {
  if (v.kind === "unknown") return v.refinement;
  return { notNull: v.kind !== "null" };
}

export function asString(v: Value): string {
  if (v.kind !== "string") throw new Error(`expected a known string, got ${v.kind}`);
  return v.value;
}

export function asNumber(v: Value): BigFloat {
  if (v.kind !== "number") throw new Error(`expected a known number, got ${v.kind}`);
  return v.value;
}

export function asBool(v: Value): boolean {
  if (v.kind !== "bool") throw new Error(`expected a known bool, got ${v.kind}`);
  return v.value;
}

/** Elements of a known list, set or tuple, or values of a known map/object in key order. */
export function elementsOf(v: Value): readonly Value[] {
  switch (v.kind) {
    case "list":
    case "set":
    case "tuple":
      return v.elements;
    case "map":
    case "object":
      return [...v.attrs.values()];
    default:
      throw new Error(`expected a known collection, got ${v.kind}`);
  }
}

/** Key/element pairs as cty's ElementIterator yields them (index numbers, set elements, or keys). */
export function elementPairs(v: Value): Array<[Value, Value]> {
  switch (v.kind) {
    case "list":
    case "tuple":
      return v.elements.map((e, i) => [numberIntVal(i), e]);
    case "set":
      return v.elements.map((e) => [e, e]);
    case "map":
    case "object":
      return [...v.attrs.entries()].map(([k, e]) => [stringVal(k), e]);
    default:
      throw new Error(`expected a known collection, got ${v.kind}`);
  }
}
