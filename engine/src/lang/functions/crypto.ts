// Built-in functions: crypto. Hashes of strings and files, bcrypt, uuid, uuidv5 and rsadecrypt,
// following OpenTofu's lang/funcs/crypto.go: every parameter takes neither null, unknown nor
// marked values (so unknown arguments give a non-null unknown string and marks move to the
// result), and errors carry the texts of the Go packages OpenTofu calls.
import bcrypt from "bcryptjs";
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { Func, NumberType, StringType, argError, callError, goQuote, refineNonNull, staticReturnType, stringVal, type Value } from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { goInt } from "./goint.js";
import { readModuleFile } from "./openfile.js";
import { DECRYPTION_ERROR, decodeStdBase64, decryptPKCS1v15, parseRSAPrivateKey } from "./rsakey.js";

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

type Hash = (data: Uint8Array) => Uint8Array;
type Encode = (digest: Uint8Array) => string;

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

function base64(b: Uint8Array): string {
  let bin = "";
  for (const x of b) bin += String.fromCharCode(x);
  return btoa(bin);
}

function str(v: Value): string {
  return v.kind === "string" ? v.value : "";
}

function stringHash(hash: Hash, encode: Encode): Func {
  return new Func({
    params: [{ name: "str", type: StringType }],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => ok(stringVal(encode(hash(utf8(str(args[0] as Value)))))),
  });
}

