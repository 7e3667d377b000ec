// Encryption methods (OpenTofu's method/aesgcm and method/unencrypted). `aes_gcm` seals the data
// with AES-GCM under the key provider's key: a random 12-byte nonce, then the ciphertext with
// its 16-byte tag, as Go's gcm.Seal lays them out; the optional `aad` is authenticated too.
// `unencrypted` is only a marker: data read or written through it is plain.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { argBytes, argKeys, type ArgSpec, type DecodedArgs } from "./decode.js";

export interface Method {
  readonly type: string;
  encrypt(data: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string };
  decrypt(data: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string };
}

export const AES_GCM_SPECS: ReadonlyMap<string, ArgSpec> = new Map<string, ArgSpec>([
  ["keys", { kind: "keys", required: true }],
  ["aad", { kind: "bytes" }],
]);

const NONCE = 12;

function view(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
const TAG = 16;
const VALID_KEY_LENGTHS = [16, 24, 32];

function cipherName(key: Uint8Array): "aes-128-gcm" | "aes-192-gcm" | "aes-256-gcm" {
  return key.length === 16 ? "aes-128-gcm" : key.length === 24 ? "aes-192-gcm" : "aes-256-gcm";
}

/** Config.Build for aes_gcm: the keys must suit AES-128, -192 or -256. */
export function buildAesGcm(args: DecodedArgs): { method: Method } | { error: string } {
  const keys = argKeys(args, "keys");
  const encryptionKey = keys?.encryptionKey ?? new Uint8Array(0);
  if (!VALID_KEY_LENGTHS.includes(encryptionKey.length)) {
    return {
      error: `invalid method configuration (AES-GCM requires the key length to be one of: ${VALID_KEY_LENGTHS.join(", ")}, received ${encryptionKey.length} bytes in the encryption key)`,
    };
  }
  const decryptionKey = keys?.decryptionKey;
  if (decryptionKey && !VALID_KEY_LENGTHS.includes(decryptionKey.length)) {
    return {
      error: `invalid method configuration (AES-GCM requires the key length to be one of: ${VALID_KEY_LENGTHS.join(", ")}, received ${decryptionKey.length} bytes in the decryption key)`,
    };
  }
  const aad = argBytes(args, "aad") ?? new Uint8Array(0);
  return {
    method: {
      type: "aes_gcm",
      encrypt(data) {
        const nonce = randomBytes(NONCE);
        const c = createCipheriv(cipherName(encryptionKey), encryptionKey, nonce, { authTagLength: TAG });
        if (aad.length > 0) c.setAAD(aad);
        // One buffer for nonce, ciphertext and tag, handed on as a view (no copy).
        return { ok: true, data: view(Buffer.concat([nonce, c.update(data), c.final(), c.getAuthTag()])) };
      },
      decrypt(data) {
        if (!decryptionKey) return { ok: false, error: "no decryption key available" };
        if (data.length === 0) return { ok: false, error: "decryption failed: cannot decrypt empty data" };
        if (data.length < NONCE) return { ok: false, error: "decryption failed: cannot decrypt data because it is too small (likely data corruption)" };
        if (data.length < NONCE + TAG) return { ok: false, error: "decryption failed: cipher: message authentication failed" };
        const nonce = data.subarray(0, NONCE);
        const sealed = data.subarray(NONCE, data.length - TAG);
        const tag = data.subarray(data.length - TAG);
        try {
          const d = createDecipheriv(cipherName(decryptionKey), decryptionKey, nonce, { authTagLength: TAG });
          if (aad.length > 0) d.setAAD(aad);
          d.setAuthTag(tag);
          return { ok: true, data: view(Buffer.concat([d.update(sealed), d.final()])) };
        } catch {
          return { ok: false, error: "decryption failed: cipher: message authentication failed" };
        }
      },
    },
  };
}

export const UNENCRYPTED: Method = {
  type: "unencrypted",
  encrypt: (data) => ({ ok: true, data }),
  decrypt: (data) => ({ ok: true, data }),
};
