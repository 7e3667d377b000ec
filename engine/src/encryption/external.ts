// The `external` key provider (OpenTofu 1.10's keyprovider/external): a program the user names
// makes the keys. It prints a header line (`{"magic":"OpenTofu-External-Key-Provider","version":1}`),
// reads the stored metadata on stdin (`null` when there is none, else `{"external_data":{…}}`),
// and prints `{"keys":{"encryption_key":"<base64>","decryption_key":"<base64>"},"meta":{…}}`.
// It runs for at most a minute (program.ts); its stderr is quoted when it fails.
import { goField, goKindName, parseGoJSON, type JsonNode } from "../values/index.js";
import { type ArgSpec, type DecodedArgs } from "./decode.js";
import type { KeyProviderType, ProvideResult } from "./keyprovider.js";
import { decodeStdBase64 } from "./base64.js";
import { runProgram, unknownField } from "./program.js";

export const HEADER_MAGIC = "OpenTofu-External-Key-Provider";

export const EXTERNAL_SPECS: ReadonlyMap<string, ArgSpec> = new Map<string, ArgSpec>([["command", { kind: "strings", required: true }]]);

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
  return decodeStdBase64(n.v) ?? "illegal base64 data";
}

/** The program's answer, decoded strictly (unknown fields are errors, as Go's DisallowUnknownFields). */
function decodeOutput(text: string): { keys: { encryptionKey: Uint8Array; decryptionKey: Uint8Array | undefined }; meta: Uint8Array } | string {
  const parsed = parseGoJSON(new TextEncoder().encode(text));
  if (!parsed.ok) return parsed.error.message;
  const root = parsed.node;
  if (root.t !== "object") return `json: cannot unmarshal ${goKindName(root)} into Go value of type external.OutputV1`;
  const extra = unknownField(["keys", "meta"], root.entries.map(([k]) => k));
  if (extra) return extra;
  const keys = goField(root, "keys");
  if (!keys || keys.t !== "object") return "the response has no keys object";
  const extraKey = unknownField(["encryption_key", "decryption_key"], keys.entries.map(([k]) => k));
  if (extraKey) return extraKey;
  const enc = base64Field(goField(keys, "encryption_key"), "encryption_key");
  if (typeof enc === "string") return enc;
  const dec = base64Field(goField(keys, "decryption_key"), "decryption_key");
  if (typeof dec === "string") return dec;
  const meta = goField(root, "meta");
  let stored = '{"external_data":null}';
  if (meta && meta.t === "object") {
    const extraMeta = unknownField(["external_data"], meta.entries.map(([k]) => k));
    if (extraMeta) return extraMeta;
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
  const r = runProgram(command, inputFor(stored), { magic: HEADER_MAGIC, who: "external key provider", headerFrom: "external binary" });
  if (!r.ok) {
    const stderr = `\n\nStderr:\n-------\n${r.stderr}`;
    switch (r.kind) {
      case "protocol":
        return failure(`external key provider protocol failure: ${r.message}`);
      case "exit":
        return failure(`the external command exited with a non-zero exit code (${r.message})${stderr}`);
      case "start":
        return failure(`the external command exited with an error (${r.message})${stderr}`);
    }
  }
  const decoded = decodeOutput(r.body);
  if (typeof decoded === "string") return failure(`the external command returned an invalid JSON response (${decoded})\n\nStderr:\n-------\n${r.stderr}`);
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