function fileHash(ctx: FunctionContext, hash: Hash, encode: Encode): Func {
  return new Func({
    params: [{ name: "path", type: StringType }],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => {
      const r = readModuleFile(ctx, str(args[0] as Value));
      return r.ok ? ok(stringVal(encode(hash(r.bytes)))) : callError(r.error);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// bcrypt

// x/crypto/bcrypt's limits: costs below the minimum silently become the default.
const BCRYPT_MIN_COST = 4;
const BCRYPT_MAX_COST = 31;
const BCRYPT_DEFAULT_COST = 10;

function bcryptFunc(ctx: FunctionContext): Func {
  return new Func({
    params: [{ name: "str", type: StringType }],
    varParam: { name: "cost", type: NumberType },
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => {
      let cost = BigInt(BCRYPT_DEFAULT_COST);
      if (args.length > 1) {
        const c = goInt(args[1] as Value);
        if (!c.ok) return callError(c.error);
        cost = c.value;
      }
      if (args.length > 2) return callError("bcrypt() takes no more than two arguments");
      const password = str(args[0] as Value);
      const fail = (why: string) => callError(`error occurred generating password ${why}`);
      if (utf8(password).length > 72) return fail("bcrypt: password length exceeds 72 bytes");
      if (cost < BCRYPT_MIN_COST) cost = BigInt(BCRYPT_DEFAULT_COST);
      if (cost > BCRYPT_MAX_COST) return fail(`crypto/bcrypt: cost ${cost} is outside allowed range (${BCRYPT_MIN_COST},${BCRYPT_MAX_COST})`);
      // The salt comes from the injected randomness; "$2a$" is the version Go writes.
      const salt = `$2a$${String(cost).padStart(2, "0")}$${bcrypt.encodeBase64(Array.from(ctx.randomBytes(16)), 16)}`;
      return ok(stringVal(bcrypt.hashSync(password, salt)));
    },
  });
}

// ---------------------------------------------------------------------------------------------
// UUIDs

function formatUUID(b: Uint8Array): string {
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function uuidFunc(ctx: FunctionContext): Func {
  return new Func({
    params: [],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    // Like hashicorp/go-uuid (and so OpenTofu), 16 random bytes with no version or variant bits
    // set: OpenTofu documents that its uuid() does not conform to RFC 4122.
    impl: () => ok(stringVal(formatUUID(ctx.randomBytes(16)))),
  });
}

const NAMESPACES: Readonly<Record<string, string>> = {
  dns: "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
  url: "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
  oid: "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
  x500: "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
};

function hexByte(s: Uint8Array, at: number): number | undefined {
  const hi = Number.parseInt(String.fromCharCode(s[at] as number), 16);
  const lo = Number.parseInt(String.fromCharCode(s[at + 1] as number), 16);
  return Number.isNaN(hi) || Number.isNaN(lo) ? undefined : hi * 16 + lo;
}

/** google/uuid's Parse (on bytes, as Go measures lengths): the 16 bytes or its error text. */
export function parseUUID(text: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  let s = utf8(text);
  const out = new Uint8Array(16);
  switch (s.length) {
    case 36:
      break;
    case 36 + 9: {
      const prefix = new TextDecoder().decode(s.subarray(0, 9));
      if (prefix.toLowerCase() !== "urn:uuid:") return { ok: false, error: `invalid urn prefix: ${goQuote(prefix)}` };
      s = s.subarray(9);
      break;
    }
    case 36 + 2:
      // Braces are assumed, not checked.
      s = s.subarray(1);
      break;
    case 32:
      for (let i = 0; i < 16; i++) {
        const v = hexByte(s, i * 2);
        if (v === undefined) return { ok: false, error: "invalid UUID format" };
        out[i] = v;
      }
      return { ok: true, bytes: out };
    default:
      return { ok: false, error: `invalid UUID length: ${s.length}` };
  }
  const dash = 0x2d;
  if (s[8] !== dash || s[13] !== dash || s[18] !== dash || s[23] !== dash) return { ok: false, error: "invalid UUID format" };
  const starts = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
  for (let i = 0; i < 16; i++) {
    const v = hexByte(s, starts[i] as number);
    if (v === undefined) return { ok: false, error: "invalid UUID format" };
    out[i] = v;
  }
  return { ok: true, bytes: out };
}

const uuidv5Func = new Func({
  params: [
    { name: "namespace", type: StringType },
    { name: "name", type: StringType },
  ],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const ns = str(args[0] as Value);
    const parsed = parseUUID(NAMESPACES[ns] ?? ns);
    if (!parsed.ok) return callError(`uuidv5() doesn't support namespace ${ns} (${parsed.error})`);
    const name = utf8(str(args[1] as Value));
    const data = new Uint8Array(16 + name.length);
    data.set(parsed.bytes);
    data.set(name, 16);
    const u = sha1(data).slice(0, 16);
    u[6] = ((u[6] as number) & 0x0f) | 0x50;
    u[8] = ((u[8] as number) & 0x3f) | 0x80;
    return ok(stringVal(formatUUID(u)));
  },
});

// ---------------------------------------------------------------------------------------------
// rsadecrypt

const rsaDecryptFunc = new Func({
  params: [
    { name: "ciphertext", type: StringType },
    { name: "privatekey", type: StringType },
  ],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const s = str(args[0] as Value);
    const ciphertext = decodeStdBase64(s);
    if (ciphertext === undefined) return argError(0, `failed to decode input ${goQuote(s)}: cipher text must be base64-encoded`);
    const key = parseRSAPrivateKey(str(args[1] as Value));
    if (!key.ok) {
      const e = key.error;
      switch (e.kind) {
        case "asn1":
          return argError(1, `invalid ASN1 data in the given private key: ${e.error.msg}`);
        case "type":
          return argError(1, `invalid private key type ${e.goType}`);
        default:
          return argError(1, `invalid private key: ${e.message}`);
      }
    }
    const out = decryptPKCS1v15(key.key, ciphertext);
    if (out === undefined) return callError(`failed to decrypt: ${DECRYPTION_ERROR}`);
    // Go's string(bytes): invalid UTF-8 becomes U+FFFD when the value is a cty string.
    return ok(stringVal(new TextDecoder().decode(out)));
  },
});

export function cryptoFunctions(ctx: FunctionContext): Record<string, Func> {
  return {
    base64sha256: stringHash(sha256, base64),
    base64sha512: stringHash(sha512, base64),
    bcrypt: bcryptFunc(ctx),
    filebase64sha256: fileHash(ctx, sha256, base64),
    filebase64sha512: fileHash(ctx, sha512, base64),
    filemd5: fileHash(ctx, md5, hex),
    filesha1: fileHash(ctx, sha1, hex),
    filesha256: fileHash(ctx, sha256, hex),
    filesha512: fileHash(ctx, sha512, hex),
    md5: stringHash(md5, hex),
    rsadecrypt: rsaDecryptFunc,
    sha1: stringHash(sha1, hex),
    sha256: stringHash(sha256, hex),
    sha512: stringHash(sha512, hex),
    uuid: uuidFunc(ctx),
    uuidv5: uuidv5Func,
  };
}
