// State and plan encryption as OpenTofu does it: the envelope format, PBKDF2 keys (checked
// against OpenTofu's own example vector), AES-GCM sealing, fallbacks and migrations, and the
// configuration's errors.
import { createDecipheriv, pbkdf2Sync } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Loader, MemoryFS, RootModuleInputs, StaticEvaluator } from "../configs/index.js";
import { rootModuleCall } from "../configs/static/variables.js";
import type { Diagnostic } from "../hcl/index.js";
import { stringVal } from "../values/index.js";
import { buildEncryption, encryptionFromModule, type Encryption } from "./index.js";
import { buildPbkdf2, marshalPbkdf2Metadata, providePbkdf2, unmarshalPbkdf2Metadata } from "./pbkdf2.js";
import { parseEnvelope } from "./envelope.js";

const PASS = "correct-horse-battery-staple";

function rootModule(files: Record<string, string>, vars: Record<string, string> = {}) {
  const loaded = new Loader({ fs: new MemoryFS(files) }).parser.loadConfigDir(".");
  const module = loaded.module;
  if (!module) throw new Error("no module");
  const values = new Map(Object.entries(vars).map(([k, v]) => [k, { kind: "value" as const, value: stringVal(v), source: "input" as const }]));
  const evaluator = new StaticEvaluator(module, rootModuleCall(new RootModuleInputs(values), ".", "default"));
  return { module, evaluator, diagnostics: loaded.diagnostics };
}

function build(encryptionBody: string, vars: Record<string, string> = {}, env: Record<string, string> = {}): { encryption: Encryption; diagnostics: Diagnostic[] } {
  const { module, evaluator, diagnostics } = rootModule(
    { "main.tf": `variable "pass" {\n  default = "${PASS}"\n}\nterraform {\n  encryption {\n${encryptionBody}\n  }\n}\n` },
    vars,
  );
  expect(diagnostics).toEqual([]);
  return encryptionFromModule(module.encryption?.settings, env, evaluator);
}

function errors(d: Diagnostic[]): string[] {
  return d.filter((x) => x.severity === "error").map((x) => `${x.summary}: ${x.detail}`);
}

const BASIC = `
    key_provider "pbkdf2" "k" {
      passphrase = var.pass
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
    plan {
      method = method.aes_gcm.m
    }`;

const STATE = new TextEncoder().encode('{\n  "version": 4,\n  "terraform_version": "1.11.0",\n  "serial": 7,\n  "lineage": "abc",\n  "outputs": {},\n  "resources": [],\n  "check_results": null\n}\n');

describe("pbkdf2", () => {
  it("derives OpenTofu's example key from its passphrase and salt", () => {
    // internal/encryption/keyprovider/pbkdf2/example_decrypt_test.go
    const salt = Uint8Array.from([
      0x10, 0xec, 0x3d, 0x3f, 0xe0, 0x2a, 0xd2, 0xbe, 0xe6, 0xf1, 0xf5, 0x54, 0xf, 0x8e, 0x6b, 0xbe, 0x3b, 0x8b, 0x29, 0x44, 0x5c, 0xf5, 0x2, 0xd2, 0x7d, 0x47, 0xad, 0x55,
      0x4a, 0xa8, 0x97, 0x1f,
    ]);
    const built = buildPbkdf2({ values: new Map([["passphrase", { kind: "string", value: PASS }]]), ranges: new Map() });
    if (!("config" in built)) throw new Error(built.error);
    const r = providePbkdf2(built.config, { salt, iterations: 600000, hashFunction: "sha512", keyLength: 32 }, true);
    if ("error" in r) throw new Error(r.error);
    expect(Buffer.from(r.keys.decryptionKey ?? []).toString("hex")).toBe("225872367198760137e0a18580433447bbf578fbe2b87ff36aef3c175fe5709c");
  });

  it("stores its metadata as Go's json.Marshal writes pbkdf2.Metadata, and reads it back", () => {
    const m = { salt: Uint8Array.from([1, 2, 3, 250]), iterations: 600000, hashFunction: "sha512", keyLength: 32 };
    const text = new TextDecoder().decode(marshalPbkdf2Metadata(m));
    expect(text).toBe('{"salt":"AQID+g==","iterations":600000,"hash_function":"sha512","key_length":32}');
    expect(unmarshalPbkdf2Metadata(new TextEncoder().encode(text))).toEqual(m);
    // Go's decoder matches field names case-insensitively.
    expect(unmarshalPbkdf2Metadata(new TextEncoder().encode('{"Salt":"AQID+g==","ITERATIONS":600000,"hash_function":"sha256","key_length":16}'))).toEqual({
      ...m,
      hashFunction: "sha256",
      keyLength: 16,
    });
    expect(unmarshalPbkdf2Metadata(new TextEncoder().encode('{"iterations":"many"}'))).toBe(
      "json: cannot unmarshal string into Go struct field Metadata.iterations of type int",
    );
  });

  it("refuses weak settings with OpenTofu's reasons", () => {
    const bad = (values: Array<[string, string | number]>) => {
      const r = buildPbkdf2({
        values: new Map(values.map(([k, v]) => [k, typeof v === "string" ? { kind: "string", value: v } : { kind: "int", value: v }])),
        ranges: new Map(),
      });
      return "error" in r ? r.error : "ok";
    };
    expect(bad([])).toBe("no passphrase provided and no chained provider defined");
    expect(bad([["passphrase", "short"]])).toBe("passphrase is too short (minimum 16 characters)");
    expect(bad([["passphrase", PASS], ["iterations", 1000]])).toBe("the number of iterations is dangerously low (<200000), refusing to generate key");
    expect(bad([["passphrase", PASS], ["hash_function", "md5"]])).toBe("invalid key provider configuration: invalid hash function name: md5");
    expect(bad([["passphrase", PASS], ["key_length", 0]])).toBe("the key length must be larger than zero");
    expect(bad([["passphrase", PASS]])).toBe("ok");
  });
});

