// Operations on values. Two layers:
// - cty-level operations (add, lessThan, length, …) on operands of the right type, propagating
//   unknowns (with refinements where cty computes them) and marks;
// - HCL-level operators (binaryOp, unaryOp, index, getAttr) that convert operands first and
//   return errors with the summaries and details OpenTofu shows (`Invalid operand`, `Invalid index`).

import { BigFloat, NaNError } from "./bigfloat.js";
import { convert } from "./convert.js";
import { equals } from "./equality.js";
import { formatPathError } from "./path.js";
import { BoolType, NumberType, StringType, friendlyName, typeEquals, type Type } from "./types.js";
import {
  False,
  True,
  boolVal,
  isWhollyKnown,
  numberIntVal,
  numberVal,
  refine,
  unknownVal,
  unmark,
  withMarks,
  type Marks,
  type NumberBound,
  type Value,
} from "./value.js";

export type OpResult = { ok: true; value: Value } | { ok: false; summary: string; detail: string };

const ok = (value: Value): OpResult => ({ ok: true, value });
const err = (summary: string, detail: string): OpResult => ({ ok: false, summary, detail });

/** Thrown by cty-level arithmetic for NaN results; binaryOp turns it into an error result. */
export class OperationError extends Error {}

function unmarkAll(vals: readonly Value[]): [Value[], Marks[]] {
  const plain: Value[] = [];
  const marks: Marks[] = [];
  for (const v of vals) {
    const [p, m] = unmark(v);
    plain.push(p);
    marks.push(m);
  }
  return [plain, marks];
}

function requireKind(v: Value, t: Type, op: string): void {
  if (v.kind !== "unknown" && v.kind !== "null" && v.type.kind !== t.kind) {
    throw new Error(`${op}: operand must be ${friendlyName(t)}, not ${friendlyName(v.type)}`);
  }
  if (v.kind === "null") throw new Error(`${op}: can't use a null value`);
}

// ---------------------------------------------------------------------------------------------
// Numeric ranges of (possibly unknown) numbers, for refining arithmetic on unknowns.

interface NumRange {
  lower: BigFloat;
  lowerInc: boolean;
  upper: BigFloat;
  upperInc: boolean;
}

function numRange(v: Value): NumRange {
  if (v.kind === "number") return { lower: v.value, lowerInc: true, upper: v.value, upperInc: true };
  const r = v.kind === "unknown" ? v.refinement : { notNull: false };
  const lo: NumberBound | undefined = "numberLower" in r ? r.numberLower : undefined;
  const hi: NumberBound | undefined = "numberUpper" in r ? r.numberUpper : undefined;
  return {
    lower: lo?.value ?? BigFloat.inf(true),
    lowerInc: lo?.inclusive ?? false,
    upper: hi?.value ?? BigFloat.inf(false),
    upperInc: hi?.inclusive ?? false,
  };
}

function rangeArithmetic(op: (a: BigFloat, b: BigFloat) => BigFloat, a: Value, b: Value, out: Value): Value {
  const ra = numRange(a);
  const rb = numRange(b);
  const results: BigFloat[] = [];
  for (const [x, y] of [
    [ra.lower, rb.lower],
    [ra.lower, rb.upper],
    [ra.upper, rb.lower],
    [ra.upper, rb.upper],
  ] as const) {
    try {
      results.push(op(x, y));
    } catch (e) {
      if (e instanceof NaNError) return out;
      throw e;
    }
  }
  const min = results.reduce((m, x) => (x.cmp(m) < 0 ? x : m));
  const max = results.reduce((m, x) => (x.cmp(m) > 0 ? x : m));
  let b2 = refine(out);
  if (!(min.isInf() && min.neg)) b2 = b2.numberRangeLowerBound(min, ra.lowerInc && rb.lowerInc);
  if (!(max.isInf() && !max.neg)) b2 = b2.numberRangeUpperBound(max, ra.upperInc && rb.upperInc);
  return b2.newValue();
}

function unknownNumber(): Value {
  return refine(unknownVal(NumberType)).notNull().newValue();
}

function addF(a: BigFloat, b: BigFloat): BigFloat {
  return a.add(b);
}

