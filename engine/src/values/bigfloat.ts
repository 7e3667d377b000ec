// Arbitrary-precision binary floating point, with the semantics of Go's math/big.Float as cty uses
// it. cty numbers are binary (not decimal) floats whose precision travels with each value: 512 bits
// for numbers parsed from text, 64 for integers made by the engine, 53 for float64s. The observable
// consequences (how `1/3` prints, that `0.1 + 0.2 == 0.3`, that `pow(2, 64)` prints as
// 18446744073709550000) all follow from those rules, so we reproduce them bit for bit with BigInt.
// Rounding is always to nearest, ties to even (big.Float's default mode).

/** Precision used when parsing numbers from text (HCL literals, JSON, strings). */
export const PARSE_PREC = 512;

type Form = "zero" | "finite" | "inf";

/** An error raised by an operation whose result would be NaN (big.ErrNaN in Go). */
export class NaNError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NaNError";
  }
}

function bitLength(n: bigint): number {
  if (n === 0n) return 0;
  // Hex digits give the length to within 4 bits; the top digit fixes the rest.
  const hex = n.toString(16);
  const top = parseInt(hex[0] ?? "0", 16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(top));
}

function trailingZeroBits(n: bigint): number {
  if (n === 0n) return 0;
  let count = 0;
  while ((n & 0xffffffffn) === 0n) {
    n >>= 32n;
    count += 32;
  }
  let low = Number(n & 0xffffffffn);
  while ((low & 1) === 0) {
    low >>>= 1;
    count++;
  }
  return count;
}

/**
 * Rounds mant·2^exp (mant > 0) to `prec` bits, ties to even. `sticky` says the true value is a
 * little above mant·2^exp (non-zero bits were already dropped below it); callers that pass it
 * must supply at least prec+2 bits so that it can only break ties.
 */
function roundMant(mant: bigint, exp: number, prec: number, sticky = false): { mant: bigint; exp: number } {
  const bl = bitLength(mant);
  if (bl <= prec) return { mant, exp };
  const shift = bl - prec;
  const sh = BigInt(shift);
  const q = mant >> sh;
  const rem = mant & ((1n << sh) - 1n);
  const half = 1n << (sh - 1n);
  let r = q;
  if (rem > half || (rem === half && (sticky || (q & 1n) === 1n))) r = q + 1n;
  return { mant: r, exp: exp + shift };
}

/** A decimal digit string d1d2d3... with value 0.d1d2d3 × 10^exp, as Go's big/decimal. */
interface Decimal {
  mant: string;
  exp: number;
}

function decimalOf(mant: bigint, exp: number): Decimal {
  if (mant === 0n) return { mant: "", exp: 0 };
  let digits: string;
  let pointShift = 0;
  if (exp >= 0) {
    digits = (mant << BigInt(exp)).toString();
  } else {
    const k = -exp;
    digits = (mant * 5n ** BigInt(k)).toString();
    pointShift = k;
  }
  let n = digits.length;
  while (n > 0 && digits[n - 1] === "0") n--;
  return { mant: digits.slice(0, n), exp: digits.length - pointShift };
}

function decAt(d: Decimal, i: number): string {
  return i >= 0 && i < d.mant.length ? (d.mant[i] as string) : "0";
}

function decTrim(d: Decimal): void {
  let n = d.mant.length;
  while (n > 0 && d.mant[n - 1] === "0") n--;
  d.mant = d.mant.slice(0, n);
  if (n === 0) d.exp = 0;
}

function decRoundUp(d: Decimal, n: number): void {
  if (n < 0 || n >= d.mant.length) return;
  while (n > 0 && (d.mant[n - 1] as string) >= "9") n--;
  if (n === 0) {
    d.mant = "1";
    d.exp++;
    return;
  }
  const c = String.fromCharCode(d.mant.charCodeAt(n - 1) + 1);
  d.mant = d.mant.slice(0, n - 1) + c;
}

function decRoundDown(d: Decimal, n: number): void {
  if (n < 0 || n >= d.mant.length) return;
  d.mant = d.mant.slice(0, n);
  decTrim(d);
}

