// The encrypted form OpenTofu writes for states and plans (its `basedata`): a JSON object with
// the key providers' metadata by storage key, the sealed data and the format version "v0" — a
// state's also carries its serial and lineage in the clear, so that backends which look at them
// still can. Go's encoding/json writes []byte as standard base64 and map keys sorted.
import { goField, goKindName, parseGoJSON, type JsonNode } from "../values/index.js";
import { goMap, goObject, goString } from "../plans/gojson.js";
import { decodeStdBase64, encodeStdBase64 } from "./base64.js";

export const ENCRYPTION_VERSION = "v0";

export interface Envelope {
  readonly meta: ReadonlyMap<string, Uint8Array>;
  readonly data: Uint8Array;
  readonly version: string;
}

/** The clear fields of an encrypted state (OpenTofu's statedata). */
export interface StatePassthrough {
  readonly serial: number | undefined;
  readonly lineage: string;
}

function bytesField(n: JsonNode | undefined, field: string): Uint8Array | string {
  if (!n || n.t === "null") return new Uint8Array(0);
  if (n.t !== "string") return `json: cannot unmarshal ${goKindName(n)} into Go struct field basedata.${field} of type []uint8`;
  return decodeStdBase64(n.v) ?? "illegal base64 data";
}

/**
 * json.Unmarshal into basedata. Go keeps decoding after a field of the wrong type, so the version
 * can be read even when the result carries an error (callers then treat the data as not encrypted).
 */
export function parseEnvelope(src: Uint8Array): { envelope: Envelope; error: string | undefined; state?: StatePassthrough } {
  const empty: Envelope = { meta: new Map(), data: new Uint8Array(0), version: "" };
  const parsed = parseGoJSON(src);
  if (!parsed.ok) return { envelope: empty, error: parsed.error.message };
  const node = parsed.node;
  if (node.t === "null") return { envelope: empty, error: undefined };
  if (node.t !== "object") return { envelope: empty, error: `json: cannot unmarshal ${goKindName(node)} into Go value of type encryption.basedata` };
  const state = passthroughOf(node);
  let error: string | undefined;
  const versionNode = goField(node, "encryption_version");
  let version = "";
  if (versionNode && versionNode.t === "string") version = versionNode.v;
  else if (versionNode && versionNode.t !== "null") error ??= `json: cannot unmarshal ${goKindName(versionNode)} into Go struct field basedata.encryption_version of type string`;
  const data = bytesField(goField(node, "encrypted_data"), "encrypted_data");
  if (typeof data === "string") error ??= data;
  const meta = new Map<string, Uint8Array>();
  const metaNode = goField(node, "meta");
  if (metaNode && metaNode.t === "object") {
    for (const [k, v] of metaNode.entries) {
      const b = bytesField(v, "meta");
      if (typeof b === "string") error ??= b;
      else meta.set(k, b);
    }
  } else if (metaNode && metaNode.t !== "null") {
    error ??= `json: cannot unmarshal ${goKindName(metaNode)} into Go struct field basedata.meta of type encryption.keyProviderMetamap`;
  }
  return { envelope: { meta, data: typeof data === "string" ? new Uint8Array(0) : data, version }, error, ...(typeof state === "string" ? {} : { state }) };
}

/** The clear serial and lineage of a state, encrypted or not (json.Unmarshal into statedata). */
function passthroughOf(node: JsonNode & { t: "object" }): StatePassthrough | string {
  const s = goField(node, "serial");
  const l = goField(node, "lineage");
  let serial: number | undefined;
  if (s && s.t === "number" && /^\d+$/.test(s.raw)) serial = Number(s.raw);
  else if (s && s.t !== "null") return `json: cannot unmarshal ${goKindName(s)} into Go struct field statedata.serial of type int`;
  if (l && l.t !== "string" && l.t !== "null") return `json: cannot unmarshal ${goKindName(l)} into Go struct field statedata.lineage of type string`;
  return { serial, lineage: l && l.t === "string" ? l.v : "" };
}

/** Standard base64 needs no JSON escaping. */
function b64(b: Uint8Array): string {
  return `"${encodeStdBase64(b)}"`;
}

/**
 * json.Marshal of basedata, after the state's clear fields when there are any. The data (most of
 * the bytes) goes from its base64 text straight into the output buffer, not through a string
 * concatenation and a UTF-8 encoding of the whole document.
 */
export function marshalEnvelope(e: Envelope, state?: StatePassthrough): Uint8Array {
  const MARK = "\u0000";
  const fields: Array<readonly [string, string]> = [];
  if (state) fields.push(["serial", state.serial === undefined ? "null" : String(state.serial)], ["lineage", goString(state.lineage)]);
  fields.push(["meta", goMap([...e.meta].map(([k, v]) => [k, b64(v)] as const))], ["encrypted_data", MARK], ["encryption_version", goString(e.version)]);
  const [head, tail] = goObject(fields).split(MARK) as [string, string];
  const data = encodeStdBase64(e.data);
  const out = Buffer.concat([Buffer.from(`${head}"`), Buffer.from(data, "latin1"), Buffer.from(`"${tail}`)]);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
