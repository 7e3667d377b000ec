// AutoMTLS certificates, as go-plugin makes them (mtls.go generateCert): self-signed, CN and SAN
// `localhost`, CA:TRUE with cert-sign usage, valid for both client and server auth. We use ECDSA
// P-256 (go-plugin uses P-521; either is accepted, and P-256 is what every TLS stack supports).
// Each side trusts exactly the other's certificate: the host sends its own in PLUGIN_CLIENT_CERT,
// the plugin answers with its own in the handshake line. The SDK's plugins make theirs here too.
//
// node:crypto makes the key and the signature; the few DER structures of the certificate are
// written below. A general X.509 library (@peculiar/x509, which the tests check these
// certificates with) costs hundreds of milliseconds to load and to make its first certificate,
// and both the host and every plugin process need one at start-up.

import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

export interface CertificatePair {
  /** The certificate, PEM. */
  readonly certPem: string;
  /** Its PKCS#8 private key, PEM. */
  readonly keyPem: string;
  /** The certificate's DER. */
  readonly certDer: Uint8Array;
}

const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";

/** A fresh certificate and key pair with go-plugin's properties. */
export function generateCertificate(now = new Date()): CertificatePair {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const name = seq(set(seq(oid("2.5.4.10"), utf8String("HashiCorp"))), set(seq(oid("2.5.4.3"), utf8String("localhost"))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f; // a positive serial number
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
    seq(time(new Date(now.getTime() - 30_000)), time(new Date(now.getTime() + 262_980 * 3_600_000))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, extensions),
  );
  const signature = sign("sha256", tbs, privateKey);
  const cert = seq(tbs, seq(oid(ECDSA_WITH_SHA256)), bits(signature));
  return {
    certPem: pem("CERTIFICATE", cert),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    certDer: new Uint8Array(cert),
  };
}

let processCertificate: CertificatePair | undefined;

/**
 * The host's client certificate, made once per process and offered to every plugin it starts:
 * what each plugin must trust is only that it talks to its own host, so one certificate serves
 * them all, and later launches skip making one.
 */
export function clientCertificate(): CertificatePair {
  processCertificate ??= generateCertificate();
  return processCertificate;
}

/** PEM armour around DER bytes (64-column base64). */
export function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** The DER bytes inside a PEM certificate. */
export function pemToDer(text: string): Uint8Array {
  const body = text.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  return new Uint8Array(Buffer.from(body, "base64"));
}

// --- the DER the certificate needs -------------------------------------------------------------

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

const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);

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

/** UTCTime until 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z"; // YYYYMMDDHHMMSSZ
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
const bool = (b: boolean): Buffer => tlv(0x01, Buffer.from([b ? 0xff : 0]));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.from([unused]), b);

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}
