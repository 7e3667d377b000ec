import { describe, expect, it } from "vitest";
import { clientCertificate, generateCertificate, pemToDer } from "./certs.js";
import { parseHandshake } from "./handshake.js";

describe("go-plugin handshake line", () => {
  it("parses unix + grpc + AutoMTLS certificate", async () => {
    const cert = await generateCertificate();
    const b64 = Buffer.from(pemToDer(cert.certPem)).toString("base64").replace(/=+$/, "");
    const r = parseHandshake(`1|6|unix|/tmp/plugin123|grpc|${b64}\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.handshake).toMatchObject({ protocolVersion: 6, network: "unix", address: "/tmp/plugin123" });
    expect(Buffer.from(pemToDer(r.handshake.serverCertPem ?? "")).equals(Buffer.from(pemToDer(cert.certPem)))).toBe(true);
  });

  it("parses tcp without TLS (5 fields)", () => {
    expect(parseHandshake("1|5|tcp|127.0.0.1:10001|grpc")).toEqual({ ok: true, handshake: { protocolVersion: 5, network: "tcp", address: "127.0.0.1:10001" } });
  });

  it.each([
    ["fake provider 1.2.0", "Unrecognized remote plugin message: fake provider 1.2.0"],
    ["2|6|unix|/x|grpc", "Incompatible core API version with plugin. Plugin version: 2, Core version: 1"],
    ["1|4|unix|/x|grpc", "Incompatible API version with plugin. Plugin version: 4, Client versions: [5 6]"],
    ["1|6|pipe|/x|grpc", "Unknown address type: pipe"],
    ["1|5|unix|/x|netrpc", 'Unsupported plugin protocol "netrpc"'],
  ])("rejects %s", (line, want) => {
    const r = parseHandshake(line);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(want);
  });

  it("offers every plugin of a process the same client certificate, and mints fresh ones on request", async () => {
    const a = await clientCertificate();
    expect(await clientCertificate()).toBe(a);
    expect((await generateCertificate()).certPem).not.toBe(a.certPem);
  });

  it("mints a certificate with go-plugin's properties", async () => {
    const { certPem } = await generateCertificate();
    const { X509Certificate } = await import("node:crypto");
    const x = new X509Certificate(certPem);
    expect(x.subject).toContain("CN=localhost");
    expect(x.subjectAltName).toBe("DNS:localhost");
    expect(x.ca).toBe(true);
    expect(x.checkIssued(x)).toBe(true);
  });
});
