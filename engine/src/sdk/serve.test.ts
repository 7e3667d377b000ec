import "reflect-metadata";
import * as grpc from "@grpc/grpc-js";
import * as x509 from "@peculiar/x509";
import { spawnSync } from "node:child_process";
import { X509Certificate, createHash, createPrivateKey, webcrypto } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { pluginServices, type ProtoGetProviderSchemaResponse } from "../providers/proto/index.js";
import { bundledProviderExecutable } from "../providers-bundled/index.js";
import { generatePluginCertificate } from "./cert.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, NOT_A_PLUGIN_MESSAGE, negotiateProtocol, startPlugin, type RunningPlugin } from "./serve.js";
import { providerLogger } from "./log.js";
import { thingProvider } from "./testdata/provider.js";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const running: RunningPlugin[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

type Callback = (err: grpc.ServiceError | null, res: unknown) => void;

function rpc(client: grpc.Client, name: string): (...args: unknown[]) => unknown {
  const m = (client as unknown as Record<string, unknown>)[name];
  if (typeof m !== "function") throw new Error(`no method ${name}`);
  return (m as (...args: unknown[]) => unknown).bind(client);
}

function unaryCall(client: grpc.Client, name: string, deadline?: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const cb: Callback = (err, res) => (err ? reject(err) : resolve(res));
    if (deadline) rpc(client, name)({}, { deadline }, cb);
    else rpc(client, name)({}, cb);
  });
}

