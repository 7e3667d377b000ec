import { readFileSync } from "node:fs";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { SENSITIVE, StringType, callFunction, formatValue, mark, numberIntVal, stringVal, unknownVal, type Value } from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { cryptoFunctions } from "./crypto.js";
import { evaluate } from "./testeval.js";
import { expected, noContext, normalizeDetail, type OracleAnswer, type OracleFile } from "./testoracle.js";

// Non-RSA keys made with openssl and ssh-keygen for these tests only.
const EC_KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIMbABrzwRmmx/Y27E2Dr2+rLW+waFOn4oZOxUpgDTZEVoAoGCCqGSM49\nAwEHoUQDQgAE8xaZlFa9LAkontR522l02gcz0RNmBKzGLVXuX+8H5uIzgJjzg5bW\niSIEW3GINinMigZQnSouv5+SQHIXjR/ogA==\n-----END EC PRIVATE KEY-----\n";
const ED25519_OPENSSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACAjmM9SLk6zUocJA+hv0xXQCjItTISsOv2G38rKf3fn5QAAAJDli+Om5Yvj\npgAAAAtzc2gtZWQyNTUxOQAAACAjmM9SLk6zUocJA+hv0xXQCjItTISsOv2G38rKf3fn5Q\nAAAEC7Q0KE+wuhsEBJeC+y4Su1DR7MILOmMZ74PQ+tWiXGGyOYz1IuTrNShwkD6G/TFdAK\nMi1MhKw6/Ybfysp/d+flAAAAB3Jvb3RAdm0BAgMEBQY=\n-----END OPENSSH PRIVATE KEY-----\n";
const ED25519_PKCS8_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIC+zTH8wXYEPcAbOjrJmugSHnHnQKJXV0GC6vdSyGxty\n-----END PRIVATE KEY-----\n";

const oracle = JSON.parse(readFileSync(new URL("./testdata/crypto.terraform.json", import.meta.url), "utf8")) as OracleFile;

const table = new Map(Object.entries(cryptoFunctions(noContext)));

function answer(expr: string): OracleAnswer {
  const r = evaluate(expr, table);
  return r.ok ? { ok: true, output: formatValue(r.value) } : { ok: false, summary: r.summary, detail: normalizeDetail(r.detail) };
}

// Where OpenTofu (our reference) words an error differently from the Terraform that recorded
// the answers: Terraform misspells "occurred" in bcrypt's error, and its rsadecrypt misspells the
// prefix it means to replace in ASN.1 structure errors ("struture"), so it shows Go's raw text.
function openTofuAnswer(expr: string, want: OracleAnswer): OracleAnswer {
  if (want.ok) return want;
  const detail = normalizeDetail(want.detail)
    .replace("error occured generating password", "error occurred generating password")
    .replace(/parameter: asn1: structure error: /, "parameter: invalid ASN1 data in the given private key: ");
  return { ...want, detail };
}

describe("crypto functions match terraform console", () => {
  it.each(Object.entries(oracle.answers))("%s", (expr, want) => {
    expect(answer(expr)).toEqual(openTofuAnswer(expr, expected(want)));
  });
});

const fns = cryptoFunctions(noContext);

function call(name: string, ...args: Value[]): string {
  const fn = fns[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

/** A context whose files live in a map and whose randomness is a fixed sequence. */
function fakeContext(files: Record<string, string | Uint8Array>, baseDir = "."): FunctionContext {
  const bytes = (v: string | Uint8Array) => (typeof v === "string" ? new TextEncoder().encode(v) : v);
  const dirs = new Set(Object.keys(files).flatMap((p) => p.split("/").slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join("/"))));
  dirs.add(".");
  return {
    baseDir,
    fs: {
      readFile: (p) => (files[p] === undefined ? undefined : bytes(files[p] as string | Uint8Array)),
      isFile: (p) => files[p] !== undefined,
      isDirectory: (p) => dirs.has(p),
      readDir: () => [],
      abs: (p) => p,
      home: () => "/home/me",
    },
    now: () => new Date(0),
    randomBytes: (n) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff),
  };
}

