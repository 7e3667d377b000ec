// Go's math.Pow, step for step, so that `pow` gives the float64 Go gives. Integer exponents use
// Go's repeated squaring on a frexp mantissa, which is not always correctly rounded — and not the
// same as JavaScript's Math.pow — so the algorithm itself has to be reproduced.

/** math.Frexp: x = frac × 2^exp with 0.5 ≤ |frac| < 1. */
function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x) || Number.isNaN(x)) return [x, 0];
  let e = 0;
  let f = Math.abs(x);
  // Scale subnormals into the normal range first, as Go's normalize does.
  if (f < 2.2250738585072014e-308) {
    f *= 2 ** 52;
    e -= 52;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1022;
  view.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  const frac = view.getFloat64(0);
  return [x < 0 ? -frac : frac, e];
}

/** math.Ldexp: frac × 2^exp, with Go's rounding into the subnormal range. */
function ldexp(frac: number, exp: number): number {
  if (frac === 0 || !Number.isFinite(frac) || Number.isNaN(frac)) return frac;
  let f = frac;
  let e = exp;
  if (Math.abs(f) < 2.2250738585072014e-308) {
    f *= 2 ** 52;
    e -= 52;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1023;
  if (e < -1075) return f < 0 ? -0 : 0; // underflow
  if (e > 1023) return f < 0 ? -Infinity : Infinity; // overflow
  let m = 1;
  if (e < -1022) {
    // denormal: build the number 2^53 higher, then scale down (one rounding, as Go)
    e += 53;
    m = 2 ** -53;
  }
  view.setUint32(0, (hi & 0x800fffff) | ((e + 1023) << 20));
  return m * view.getFloat64(0);
}

function isOddInt(x: number): boolean {
  if (Math.abs(x) >= 2 ** 53) return false;
  return Number.isInteger(x) && Math.abs(x % 2) === 1;
}

/** math.Pow. */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0) {
    if (y < 0) {
      if (Object.is(x, -0) && isOddInt(y)) return -Infinity;
      return Infinity;
    }
    if (y > 0) {
      if (Object.is(x, -0) && isOddInt(y)) return x;
      return 0;
    }
  }
  if (!Number.isFinite(y)) {
    if (x === -1) return 1;
    if ((Math.abs(x) < 1) === (y > 0)) return 0;
    return Infinity;
  }
  if (!Number.isFinite(x)) {
    if (x < 0) return goPow(1 / x, -y); // Pow(-0, -y)
    if (y < 0) return 0;
    if (y > 0) return Infinity;
  }
  if (y === 0.5) return Math.sqrt(x);
  if (y === -0.5) return 1 / Math.sqrt(x);

  const ay = Math.abs(y);
  let yi = Math.trunc(ay);
  let yf = ay - yi;
  if (yf !== 0 && x < 0) return NaN;
  if (yi >= 2 ** 63) {
    if (x === -1) return 1;
    if ((Math.abs(x) < 1) === (y > 0)) return 0;
    return Infinity;
  }
  let a1 = 1.0;
  let ae = 0;
  if (yf !== 0) {
    if (yf > 0.5) {
      yf--;
      yi++;
    }
    a1 = Math.exp(yf * Math.log(x));
  }
  let [x1, xe] = frexp(x);
  for (let i = BigInt(yi); i !== 0n; i >>= 1n) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      // catastrophic overflow: the exponent is out of range
      ae += xe;
      break;
    }
    if ((i & 1n) === 1n) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe <<= 1;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}