function subF(a: BigFloat, b: BigFloat): BigFloat {
  return a.add(b.neg_());
}

/** cty's Multiply: exact product at 512 bits, kept at the larger operand precision or more. */
function mulF(a: BigFloat, b: BigFloat): BigFloat {
  const r = a.mul(b, 512);
  const prec = Math.max(a.prec, b.prec, r.minPrec());
  return r.prec === prec ? r : r.withPrec(prec);
}

function arith(name: string, a: Value, b: Value, f: (x: BigFloat, y: BigFloat) => BigFloat, refineRange: boolean): Value {
  const [[pa, pb], marks] = unmarkAll([a, b]);
  requireKind(pa as Value, NumberType, name);
  requireKind(pb as Value, NumberType, name);
  let out: Value;
  if (pa?.kind === "unknown" || pb?.kind === "unknown") {
    out = refineRange ? rangeArithmetic(f, pa as Value, pb as Value, unknownNumber()) : unknownNumber();
  } else {
    out = numberVal(f((pa as { value: BigFloat }).value, (pb as { value: BigFloat }).value));
  }
  return withMarks(out, ...marks);
}

export function add(a: Value, b: Value): Value {
  try {
    return arith("add", a, b, addF, true);
  } catch (e) {
    if (e instanceof NaNError) throw new OperationError("can't compute sum of opposing infinities");
    throw e;
  }
}

export function subtract(a: Value, b: Value): Value {
  try {
    return arith("subtract", a, b, subF, true);
  } catch (e) {
    if (e instanceof NaNError) throw new OperationError("can't subtract infinity from itself");
    throw e;
  }
}

export function multiply(a: Value, b: Value): Value {
  const [[pa, pb]] = unmarkAll([a, b]);
  // Zero times anything (even an unknown) is zero, as in cty.
  if ((pa?.kind === "unknown" || pb?.kind === "unknown") && (isExactZero(pa as Value) || isExactZero(pb as Value))) {
    const [, ma] = unmark(a);
    const [, mb] = unmark(b);
    return withMarks(numberVal(BigFloat.zero(53)), ma, mb);
  }
  try {
    return arith("multiply", a, b, mulF, true);
  } catch (e) {
    if (e instanceof NaNError) throw new OperationError("can't multiply zero by infinity");
    throw e;
  }
}

function isExactZero(v: Value): boolean {
  return v.kind === "number" && v.value.isZero() && !v.value.neg;
}

export function divide(a: Value, b: Value): Value {
  try {
    return arith("divide", a, b, (x, y) => x.quo(y), false);
  } catch (e) {
    if (e instanceof NaNError) throw new OperationError("can't divide zero by zero or infinity by infinity");
    throw e;
  }
}

/** cty's Modulo: the remainder of truncated division; the sign follows the dividend; x % 0 = x. */
export function modulo(a: Value, b: Value): Value {
  try {
    return arith("modulo", a, b, moduloF, false);
  } catch (e) {
    if (e instanceof NaNError) throw new OperationError("can't use modulo with zero and infinity");
    throw e;
  }
}

function moduloF(v: BigFloat, o: BigFloat): BigFloat {
  if (o.isZero()) return v;
  // cty reaches a nil-pointer panic for an infinite dividend; we report it as NaN instead.
  if (v.isInf()) throw new NaNError("modulo of infinity");
  const rat = v.quo(o);
  const ratInt = rat.toBigInt() ?? 0n;
  let work = BigFloat.fromBigInt(ratInt, v.prec);
  work = o.mul(work, v.prec);
  return v.sub(work, v.prec);
}

export function negate(a: Value): Value {
  const [p, m] = unmark(a);
  requireKind(p, NumberType, "negate");
  if (p.kind !== "number") return withMarks(unknownNumber(), m);
  return withMarks(numberVal(p.value.neg_()), m);
}

export function absolute(a: Value): Value {
  const [p, m] = unmark(a);
  requireKind(p, NumberType, "absolute");
  if (p.kind !== "number") {
    return withMarks(refine(unknownVal(NumberType)).notNull().numberRangeLowerBound(BigFloat.zero(53), true).newValue(), m);
  }
  return withMarks(numberVal(p.value.abs()), m);
}