// Answers observed with `terraform console` in a directory holding these files.
describe("file hash functions", () => {
  const ctx = fakeContext({
    "hello.txt": "hello world\n",
    "empty.txt": "",
    "sub/bin.dat": Uint8Array.from([0xff, 0x00, 0xfe, ...new TextEncoder().encode(" binary")]),
    "/home/me/h.txt": "hello world\n",
  });
  const f = cryptoFunctions(ctx);
  const run = (name: string, path: Value) => {
    const r = callFunction(name, f[name]!, [path]);
    return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
  };
  it.each([
    ["filemd5", "hello.txt", '"6f5902ac237024bdd0c176cb93063dc4"'],
    ["filesha1", "hello.txt", '"22596363b3de40b06f981fb85d82312e8c0ed511"'],
    ["filesha256", "hello.txt", '"a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447"'],
    ["filesha512", "hello.txt", '"db3974a97f2407b7cae1ae637c0030687a11913274d578492558e39c16c017de84eacdc8c62fe34ee4e12b4b1428817f09b6a2760c3f8a664ceae94d2434a593"'],
    ["filebase64sha256", "hello.txt", '"qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7A+4XSmaGSpEc="'],
    ["filebase64sha512", "hello.txt", '"2zl0qX8kB7fK4a5jfAAwaHoRkTJ01XhJJVjjnBbAF96E6s3Ixi/jTuThK0sUKIF/Cbaidgw/imZM6ulNJDSlkw=="'],
    ["filemd5", "empty.txt", '"d41d8cd98f00b204e9800998ecf8427e"'],
    ["filesha256", "sub/bin.dat", '"819d48564b8f8e588c2444d80d94e1135448cc5febdde42ac99de7046998122e"'],
    ["filesha256", "./sub/../sub/bin.dat", '"819d48564b8f8e588c2444d80d94e1135448cc5febdde42ac99de7046998122e"'],
    ["filemd5", "~/h.txt", '"6f5902ac237024bdd0c176cb93063dc4"'],
    ["filesha256", "sub", 'Error in function call: Call to function "filesha256" failed: read sub: is a directory.'],
    ["filesha256", "missing.txt", 'Error in function call: Call to function "filesha256" failed: open missing.txt: no such file or directory.'],
    ["filesha256", "sub/../missing.txt", 'Error in function call: Call to function "filesha256" failed: open missing.txt: no such file or directory.'],
    ["filesha256", "~nobody/x", 'Error in function call: Call to function "filesha256" failed: failed to expand ~: cannot expand user-specific home dir.'],
    ["filemd5", "", 'Error in function call: Call to function "filemd5" failed: read .: is a directory.'],
  ])("%s(%j)", (name, path, want) => {
    expect(run(name, stringVal(path))).toBe(want);
  });

  it("reads relative to the module directory and names the joined path in errors", () => {
    const mod = cryptoFunctions(fakeContext({ "modules/net/a.txt": "hello world\n" }, "modules/net"));
    expect(formatValue((callFunction("filemd5", mod.filemd5!, [stringVal("a.txt")]) as { value: Value }).value)).toBe('"6f5902ac237024bdd0c176cb93063dc4"');
    const r = callFunction("filemd5", mod.filemd5!, [stringVal("../b.txt")]);
    expect(r.ok ? "" : r.detail).toBe('Call to function "filemd5" failed: open modules/b.txt: no such file or directory.');
  });

  it("words errors thrown by the file system as Go does", () => {
    const denied = fakeContext({});
    const fsx = {
      ...denied.fs,
      readFile: (): Uint8Array => {
        throw Object.assign(new Error("EACCES: permission denied, open 'x'"), { code: "EACCES" });
      },
    };
    const g = cryptoFunctions({ ...denied, fs: fsx });
    const r = callFunction("filesha1", g.filesha1!, [stringVal("x")]);
    expect(r.ok ? "" : r.detail).toBe('Call to function "filesha1" failed: open x: permission denied.');
  });

  it("marks the result of a sensitive path and stays unknown for an unknown one", () => {
    expect(run("filemd5", mark(stringVal("hello.txt"), SENSITIVE))).toBe("(sensitive value)");
    const r = callFunction("filemd5", f.filemd5!, [unknownVal(StringType)]);
    expect(r.ok && r.value.kind === "unknown" && r.value.refinement.notNull).toBe(true);
  });
});