function decRound(d: Decimal, n: number): void {
  if (n < 0 || n >= d.mant.length) return;
  let up: boolean;
  if (d.mant[n] === "5" && n + 1 === d.mant.length) {
    up = n > 0 && ((d.mant.charCodeAt(n - 1) - 48) & 1) !== 0;
  } else {
    up = (d.mant[n] as string) >= "5";
  }
  if (up) decRoundUp(d, n);
  else decRoundDown(d, n);
}

function fmtF(prec: number, d: Decimal): string {
  let out = "";
  if (d.exp > 0) {
    const m = Math.min(d.mant.length, d.exp);
    out += d.mant.slice(0, m);
    if (m < d.exp) out += "0".repeat(d.exp - m);
  } else {
    out += "0";
  }
  if (prec > 0) {
    out += ".";
    for (let i = 0; i < prec; i++) out += decAt(d, d.exp + i);
  }
  return out;
}

function fmtE(prec: number, d: Decimal): string {
  let out = d.mant.length > 0 ? (d.mant[0] as string) : "0";
  if (prec > 0) {
    out += ".";
    let i = 1;
    const m = Math.min(d.mant.length, prec + 1);
    if (i < m) {
      out += d.mant.slice(i, m);
      i = m;
    }
    for (; i <= prec; i++) out += "0";
  }
  out += "e";
  let exp = d.mant.length > 0 ? d.exp - 1 : 0;
  out += exp < 0 ? "-" : "+";
  if (exp < 0) exp = -exp;
  if (exp < 10) out += "0";
  return out + String(exp);
}

export class BigFloat {
  /** Finite values are mant·2^exp with mant odd and positive; zero and infinities ignore both. */
  private constructor(
    readonly form: Form,
    readonly neg: boolean,
    readonly mant: bigint,
    readonly exp: number,
    readonly prec: number,
  ) {}

  static zero(prec = 53, neg = false): BigFloat {
    return new BigFloat("zero", neg, 0n, 0, prec);
  }

  static inf(neg: boolean): BigFloat {
    return new BigFloat("inf", neg, 0n, 0, 0);
  }

  /** Rounds neg·mant·2^exp to prec bits. */
  static make(neg: boolean, mant: bigint, exp: number, prec: number, sticky = false): BigFloat {
    if (mant < 0n) {
      mant = -mant;
      neg = !neg;
    }
    if (mant === 0n) return BigFloat.zero(prec, neg);
    const r = roundMant(mant, exp, prec, sticky);
    const tz = trailingZeroBits(r.mant);
    return new BigFloat("finite", neg, r.mant >> BigInt(tz), r.exp + tz, prec);
  }

  /** big.Float.SetInt on a fresh value: precision is max(64, bit length). */
  static fromBigInt(n: bigint, prec?: number): BigFloat {
    const p = prec ?? Math.max(64, bitLength(n < 0n ? -n : n));
    return BigFloat.make(n < 0n, n < 0n ? -n : n, 0, p);
  }

  /** cty.NumberIntVal: an int64 at 64 bits of precision. */
  static fromInt(n: number | bigint): BigFloat {
    return BigFloat.fromBigInt(BigInt(n), 64);
  }

  /** cty.NumberFloatVal / big.NewFloat: a float64 at 53 bits. NaN is a programmer error. */
  static fromFloat64(f: number): BigFloat {
    if (Number.isNaN(f)) throw new NaNError("NaN is not a number value");
    if (f === Infinity) return BigFloat.inf(false);
    if (f === -Infinity) return BigFloat.inf(true);
    if (f === 0) return BigFloat.zero(53, Object.is(f, -0));
    const neg = f < 0;
    let a = Math.abs(f);
    // Scale into the integer range exactly (multiplying by powers of two is exact in float64).
    let exp = 0;
    while (a >= 2 ** 53) {
      a /= 2 ** 20;
      exp += 20;
    }
    while (!Number.isInteger(a)) {
      a *= 2 ** 20;
      exp -= 20;
    }
    return BigFloat.make(neg, BigInt(a), exp, 53);
  }

