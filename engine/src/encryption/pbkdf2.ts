// The `pbkdf2` key provider (OpenTofu's keyprovider/pbkdf2): a key derived from a passphrase
// (or from the keys of a chained key provider) with PBKDF2, a fresh random salt for every
// encryption, and the salt, iteration count, hash and key length stored beside the data so that
// decryption derives the same key again.
import { createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import { goKindName, goField, parseGoJSON, type JsonNode } from "../values/index.js";
import { argInt, argKeys, argString, type ArgSpec, type DecodedArgs, type KeyMaterial } from "./decode.js";
import { decodeStdBase64, encodeStdBase64 } from "./base64.js";
import type { KeyProviderType } from "./keyprovider.js";
import { goObject, goString } from "../plans/gojson.js";

export const PBKDF2_SPECS: ReadonlyMap<string, ArgSpec> = new Map<string, ArgSpec>([
  ["passphrase", { kind: "string" }],
  ["chain", { kind: "keys" }],
  ["key_length", { kind: "int" }],
  ["iterations", { kind: "int" }],
  ["hash_function", { kind: "string" }],
  ["salt_length", { kind: "int" }],
]);

const DEFAULT_SALT_LENGTH = 32;
/** OWASP's recommendation for PBKDF2-HMAC-SHA512, OpenTofu's default. */
const DEFAULT_ITERATIONS = 600000;
const DEFAULT_KEY_LENGTH = 32;
const MINIMUM_ITERATIONS = 200000;
const MINIMUM_PASSPHRASE_LENGTH = 16;
const HASH_FUNCTIONS = new Set(["sha256", "sha512"]);

export interface Pbkdf2Config {
  readonly passphrase: string;
  readonly chain: KeyMaterial | undefined;
  readonly keyLength: number;
  readonly iterations: number;
  readonly hashFunction: string;
  readonly saltLength: number;
}

/** What is stored beside the encrypted data (OpenTofu's pbkdf2.Metadata). */
export interface Pbkdf2Metadata {
  readonly salt: Uint8Array;
  readonly iterations: number;
  readonly hashFunction: string;
  readonly keyLength: number;
}

function hashError(name: string): string | undefined {
  if (name === "") return "please specify a hash function";
  if (!HASH_FUNCTIONS.has(name)) return `invalid hash function name: ${name}`;
  return undefined;
}

/** Config.Build: the decoded arguments over the descriptor's defaults, or the reason they are unusable. */
export function buildPbkdf2(args: DecodedArgs): { config: Pbkdf2Config } | { error: string } {
  const passphrase = argString(args, "passphrase") ?? "";
  const chain = argKeys(args, "chain");
  const config: Pbkdf2Config = {
    passphrase,
    chain,
    keyLength: argInt(args, "key_length") ?? DEFAULT_KEY_LENGTH,
    iterations: argInt(args, "iterations") ?? DEFAULT_ITERATIONS,
    hashFunction: argString(args, "hash_function") ?? "sha512",
    saltLength: argInt(args, "salt_length") ?? DEFAULT_SALT_LENGTH,
  };
  if (passphrase === "" && !chain) return { error: "no passphrase provided and no chained provider defined" };
  if (passphrase !== "" && chain) return { error: "passphrase and chain are mutually exclusive" };
  if (chain) {
    if (chain.encryptionKey.length === 0) return { error: "no encryption key provided from upstream key provider" };
    if (chain.encryptionKey.length < MINIMUM_PASSPHRASE_LENGTH) {
      return { error: `upstream key provider supplied an encryption key that is too short (minimum ${MINIMUM_PASSPHRASE_LENGTH} characters)` };
    }
    if (chain.decryptionKey && chain.decryptionKey.length < MINIMUM_PASSPHRASE_LENGTH) {
      return { error: `upstream key provider supplied an decryption key that is too short (minimum ${MINIMUM_PASSPHRASE_LENGTH} characters)` };
    }
  }
  // Go's len(string) counts bytes.
  if (passphrase !== "" && Buffer.byteLength(passphrase, "utf8") < MINIMUM_PASSPHRASE_LENGTH) {
    return { error: `passphrase is too short (minimum ${MINIMUM_PASSPHRASE_LENGTH} characters)` };
  }
  if (config.keyLength <= 0) return { error: "the key length must be larger than zero" };
  if (config.iterations <= 0) return { error: "the number of iterations must be larger than zero" };
  if (config.iterations < MINIMUM_ITERATIONS) {
    return { error: `the number of iterations is dangerously low (<${MINIMUM_ITERATIONS}), refusing to generate key` };
  }
  if (config.saltLength <= 0) return { error: "the salt length must be larger than zero" };
  const h = hashError(config.hashFunction);
  if (h) return { error: `invalid key provider configuration: ${h}` };
  return { config };
}

/** json.Marshal of the metadata, as it is stored (base64 of these bytes) in the envelope. */
export function marshalPbkdf2Metadata(m: Pbkdf2Metadata): Uint8Array {
  const text = goObject([
    ["salt", goString(encodeStdBase64(m.salt))],
    ["iterations", String(m.iterations)],
    ["hash_function", goString(m.hashFunction)],
    ["key_length", String(m.keyLength)],
  ]);
  return new TextEncoder().encode(text);
}

function goInt(n: JsonNode | undefined, field: string): number | string {
  if (!n || n.t === "null") return 0;
  if (n.t !== "number" || !/^-?\d+$/.test(n.raw)) return `json: cannot unmarshal ${goKindName(n)} into Go struct field Metadata.${field} of type int`;
  return Number(n.raw);
}

/** json.Unmarshal into pbkdf2.Metadata; a string is the decoder's error. */
export function unmarshalPbkdf2Metadata(bytes: Uint8Array): Pbkdf2Metadata | string {
  const parsed = parseGoJSON(bytes);
  if (!parsed.ok) return parsed.error.message;
  const node = parsed.node;
  if (node.t === "null") return { salt: new Uint8Array(0), iterations: 0, hashFunction: "", keyLength: 0 };
  if (node.t !== "object") return `json: cannot unmarshal ${goKindName(node)} into Go value of type pbkdf2.Metadata`;
  const saltNode = goField(node, "salt");
  let salt: Uint8Array = new Uint8Array(0);
  if (saltNode && saltNode.t !== "null") {
    if (saltNode.t !== "string") return `json: cannot unmarshal ${goKindName(saltNode)} into Go struct field Metadata.salt of type []uint8`;
    const decoded = decodeStdBase64(saltNode.v);
    if (!decoded) return "illegal base64 data in the salt";
    salt = decoded;
  }
  const iterations = goInt(goField(node, "iterations"), "iterations");
  if (typeof iterations === "string") return iterations;
  const keyLength = goInt(goField(node, "key_length"), "key_length");
  if (typeof keyLength === "string") return keyLength;
  const hashNode = goField(node, "hash_function");
  let hashFunction = "";
  if (hashNode && hashNode.t !== "null") {
    if (hashNode.t !== "string") return `json: cannot unmarshal ${goKindName(hashNode)} into Go struct field Metadata.hash_function of type pbkdf2.HashFunctionName`;
    hashFunction = hashNode.v;
  }
  return { salt, iterations, hashFunction, keyLength };
}

// PBKDF2 at OpenTofu's 600,000 iterations costs a quarter of a second: a command that reads the
// same state twice derives its decryption key once.
const derived = new Map<string, Uint8Array>();

function derive(secret: Uint8Array, salt: Uint8Array, iterations: number, keyLength: number, hash: string): Uint8Array {
  const id = [createHash("sha256").update(secret).digest("hex"), Buffer.from(salt).toString("hex"), iterations, keyLength, hash].join(":");
  const hit = derived.get(id);
  if (hit) return hit;
  const key = new Uint8Array(pbkdf2Sync(secret, salt, iterations, keyLength, hash));
  derived.set(id, key);
  return key;
}

export type Pbkdf2ProvideResult = { keys: KeyMaterial; meta: Pbkdf2Metadata | undefined } | { error: string };

/**
 * Provide: the decryption key from the stored metadata (when there is any), and for encryption a
 * key with a new salt, whose metadata is returned to be stored. `decryptOnly` skips the new key
 * (it would never be used) and stands the decryption key in for it.
 */
export function providePbkdf2(c: Pbkdf2Config, stored: Pbkdf2Metadata | undefined, decryptOnly: boolean): Pbkdf2ProvideResult {
  const secret = (which: "enc" | "dec"): Uint8Array => {
    if (c.chain) return (which === "enc" ? c.chain.encryptionKey : c.chain.decryptionKey) ?? new Uint8Array(0);
    return new TextEncoder().encode(c.passphrase);
  };
  let decryptionKey: Uint8Array | undefined;
  const present = stored && stored.salt.length > 0 && stored.iterations !== 0 && stored.hashFunction !== "" && stored.keyLength !== 0;
  if (stored && present) {
    if (stored.iterations < 0) return { error: `invalid number of iterations (${stored.iterations})` };
    if (stored.keyLength < 0) return { error: `invalid key length (${stored.keyLength})` };
    const h = hashError(stored.hashFunction);
    if (h) return { error: `invalid hash function name: invalid key provider configuration: ${h}` };
    decryptionKey = derive(secret("dec"), stored.salt, stored.iterations, stored.keyLength, stored.hashFunction);
  }
  if (decryptOnly) return { keys: { encryptionKey: decryptionKey ?? new Uint8Array(c.keyLength), decryptionKey }, meta: undefined };
  const meta: Pbkdf2Metadata = { salt: new Uint8Array(randomBytes(c.saltLength)), iterations: c.iterations, hashFunction: c.hashFunction, keyLength: c.keyLength };
  const encryptionKey = new Uint8Array(pbkdf2Sync(secret("enc"), meta.salt, meta.iterations, meta.keyLength, meta.hashFunction));
  return { keys: { encryptionKey, decryptionKey }, meta };
}

/** The `pbkdf2` key provider type. */
export const PBKDF2: KeyProviderType = {
  args: PBKDF2_SPECS,
  build(args) {
    const built = buildPbkdf2(args);
    if ("error" in built) return built;
    return {
      provider: {
        provide(raw, decryptOnly) {
          let stored: Pbkdf2Metadata | undefined;
          if (raw !== undefined) {
            const m = unmarshalPbkdf2Metadata(raw);
            if (typeof m === "string") return { error: m, metadata: true };
            stored = m;
          }
          const r = providePbkdf2(built.config, stored, decryptOnly);
          if ("error" in r) return r;
          return { keys: r.keys, meta: r.meta ? marshalPbkdf2Metadata(r.meta) : undefined };
        },
      },
    };
  },
};
