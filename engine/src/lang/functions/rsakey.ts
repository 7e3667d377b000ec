// RSA private keys and PKCS #1 v1.5 decryption for `rsadecrypt`, on BigInt. OpenTofu reads the key
// with x/crypto/ssh's ParseRawPrivateKey (PEM: "RSA PRIVATE KEY" = PKCS #1, "PRIVATE KEY" =
// PKCS #8, "OPENSSH PRIVATE KEY", plus EC and DSA keys, which it then rejects as the wrong type) and
// decrypts with Go's crypto/rsa. The error texts users see come from those packages, so each
// step reports what its Go counterpart reports.
import { DerError, EC_PRIVATE_KEY, PKCS1_PRIVATE_KEY, PKCS8_PRIVATE_KEY, parses, unmarshal, type DerStruct } from "./der.js";

export interface RSAPrivateKey {
  readonly n: bigint;
  readonly e: bigint;
  readonly d: bigint;
  readonly primes: readonly bigint[];
}

/** Why a key could not be used; `asn1` errors get OpenTofu's rewording of their prefix. */
export type KeyError = { readonly kind: "asn1"; readonly error: DerError } | { readonly kind: "other"; readonly message: string } | { readonly kind: "type"; readonly goType: string };

export type KeyResult = { ok: true; key: RSAPrivateKey } | { ok: false; error: KeyError };

const other = (message: string): KeyResult => ({ ok: false, error: { kind: "other", message } });
const wrongType = (goType: string): KeyResult => ({ ok: false, error: { kind: "type", goType } });

// ---------------------------------------------------------------------------------------------
// Base64 (Go's base64.StdEncoding.DecodeString: padding required, CR and LF ignored)

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_INDEX = new Map(Array.from(B64, (c, i) => [c, i]));

/** Standard base64 with padding; undefined where Go reports a CorruptInputError. */
export function decodeStdBase64(text: string): Uint8Array | undefined {
  const s = text.replace(/[\r\n]/g, "");
  if (s.length % 4 !== 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 4) {
    const quad = s.slice(i, i + 4);
    const pad = quad.endsWith("==") ? 2 : quad.endsWith("=") ? 1 : 0;
    // Padding may only end the input.
    if (pad > 0 && i + 4 !== s.length) return undefined;
    let v = 0;
    for (let j = 0; j < 4 - pad; j++) {
      const d = B64_INDEX.get(quad[j] as string);
      if (d === undefined) return undefined;
      v = (v << 6) | d;
    }
    v <<= 6 * pad;
    out.push((v >> 16) & 0xff);
    if (pad < 2) out.push((v >> 8) & 0xff);
    if (pad < 1) out.push(v & 0xff);
  }
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------
// PEM (Go's encoding/pem Decode: the first well-formed block, skipping malformed ones)

interface PemBlock {
  readonly type: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly bytes: Uint8Array;
}

/** One line (without its newline, trailing spaces, tabs and CRs) and what follows it. */
function getLine(data: string): [string, string] {
  const i = data.indexOf("\n");
  const [line, rest] = i < 0 ? [data, ""] : [data.slice(0, i), data.slice(i + 1)];
  return [line.replace(/[ \t\r]+$/, ""), rest];
}

export function decodePem(data: string): PemBlock | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith("-----BEGIN ")) {
      rest = rest.slice("-----BEGIN ".length);
    } else {
      const at = rest.indexOf("\n-----BEGIN ");
      if (at < 0) return undefined;
      rest = rest.slice(at + "\n-----BEGIN ".length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith("-----")) continue;
    typeLine = typeLine.slice(0, -5);
    const headers = new Map<string, string>();
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(":");
      if (colon < 0) break;
      headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      rest = next;
    }
    if (truncated) return undefined;
    let endIndex: number;
    let endTrailerIndex: number;
    if (headers.size === 0 && rest.startsWith("-----END ")) {
      endIndex = 0;
      endTrailerIndex = "-----END ".length;
    } else {
      endIndex = rest.indexOf("\n-----END ");
      endTrailerIndex = endIndex + "\n-----END ".length;
    }
    if (endIndex < 0) continue;
    const trailer = rest.slice(endTrailerIndex);
    const trailerLen = typeLine.length + 5;
    if (trailer.length < trailerLen) continue;
    const endLine = trailer.slice(0, trailerLen);
    if (!endLine.startsWith(typeLine) || !endLine.endsWith("-----")) continue;
    if (getLine(trailer.slice(trailerLen))[0].length !== 0) continue;
    const bytes = decodeStdBase64(rest.slice(0, endIndex).replace(/[ \t]/g, ""));
    if (bytes === undefined) continue;
    return { type: typeLine, headers, bytes };
  }
}