function compare(name: string, a: Value, b: Value, test: (c: number) => boolean, strictLess: boolean): Value {
  const [[pa, pb], marks] = unmarkAll([a, b]);
  requireKind(pa as Value, NumberType, name);
  requireKind(pb as Value, NumberType, name);
  if (pa?.kind === "number" && pb?.kind === "number") return withMarks(boolVal(test(pa.value.cmp(pb.value))), ...marks);
  // Some comparisons are decided by the refined ranges alone (cty treats bounds as exclusive here).
  const ra = numRange(pa as Value);
  const rb = numRange(pb as Value);
  const [lo, hi] = strictLess ? [ra, rb] : [rb, ra];
  if (lo.upper.cmp(hi.lower) < 0) return withMarks(True, ...marks);
  if (lo.lower.cmp(hi.upper) > 0) return withMarks(False, ...marks);
  return withMarks(refine(unknownVal(BoolType)).notNull().newValue(), ...marks);
}

export const lessThan = (a: Value, b: Value): Value => compare("lessThan", a, b, (c) => c < 0, true);
export const greaterThan = (a: Value, b: Value): Value => compare("greaterThan", a, b, (c) => c > 0, false);

/** cty defines `<=` as `<` or `==`, so a refined `<` can decide it even when `==` cannot. */
export function lessThanOrEqualTo(a: Value, b: Value): Value {
  return or(lessThan(a, b), equals(a, b));
}

export function greaterThanOrEqualTo(a: Value, b: Value): Value {
  return or(greaterThan(a, b), equals(a, b));
}

/** cty's And: false wins even against an unknown. */
export function and(a: Value, b: Value): Value {
  const [[pa, pb], marks] = unmarkAll([a, b]);
  requireKind(pa as Value, BoolType, "and");
  requireKind(pb as Value, BoolType, "and");
  if ((pa?.kind === "bool" && !pa.value) || (pb?.kind === "bool" && !pb.value)) return withMarks(False, ...marks);
  if (pa?.kind === "bool" && pb?.kind === "bool") return withMarks(True, ...marks);
  return withMarks(refine(unknownVal(BoolType)).notNull().newValue(), ...marks);
}

/** cty's Or: true wins even against an unknown. */
export function or(a: Value, b: Value): Value {
  const [[pa, pb], marks] = unmarkAll([a, b]);
  requireKind(pa as Value, BoolType, "or");
  requireKind(pb as Value, BoolType, "or");
  if ((pa?.kind === "bool" && pa.value) || (pb?.kind === "bool" && pb.value)) return withMarks(True, ...marks);
  if (pa?.kind === "bool" && pb?.kind === "bool") return withMarks(False, ...marks);
  return withMarks(refine(unknownVal(BoolType)).notNull().newValue(), ...marks);
}

export function not(a: Value): Value {
  const [p, m] = unmark(a);
  requireKind(p, BoolType, "not");
  if (p.kind !== "bool") return withMarks(refine(unknownVal(BoolType)).notNull().newValue(), m);
  return withMarks(boolVal(!p.value), m);
}

export function notEqual(a: Value, b: Value): Value {
  const eq = equals(a, b);
  if (eq.kind !== "bool") return eq;
  return withMarks(boolVal(!eq.value), eq.marks);
}

const MAX_INT = BigFloat.fromInt(2n ** 63n - 1n);

/** cty's Length for collections and tuples (strings use the `length` function instead). */
export function length(v: Value): Value {
  const [p, m] = unmark(v);
  if (p.type.kind === "tuple") return withMarks(numberIntVal(p.type.elements.length), m);
  if (p.kind === "unknown") {
    const r = p.refinement;
    const lo = BigFloat.fromInt(r.lengthLower ?? 0);
    const hi = r.lengthUpper === undefined ? MAX_INT : BigFloat.fromInt(r.lengthUpper);
    return withMarks(refine(unknownVal(NumberType)).notNull().numberRangeInclusive(lo, hi).newValue(), m);
  }
  if (p.kind === "set") {
    const n = p.elements.length;
    if (n === 1 || isWhollyKnown(p)) return withMarks(numberIntVal(n), m);
    // Unknown elements may coalesce with others, so only bounds are known.
    return withMarks(
      refine(unknownVal(NumberType)).notNull().numberRangeInclusive(BigFloat.fromInt(1), BigFloat.fromInt(n)).newValue(),
      m,
    );
  }
  if (p.kind === "list" || p.kind === "tuple") return withMarks(numberIntVal(p.elements.length), m);
  if (p.kind === "map" || p.kind === "object") return withMarks(numberIntVal(p.attrs.size), m);
  throw new Error(`length of ${p.kind} value`);
}

