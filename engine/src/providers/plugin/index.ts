// Public surface of providers/plugin. See README.md.
export { clientCertificate, generateCertificate, pem, pemToDer, type CertificatePair } from "./certs.js";
export {
  PluginClient,
  startPlugin,
  type PluginExit,
  type PluginLogEntry,
  type PluginLogSink,
  type PluginStream,
  type StartPluginOptions,
  type StartPluginResult,
} from "./client.js";
export {
  CORE_PROTOCOL_VERSION,
  MAGIC_COOKIE_KEY,
  MAGIC_COOKIE_VALUE,
  SUPPORTED_PROTOCOL_VERSIONS,
  parseHandshake,
  unrecognizedMessage,
  type Handshake,
  type HandshakeResult,
} from "./handshake.js";
export { GRPCProvider, diagnosticsFromProto, pathFromProto, pathToProto, type GRPCProviderOptions } from "./grpc_provider.js";
export { attachProvider, launchProvider, type LaunchProviderResult } from "./launch.js";
export { parseReattachProviders, REATTACH_ENV, type ReattachConfig, type ReattachResult } from "./reattach.js";