function derToPem(b64: string): string {
  const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
  return `-----BEGIN CERTIFICATE-----\n${padded.replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
}

describe("go-plugin server", () => {
  it("makes go-plugin's AutoMTLS certificate", async () => {
    const now = new Date("2026-01-02T03:04:05.678Z");
    const c = await generatePluginCertificate(now);
    const cert = new x509.X509Certificate(c.certPem);
    expect(cert.subject).toBe("O=HashiCorp, CN=localhost");
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.signatureAlgorithm).toMatchObject({ name: "ECDSA", hash: { name: "SHA-512" } });
    expect(cert.publicKey.algorithm).toMatchObject({ name: "ECDSA", namedCurve: "P-521" });
    // go-plugin's template through Go's x509.CreateCertificate: these extensions, in this order.
    expect(cert.extensions.map((e) => [e.type, e.critical])).toEqual([
      ["2.5.29.15", true],
      ["2.5.29.37", false],
      ["2.5.29.19", true],
      ["2.5.29.14", false],
      ["2.5.29.17", false],
    ]);
    const flags = x509.KeyUsageFlags;
    expect(cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(flags.digitalSignature | flags.keyEncipherment | flags.keyAgreement | flags.keyCertSign);
    expect(cert.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: true, pathLength: undefined });
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]);
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.items.map((n) => [n.type, n.value])).toEqual([["dns", "localhost"]]);
    const spki = new Uint8Array(cert.publicKey.rawData);
    const ski = createHash("sha1").update(spki.subarray(spki.length - 133)).digest("hex"); // the 133-byte uncompressed P-521 point
    expect(cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId).toBe(ski);
    expect(cert.notBefore.getTime()).toBe(Math.floor((now.getTime() - 30_000) / 1000) * 1000);
    expect(cert.notAfter.getTime()).toBe(Math.floor((now.getTime() + 262_980 * 3_600_000) / 1000) * 1000);
    expect(await cert.verify({ signatureOnly: true })).toBe(true);
    // The same bytes through OpenSSL: self-issued, a CA, the SAN, and the key the host will use.
    const openssl = new X509Certificate(c.certPem);
    expect(openssl.ca).toBe(true);
    expect(openssl.subjectAltName).toBe("DNS:localhost");
    expect(openssl.checkIssued(openssl)).toBe(true);
    expect(openssl.verify(openssl.publicKey)).toBe(true);
    expect(openssl.checkPrivateKey(createPrivateKey(c.keyPem))).toBe(true);
    expect(c.certBase64).not.toMatch(/=$/);
    expect(Buffer.from(c.certBase64, "base64").equals(Buffer.from(cert.rawData))).toBe(true);
  });

  it("negotiates protocol 6", () => {
    expect(negotiateProtocol({ PLUGIN_PROTOCOL_VERSIONS: "5,6" })).toBe(6);
    expect(negotiateProtocol({ PLUGIN_PROTOCOL_VERSIONS: "5" })).toBeUndefined();
    expect(negotiateProtocol({})).toBe(6);
  });

  it("serves tfplugin6 over mutual TLS on a unix socket and exits on Shutdown", async () => {
    const host = await generatePluginCertificate();
    let line = "";
    let shutdown = false;
    const plugin = await startPlugin(thingProvider(), {
      env: { PLUGIN_CLIENT_CERT: host.certPem },
      writeHandshake: (l) => (line = l),
      onShutdown: () => (shutdown = true),
    });
    running.push(plugin);
    const fields = line.trimEnd().split("|");
    expect(fields.slice(0, 3)).toEqual(["1", "6", "unix"]);
    expect(fields[3]).toBe(plugin.socketPath);
    expect(fields[4]).toBe("grpc");
    const serverPem = derToPem(fields[5] ?? "");

    const services = pluginServices();
    const creds = grpc.credentials.createSsl(Buffer.from(serverPem), Buffer.from(host.keyPem), Buffer.from(host.certPem));
    const opts = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
    const provider = new services.provider6(`unix://${plugin.socketPath}`, creds, opts);
    const schema = (await unaryCall(provider, "GetProviderSchema")) as ProtoGetProviderSchemaResponse;
    expect(Object.keys(schema.resource_schemas ?? {})).toEqual(["example_thing"]);

    // The stdio stream is held open (no end, no error) while the plugin runs.
    const stdio = new services.stdio(`unix://${plugin.socketPath}`, creds, opts);
    const stream = rpc(stdio, "StreamStdio")({}) as grpc.ClientReadableStream<unknown>;
    let ended = false;
    stream.on("end", () => (ended = true));
    stream.on("error", () => undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(ended).toBe(false);

    // A client without the trusted certificate is refused.
    const stranger = await generatePluginCertificate();
    const bad = new services.provider6(
      `unix://${plugin.socketPath}`,
      grpc.credentials.createSsl(Buffer.from(serverPem), Buffer.from(stranger.keyPem), Buffer.from(stranger.certPem)),
      opts,
    );
    await expect(unaryCall(bad, "GetProviderSchema", Date.now() + 3000)).rejects.toBeTruthy();

    const controller = new services.controller(`unix://${plugin.socketPath}`, creds, opts);
    await unaryCall(controller, "Shutdown");
    for (let i = 0; i < 50 && !shutdown; i++) await new Promise((r) => setTimeout(r, 20));
    expect(shutdown).toBe(true);
    for (const c of [provider, stdio, bad, controller]) c.close();
  });

  it("logs each request as hclog JSON lines that go-plugin hosts read, when TF_LOG asks", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = providerLogger({ TF_LOG_PROVIDER: "trace" }, (t) => void lines.push(JSON.parse(t) as Record<string, unknown>));
    const plugin = await startPlugin(thingProvider(), { env: {}, writeHandshake: () => undefined, onShutdown: () => undefined, log });
    running.push(plugin);
    const provider = new (pluginServices().provider6)(`unix://${plugin.socketPath}`, grpc.credentials.createInsecure());
    await new Promise((resolve, reject) =>
      rpc(provider, "ValidateResourceConfig")({ type_name: "example_nope" }, (err: grpc.ServiceError | null, res: unknown) => (err ? reject(err) : resolve(res))),
    );
    provider.close();
    expect(lines[0]).toMatchObject({ "@level": "debug", "@message": "plugin address", address: plugin.socketPath, network: "unix" });
    expect(lines[0]).not.toHaveProperty("@module");
    const requests = lines.slice(1);
    expect(requests.map((l) => [l["@level"], l["@module"], l["@message"]])).toEqual([
      ["trace", "sdk.proto", "Received request"],
      ["error", "sdk.proto", "Response contains error diagnostic"],
      ["trace", "sdk.proto", "Served request"],
    ]);
    for (const l of requests) {
      expect(l).toMatchObject({ tf_rpc: "ValidateResourceConfig", tf_resource_type: "example_nope", tf_req_id: requests[0]?.["tf_req_id"] });
      // go-plugin parses exactly this layout: microseconds, then Z or the offset with a colon.
      expect(l["@timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/);
    }
    expect(requests[1]).toMatchObject({ diagnostic_severity: "ERROR" });
    expect(String(requests[1]?.["diagnostic_summary"])).not.toBe("");
  });

  it("writes no log lines without TF_LOG", async () => {
    const lines: string[] = [];
    const log = providerLogger({}, (t) => void lines.push(t));
    const plugin = await startPlugin(thingProvider(), { env: {}, writeHandshake: () => undefined, onShutdown: () => undefined, log });
    running.push(plugin);
    const provider = new (pluginServices().provider6)(`unix://${plugin.socketPath}`, grpc.credentials.createInsecure());
    await unaryCall(provider, "GetProviderSchema");
    provider.close();
    expect(lines).toEqual([]);
  });

  it("refuses to run without the magic cookie, as go-plugin does", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TERRACE_PROVIDERS_FROM_SOURCE: "1" };
    delete env[MAGIC_COOKIE_KEY];
    const r = spawnSync(bundledProviderExecutable("null"), [], { env, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(NOT_A_PLUGIN_MESSAGE);
    expect(r.stdout).toBe("");
    expect(MAGIC_COOKIE_VALUE).toHaveLength(64);
  });
});
