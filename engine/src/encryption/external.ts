// The `external` key provider (OpenTofu 1.10's keyprovider/external): a program the user names
// makes the keys. It prints a header line (`{"magic":"OpenTofu-External-Key-Provider","version":1}`),
// reads the stored metadata on stdin (`null` when there is none, else `{"external_data":{…}}`),
// and prints `{"keys":{"encryption_key":"<base64>","decryption_key":"<base64>"},"meta":{…}}`.
// It runs for at most a minute; its stderr is quoted when it fails.
import { spawnSync } from "node:child_process";
import { goField, goKindName, parseGoJSON, type JsonNode } from "../values/index.js";
import { type ArgSpec, type DecodedArgs } from "./decode.js";
import type { KeyProviderType, ProvideResult } from "./keyprovider.js";

export const HEADER_MAGIC = "OpenTofu-External-Key-Provider";
const TIMEOUT_MS = 60_000;

export const EXTERNAL_SPECS: ReadonlyMap<string, ArgSpec> = new Map<string, ArgSpec>([["command", { kind: "strings", required: true }]]);

const STD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function failure(message: string): { error: string } {
  return { error: message };
}

/** What the program sends for the stored metadata: `null` without any, else the object as stored. */
function inputFor(stored: Uint8Array | undefined): string {
  if (stored === undefined) return "null";
  const parsed = parseGoJSON(stored);
  if (!parsed.ok || parsed.node.t !== "object") return "null";
  const data = goField(parsed.node, "external_data");
  return data === undefined || data.t === "null" ? "null" : new TextDecoder().decode(stored);
}

function base64Field(n: JsonNode | undefined, name: string): Uint8Array | string | undefined {
  if (n === undefined || n.t === "null") return undefined;
  if (n.t !== "string") return `json: cannot unmarshal ${goKindName(n)} into Go struct field Output.keys.${name} of type []uint8`;
  if (n.v.length % 4 !== 0 || !STD_BASE64.test(n.v)) return "illegal base64 data";
  return new Uint8Array(Buffer.from(n.v, "base64"));
}

/** The program's answer, decoded strictly (unknown fields are errors, as Go's DisallowUnknownFields). */
function decodeOutput(text: string): { keys: { encryptionKey: Uint8Array; decryptionKey: Uint8Array | undefined }; meta: Uint8Array } | string {
  const parsed = parseGoJSON(new TextEncoder().encode(text));
  if (!parsed.ok) return parsed.error.message;
  const root = parsed.node;
  if (root.t !== "object") return `json: cannot unmarshal ${goKindName(root)} into Go value of type external.OutputV1`;
  for (const [k] of root.entries) if (k.toLowerCase() !== "keys" && k.toLowerCase() !== "meta") return `json: unknown field ${JSON.stringify(k)}`;
  const keys = goField(root, "keys");
  if (!keys || keys.t !== "object") return "the response has no keys object";
  for (const [k] of keys.entries) {
    if (k.toLowerCase() !== "encryption_key" && k.toLowerCase() !== "decryption_key") return `json: unknown field ${JSON.stringify(k)}`;
  }
  const enc = base64Field(goField(keys, "encryption_key"), "encryption_key");
  if (typeof enc === "string") return enc;
  const dec = base64Field(goField(keys, "decryption_key"), "decryption_key");
  if (typeof dec === "string") return dec;
  const meta = goField(root, "meta");
  let stored = '{"external_data":null}';
  if (meta && meta.t === "object") {
    for (const [k] of meta.entries) if (k.toLowerCase() !== "external_data") return `json: unknown field ${JSON.stringify(k)}`;
    const data = goField(meta, "external_data");
    if (data && data.t !== "null" && data.t !== "object") {
      return `json: cannot unmarshal ${goKindName(data)} into Go struct field MetadataV1.meta.external_data of type map[string]interface {}`;
    }
    if (data && data.t === "object") stored = `{"external_data":${text.slice(data.start, data.end)}}`;
  } else if (meta && meta.t !== "null") {
    return `json: cannot unmarshal ${goKindName(meta)} into Go struct field OutputV1.meta of type external.MetadataV1`;
  }
  return { keys: { encryptionKey: enc ?? new Uint8Array(0), decryptionKey: dec && dec.length > 0 ? dec : undefined }, meta: new TextEncoder().encode(stored) };
}

function run(command: readonly string[], stored: Uint8Array | undefined): ProvideResult {
  const [exe, ...args] = command as [string, ...string[]];
  const r = spawnSync(exe, args, { input: inputFor(stored), timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, encoding: "utf8" });
  const stderr = `\n\nStderr:\n-------\n${r.stderr ?? ""}`;
  if (r.error) return failure(`the external command exited with an error (${r.error.message})${stderr}`);
  const out = r.stdout ?? "";
  const nl = out.indexOf("\n");
  // The header is checked as soon as it is complete, before the exit status, as OpenTofu does.
  if (nl >= 0) {
    const header = parseGoJSON(new TextEncoder().encode(out.slice(0, nl)));
    if (!header.ok || header.node.t !== "object") {
      const why = header.ok ? `json: cannot unmarshal ${goKindName(header.node)} into Go value of type external.Header` : header.error.message;
      return failure(`external key provider protocol failure: failed to unmarshal header from external binary (${why})`);
    }
    const magic = goField(header.node, "magic");
    const version = goField(header.node, "version");
    const magicText = magic?.t === "string" ? magic.v : "";
    if (magicText !== HEADER_MAGIC) return failure(`external key provider protocol failure: invalid magic received from external key provider: ${magicText}`);
    const v = version?.t === "number" ? version.raw : "0";
    if (v !== "1") return failure(`external key provider protocol failure: invalid version number received from external key provider: ${v}`);
  }
  if (r.status !== 0) {
    const how = r.signal ? `signal: ${r.signal === "SIGTERM" ? "killed" : r.signal}` : `exit status ${r.status}`;
    return failure(`the external command exited with a non-zero exit code (${how})${stderr}`);
  }
  if (nl < 0) return failure(`the external command returned an invalid JSON response (the header line is missing)${stderr}`);
  const decoded = decodeOutput(out.slice(nl + 1));
  if (typeof decoded === "string") return failure(`the external command returned an invalid JSON response (${decoded})${stderr}`);
  return { keys: decoded.keys, meta: decoded.meta };
}

/** The `external` key provider type. */
export const EXTERNAL: KeyProviderType = {
  args: EXTERNAL_SPECS,
  build(args: DecodedArgs) {
    const c = args.values.get("command");
    const command = c?.kind === "strings" ? c.value : [];
    if (command.length < 1) return { error: "the command option is required" };
    // The program is asked on every use: it decides what a key costs.
    return { provider: { provide: (stored) => run(command, stored) } };
  },
};
