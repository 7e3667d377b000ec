// Resource instance objects (OpenTofu's states.ResourceInstanceObjectSrc / ResourceInstanceObject):
// what state holds for one remote object. The "Src" form keeps attributes as JSON text (or a
// legacy flatmap) so a state can be read, copied and written without provider schemas; decoding
// against a schema happens later, when a node of the graph walk needs the value.
import type { ConfigResource } from "../addrs/index.js";
import {
  SENSITIVE,
  formatPathError,
  markWithPaths,
  marshalJSON,
  nullVal,
  unmarkDeepWithPaths,
  unmarshalJSON,
  type Path,
  type Type,
  type Value,
} from "../values/index.js";
import { valueFromFlatmap } from "./flatmap.js";

/** ObjectReady or ObjectTainted (OpenTofu also has ObjectPlanned, which never reaches state). */
export type ObjectStatus = "ready" | "tainted" | "planned";
export const ObjectReady: ObjectStatus = "ready";
export const ObjectTainted: ObjectStatus = "tainted";
export const ObjectPlanned: ObjectStatus = "planned";

/** An 8-character key naming a deposed object of an instance; "" (NotDeposed) is the current one. */
export type DeposedKey = string;
export const NotDeposed: DeposedKey = "";

/** OpenTofu's NewDeposedKey: 8 lowercase hex digits of a random 31-bit number. */
export function newDeposedKey(random: () => number = Math.random): DeposedKey {
  const n = Math.floor(random() * 0x80000000);
  return n.toString(16).padStart(8, "0");
}

export interface ResourceInstanceObjectSrc {
  /** The provider's schema version the attributes were written with. */
  schemaVersion: number;
  /** Attributes as compact JSON text; undefined when the object has legacy flatmap attributes. */
  attrsJSON?: string;
  /** Legacy (pre-0.12) flatmap attributes, kept verbatim until a provider upgrades them. */
  attrsFlat?: Map<string, string>;
  /** Paths to sensitive attribute values (the sensitive marks taken off before encoding). */
  attrSensitivePaths: Path[];
  /** Opaque provider data. */
  private?: Uint8Array;
  status: ObjectStatus;
  /** Resources this object depended on when it was last applied. */
  dependencies: ConfigResource[];
  createBeforeDestroy: boolean;
  /** `lifecycle { destroy = false }`: forget rather than destroy. */
  skipDestroy: boolean;
  /** The resource identity as compact JSON text, when the provider reports one. */
  identityJSON?: string;
  identitySchemaVersion: number;
}

/** A decoded object: attributes as a value of the resource type's schema type, with marks. */
export interface ResourceInstanceObject {
  value: Value;
  private?: Uint8Array;
  status: ObjectStatus;
  dependencies: ConfigResource[];
  createBeforeDestroy: boolean;
  skipDestroy: boolean;
  identity?: Value;
}

export function newObjectSrc(init: Partial<ResourceInstanceObjectSrc> = {}): ResourceInstanceObjectSrc {
  return {
    schemaVersion: 0,
    attrSensitivePaths: [],
    status: ObjectReady,
    dependencies: [],
    createBeforeDestroy: false,
    skipDestroy: false,
    identitySchemaVersion: 0,
    ...init,
  };
}

export function deepCopyObjectSrc(o: ResourceInstanceObjectSrc): ResourceInstanceObjectSrc {
  const c: ResourceInstanceObjectSrc = {
    schemaVersion: o.schemaVersion,
    attrSensitivePaths: [...o.attrSensitivePaths],
    status: o.status,
    dependencies: [...o.dependencies],
    createBeforeDestroy: o.createBeforeDestroy,
    skipDestroy: o.skipDestroy,
    identitySchemaVersion: o.identitySchemaVersion,
  };
  if (o.attrsJSON !== undefined) c.attrsJSON = o.attrsJSON;
  if (o.attrsFlat !== undefined) c.attrsFlat = new Map(o.attrsFlat);
  if (o.private !== undefined) c.private = o.private.slice();
  if (o.identityJSON !== undefined) c.identityJSON = o.identityJSON;
  return c;
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Decodes the attributes against the resource type's schema type and re-applies the sensitive
 * marks. Flatmap attributes decode as well as that format allows; the provider's
 * UpgradeResourceState, when the resource is next planned, is what really converts them.
 */
export function decodeObject(src: ResourceInstanceObjectSrc, type: Type, identityType?: Type): DecodeResult<ResourceInstanceObject> {
  let attrs: Value;
  if (src.attrsJSON !== undefined) {
    const j = unmarshalJSON(src.attrsJSON, type);
    if (!j.ok) return { ok: false, error: formatPathError(j.error) };
    attrs = j.value;
  } else if (src.attrsFlat !== undefined) {
    // From a state older than v4 that no provider has upgraded yet: decoded as well as the
    // flatmap allows (OpenTofu's Decode does the same).
    const f = valueFromFlatmap(src.attrsFlat, type);
    if (!f.ok) return { ok: false, error: f.error };
    attrs = f.value;
  } else attrs = nullVal(type);
  const marks = new Set([SENSITIVE]);
  const value = markWithPaths(
    attrs,
    src.attrSensitivePaths.map((path) => ({ path, marks })),
  );
  const obj: ResourceInstanceObject = {
    value,
    status: src.status,
    dependencies: [...src.dependencies],
    createBeforeDestroy: src.createBeforeDestroy,
    skipDestroy: src.skipDestroy,
  };
  if (src.private !== undefined) obj.private = src.private;
  if (src.identityJSON !== undefined && identityType !== undefined) {
    const id = unmarshalJSON(src.identityJSON, identityType);
    if (!id.ok) return { ok: false, error: formatPathError(id.error) };
    obj.identity = id.value;
  }
  return { ok: true, value: obj };
}

/** Encodes a decoded object for state: marks become sensitive paths, the value JSON text. */
export function encodeObject(
  obj: ResourceInstanceObject,
  type: Type,
  schemaVersion: number,
  identity?: { type: Type; schemaVersion: number },
): DecodeResult<ResourceInstanceObjectSrc> {
  const [plain, pvm] = unmarkDeepWithPaths(obj.value);
  const json = marshalJSON(plain, type);
  if (!json.ok) return { ok: false, error: formatPathError(json.error) };
  const src = newObjectSrc({
    schemaVersion,
    attrsJSON: json.value,
    attrSensitivePaths: pvm.filter((p) => p.marks.has(SENSITIVE)).map((p) => p.path),
    status: obj.status,
    dependencies: [...obj.dependencies],
    createBeforeDestroy: obj.createBeforeDestroy,
    skipDestroy: obj.skipDestroy,
  });
  if (obj.private !== undefined && obj.private.length > 0) src.private = obj.private;
  if (obj.identity !== undefined && identity !== undefined) {
    const [plainId] = unmarkDeepWithPaths(obj.identity);
    const idJSON = marshalJSON(plainId, identity.type);
    if (!idJSON.ok) return { ok: false, error: formatPathError(idJSON.error) };
    src.identityJSON = idJSON.value;
    src.identitySchemaVersion = identity.schemaVersion;
  }
  return { ok: true, value: src };
}