  /**
   * big.ParseFloat(s, 10, prec, ToNearestEven), including its exact intermediate steps for
   * decimal exponents (a power of five computed at prec+64 bits), so results match Go bit for bit.
   * Returns undefined when s is not a decimal number (no spaces, no hex, no underscores).
   */
  static parse(s: string, prec = PARSE_PREC): BigFloat | undefined {
    let i = 0;
    let neg = false;
    if (s[0] === "+" || s[0] === "-") {
      neg = s[0] === "-";
      i = 1;
    }
    const rest = s.slice(i);
    if (rest === "Inf" || rest === "inf") return BigFloat.inf(neg);
    const m = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(rest);
    if (!m) return undefined;
    const intPart = m[1] ?? "";
    const fracPart = m[2] ?? "";
    if (intPart.length + fracPart.length === 0) return undefined;
    const e = m[3] === undefined ? 0 : Number(m[3]);
    if (!Number.isSafeInteger(e) || Math.abs(e) > 2 ** 31) return undefined;
    const digits = BigInt((intPart + fracPart).replace(/^0+/, "") || "0");
    if (digits === 0n) return BigFloat.zero(prec, neg);
    const exp10 = e - fracPart.length;
    if (exp10 === 0) return BigFloat.make(neg, digits, 0, prec);
    // 10^k = 5^k · 2^k: the power of two is exact, the power of five is rounded like Go does.
    const p = pow5(Math.abs(exp10), prec + 64);
    if (exp10 > 0) {
      return BigFloat.make(neg, digits * p.mant, exp10 + p.exp, prec);
    }
    return quoMant(neg, digits, exp10, p.mant, p.exp, prec);
  }

  isZero(): boolean {
    return this.form === "zero";
  }

  isInf(): boolean {
    return this.form === "inf";
  }

  /** -1, 0 or 1 (zero of either sign gives 0). */
  sign(): number {
    if (this.form === "zero") return 0;
    return this.neg ? -1 : 1;
  }

  isInt(): boolean {
    return this.form === "zero" || (this.form === "finite" && this.exp >= 0);
  }

  /** Bits needed to represent the value exactly (big.Float.MinPrec). */
  minPrec(): number {
    return this.form === "finite" ? bitLength(this.mant) : 0;
  }

  withPrec(prec: number): BigFloat {
    if (this.form !== "finite") return new BigFloat(this.form, this.neg, 0n, 0, this.form === "inf" ? 0 : prec);
    return BigFloat.make(this.neg, this.mant, this.exp, prec);
  }

  neg_(): BigFloat {
    return new BigFloat(this.form, !this.neg, this.mant, this.exp, this.prec);
  }

  abs(): BigFloat {
    return new BigFloat(this.form, false, this.mant, this.exp, this.prec);
  }

  /** Truncates toward zero (big.Float.Int); undefined for infinities. */
  toBigInt(): bigint | undefined {
    if (this.form === "zero") return 0n;
    if (this.form === "inf") return undefined;
    const v = this.exp >= 0 ? this.mant << BigInt(this.exp) : this.mant >> BigInt(-this.exp);
    return this.neg ? -v : v;
  }

  /** The value as an int64 when it is exactly one. */
  toInt64(): bigint | undefined {
    if (!this.isInt()) return undefined;
    const v = this.toBigInt();
    if (v === undefined || v < -(2n ** 63n) || v >= 2n ** 63n) return undefined;
    return v;
  }

  /** The value as a float64 when exactly representable (infinities are). */
  toFloat64Exact(): number | undefined {
    if (this.form === "zero") return this.neg ? -0 : 0;
    if (this.form === "inf") return this.neg ? -Infinity : Infinity;
    const bl = bitLength(this.mant);
    if (bl > 53) return undefined;
    const top = this.exp + bl - 1;
    if (top > 1023 || this.exp < -1074) return undefined;
    let f = Number(this.mant);
    let e = this.exp;
    // Apply the exponent in steps that stay inside float64's range, so every step is exact.
    while (e > 0) {
      const s = Math.min(e, 1000);
      f *= 2 ** s;
      e -= s;
    }
    while (e < 0) {
      const s = Math.min(-e, 1000);
      f /= 2 ** s;
      e += s;
    }
    return this.neg ? -f : f;
  }

  /** The nearest float64 (for functions that compute in float64, like pow or log). */
  toFloat64(): number {
    const exact = this.toFloat64Exact();
    if (exact !== undefined) return exact;
    const r = BigFloat.make(this.neg, this.mant, this.exp, 53);
    const bl = bitLength(r.mant);
    if (r.exp + bl - 1 > 1023) return r.neg ? -Infinity : Infinity;
    if (r.exp < -1074) return Number(r.text("g", 17));
    return r.toFloat64Exact() ?? Number(r.text("g", 17));
  }