function unknownBool(): Value {
  return refine(unknownVal(BoolType)).notNull().newValue();
}

/** cty's HasIndex: whether a list, map or tuple has an element at the key (unknown when unsure). */
export function hasIndex(collection: Value, key: Value): Value {
  const [[c, k], marks] = unmarkAll([collection, key]);
  const coll = c as Value;
  const kv = k as Value;
  const out = (v: Value) => withMarks(v, ...marks);
  const ty = coll.type;
  if (ty.kind === "dynamic" || kv.type.kind === "dynamic") return out(unknownBool());
  switch (ty.kind) {
    case "list":
    case "tuple": {
      if (kv.type.kind !== "number") return out(False);
      if (kv.kind === "unknown" || (ty.kind === "list" && coll.kind === "unknown")) return out(unknownBool());
      if (kv.kind !== "number") return out(False);
      const i = kv.value.toInt64();
      if (i === undefined || i < 0n) return out(False);
      const n = ty.kind === "tuple" ? ty.elements.length : coll.kind === "list" ? coll.elements.length : 0;
      return out(boolVal(i < BigInt(n)));
    }
    case "map": {
      if (kv.type.kind !== "string") return out(False);
      if (kv.kind === "unknown" || coll.kind === "unknown") return out(unknownBool());
      if (kv.kind !== "string" || coll.kind !== "map") return out(False);
      return out(boolVal(coll.attrs.has(kv.value)));
    }
    default:
      throw new Error(`hasIndex on ${friendlyName(ty)}`);
  }
}

/** cty's HasElement: set membership, unknown when the set or the element is not wholly known. */
export function hasElement(set: Value, element: Value): Value {
  const [[s, e], marks] = unmarkAll([set, element]);
  const sv = s as Value;
  const ev = e as Value;
  const out = (v: Value) => withMarks(v, ...marks);
  if (sv.kind === "null") throw new Error("hasElement on a null set");
  if (sv.kind === "unknown") return out(unknownBool());
  if (sv.kind !== "set") throw new Error("hasElement on a non-set value");
  const ety = sv.type.kind === "set" ? sv.type.element : ev.type;
  if (ev.type.kind !== "dynamic" && ety.kind !== "dynamic" && !typeEquals(ev.type, ety)) return out(False);
  if (ev.kind === "unknown") return out(unknownBool());
  for (const x of sv.elements) {
    const eq = equals(x, ev);
    if (eq.kind === "bool" && eq.value) return out(True);
  }
  return out(isWhollyKnown(sv) ? False : unknownBool());
}

// ---------------------------------------------------------------------------------------------
// HCL-level operators

export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "&&" | "||" | "==" | "!=" | "<" | "<=" | ">" | ">=";
export type UnaryOperator = "-" | "!";

const binaryImpl: Record<Exclude<BinaryOperator, "==" | "!=">, { param: Type; fn: (a: Value, b: Value) => Value }> = {
  "+": { param: NumberType, fn: add },
  "-": { param: NumberType, fn: subtract },
  "*": { param: NumberType, fn: multiply },
  "/": { param: NumberType, fn: divide },
  "%": { param: NumberType, fn: modulo },
  "&&": { param: BoolType, fn: and },
  "||": { param: BoolType, fn: or },
  "<": { param: NumberType, fn: lessThan },
  "<=": { param: NumberType, fn: lessThanOrEqualTo },
  ">": { param: NumberType, fn: greaterThan },
  ">=": { param: NumberType, fn: greaterThanOrEqualTo },
};

const resultType: Record<Exclude<BinaryOperator, "==" | "!=">, Type> = {
  "+": NumberType,
  "-": NumberType,
  "*": NumberType,
  "/": NumberType,
  "%": NumberType,
  "&&": BoolType,
  "||": BoolType,
  "<": BoolType,
  "<=": BoolType,
  ">": BoolType,
  ">=": BoolType,
};

