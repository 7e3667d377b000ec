// go-plugin's AutoMTLS certificate: a fresh self-signed P-256 certificate per process, valid for
// "localhost", usable as a CA, for server and client auth (what go-plugin's generateCert makes).
// The host trusts exactly this certificate (sent in the handshake line); we trust exactly the
// host's (PLUGIN_CLIENT_CERT).
//
// The DER is written here with node:crypto doing the key and the signature: loading a general
// X.509 library costs ~0.4 s per plugin start, and Terraform starts a plugin several times per
// command. cert.test.ts checks the result with @peculiar/x509.

import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

export interface PluginCertificate {
  /** PEM of the certificate. */
  readonly certPem: string;
  /** PEM (PKCS#8) of the private key. */
  readonly keyPem: string;
  /** DER of the certificate, base64 without padding: the handshake line's last field. */
  readonly certBase64: string;
}

// --- minimal DER ------------------------------------------------------------------------------

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}

const seq = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out: number[] = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const p of parts.slice(2)) {
    const enc: number[] = [p & 0x7f];
    for (let v = p >>> 7; v > 0; v >>>= 7) enc.unshift(0x80 | (v & 0x7f));
    out.push(...enc);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && ((b[1] as number) & 0x80) === 0) b = b.subarray(1);
  if (((b[0] as number) & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z"; // YYYYMMDDHHMMSSZ
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

const utf8String = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));
const bool = (b: boolean) => tlv(0x01, Buffer.from([b ? 0xff : 0]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

function pem(label: string, der: Buffer): string {
  const b64 = der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

// ----------------------------------------------------------------------------------------------

const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";

export function generatePluginCertificate(now = new Date()): PluginCertificate {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const name = seq(set(seq(oid("2.5.4.10"), utf8String("HashiCorp"))), set(seq(oid("2.5.4.3"), utf8String("localhost"))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;
  // digitalSignature | keyEncipherment | keyAgreement | keyCertSign: bits 0, 2, 4, 5.
  const keyUsage = bits(Buffer.from([0xac]), 2);
  const extensions = seq(
    extension("2.5.29.19", true, seq(bool(true))),
    extension("2.5.29.15", true, keyUsage),
    extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))),
    extension("2.5.29.17", false, seq(tlv(0x82, Buffer.from("localhost")))),
  );
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    seq(oid(ECDSA_WITH_SHA256)),
    name,
    seq(time(new Date(now.getTime() - 30_000)), time(new Date(now.getTime() + 262_980 * 3600_000))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, extensions),
  );
  const signature = sign("sha256", tbs, privateKey);
  const cert = seq(tbs, seq(oid(ECDSA_WITH_SHA256)), bits(signature));
  return {
    certPem: pem("CERTIFICATE", cert),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    certBase64: cert.toString("base64").replace(/=+$/, ""),
  };
}