  cmp(o: BigFloat): number {
    const a = this.sign();
    const b = o.sign();
    if (a !== b) return a < b ? -1 : 1;
    if (a === 0) return 0;
    // same non-zero sign
    let c: number;
    if (this.form === "inf" || o.form === "inf") {
      c = this.form === o.form ? 0 : this.form === "inf" ? 1 : -1;
    } else {
      c = cmpAbs(this, o);
    }
    return a < 0 ? -c : c;
  }

  /** big.Float.Add into a fresh value: precision max(x, y). */
  add(o: BigFloat, prec = Math.max(this.prec, o.prec)): BigFloat {
    if (this.form === "inf" || o.form === "inf") {
      if (this.form === "inf" && o.form === "inf" && this.neg !== o.neg) {
        throw new NaNError("addition of infinities with opposite signs");
      }
      return this.form === "inf" ? BigFloat.inf(this.neg) : BigFloat.inf(o.neg);
    }
    if (this.form === "zero" && o.form === "zero") return BigFloat.zero(prec, this.neg && o.neg);
    if (this.form === "zero") return o.withPrec(prec);
    if (o.form === "zero") return this.withPrec(prec);
    const e = Math.min(this.exp, o.exp);
    const a = (this.mant << BigInt(this.exp - e)) * (this.neg ? -1n : 1n);
    const b = (o.mant << BigInt(o.exp - e)) * (o.neg ? -1n : 1n);
    const sum = a + b;
    if (sum === 0n) return BigFloat.zero(prec, false);
    return BigFloat.make(sum < 0n, sum < 0n ? -sum : sum, e, prec);
  }

  sub(o: BigFloat, prec?: number): BigFloat {
    return this.add(o.neg_(), prec);
  }

  mul(o: BigFloat, prec = Math.max(this.prec, o.prec)): BigFloat {
    const neg = this.neg !== o.neg;
    if (this.form === "inf" || o.form === "inf") {
      if (this.form === "zero" || o.form === "zero") throw new NaNError("multiplication of zero with infinity");
      return BigFloat.inf(neg);
    }
    if (this.form === "zero" || o.form === "zero") return BigFloat.zero(prec, neg);
    return BigFloat.make(neg, this.mant * o.mant, this.exp + o.exp, prec);
  }

  quo(o: BigFloat, prec = Math.max(this.prec, o.prec)): BigFloat {
    const neg = this.neg !== o.neg;
    if (this.form === "zero" && o.form === "zero") throw new NaNError("division of zero by zero");
    if (this.form === "inf" && o.form === "inf") throw new NaNError("division of infinity by infinity");
    if (this.form === "zero" || o.form === "inf") return BigFloat.zero(prec, neg);
    if (o.form === "zero" || this.form === "inf") return BigFloat.inf(neg);
    return quoMant(neg, this.mant, this.exp, o.mant, o.exp, prec);
  }

