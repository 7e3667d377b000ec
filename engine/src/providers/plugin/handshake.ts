// go-plugin's handshake: the plugin's first stdout line says how to reach it.
//   CORE-PROTOCOL-VERSION | APP-PROTOCOL-VERSION | NETWORK | ADDRESS | PROTOCOL [| SERVER-CERT]
// e.g. `1|6|unix|/tmp/plugin123|grpc|MIIB…` — core version 1, provider protocol 6, a unix socket,
// gRPC, and (AutoMTLS) the server's certificate as unpadded standard base64 of its DER.

import { pem } from "./certs.js";

/** The environment variable and value every Terraform/OpenTofu provider checks for. */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
export const CORE_PROTOCOL_VERSION = 1;
/** Provider protocol versions this client speaks, in order of preference (highest first). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [6, 5];

export interface Handshake {
  readonly protocolVersion: 5 | 6;
  readonly network: "unix" | "tcp";
  readonly address: string;
  /** The server certificate, PEM; undefined when the plugin does not use TLS. */
  readonly serverCertPem?: string;
}

export type HandshakeResult = { ok: true; handshake: Handshake } | { ok: false; error: string };

/** go-plugin's wording for a line that is not a handshake at all. */
export function unrecognizedMessage(line: string): string {
  return (
    `Unrecognized remote plugin message: ${line}\n\n` +
    "This usually means that the plugin is either invalid or simply\n" +
    "needs to be recompiled to support the latest protocol."
  );
}

export function parseHandshake(rawLine: string): HandshakeResult {
  const line = rawLine.trim();
  const parts = line.split("|");
  if (parts.length < 4) return { ok: false, error: unrecognizedMessage(line) };
  const [core, app, network, address, protocol = "netrpc", cert] = parts as [string, string, string, string, string?, string?];
  const coreVersion = Number.parseInt(core, 10);
  if (String(coreVersion) !== core) return { ok: false, error: unrecognizedMessage(line) };
  if (coreVersion !== CORE_PROTOCOL_VERSION) {
    return {
      ok: false,
      error:
        `Incompatible core API version with plugin. Plugin version: ${core}, Core version: ${CORE_PROTOCOL_VERSION}\n\n` +
        "To fix this, the plugin usually only needs to be recompiled.\n" +
        "Please report this to the plugin author.",
    };
  }
  const appVersion = Number.parseInt(app, 10);
  if (appVersion !== 5 && appVersion !== 6) {
    return {
      ok: false,
      error: `Incompatible API version with plugin. Plugin version: ${app}, Client versions: [${[...SUPPORTED_PROTOCOL_VERSIONS].reverse().join(" ")}]`,
    };
  }
  if (network !== "unix" && network !== "tcp") return { ok: false, error: `Unknown address type: ${network}` };
  if (protocol !== "grpc") {
    return { ok: false, error: `Unsupported plugin protocol "${protocol}": only gRPC plugins are supported (net/rpc plugins predate Terraform 0.12)` };
  }
  let serverCertPem: string | undefined;
  if (cert !== undefined && cert !== "") {
    const der = Buffer.from(cert, "base64");
    if (der.length === 0) return { ok: false, error: "error parsing server certificate: empty" };
    serverCertPem = pem("CERTIFICATE", new Uint8Array(der));
  }
  return { ok: true, handshake: { protocolVersion: appVersion, network, address, ...(serverCertPem ? { serverCertPem } : {}) } };
}
