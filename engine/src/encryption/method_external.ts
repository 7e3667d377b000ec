// The `external` encryption method (OpenTofu's method/external): programs do the sealing. Each
// prints the header `{"magic":"OpenTofu-External-Encryption-Method","version":1}`, reads
// `{"key":"<base64>","payload":"<base64>"}` (no `key` without a key provider) and prints
// `{"payload":"<base64>"}`: `encrypt_command` seals, `decrypt_command` opens.
import { goField, goKindName, parseGoJSON } from "../values/index.js";
import { argKeys, type ArgSpec, type DecodedArgs } from "./decode.js";
import { decodeStdBase64, encodeStdBase64 } from "./base64.js";
import type { Method } from "./methods.js";
import { runProgram, unknownField } from "./program.js";

export const METHOD_MAGIC = "OpenTofu-External-Encryption-Method";

export const EXTERNAL_METHOD_SPECS: ReadonlyMap<string, ArgSpec> = new Map<string, ArgSpec>([
  ["keys", { kind: "keys" }],
  ["encrypt_command", { kind: "strings", required: true }],
  ["decrypt_command", { kind: "strings", required: true }],
]);


/** The program's `{"payload": …}`, decoded strictly. */
function decodePayload(text: string): Uint8Array | string {
  const parsed = parseGoJSON(new TextEncoder().encode(text));
  if (!parsed.ok) return parsed.error.message;
  if (parsed.node.t !== "object") return `json: cannot unmarshal ${goKindName(parsed.node)} into Go value of type external.OutputV1`;
  const extra = unknownField(["payload"], parsed.node.entries.map(([k]) => k));
  if (extra) return extra;
  const p = goField(parsed.node, "payload");
  if (!p || p.t === "null") return new Uint8Array(0);
  if (p.t !== "string") return `json: cannot unmarshal ${goKindName(p)} into Go struct field OutputV1.payload of type []uint8`;
  return decodeStdBase64(p.v) ?? "illegal base64 data";
}

function run(command: readonly string[], key: Uint8Array | undefined, payload: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string } {
  const input = key && key.length > 0 ? `{"key":"${encodeStdBase64(key)}","payload":"${encodeStdBase64(payload)}"}` : `{"payload":"${encodeStdBase64(payload)}"}`;
  const r = runProgram(command, input, { magic: METHOD_MAGIC, who: "external method", headerFrom: "external method" });
  const stderr = `\n\nStderr:\n-------\n${r.stderr}\n`;
  if (!r.ok) {
    switch (r.kind) {
      case "protocol":
        return { ok: false, error: `external encryption method failure (${r.message})${stderr}` };
      case "exit":
        return { ok: false, error: `external encryption method exited with non-zero exit code (${r.message})${stderr}` };
      case "start":
        return { ok: false, error: `external encryption method exited with an error (${r.message})${stderr}` };
    }
  }
  const out = decodePayload(r.body);
  if (typeof out === "string") return { ok: false, error: `external encryption method returned an invalid JSON (${out})${stderr}` };
  return { ok: true, data: out };
}

/** Config.Build for the external method. */
export function buildExternalMethod(args: DecodedArgs): { method: Method } | { error: string } {
  const list = (name: string): string[] => {
    const v = args.values.get(name);
    return v?.kind === "strings" ? v.value : [];
  };
  const encryptCommand = list("encrypt_command");
  const decryptCommand = list("decrypt_command");
  if (encryptCommand.length < 1) return { error: "the encrypt_command option is required" };
  if (encryptCommand[0] === "") return { error: "the first entry of encrypt_command must not be empty" };
  if (decryptCommand.length < 1) return { error: "the decrypt_command option is required" };
  if (decryptCommand[0] === "") return { error: "the first entry of decrypt_command must not be empty" };
  const keys = argKeys(args, "keys");
  return {
    method: {
      type: "external",
      encrypt(data) {
        const r = run(encryptCommand, keys?.encryptionKey, data);
        return r.ok ? r : { ok: false, error: `encryption failed: ${r.error}` };
      },
      decrypt(data) {
        // A key provider that could not give a decryption key (no stored metadata for it).
        if (keys && keys.encryptionKey.length > 0 && !keys.decryptionKey) return { ok: false, error: "no decryption key available" };
        if (data.length === 0) return { ok: false, error: "decryption failed: Cannot decrypt empty data." };
        const r = run(decryptCommand, keys?.decryptionKey, data);
        return r.ok ? r : { ok: false, error: `decryption failed: ${r.error}` };
      },
    },
  };
}