describe("encrypted states", () => {
  it("writes OpenTofu's envelope: serial and lineage in the clear, the key provider's metadata, AES-GCM data", () => {
    const { encryption, diagnostics } = build(BASIC);
    expect(errors(diagnostics)).toEqual([]);
    const sealed = encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    const text = new TextDecoder().decode(sealed.data);
    expect(text).toMatch(/^\{"serial":7,"lineage":"abc","meta":\{"key_provider\.pbkdf2\.k":"[A-Za-z0-9+/=]+"\},"encrypted_data":"[A-Za-z0-9+/=]+","encryption_version":"v0"\}$/);
    expect(text).not.toContain("terraform_version");
    expect(parseEnvelope(sealed.data)).toMatchObject({ error: undefined, envelope: { version: "v0" } });

    // Decrypted here by hand, as another implementation of the format would: the metadata's salt
    // gives the PBKDF2 key; the data is a 12-byte nonce, the ciphertext, a 16-byte tag.
    const { envelope } = parseEnvelope(sealed.data);
    const meta = JSON.parse(new TextDecoder().decode(envelope.meta.get("key_provider.pbkdf2.k"))) as { salt: string; iterations: number; hash_function: string; key_length: number };
    expect(meta).toMatchObject({ iterations: 600000, hash_function: "sha512", key_length: 32 });
    expect(Buffer.from(meta.salt, "base64")).toHaveLength(32);
    const key = pbkdf2Sync(PASS, Buffer.from(meta.salt, "base64"), meta.iterations, meta.key_length, meta.hash_function);
    const data = envelope.data;
    const d = createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(data.length - 16));
    expect(Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()])).toEqual(Buffer.from(STATE));

    const back = encryption.state.decryptState(sealed.data);
    expect(back).toMatchObject({ ok: true, passthrough: { serial: 7, lineage: "abc" }, migration: false });
    if (back.ok) expect(back.data).toEqual(STATE);
  });

  it("refuses a wrong passphrase, a plain state without a fallback, and data that is neither", () => {
    const sealed = build(BASIC).encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    const wrong = build(BASIC, { pass: "wrong-horse-battery-staple" }).encryption.state.decryptState(sealed.data);
    expect(wrong).toEqual({
      ok: false,
      error: "decryption failed for all provided methods: attempted decryption failed for state: decryption failed: cipher: message authentication failed",
    });
    const e = build(BASIC).encryption;
    expect(e.state.decryptState(STATE)).toEqual({ ok: false, error: "encountered unencrypted payload without unencrypted method configured", unencrypted: true });
    expect(e.state.decryptState(new TextEncoder().encode("{}"))).toEqual({
      ok: false,
      error: "unable to determine data structure during decryption: Given payload is not a state file",
    });
    expect(e.state.decryptState(new TextEncoder().encode('{"encryption_version":"v9"}'))).toEqual({ ok: false, error: "invalid encrypted payload version: v9 != v0" });
  });

  it("reads through fallbacks and says when the state must be written again (migration)", () => {
    const FALLBACK = `
    key_provider "pbkdf2" "old" {
      passphrase = "an-old-passphrase-for-tests"
    }
    key_provider "pbkdf2" "new" {
      passphrase = var.pass
    }
    method "aes_gcm" "old" {
      keys = key_provider.pbkdf2.old
    }
    method "aes_gcm" "new" {
      keys = key_provider.pbkdf2.new
    }
    method "unencrypted" "plain" {}
    state {
      method = method.aes_gcm.new
      fallback {
        method = method.aes_gcm.old
        fallback {
          method = method.unencrypted.plain
        }
      }
    }`;
    const OLD = `
    key_provider "pbkdf2" "old" {
      passphrase = "an-old-passphrase-for-tests"
    }
    method "aes_gcm" "old" {
      keys = key_provider.pbkdf2.old
    }
    state {
      method = method.aes_gcm.old
    }`;
    const old = build(OLD).encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!old.ok) throw new Error(old.error);
    const b = build(FALLBACK);
    expect(b.diagnostics.map((d) => d.summary)).toEqual(["Unencrypted method configured"]);
    expect(b.encryption.state.decryptState(old.data)).toMatchObject({ ok: true, migration: true });
    expect(b.encryption.state.decryptState(STATE)).toMatchObject({ ok: true, migration: true, data: STATE });
    const fresh = b.encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!fresh.ok) throw new Error(fresh.error);
    expect(b.encryption.state.decryptState(fresh.data)).toMatchObject({ ok: true, migration: false });
    // The new key is not the old one.
    expect(build(OLD).encryption.state.decryptState(fresh.data)).toMatchObject({ ok: false });
  });

  it("keeps metadata under encrypted_metadata_alias, so a renamed key provider still decrypts", () => {
    const named = (name: string) => `
    key_provider "pbkdf2" "${name}" {
      passphrase               = var.pass
      encrypted_metadata_alias = "stable"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.${name}
    }
    state {
      method = method.aes_gcm.m
    }`;
    const sealed = build(named("before")).encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    expect([...parseEnvelope(sealed.data).envelope.meta.keys()]).toEqual(["stable"]);
    expect(build(named("after")).encryption.state.decryptState(sealed.data)).toMatchObject({ ok: true });
  });

  it("chains one pbkdf2 key provider from another", () => {
    const CHAIN = `
    key_provider "pbkdf2" "root" {
      passphrase = var.pass
    }
    key_provider "pbkdf2" "chained" {
      chain                    = key_provider.pbkdf2.root
      encrypted_metadata_alias = "chained"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.chained
    }
    state {
      method = method.aes_gcm.m
    }`;
    const b = build(CHAIN);
    expect(errors(b.diagnostics)).toEqual([]);
    const sealed = b.encryption.state.encryptState(STATE, { serial: 1, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    expect([...parseEnvelope(sealed.data).envelope.meta.keys()].sort()).toEqual(["chained", "key_provider.pbkdf2.root"]);
    expect(build(CHAIN).encryption.state.decryptState(sealed.data)).toMatchObject({ ok: true });
  });

  it("takes TF_ENCRYPTION, in native or JSON syntax, over the configuration's block", () => {
    const env = `key_provider "pbkdf2" "k" {\n  passphrase = "a-passphrase-from-the-environment"\n}\n`;
    const viaEnv = build(BASIC, {}, { TF_ENCRYPTION: env });
    expect(errors(viaEnv.diagnostics)).toEqual([]);
    const sealed = viaEnv.encryption.state.encryptState(STATE, { serial: 1, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    expect(build(BASIC).encryption.state.decryptState(sealed.data)).toMatchObject({ ok: false });
    const json = JSON.stringify({ key_provider: { pbkdf2: { k: { passphrase: "a-passphrase-from-the-environment" } } } });
    expect(build(BASIC, {}, { TF_ENCRYPTION: json }).encryption.state.decryptState(sealed.data)).toMatchObject({ ok: true });
  });

  it("reads JSON syntax's references as templates and, as OpenTofu 1.12 does, written directly in quotes", () => {
    const { module, evaluator } = rootModule({ "main.tf": "" });
    for (const ref of ["${key_provider.pbkdf2.k}", "key_provider.pbkdf2.k"]) {
      const env = JSON.stringify({
        key_provider: { pbkdf2: { k: { passphrase: PASS } } },
        method: { aes_gcm: { m: { keys: ref } } },
        state: { method: ref.replace("key_provider.pbkdf2.k", "method.aes_gcm.m") },
      });
      const r = encryptionFromModule(module.encryption?.settings, { TF_ENCRYPTION: env }, evaluator);
      expect(errors(r.diagnostics), ref).toEqual([]);
      expect(r.encryption.state.encrypts).toBe(true);
    }
  });
});

describe("the envelope as Go's decoder reads it", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("matches field names case-insensitively, the last one winning", () => {
    const r = parseEnvelope(enc('{"Serial":3,"LINEAGE":"l","encrypted_data":"AAAA","Encrypted_Data":"AQID","Encryption_Version":"v0","Meta":{"k":"AA=="}}'));
    expect(r.error).toBeUndefined();
    expect(r.envelope).toEqual({ meta: new Map([["k", Uint8Array.from([0])]]), data: Uint8Array.from([1, 2, 3]), version: "v0" });
    expect(r.state).toEqual({ serial: 3, lineage: "l" });
  });
  it("gives Go's errors for what is not an envelope", () => {
    expect(parseEnvelope(enc('{"meta":5,"encryption_version":"v0"}')).error).toBe(
      "json: cannot unmarshal number into Go struct field basedata.meta of type encryption.keyProviderMetamap",
    );
    expect(parseEnvelope(enc('{"encrypted_data":"not base64!","encryption_version":"v0"}')).error).toBe("illegal base64 data");
    expect(parseEnvelope(enc("[1]")).error).toBe("json: cannot unmarshal array into Go value of type encryption.basedata");
    expect(parseEnvelope(enc('{"a":')).error).toBe("unexpected end of JSON input");
  });
});

describe("encrypted plans", () => {
  it("seals the whole plan file and reads it back; a plain plan needs an unencrypted fallback", () => {
    const zip = Uint8Array.from([0x50, 0x4b, 3, 4, 9, 9, 9]);
    const e = build(BASIC).encryption;
    const sealed = e.plan.encryptPlan(zip);
    if (!sealed.ok) throw new Error(sealed.error);
    expect(new TextDecoder().decode(sealed.data)).toMatch(/^\{"meta":\{"key_provider\.pbkdf2\.k":"[^"]+"\},"encrypted_data":"[^"]+","encryption_version":"v0"\}$/);
    expect(e.plan.decryptPlan(sealed.data)).toEqual({ ok: true, data: zip });
    expect(e.plan.decryptPlan(zip)).toEqual({ ok: false, error: "encountered unencrypted payload without unencrypted method configured", unencrypted: true });
  });
});

describe("configuration errors", () => {
  const cases: Array<[string, string, string[]]> = [
    [
      "a method that is not declared",
      `state {\n      method = method.aes_gcm.nope\n    }`,
      ['Reference to undeclared encryption method: There is no method "aes_gcm" "nope" block declared in the encryption block.'],
    ],
    [
      "a method that is no reference",
      `state {\n      method = "aes_gcm"\n    }`,
      ["Invalid expression: A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here."],
    ],
    ["a reference that is no method", `state {\n      method = var.pass\n    }`, ["Invalid encryption method identifier: Expected method of form method.<type>.<name>"]],
    ["a target without a method", `state {\n    }`, ['Missing encryption method: undefined or null method used for "state"']],
    [
      "unencrypted under enforced",
      `method "unencrypted" "u" {}\n    state {\n      method   = method.unencrypted.u\n      enforced = true\n    }`,
      ["Unencrypted method is forbidden: Unable to use unencrypted method since the enforced flag is set."],
    ],
    [
      "an undeclared key provider",
      `method "aes_gcm" "m" {\n      keys = key_provider.pbkdf2.nope\n    }\n    state {\n      method = method.aes_gcm.m\n    }`,
      ['Reference to undeclared key provider: There is no key_provider "pbkdf2" "nope" block declared in the encryption block.'],
    ],
    [
      "a key provider chained to itself",
      `key_provider "pbkdf2" "a" {\n      chain = key_provider.pbkdf2.b\n    }\n    key_provider "pbkdf2" "b" {\n      chain = key_provider.pbkdf2.a\n    }\n    method "aes_gcm" "m" {\n      keys = key_provider.pbkdf2.a\n    }\n    state {\n      method = method.aes_gcm.m\n    }`,
      [
        "Circular reference detected: Cannot load key_provider.pbkdf2.a due to circular reference between key providers. Stack trace key_provider.pbkdf2.a -> key_provider.pbkdf2.b -> key_provider.pbkdf2.a",
      ],
    ],
    [
      "a key provider Terrace cannot reach",
      `key_provider "aws_kms" "k" {\n      kms_key_id = "x"\n    }\n    method "aes_gcm" "m" {\n      keys = key_provider.aws_kms.k\n    }\n    state {\n      method = method.aes_gcm.m\n    }`,
      [
        'Unsupported key_provider type: Terrace does not support the "aws_kms" key provider: it supports "pbkdf2" and "external". Derive the key from a passphrase with pbkdf2 (for example from a sensitive variable or TF_ENCRYPTION), have a program provide it with external, or use OpenTofu for states encrypted with aws_kms.',
      ],
    ],
    [
      "a key too short for AES",
      `key_provider "pbkdf2" "k" {\n      passphrase = var.pass\n      key_length = 20\n    }\n    method "aes_gcm" "m" {\n      keys = key_provider.pbkdf2.k\n    }\n    state {\n      method = method.aes_gcm.m\n    }`,
      ["Encryption method configuration failed: invalid method configuration (AES-GCM requires the key length to be one of: 16, 24, 32, received 20 bytes in the encryption key)"],
    ],
    [
      "two key providers storing metadata under one key",
      `key_provider "pbkdf2" "a" {\n      passphrase = var.pass\n      encrypted_metadata_alias = "same"\n    }\n    key_provider "pbkdf2" "b" {\n      chain = key_provider.pbkdf2.a\n      encrypted_metadata_alias = "same"\n    }\n    method "aes_gcm" "m" {\n      keys = key_provider.pbkdf2.b\n    }\n    state {\n      method = method.aes_gcm.m\n    }`,
      [
        "Duplicate metadata key: The metadata key same is duplicated across multiple key providers for the same method; use the encrypted_metadata_alias option to specify unique metadata keys for each key provider in an encryption method",
      ],
    ],
  ];
  for (const [name, body, want] of cases) {
    it(name, () => {
      const r = build(body);
      expect(errors(r.diagnostics)).toEqual(want);
    });
  }

  it("reports structural mistakes when the configuration is loaded", () => {
    const { diagnostics } = rootModule({
      "main.tf": `terraform {\n  encryption {\n    state {\n      method = method.aes_gcm.a\n    }\n    state {\n      method = method.aes_gcm.a\n    }\n    stat {}\n  }\n}\n`,
    });
    expect(diagnostics.map((d) => d.summary)).toEqual(["Unsupported block type", "Duplicate state block"]);
  });

  it("evaluates key provider arguments statically: a missing variable is named", () => {
    const { module, evaluator } = rootModule({
      "main.tf": `variable "p" {\n  type = string\n}\nterraform {\n  encryption {\n${BASIC.replace("var.pass", "var.p")}\n  }\n}\n`,
    });
    const r = buildEncryption(module.encryption?.settings, evaluator);
    expect(r.diagnostics.some((d) => d.severity === "error" && d.detail.includes("var.p"))).toBe(true);
  });
});

describe("the external key provider", () => {
  // A key provider program as OpenTofu's protocol describes it: the header, then keys for the
  // metadata it is given (a new key id for null, the key of the stored id otherwise). It logs
  // every input it reads.
  const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-external-kp-"));
  const program = path.join(dir, "kp.cjs");
  const log = path.join(dir, "inputs.log");
  writeFileSync(
    program,
    `const { createHash, randomBytes } = require("node:crypto");
const fs = require("node:fs");
const mode = process.argv[2];
const key = (id) => createHash("sha256").update("secret:" + id).digest("base64");
if (mode === "bad-magic") { process.stdout.write('{"magic":"nope","version":1}\\n'); process.exit(0); }
if (mode === "fail") { process.stdout.write('{"magic":"OpenTofu-External-Key-Provider","version":1}\\n'); process.stderr.write("vault is sealed"); process.exit(3); }
process.stdout.write('{"magic":"OpenTofu-External-Key-Provider","version":1}\\n');
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  fs.appendFileSync(${JSON.stringify(log)}, input + "\\n");
  const meta = JSON.parse(input);
  const id = randomBytes(4).toString("hex");
  const out = { keys: { encryption_key: key(id) }, meta: { external_data: { id } } };
  if (meta && meta.external_data) out.keys.decryption_key = key(meta.external_data.id);
  process.stdout.write(JSON.stringify(out));
});
`,
  );
  const config = (mode = "ok") => `
    key_provider "external" "k" {
      command = ["${process.execPath}", "${program}", "${mode}"]
    }
    method "aes_gcm" "m" {
      keys = key_provider.external.k
    }
    state {
      method = method.aes_gcm.m
    }`;

  it("stores the program's metadata and gets the decryption key from it", () => {
    const b = build(config());
    expect(errors(b.diagnostics)).toEqual([]);
    const sealed = b.encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
    if (!sealed.ok) throw new Error(sealed.error);
    const meta = new TextDecoder().decode(parseEnvelope(sealed.data).envelope.meta.get("key_provider.external.k"));
    expect(meta).toMatch(/^\{"external_data":\{"id":"[0-9a-f]{8}"\}\}$/);
    const back = build(config()).encryption.state.decryptState(sealed.data);
    expect(back).toMatchObject({ ok: true });
    // Asked with null to make a key, then with the stored metadata to decrypt.
    const inputs = readFileSync(log, "utf8").trim().split("\n");
    expect(inputs).toContain("null");
    expect(inputs).toContain(meta);
  });

  it("reports a program that breaks the protocol or fails, with its stderr", () => {
    expect(errors(build(config("bad-magic")).diagnostics)).toEqual([
      "Unable to fetch encryption key data: key_provider.external.k failed with error: external key provider protocol failure: invalid magic received from external key provider: nope",
    ]);
    expect(errors(build(config("fail")).diagnostics)).toEqual([
      "Unable to fetch encryption key data: key_provider.external.k failed with error: the external command exited with a non-zero exit code (exit status 3)\n\nStderr:\n-------\nvault is sealed",
    ]);
  });
});

describe("the external encryption method", () => {
  // A method program as OpenTofu's protocol describes it: XOR with the key (or 0x5a without one),
  // bytes reversed; the same program undoes it. It logs whether it was given a key.
  const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-external-method-"));
  const program = path.join(dir, "method.cjs");
  const log = path.join(dir, "calls.log");
  writeFileSync(
    program,
    `const fs = require("node:fs");
process.stdout.write('{"magic":"OpenTofu-External-Encryption-Method","version":1}\\n');
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const req = JSON.parse(input);
  fs.appendFileSync(${JSON.stringify(log)}, process.argv[2] + (req.key ? " with key" : " without key") + "\\n");
  const key = req.key ? Buffer.from(req.key, "base64") : Buffer.from([0x5a]);
  const p = Buffer.from(req.payload, "base64");
  const out = Buffer.alloc(p.length);
  for (let i = 0; i < p.length; i++) out[p.length - 1 - i] = p[i] ^ key[i % key.length];
  if (process.argv[2] === "decrypt") for (let i = 0; i < p.length; i++) out[i] = p[p.length - 1 - i] ^ key[i % key.length];
  process.stdout.write(JSON.stringify({ payload: out.toString("base64") }));
});
`,
  );
  const method = (keys: string) => `
    method "external" "m" {
      ${keys}
      encrypt_command = ["${process.execPath}", "${program}", "encrypt"]
      decrypt_command = ["${process.execPath}", "${program}", "decrypt"]
    }
    state {
      method = method.external.m
    }`;

  it("seals and opens through the programs, with or without a key provider's key", () => {
    const cases: Array<[string, string]> = [
      ["", ""],
      ["keys = key_provider.pbkdf2.k", 'key_provider "pbkdf2" "k" {\n      passphrase = var.pass\n    }'],
    ];
    for (const [keys, kp] of cases) {
      const b = build(`${kp}\n${method(keys)}`);
      expect(errors(b.diagnostics)).toEqual([]);
      const sealed = b.encryption.state.encryptState(STATE, { serial: 7, lineage: "abc" });
      if (!sealed.ok) throw new Error(sealed.error);
      const { envelope } = parseEnvelope(sealed.data);
      expect(Buffer.from(envelope.data).includes(Buffer.from("terraform_version"))).toBe(false);
      const back = build(`${kp}\n${method(keys)}`).encryption.state.decryptState(sealed.data);
      expect(back).toMatchObject({ ok: true });
      if (back.ok) expect(back.data).toEqual(STATE);
    }
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["encrypt without key", "decrypt without key", "encrypt with key", "decrypt with key"]);
  });

  it("requires both commands", () => {
    const b = build(`method "external" "m" {\n      encrypt_command = ["x"]\n      decrypt_command = []\n    }\n    state {\n      method = method.external.m\n    }`);
    expect(errors(b.diagnostics)).toEqual(["Encryption method configuration failed: the decrypt_command option is required"]);
  });
});
