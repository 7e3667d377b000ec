// Built-in functions: numbers. abs, ceil, floor, max, min come from cty's stdlib (exact, on the
// value's BigFloat); log, pow, signum and parseint are OpenTofu's own (lang/funcs/number.go):
// log and pow go through float64 as Go's math package does, which is why their results carry
// float64 precision and why a NaN result fails the way cty's NumberFloatVal panics.
import {
  BigFloat,
  DynamicPseudoType,
  Func,
  NaNError,
  NumberType,
  SENSITIVE,
  absolute,
  argError,
  asNumber,
  asString,
  callError,
  friendlyName,
  goQuote,
  numberFloatVal,
  numberIntVal,
  numberVal,
  refineNonNull,
  staticReturnType,
  unmark,
  withMarks,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { goInt } from "./goint.js";
import { goPow } from "./gomath.js";

const num = (name: string) => ({ name, type: NumberType });

// gocty's message when a number does not fit a float64 (bounds printed with %f).
const MAX_FLOAT_TEXT = BigFloat.fromFloat64(Number.MAX_VALUE).text("f", 6);
const FLOAT_RANGE_ERROR = `value must be between -${MAX_FLOAT_TEXT} and ${MAX_FLOAT_TEXT} inclusive`;

/** gocty.FromCtyValue into a float64: rounds, but refuses to turn a finite number into an infinity. */
function toFloat64(v: Value): { ok: true; value: number } | { ok: false; error: string } {
  const n = asNumber(v);
  const f = n.toFloat64();
  if (!Number.isFinite(f) && !n.isInf()) return { ok: false, error: FLOAT_RANGE_ERROR };
  return { ok: true, value: f };
}

/** cty.NumberFloatVal, whose NaN panic cty reports as a failed call (without Go's stack trace). */
function floatResult(f: number): FunctionResult<Value> {
  if (Number.isNaN(f)) return callError("panic in function implementation: Float.SetFloat64(NaN)");
  try {
    return { ok: true, value: numberFloatVal(f) };
  } catch (e) {
    if (e instanceof NaNError) return callError("panic in function implementation: Float.SetFloat64(NaN)");
    throw e;
  }
}

/** big.Float.Int: the integer part (toward zero) and whether it is below/above the value. */
function intPart(f: BigFloat): { i: bigint; below: boolean; above: boolean } {
  const i = f.toBigInt() as bigint;
  const exact = f.isInt();
  return { i, below: !exact && f.sign() > 0, above: !exact && f.sign() < 0 };
}

function rounded(args: readonly Value[], up: boolean): FunctionResult<Value> {
  const f = asNumber(args[0] as Value);
  if (f.isInf()) return { ok: true, value: numberVal(f) };
  const { i, below, above } = intPart(f);
  let r = i;
  if (up && below) r = i + 1n;
  if (!up && above) r = i - 1n;
  // big.Float.SetInt keeps the receiver's precision.
  return { ok: true, value: numberVal(BigFloat.fromBigInt(r, f.prec)) };
}

function extreme(args: readonly Value[], beyond: (c: number) => boolean, start: BigFloat): FunctionResult<Value> {
  if (args.length === 0) return callError("must pass at least one number");
  // cty starts from the opposite infinity and keeps the first number strictly beyond the best so far.
  let best: Value = numberVal(start);
  for (const a of args) if (beyond(asNumber(a).cmp(asNumber(best)))) best = a;
  return { ok: true, value: best };
}

/** big.Int.SetString(s, base) for bases 2..62: optional sign, digits (no prefixes or underscores). */
function parseBigInt(s: string, base: number): bigint | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    i = 1;
  }
  if (i >= s.length) return undefined;
  const b = BigInt(base);
  let n = 0n;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 122) d = c - 97 + 10;
    else if (c >= 65 && c <= 90) d = base <= 36 ? c - 65 + 10 : c - 65 + 36;
    else return undefined;
    if (d >= base) return undefined;
    n = n * b + BigInt(d);
  }
  return neg ? -n : n;
}

/** OpenTofu's redactIfSensitive: a value in an error message, or "(sensitive value)". */
function redacted(text: string, marked: boolean): string {
  return marked ? "(sensitive value)" : text;
}

export function numericFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    abs: new Func({
      params: [{ name: "num", type: NumberType, allowDynamicType: true, allowMarked: true }],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => ({ ok: true, value: absolute(args[0] as Value) }),
    }),
    ceil: new Func({
      params: [num("num")],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => rounded(args, true),
    }),
    floor: new Func({
      params: [num("num")],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => rounded(args, false),
    }),
    max: new Func({
      params: [],
      varParam: { name: "numbers", type: NumberType, allowDynamicType: true },
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => extreme(args, (c) => c > 0, BigFloat.inf(true)),
    }),
    min: new Func({
      params: [],
      varParam: { name: "numbers", type: NumberType, allowDynamicType: true },
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => extreme(args, (c) => c < 0, BigFloat.inf(false)),
    }),
    log: new Func({
      params: [num("num"), num("base")],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => {
        const x = toFloat64(args[0] as Value);
        if (!x.ok) return callError(x.error);
        const b = toFloat64(args[1] as Value);
        if (!b.ok) return callError(b.error);
        return floatResult(Math.log(x.value) / Math.log(b.value));
      },
    }),
    pow: new Func({
      params: [num("num"), num("power")],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => {
        const x = toFloat64(args[0] as Value);
        if (!x.ok) return callError(x.error);
        const y = toFloat64(args[1] as Value);
        if (!y.ok) return callError(y.error);
        return floatResult(goPow(x.value, y.value));
      },
    }),
    signum: new Func({
      params: [num("num")],
      type: staticReturnType(NumberType),
      refineResult: refineNonNull,
      impl: (args) => {
        const n = goInt(args[0] as Value);
        if (!n.ok) return callError(n.error);
        return { ok: true, value: numberIntVal(n.value < 0n ? -1 : n.value > 0n ? 1 : 0) };
      },
    }),
    parseint: new Func({
      params: [
        { name: "number", type: DynamicPseudoType, allowMarked: true },
        { name: "base", type: NumberType, allowMarked: true },
      ],
      type: (args) => {
        const t = (args[0] as Value).type;
        if (t.kind !== "string") return argError(0, `first argument must be a string, not ${friendlyName(t)}`);
        return { ok: true, value: NumberType };
      },
      refineResult: refineNonNull,
      impl: (args) => {
        const [numArg, numMarks] = unmark(args[0] as Value);
        const [baseArg, baseMarks] = unmark(args[1] as Value);
        if (numArg.kind !== "string") return argError(0, "string required");
        const base = goInt(baseArg);
        if (!base.ok) return argError(1, base.error);
        if (base.value < 2n || base.value > 62n) return argError(1, "base must be a whole number between 2 and 62 inclusive");
        const s = asString(numArg);
        const parsed = parseBigInt(s, Number(base.value));
        if (parsed === undefined) {
          // Each part is hidden only when its own argument is sensitive, as OpenTofu does.
          return argError(0, `cannot parse ${redacted(goQuote(s), numMarks.has(SENSITIVE))} as a base ${redacted(String(base.value), baseMarks.has(SENSITIVE))} integer`);
        }
        return { ok: true, value: withMarks(numberVal(BigFloat.fromBigInt(parsed)), numMarks, baseMarks) };
      },
    }),
  };
}
