// DynamicValue: how object values cross the plugin protocol. Always encoded against a type the
// other side knows (a schema's implied type, a function parameter's type): msgpack when sending,
// as OpenTofu does; on receipt msgpack is preferred, JSON is the fallback, and an absent value is a
// null of the expected type (plugin6/grpc_provider.go decodeDynamicValue). The byte-level work is
// values/msgpack.ts and values/json.ts: unknowns as extension 0 or refined extension 12,
// dynamic-typed values as `[type JSON, value]`, sets in cty's order.

import {
  formatPathError,
  marshalMsgpack,
  nullVal,
  unmarshalJSON,
  unmarshalMsgpack,
  type Type,
  type Value,
} from "../../values/index.js";
import type { ProtoDynamicValue } from "../proto/types.js";

export type DynamicResult = { ok: true; value: Value } | { ok: false; error: string };

/** Encodes a value as msgpack against `type`; fails for marked values or non-conforming ones. */
export function encodeDynamicValue(v: Value, type: Type): { ok: true; value: ProtoDynamicValue } | { ok: false; error: string } {
  const r = marshalMsgpack(v, type);
  if (!r.ok) return { ok: false, error: formatPathError(r.error) };
  return { ok: true, value: { msgpack: r.value } };
}

/** Decodes a DynamicValue against `type`: msgpack first, then JSON, else null. */
export function decodeDynamicValue(dv: ProtoDynamicValue | null | undefined, type: Type): DynamicResult {
  if (!dv) return { ok: true, value: nullVal(type) };
  if (dv.msgpack && dv.msgpack.length > 0) {
    const r = unmarshalMsgpack(dv.msgpack, type);
    return r.ok ? r : { ok: false, error: formatPathError(r.error) };
  }
  if (dv.json && dv.json.length > 0) {
    const r = unmarshalJSON(new TextDecoder().decode(dv.json), type);
    return r.ok ? r : { ok: false, error: formatPathError(r.error) };
  }
  return { ok: true, value: nullVal(type) };
}