  /**
   * Formats like big.Float.Text: 'f' with digits -1 is the shortest decimal that reads back to
   * the same value at this precision (cty's canonical number text); 'g' with a digit count is
   * what Go's String() uses (10 digits); 'e', 'E' and 'G' serve the `format` function's verbs.
   */
  text(fmt: "f" | "g" | "e" | "E" | "G", digits = -1): string {
    if (this.form === "inf") return this.neg ? "-Inf" : "+Inf";
    // The upper-case forms differ only in the exponent letter (finite values have at most one).
    if (fmt === "E" || fmt === "G") return this.text(fmt === "E" ? "e" : "g", digits).replace("e", "E");
    const sign = this.neg ? "-" : "";
    if (fmt === "e") {
      const d = decimalOf(this.mant, this.exp);
      if (digits < 0) {
        if (this.form === "finite") roundShortest(d, this);
        digits = d.mant.length - 1;
      } else {
        decRound(d, 1 + digits);
      }
      return sign + fmtE(digits, d);
    }
    // Fast path: an integer that fits the precision has an ulp of at most 1, so its shortest
    // representation is all of its digits.
    if (fmt === "f" && digits < 0 && this.form === "finite" && this.exp >= 0 && this.exp + bitLength(this.mant) <= this.prec) {
      return sign + (this.mant << BigInt(this.exp)).toString();
    }
    const d = decimalOf(this.mant, this.exp);
    const shortest = digits < 0;
    if (shortest) {
      if (this.form === "finite") roundShortest(d, this);
      if (fmt === "f") return sign + fmtF(Math.max(d.mant.length - d.exp, 0), d);
      digits = d.mant.length;
    } else if (fmt === "f") {
      decRound(d, d.exp + digits);
      return sign + fmtF(digits, d);
    } else {
      if (digits === 0) digits = 1;
      decRound(d, digits);
    }
    // %g
    let eprec = digits;
    if (eprec > d.mant.length && d.mant.length >= d.exp) eprec = d.mant.length;
    if (shortest) eprec = 6;
    const exp = d.exp - 1;
    if (exp < -4 || exp >= eprec) {
      let p = digits;
      if (p > d.mant.length) p = d.mant.length;
      return sign + fmtE(p - 1, d);
    }
    let p = digits;
    if (p > d.exp) p = d.mant.length;
    return sign + fmtF(Math.max(p - d.exp, 0), d);
  }

  toString(): string {
    return this.text("f");
  }
}

function cmpAbs(x: BigFloat, y: BigFloat): number {
  const ex = x.exp + bitLength(x.mant);
  const ey = y.exp + bitLength(y.mant);
  if (ex !== ey) return ex < ey ? -1 : 1;
  const e = Math.min(x.exp, y.exp);
  const a = x.mant << BigInt(x.exp - e);
  const b = y.mant << BigInt(y.exp - e);
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Correctly rounded (nx·2^ex) / (ny·2^ey) at prec bits. */
function quoMant(neg: boolean, nx: bigint, ex: number, ny: bigint, ey: number, prec: number): BigFloat {
  const k = Math.max(0, prec + 2 + bitLength(ny) - bitLength(nx));
  const num = nx << BigInt(k);
  const q = num / ny;
  const r = num % ny;
  return BigFloat.make(neg, q, ex - ey - k, prec, r !== 0n);
}

/** Go's Float.pow5 at the given precision: exact up to 5^27, then repeated squaring with rounding. */
function pow5(n: number, prec: number): { mant: bigint; exp: number } {
  if (n <= 27) return { mant: 5n ** BigInt(n), exp: 0 };
  let z = BigFloat.make(false, 5n ** 27n, 0, prec);
  let f = BigFloat.make(false, 5n, 0, prec + 64);
  let rem = n - 27;
  while (rem > 0) {
    if (rem & 1) z = z.mul(f, prec);
    f = f.mul(f, prec + 64);
    rem = Math.floor(rem / 2);
  }
  return { mant: z.mant, exp: z.exp };
}

/** Go's roundShortest: fewest digits that still round back to x at x's precision. */
function roundShortest(d: Decimal, x: BigFloat): void {
  if (d.mant.length === 0) return;
  const bl = bitLength(x.mant);
  const top = x.exp + bl; // x < 2^top
  const e2 = top - (x.prec + 1);
  const m2 = x.mant << BigInt(x.exp - e2);
  const lower = decimalOf(m2 - 1n, e2);
  const upper = decimalOf(m2 + 1n, e2);
  const inclusive = (m2 & 2n) === 0n;
  // Digits are compared position by position without aligning exponents, exactly as Go does.
  const alignedLower = lower;
  const alignedUpper = upper;
  for (let i = 0; i < d.mant.length; i++) {
    const m = d.mant[i] as string;
    const l = decAt(alignedLower, i);
    const u = decAt(alignedUpper, i);
    const okdown = l !== m || (inclusive && i + 1 === alignedLower.mant.length);
    const okup = m !== u && (inclusive || m.charCodeAt(0) + 1 < u.charCodeAt(0) || i + 1 < alignedUpper.mant.length);
    if (okdown && okup) {
      decRound(d, i + 1);
      return;
    }
    if (okdown) {
      decRoundDown(d, i + 1);
      return;
    }
    if (okup) {
      decRoundUp(d, i + 1);
      return;
    }
  }
}