describe("bcrypt", () => {
  const ctx = fakeContext({});
  const f = cryptoFunctions(ctx);
  const hash = (...args: Value[]) => {
    const r = callFunction("bcrypt", f.bcrypt!, args);
    if (!r.ok || r.value.kind !== "string") throw new Error(r.ok ? "not a string" : r.detail);
    return r.value.value;
  };

  it("makes a verifiable $2a$ hash at cost 10 by default, salted from the context", () => {
    const h = hash(stringVal("correct horse"));
    expect(h).toMatch(/^\$2a\$10\$[./A-Za-z0-9]{53}$/);
    expect(bcrypt.compareSync("correct horse", h)).toBe(true);
    expect(bcrypt.compareSync("wrong horse", h)).toBe(false);
    // The same randomness gives the same salt.
    expect(h.slice(0, 29)).toBe(`$2a$10$${bcrypt.encodeBase64(ctx.randomBytes(16), 16)}`);
  });

  // terraform console: length 60 and these prefixes (costs below 4 fall back to 10).
  it.each([
    [4, "$2a$04$"],
    [3, "$2a$10$"],
    [-1, "$2a$10$"],
    [5, "$2a$05$"],
  ])("cost %d gives prefix %s", (cost, prefix) => {
    const h = hash(stringVal("a"), numberIntVal(cost));
    expect(h.length).toBe(60);
    expect(h.slice(0, 7)).toBe(prefix);
    expect(bcrypt.compareSync("a", h)).toBe(true);
  });

  it("hashes the UTF-8 bytes of passwords up to 72 bytes", () => {
    const pw = "é".repeat(36);
    expect(bcrypt.compareSync(pw, hash(stringVal(pw), numberIntVal(4)))).toBe(true);
  });

  it("gives a non-null unknown for unknown input and marks sensitive results", () => {
    expect(call("bcrypt", unknownVal(StringType))).toBe("(known after apply)");
    const r = callFunction("bcrypt", f.bcrypt!, [mark(stringVal("a"), SENSITIVE), numberIntVal(4)]);
    expect(r.ok && formatValue(r.value)).toBe("(sensitive value)");
  });
});

describe("uuid", () => {
  it("formats 16 bytes from the context without setting version bits, as OpenTofu does", () => {
    const ctx = fakeContext({});
    const r = callFunction("uuid", cryptoFunctions(ctx).uuid!, []);
    expect(r.ok && formatValue(r.value)).toBe('"0b30557a-9fc4-e90e-3358-7da2c7ec1136"');
    expect(call("uuid")).toBe('"00000000-0000-0000-0000-000000000000"');
  });

  it("draws new randomness on each call", () => {
    let n = 0;
    const ctx = { ...noContext, randomBytes: (k: number) => new Uint8Array(k).fill(n++) };
    const f = cryptoFunctions(ctx).uuid!;
    const a = callFunction("uuid", f, []);
    const b = callFunction("uuid", f, []);
    expect(a.ok && b.ok && formatValue(a.value) !== formatValue(b.value)).toBe(true);
  });
});

describe("unknown arguments", () => {
  it.each(["md5", "sha1", "sha256", "sha512", "base64sha256", "base64sha512"])("%s of an unknown string is a non-null unknown string", (name) => {
    const r = callFunction(name, fns[name]!, [unknownVal(StringType)]);
    expect(r.ok && r.value.kind === "unknown" && r.value.type.kind === "string" && r.value.refinement.notNull).toBe(true);
  });

  it("uuidv5 and rsadecrypt stay unknown when any argument is unknown", () => {
    expect(call("uuidv5", stringVal("nope"), unknownVal(StringType))).toBe("(known after apply)");
    expect(call("rsadecrypt", unknownVal(StringType), stringVal("not a key"))).toBe("(known after apply)");
  });
});

// OpenTofu parses these keys and then rejects them with "invalid private key type %t" — Go's %t
// of the key struct, which prints pointer addresses and key material. We name the Go type instead.
describe("rsadecrypt with keys that are not RSA keys", () => {
  const ct = stringVal("AAAA");
  it.each([
    ["EC", EC_KEY, "*ecdsa.PrivateKey"],
    ["Ed25519 (OpenSSH)", ED25519_OPENSSH_KEY, "*ed25519.PrivateKey"],
    ["Ed25519 (PKCS #8)", ED25519_PKCS8_KEY, "ed25519.PrivateKey"],
    ["DSA", "-----BEGIN DSA PRIVATE KEY-----\nAAAA\n-----END DSA PRIVATE KEY-----\n", "*dsa.PrivateKey"],
  ])("%s", (_, key, goType) => {
    expect(call("rsadecrypt", ct, stringVal(key))).toBe(`Invalid function argument: Invalid value for "privatekey" parameter: invalid private key type ${goType}.`);
  });
});
