// Reading a cty number into a Go `int` the way gocty.FromCtyValue does, with its error text, for
// functions that take indexes and sizes (element, slice, chunklist). Private to the collection
// and encoding modules.
import type { Value } from "../../values/index.js";

const INT_ERROR = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

export type IntResult = { ok: true; value: bigint } | { ok: false; error: string };

/** The known number `v` as an int64, or gocty's error for fractions, infinities and values outside int64. */
export function goInt(v: Value): IntResult {
  if (v.kind !== "number") return { ok: false, error: "value must be a number" };
  const i = v.value.toInt64();
  if (i === undefined) return { ok: false, error: INT_ERROR };
  return { ok: true, value: i };
}
