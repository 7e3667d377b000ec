// Instance keys (OpenTofu's addrs.InstanceKey): which instance of a resource, module call or
// provider configuration an address means. `count` gives IntKey, `for_each` gives StringKey (or
// IntKey for a sequence), and an object without either has the single instance NoKey.
import { quoteStringLit } from "../hcl/index.js";
import type { LiteralValue } from "../hcl/index.js";
import { compareStrings, numberIntVal, parseNumberVal, stringVal, type Value } from "../values/index.js";

export interface NoKeyType {
  readonly kind: "NoKey";
}
export interface IntKey {
  readonly kind: "IntKey";
  readonly value: number;
}
export interface StringKey {
  readonly kind: "StringKey";
  readonly value: string;
}
export type InstanceKey = NoKeyType | IntKey | StringKey;

/** The key of the single instance of an object that uses neither count nor for_each. */
export const NoKey: NoKeyType = Object.freeze({ kind: "NoKey" });

export function intKey(n: number): IntKey {
  if (!Number.isSafeInteger(n)) throw new Error(`IntKey must be a safe integer, got ${n}`);
  return { kind: "IntKey", value: n };
}

export function stringKey(s: string): StringKey {
  return { kind: "StringKey", value: s };
}

const WHOLE_NUMBER = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

export type InstanceKeyResult = { key: InstanceKey; error?: undefined } | { key: InstanceKey; error: string };

/**
 * The key an index value denotes: a string is a StringKey, a whole number an IntKey (gocty's
 * int conversion decides what counts as whole); anything else is an error. The value must be
 * known and not null (index keys written in source always are); callers unmark it first.
 */
export function parseInstanceKey(v: Value): InstanceKeyResult {
  switch (v.kind) {
    case "string":
      return { key: stringKey(v.value) };
    case "number": {
      const i = v.value.toInt64();
      // Keys past 2^53 are not representable here; no real count or tuple comes near that.
      if (i === undefined || i > BigInt(Number.MAX_SAFE_INTEGER) || i < BigInt(Number.MIN_SAFE_INTEGER)) {
        return { key: NoKey, error: WHOLE_NUMBER };
      }
      return { key: intKey(Number(i)) };
    }
    case "unknown":
    case "null":
      throw new Error(`parseInstanceKey called with ${v.kind} value`);
    default:
      return { key: NoKey, error: "either a string or an integer is required" };
  }
}

/** The key written in a traversal's index step (`["a"]`, `[0]`). */
export function instanceKeyFromLiteral(lit: LiteralValue): InstanceKeyResult {
  switch (lit.type) {
    case "string":
      return parseInstanceKey(stringVal(lit.value));
    case "number": {
      const n = parseNumberVal(lit.text);
      if (n === undefined) return { key: NoKey, error: WHOLE_NUMBER };
      return parseInstanceKey(n);
    }
    default:
      return { key: NoKey, error: "either a string or an integer is required" };
  }
}

/**
 * A string as an HCL quoted string literal, so that printed addresses parse back as traversals
 * even when a key contains quotes, backslashes or template introducers.
 */
export function toHCLQuotedString(s: string): string {
  return quoteStringLit(s);
}

/** The key in HCL index form: `[0]`, `["a"]`; NoKey prints as nothing. */
export function instanceKeyString(k: InstanceKey): string {
  switch (k.kind) {
    case "NoKey":
      return "";
    case "IntKey":
      return `[${k.value}]`;
    case "StringKey":
      return `[${toHCLQuotedString(k.value)}]`;
  }
}

/** The key as a value (`count.index`, `each.key`); NoKey has none. */
export function instanceKeyValue(k: InstanceKey): Value {
  switch (k.kind) {
    case "NoKey":
      throw new Error("NoKey has no value");
    case "IntKey":
      return numberIntVal(k.value);
    case "StringKey":
      return stringVal(k.value);
  }
}

export function instanceKeyEqual(a: InstanceKey, b: InstanceKey): boolean {
  if (a.kind === "NoKey" || b.kind === "NoKey") return a.kind === b.kind;
  return a.kind === b.kind && a.value === b.value;
}

/** Rank of each kind in OpenTofu's order: NoKey, then int keys, then string keys ('I' < 'S'). */
const KIND_RANK = { NoKey: 0, IntKey: 1, StringKey: 2 } as const;

/** OpenTofu's InstanceKeyLess as a comparator: NoKey first, ints numerically, strings bytewise. */
export function compareInstanceKeys(a: InstanceKey, b: InstanceKey): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] - KIND_RANK[b.kind];
  if (a.kind === "IntKey" && b.kind === "IntKey") return a.value - b.value;
  if (a.kind === "StringKey" && b.kind === "StringKey") return compareStrings(a.value, b.value);
  return 0;
}

export function instanceKeyLess(a: InstanceKey, b: InstanceKey): boolean {
  return compareInstanceKeys(a, b) < 0;
}
