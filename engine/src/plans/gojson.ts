// Go encoding/json output for structs: fields in declaration order, `omitempty` decided by the
// caller (an undefined value is left out), values already JSON text. Compact, as json.Marshal.
import { compareStrings, goJSONString } from "../values/index.js";

export type Field = readonly [name: string, json: string | undefined];

export function goObject(fields: readonly Field[]): string {
  const parts: string[] = [];
  for (const [k, v] of fields) if (v !== undefined) parts.push(`${goJSONString(k)}:${v}`);
  return `{${parts.join(",")}}`;
}

/** A Go map marshalled: keys sorted by bytes. */
export function goMap(entries: Iterable<readonly [string, string]>): string {
  const sorted = [...entries].sort((a, b) => compareStrings(a[0], b[0]));
  return `{${sorted.map(([k, v]) => `${goJSONString(k)}:${v}`).join(",")}}`;
}

export function goArray(items: readonly string[]): string {
  return `[${items.join(",")}]`;
}

export function goString(s: string): string {
  return goJSONString(s);
}

export function goBool(b: boolean): string {
  return b ? "true" : "false";
}

/** `omitempty` for a string field. */
export function omitEmptyString(s: string | undefined): string | undefined {
  return s === undefined || s === "" ? undefined : goJSONString(s);
}

/** `omitempty` for a slice field (nil or empty slices are left out). */
export function omitEmptyArray(items: readonly string[] | undefined): string | undefined {
  return items === undefined || items.length === 0 ? undefined : goArray(items);
}