// ---------------------------------------------------------------------------------------------
// Key formats

const PASSPHRASE = "ssh: this private key is passphrase protected";
const OID_RSA = "1.2.840.113549.1.1.1";
const OID_EC = "1.2.840.10045.2.1";
const OID_ED25519 = "1.3.101.112";
const OID_X25519 = "1.3.101.110";
const EC_CURVES = new Set(["1.3.132.0.33", "1.2.840.10045.3.1.7", "1.3.132.0.34", "1.3.132.0.35"]);

function asn1Error(e: unknown): KeyResult {
  if (e instanceof DerError) return { ok: false, error: { kind: "asn1", error: e } };
  throw e;
}

/** Go's rsa.PrivateKey.Validate. */
function validate(key: RSAPrivateKey): string | undefined {
  if (key.e < 2n) return "crypto/rsa: public exponent too small";
  if (key.e > 2n ** 31n - 1n) return "crypto/rsa: public exponent too large";
  let modulus = 1n;
  for (const p of key.primes) {
    if (p <= 1n) return "crypto/rsa: invalid prime value";
    modulus *= p;
  }
  if (modulus !== key.n) return "crypto/rsa: invalid modulus";
  const de = key.e * key.d;
  for (const p of key.primes) {
    const r = de % (p - 1n);
    if ((r < 0n ? r + p - 1n : r) !== 1n) return "crypto/rsa: invalid exponents";
  }
  return undefined;
}

