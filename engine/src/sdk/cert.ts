// A plugin's AutoMTLS certificate: a fresh one per process, made as the host makes its own
// (providers/plugin/certs.ts). The host trusts exactly this certificate (sent in the handshake
// line); we trust exactly the host's (PLUGIN_CLIENT_CERT). serve.test.ts checks it with
// @peculiar/x509.

import { generateCertificate } from "../providers/plugin/certs.js";

export interface PluginCertificate {
  /** PEM of the certificate. */
  readonly certPem: string;
  /** PEM (PKCS#8) of the private key. */
  readonly keyPem: string;
  /** DER of the certificate, base64 without padding: the handshake line's last field. */
  readonly certBase64: string;
}

export async function generatePluginCertificate(now = new Date()): Promise<PluginCertificate> {
  const c = await generateCertificate(now);
  return { certPem: c.certPem, keyPem: c.keyPem, certBase64: Buffer.from(c.certDer).toString("base64").replace(/=+$/, "") };
}
