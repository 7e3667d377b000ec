// Randomness for the bundled providers: cryptographic bytes, and a small seeded generator for
// `random_integer.seed` (deterministic per seed; not Go's math/rand sequence).

import { createHash, randomBytes, randomInt } from "node:crypto";

export function cryptoBytes(n: number): Uint8Array {
  return new Uint8Array(randomBytes(n));
}

/** A uniformly random integer in [0, 2^63). */
export function randomUint63(): bigint {
  const b = randomBytes(8);
  return b.readBigUInt64BE(0) & 0x7fffffffffffffffn;
}

/** A uniformly random integer in [0, n) for n up to 2^48. */
export function cryptoIntn(n: number): number {
  return randomInt(n);
}

/** A deterministic generator of integers in [0, n) from a seed string (SHA-256 counter mode). */
export function seededIntn(seed: string): (n: number) => number {
  let counter = 0;
  return (n: number) => {
    const h = createHash("sha256").update(`${seed}\u0000${counter++}`).digest();
    return Number(h.readBigUInt64BE(0) % BigInt(n));
  };
}
