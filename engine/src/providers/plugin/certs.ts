// AutoMTLS certificates, as go-plugin makes them (mtls.go generateCert): a fresh self-signed
// certificate per plugin launch, CN and SAN `localhost`, CA:TRUE with cert-sign usage, valid for
// both client and server auth. We use ECDSA P-256 (go-plugin uses P-521; either is accepted, and
// P-256 is what every TLS stack supports). node:crypto cannot mint certificates, so the X.509
// structure comes from @peculiar/x509 on top of WebCrypto.

import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { randomBytes, webcrypto } from "node:crypto";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export interface CertificatePair {
  /** The certificate, PEM. */
  readonly certPem: string;
  /** Its PKCS#8 private key, PEM. */
  readonly keyPem: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export async function generateCertificate(): Promise<CertificatePair> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // a positive serial number
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(serial).toString("hex"),
    name: "CN=localhost, O=HashiCorp",
    notBefore: new Date(now - 30_000),
    notAfter: new Date(now + 262_980 * 3_600_000),
    keys: keys as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]["keys"],
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyAgreement | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { certPem: cert.toString("pem"), keyPem: pem("PRIVATE KEY", new Uint8Array(pkcs8)) };
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