/**
 * Evaluates `lhs op rhs` as HCL's BinaryOpExpr does: operands are converted to the operator's
 * parameter type, nulls are rejected, unknown operands give an unknown (not null) result, and
 * marks on either operand end up on the result.
 */
export function binaryOp(op: BinaryOperator, lhs: Value, rhs: Value): OpResult {
  if (op === "==") return ok(equals(lhs, rhs));
  if (op === "!=") return ok(notEqual(lhs, rhs));
  const impl = binaryImpl[op];
  const l = convert(lhs, impl.param);
  if (!l.ok) return err("Invalid operand", `Unsuitable value for left operand: ${formatPathError(l.error)}.`);
  const r = convert(rhs, impl.param);
  if (!r.ok) return err("Invalid operand", `Unsuitable value for right operand: ${formatPathError(r.error)}.`);
  const [[a, b], marks] = unmarkAll([l.value, r.value]);
  if (a?.kind === "null" || b?.kind === "null") {
    return err("Operation failed", "Error during operation: argument must not be null.");
  }
  // Comparisons take unknown operands (their refined ranges can decide the answer); the other
  // operators return an unknown result as soon as an operand is unknown.
  const allowsUnknown = op === "<" || op === "<=" || op === ">" || op === ">=";
  if (!allowsUnknown && (a?.kind === "unknown" || b?.kind === "unknown")) {
    // cty's Function.Call returns early with only the marks it unwrapped itself: arithmetic
    // parameters do not accept marks (so theirs are kept), && and || do (so theirs are lost).
    const unknown = refine(unknownVal(resultType[op])).notNull().newValue();
    return ok(op === "&&" || op === "||" ? unknown : withMarks(unknown, ...marks));
  }
  try {
    return ok(withMarks(impl.fn(a as Value, b as Value), ...marks));
  } catch (e) {
    if (e instanceof OperationError) return err("Operation failed", `Error during operation: ${e.message}.`);
    throw e;
  }
}

export function unaryOp(op: UnaryOperator, operand: Value): OpResult {
  const param = op === "-" ? NumberType : BoolType;
  const c = convert(operand, param);
  if (!c.ok) return err("Invalid operand", `Unsuitable value for unary operand: ${formatPathError(c.error)}.`);
  const [v, m] = unmark(c.value);
  if (v.kind === "null") return err("Operation failed", "Error during operation: argument must not be null.");
  // Both unary operator functions accept marks, so an early unknown result carries none (as cty).
  if (v.kind === "unknown") return ok(refine(unknownVal(param)).notNull().newValue());
  return ok(withMarks(op === "-" ? negate(v) : not(v), m));
}

const NO_ELEMENT = "The given key does not identify an element in this collection value";

