// AutoMTLS certificates, as go-plugin makes them (mtls.go generateCert): an ECDSA P-521 key,
// self-signed, issuer and subject O=HashiCorp CN=localhost, SAN DNS localhost, CA with key usages
// digitalSignature | keyEncipherment | keyAgreement | keyCertSign, extended key usages client and
// server auth, a random 128-bit serial, valid from 30 s ago for 262,980 hours. Like Go's
// x509.CreateCertificate for such a template, the subject key identifier is the SHA-1 of the
// public key, names are PrintableStrings, and the signature is ECDSA with SHA-512.
// Each side trusts exactly the other's certificate: the host sends its own in PLUGIN_CLIENT_CERT,
// the plugin answers with its own in the handshake line. The SDK's plugins make theirs here too.
//
// node:crypto makes the key and the signature; x509.ts lays out the certificate with
// PeculiarVentures' X.509 ASN.1 schema (@peculiar/asn1-x509). It is imported on first use, not
// with this module, so a `terrace` command that starts no provider does not load it, and the key
// pair is generated on libuv's thread pool while it loads.

import { generateKeyPair, type KeyObject } from "node:crypto";

export interface CertificatePair {
  /** The certificate, PEM. */
  readonly certPem: string;
  /** Its PKCS#8 private key, PEM. */
  readonly keyPem: string;
  /** The certificate's DER. */
  readonly certDer: Uint8Array;
}

let x509: Promise<typeof import("./x509.js")> | undefined;

function keyPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return new Promise((resolve, reject) =>
    generateKeyPair("ec", { namedCurve: "secp521r1" }, (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey, privateKey }))),
  );
}

/** A fresh certificate and key pair with go-plugin's properties. */
export async function generateCertificate(now = new Date()): Promise<CertificatePair> {
  x509 ??= import("./x509.js");
  const [{ selfSignedCertificate }, { publicKey, privateKey }] = await Promise.all([x509, keyPair()]);
  const der = selfSignedCertificate(publicKey, privateKey, now);
  return {
    certPem: pem("CERTIFICATE", der),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    certDer: der,
  };
}

let processCertificate: Promise<CertificatePair> | undefined;

/**
 * The host's client certificate, made once per process and offered to every plugin it starts:
 * what each plugin must trust is only that it talks to its own host, so one certificate serves
 * them all, and later launches skip making one.
 */
export function clientCertificate(): Promise<CertificatePair> {
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
