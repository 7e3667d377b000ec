// What an unknown value's refinements allow (cty's ValueRange), used to decide comparisons early.

import type { Value } from "./value.js";

/**
 * Whether the known value `k` lies inside the range of the unknown value `u`: false when the
 * refinements rule it out, undefined when it may or may not.
 */
export function rangeIncludes(u: Value, k: Value): false | undefined {
  if (u.kind !== "unknown") return undefined;
  const r = u.refinement;
  if (k.kind === "null") return r.notNull ? false : undefined;
  if (k.kind === "unknown") return undefined;
  if (r.stringPrefix && k.kind === "string" && !k.value.startsWith(r.stringPrefix)) return false;
  if (k.kind === "number") {
    if (r.numberLower) {
      const c = k.value.cmp(r.numberLower.value);
      if (c < 0 || (c === 0 && !r.numberLower.inclusive)) return false;
    }
    if (r.numberUpper) {
      const c = k.value.cmp(r.numberUpper.value);
      if (c > 0 || (c === 0 && !r.numberUpper.inclusive)) return false;
    }
  }
  if (k.kind === "list" || k.kind === "set" || k.kind === "map") {
    const n = "attrs" in k ? k.attrs.size : k.elements.length;
    if (n < (r.lengthLower ?? 0)) return false;
    if (r.lengthUpper !== undefined && n > r.lengthUpper) return false;
  }
  return undefined;
}