/** `collection[key]` with hcl.Index's rules and messages. */
export function index(collection: Value, key: Value): OpResult {
  const [coll, cm] = unmark(collection);
  const [k, km] = unmark(key);
  const marked = (v: Value) => ok(withMarks(v, cm, km));
  if (coll.kind === "null") return err("Attempt to index null value", "This value is null, so it does not have any indices.");
  if (k.kind === "null") return err("Invalid index", "Can't use a null value as an indexing key.");
  const ty = coll.type;
  // Whatever the collection, an index of unknown type may select anything (or fail later): HCL
  // answers cty.DynamicVal before looking at the collection's type.
  if (ty.kind === "dynamic" || k.type.kind === "dynamic") return marked(unknownVal({ kind: "dynamic" }));
  switch (ty.kind) {
    case "list":
    case "tuple": {
      const c = convert(k, NumberType);
      if (!c.ok) return err("Invalid index", `${NO_ELEMENT}: ${formatPathError(c.error)}.`);
      const kv = c.value;
      if (kv.kind === "unknown") return marked(unknownVal(ty.kind === "list" ? ty.element : { kind: "dynamic" }));
      if (kv.kind !== "number") return err("Invalid index", "Can't use a null value as an indexing key.");
      if (!kv.value.isInt()) {
        return err("Invalid index", `${NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part.`);
      }
      if (kv.value.sign() < 0) {
        return err("Invalid index", `${NO_ELEMENT}: a negative number is not a valid index for a sequence.`);
      }
      if (coll.kind === "unknown") {
        if (ty.kind === "list") return marked(unknownVal(ty.element));
        const i = Number(kv.value.toInt64() ?? -1n);
        const et = ty.elements[i];
        if (!et) return outOfRange(ty.elements.length, true);
        return marked(unknownVal(et));
      }
      const els = coll.kind === "list" || coll.kind === "tuple" ? coll.elements : [];
      const i = kv.value.toInt64();
      const el = i === undefined ? undefined : els[Number(i)];
      if (!el) return outOfRange(els.length, ty.kind === "tuple");
      return marked(el);
    }
    case "map":
    case "object": {
      const c = convert(k, StringType);
      if (!c.ok) return err("Invalid index", `${NO_ELEMENT}: ${formatPathError(c.error)}.`);
      const kv = c.value;
      if (kv.kind === "unknown") return marked(ty.kind === "map" ? unknownVal(ty.element) : unknownVal({ kind: "dynamic" }));
      if (kv.kind !== "string") return err("Invalid index", "Can't use a null value as an indexing key.");
      if (ty.kind === "object") {
        const at = ty.attributes.get(kv.value);
        if (!at) {
          const hint = k.type.kind === "number" ? " An object only supports looking up attributes by name, not by numeric index." : "";
          return err("Invalid index", `${NO_ELEMENT}.${hint}`);
        }
        if (coll.kind === "unknown") return marked(unknownVal(at));
      } else if (coll.kind === "unknown") {
        return marked(unknownVal(ty.element));
      }
      const el = coll.kind === "map" || coll.kind === "object" ? coll.attrs.get(kv.value) : undefined;
      if (!el) return err("Invalid index", `${NO_ELEMENT}.`);
      return marked(el);
    }
    case "set":
      return err(
        "Invalid index",
        "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
      );
    default:
      return err("Invalid index", "This value does not have any indices.");
  }
}

function outOfRange(n: number, tuple: boolean): OpResult {
  if (n === 0) return err("Invalid index", `${NO_ELEMENT}: the collection has no elements.`);
  // A tuple's length is part of its type, so HCL can say why the index is out of range.
  return err("Invalid index", tuple ? `${NO_ELEMENT}: the given index is greater than or equal to the length of the collection.` : `${NO_ELEMENT}.`);
}

/** `value.name` with hcl.GetAttr's rules and messages. */
export function getAttr(value: Value, name: string): OpResult {
  const [v, m] = unmark(value);
  const marked = (r: Value) => ok(withMarks(r, m));
  if (v.kind === "null") return err("Attempt to get attribute from null value", "This value is null, so it does not have any attributes.");
  const ty = v.type;
  switch (ty.kind) {
    case "dynamic":
      return marked(unknownVal(ty));
    case "object": {
      const at = ty.attributes.get(name);
      if (!at) return err("Unsupported attribute", `This object does not have an attribute named ${JSON.stringify(name)}.`);
      if (v.kind !== "object") return marked(unknownVal(at));
      return marked(v.attrs.get(name) as Value);
    }
    case "map": {
      if (v.kind !== "map") return marked(unknownVal(ty.element));
      const el = v.attrs.get(name);
      if (!el) return err("Missing map element", `This map does not have an element with the key ${JSON.stringify(name)}.`);
      return marked(el);
    }
    case "list":
      // A list of objects taken for one object is a common mistake: HCL says so.
      if (ty.element.kind !== "object") break;
      return err(
        "Unsupported attribute",
        ty.element.attributes.has(name)
          ? `Can't access attributes on a list of objects. Did you mean to access attribute ${JSON.stringify(name)} for a specific element of the list, or across all elements of the list?`
          : "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?",
      );
    case "set":
      if (ty.element.kind !== "object") break;
      return err("Unsupported attribute", "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?");
    case "string":
    case "number":
    case "bool":
      return err("Unsupported attribute", `Can't access attributes on a primitive-typed value (${friendlyName(ty)}).`);
    default:
      break;
  }
  return err("Unsupported attribute", "This value does not have any attributes.");
}