/** Go's x509.ParsePKCS1PrivateKey. */
function parsePKCS1(der: Uint8Array): KeyResult {
  let parsed: { value: unknown; rest: Uint8Array };
  try {
    parsed = unmarshal(PKCS1_PRIVATE_KEY, der);
  } catch (e) {
    if (parses(EC_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParseECPrivateKey instead for this key format)");
    if (parses(PKCS8_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)");
    return asn1Error(e);
  }
  if (parsed.rest.length > 0) return asn1Error(new DerError("syntax", "trailing data"));
  const k = parsed.value as DerStruct;
  const [version, n, e, d, p, q] = [k.version, k.n, k.e, k.d, k.p, k.q] as bigint[];
  if ((version as bigint) > 1n) return other("x509: unsupported private key version");
  if ((n as bigint) <= 0n || (d as bigint) <= 0n || (p as bigint) <= 0n || (q as bigint) <= 0n) {
    return other("x509: private key contains zero or negative value");
  }
  const primes = [p as bigint, q as bigint];
  for (const extra of (k.additionalPrimes as readonly DerStruct[] | undefined) ?? []) {
    const prime = extra.prime as bigint;
    if (prime <= 0n) return other("x509: private key contains zero or negative prime");
    primes.push(prime);
  }
  const key = { n: n as bigint, e: e as bigint, d: d as bigint, primes };
  const invalid = validate(key);
  return invalid ? other(invalid) : { ok: true, key };
}

/** Go's x509.ParseECPrivateKey, as far as deciding whether the key is one. */
function parseEC(der: Uint8Array, pkcs8Curve?: string): KeyResult {
  let k: DerStruct;
  try {
    k = unmarshal(EC_PRIVATE_KEY, der).value as DerStruct;
  } catch (e) {
    if (parses(PKCS8_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)");
    if (parses(PKCS1_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)");
    if (e instanceof DerError) return other(`x509: failed to parse EC private key: ${e.message}`);
    throw e;
  }
  if (k.version !== 1n) return other(`x509: unknown EC private key version ${k.version as bigint}`);
  const curve = pkcs8Curve ?? ((k.namedCurveOID as readonly number[] | undefined) ?? []).join(".");
  if (!EC_CURVES.has(curve)) return other("x509: unknown elliptic curve");
  return wrongType("*ecdsa.PrivateKey");
}

/** Go's x509.ParsePKCS8PrivateKey. */
function parsePKCS8(der: Uint8Array): KeyResult {
  let k: DerStruct;
  try {
    k = unmarshal(PKCS8_PRIVATE_KEY, der).value as DerStruct;
  } catch (e) {
    if (parses(EC_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParseECPrivateKey instead for this key format)");
    if (parses(PKCS1_PRIVATE_KEY, der)) return other("x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)");
    return asn1Error(e);
  }
  const algo = k.algo as DerStruct;
  const oid = (algo.algorithm as readonly number[]).join(".");
  const inner = k.privateKey as Uint8Array;
  switch (oid) {
    case OID_RSA: {
      const r = parsePKCS1(inner);
      if (r.ok) return r;
      const text = r.error.kind === "asn1" ? r.error.error.message : r.error.kind === "other" ? r.error.message : "";
      return other(`x509: failed to parse RSA private key embedded in PKCS#8: ${text}`);
    }
    case OID_EC: {
      // The curve is the algorithm's parameter: an OBJECT IDENTIFIER.
      const params = algo.parameters as Uint8Array | undefined;
      let curve = "";
      if (params !== undefined) {
        try {
          curve = (unmarshal({ kind: "oid" }, params).value as readonly number[]).join(".");
        } catch {
          return other("x509: failed to parse EC private key embedded in PKCS#8: x509: invalid parameters");
        }
      }
      const r = parseEC(inner, curve);
      if (!r.ok && r.error.kind === "other") return other(`x509: failed to parse EC private key embedded in PKCS#8: ${r.error.message}`);
      return r;
    }
    case OID_ED25519:
      return wrongType("ed25519.PrivateKey");
    case OID_X25519:
      return wrongType("*ecdh.PrivateKey");
    default:
      return other(`x509: PKCS#8 wrapping contained private key with unknown algorithm: ${oid}`);
  }
}

/** The SSH wire format's strings and mpints, read in order. */
class SSHReader {
  private at = 0;
  constructor(private readonly b: Uint8Array) {}

  private u32(): number {
    if (this.at + 4 > this.b.length) throw new SSHShortRead();
    const v = new DataView(this.b.buffer, this.b.byteOffset + this.at, 4).getUint32(0);
    this.at += 4;
    return v;
  }

  uint32(): number {
    return this.u32();
  }

  bytes(): Uint8Array {
    const n = this.u32();
    if (this.at + n > this.b.length) throw new SSHShortRead();
    const out = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  string(): string {
    return new TextDecoder().decode(this.bytes());
  }

  mpint(): bigint {
    const b = this.bytes();
    let v = 0n;
    for (const x of b) v = (v << 8n) | BigInt(x);
    if (b.length > 0 && ((b[0] as number) & 0x80) !== 0) v -= 1n << BigInt(8 * b.length);
    return v;
  }

  rest(): Uint8Array {
    const out = this.b.subarray(this.at);
    this.at = this.b.length;
    return out;
  }
}

class SSHShortRead extends Error {}

const OPENSSH_MAGIC = "openssh-key-v1\0";

/** x/crypto/ssh's parseOpenSSHPrivateKey for unencrypted keys. */
function parseOpenSSH(key: Uint8Array): KeyResult {
  const magic = new TextEncoder().encode(OPENSSH_MAGIC);
  if (key.length < magic.length || !magic.every((b, i) => key[i] === b)) return other("ssh: invalid openssh private key format");
  try {
    const r = new SSHReader(key.subarray(magic.length));
    const cipher = r.string();
    const kdf = r.string();
    const kdfOpts = r.string();
    const numKeys = r.uint32();
    r.bytes(); // the public key
    const block = r.bytes();
    if (numKeys !== 1) return other("ssh: multi-key files are not supported");
    if (cipher !== "none" || kdf !== "none") return other(PASSPHRASE);
    if (kdfOpts !== "") return other("ssh: invalid openssh private key");
    let keyType: string;
    let body: SSHReader;
    try {
      const pk = new SSHReader(block);
      const check1 = pk.uint32();
      const check2 = pk.uint32();
      keyType = pk.string();
      body = new SSHReader(pk.rest());
      if (check1 !== check2) return other("ssh: malformed OpenSSH key");
    } catch (e) {
      if (e instanceof SSHShortRead) return other("ssh: malformed OpenSSH key");
      throw e;
    }
    switch (keyType) {
      case "ssh-rsa": {
        const [n, e, d] = [body.mpint(), body.mpint(), body.mpint()];
        body.mpint(); // iqmp
        const [p, q] = [body.mpint(), body.mpint()];
        body.string(); // comment
        const pad = body.rest();
        if (!pad.every((b, i) => b === i + 1)) return other("ssh: padding not as expected");
        const k = { n, e: BigInt.asIntN(64, e), d, primes: [p, q] };
        const invalid = validate(k);
        return invalid ? other(invalid) : { ok: true, key: k };
      }
      case "ssh-ed25519":
        return wrongType("*ed25519.PrivateKey");
      case "ecdsa-sha2-nistp256":
      case "ecdsa-sha2-nistp384":
      case "ecdsa-sha2-nistp521":
        return wrongType("*ecdsa.PrivateKey");
      default:
        return other("ssh: unhandled key type");
    }
  } catch (e) {
    if (e instanceof SSHShortRead) return other("ssh: short read");
    throw e;
  }
}

/** x/crypto/ssh's ParseRawPrivateKey, reduced to "an RSA key or why not". */
export function parseRSAPrivateKey(pem: string): KeyResult {
  const block = decodePem(pem);
  if (!block) return other("ssh: no key found");
  if ((block.headers.get("Proc-Type") ?? "").includes("ENCRYPTED")) return other(PASSPHRASE);
  switch (block.type) {
    case "RSA PRIVATE KEY":
      return parsePKCS1(block.bytes);
    case "PRIVATE KEY":
      return parsePKCS8(block.bytes);
    case "EC PRIVATE KEY":
      return parseEC(block.bytes);
    case "DSA PRIVATE KEY":
      return wrongType("*dsa.PrivateKey");
    case "OPENSSH PRIVATE KEY":
      return parseOpenSSH(block.bytes);
    default:
      return other(`ssh: unsupported key type ${JSON.stringify(block.type)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// PKCS #1 v1.5 decryption (Go's rsa.DecryptPKCS1v15)

export const DECRYPTION_ERROR = "crypto/rsa: decryption error";

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

function byteLength(n: bigint): number {
  return Math.ceil(n.toString(2).length / 8);
}

/** The message, or undefined where Go answers "crypto/rsa: decryption error". */
export function decryptPKCS1v15(key: RSAPrivateKey, ciphertext: Uint8Array): Uint8Array | undefined {
  const k = byteLength(key.n);
  if (k < 11 || ciphertext.length > k) return undefined;
  let c = 0n;
  for (const b of ciphertext) c = (c << 8n) | BigInt(b);
  if (c >= key.n) return undefined;
  const m = modPow(c, key.d, key.n);
  const em = new Uint8Array(k);
  let v = m;
  for (let i = k - 1; i >= 0 && v > 0n; i--) {
    em[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (em[0] !== 0 || em[1] !== 2) return undefined;
  // Non-zero padding of at least 8 bytes, then a zero, then the message.
  const zero = em.indexOf(0, 2);
  if (zero < 0 || zero < 2 + 8) return undefined;
  return em.subarray(zero + 1);
}
