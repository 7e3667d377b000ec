// go-plugin's server side, as Terraform's plugin client expects it: check the magic cookie,
// listen on a unix socket, do AutoMTLS when the host sends PLUGIN_CLIENT_CERT, print the handshake
// line `1|6|unix|<socket>|grpc|<cert>`, then serve tfplugin6.Provider next to go-plugin's
// GRPCController (Shutdown exits cleanly), GRPCStdio and GRPCBroker (both held open).

import * as grpc from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { serviceDefinition } from "../providers/proto/index.js";
import type { Logger } from "../logging/logger.js";
import type { ProtoDiagnostic } from "../providers/proto/types.js";
import { generatePluginCertificate } from "./cert.js";
import { providerLogger, withRequestLogger } from "./log.js";
import type { ProviderDefinition } from "./provider.js";
import { ProviderServer } from "./server.js";

export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
export const PROTOCOL_VERSION = 6;
/** go-plugin's own protocol version, the handshake line's first field. */
export const CORE_PROTOCOL_VERSION = 1;

/** What go-plugin prints (to stderr) when a plugin binary is run by hand. */
export const NOT_A_PLUGIN_MESSAGE =
  "This binary is a plugin. These are not meant to be executed directly.\n" +
  "Please execute the program that consumes these plugins, which will\n" +
  "load any plugins automatically\n";

export interface ServeOptions {
  /** Environment to read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the handshake line goes (default process.stdout). */
  readonly writeHandshake?: (line: string) => void;
  /** Called after Shutdown (default: process.exit(0)). */
  readonly onShutdown?: () => void;
  /** The provider's log (default: hclog JSON lines on stderr at TF_LOG_PROVIDER / TF_LOG's level). */
  readonly log?: Logger;
}

export interface RunningPlugin {
  readonly server: grpc.Server;
  readonly provider: ProviderServer<unknown>;
  readonly socketPath: string;
  readonly handshake: string;
  /** Stops serving and removes the socket. */
  stop(): Promise<void>;
}

/** The handshake line's protocol: the highest version both sides speak, or undefined. */
export function negotiateProtocol(env: NodeJS.ProcessEnv): number | undefined {
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? "")
    .split(",")
    .filter((s) => s.trim() !== "")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n));
  if (offered.length === 0) return PROTOCOL_VERSION;
  return offered.includes(PROTOCOL_VERSION) ? PROTOCOL_VERSION : undefined;
}

interface ServerServices {
  readonly provider6: grpc.ServiceDefinition;
  readonly controller: grpc.ServiceDefinition;
  readonly stdio: grpc.ServiceDefinition;
  readonly broker: grpc.ServiceDefinition;
}

/** The services a provider serves (tfplugin6 and go-plugin's), from providers/proto. */
function serverServices(): ServerServices {
  return {
    provider6: serviceDefinition("tfplugin6.Provider"),
    controller: serviceDefinition("plugin.GRPCController"),
    stdio: serviceDefinition("plugin.GRPCStdio"),
    broker: serviceDefinition("plugin.GRPCBroker"),
  };
}

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

function unary<Req, Res>(f: (req: Req) => Res | Promise<Res>): Unary<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => f(call.request))
      .then(
        (res) => callback(null, res),
        (e: unknown) => callback({ code: grpc.status.INTERNAL, details: e instanceof Error ? e.message : String(e) }),
      );
  };
}

/**
 * `unary`, with each request logged as terraform-plugin-go logs them (module `sdk.proto`): its
 * arrival and answer at TRACE, and the answer's diagnostics at ERROR or WARN, so that a user's
 * TF_LOG shows which call to the provider failed and why.
 */
function loggedUnary<Req, Res>(log: Logger, rpc: string, f: (req: Req) => Res | Promise<Res>): Unary<Req, Res> {
  const protoLog = log.resetNamed("sdk.proto");
  return (call, callback) => {
    const request = call.request as { type_name?: unknown };
    const fields = ["tf_req_id", randomUUID(), "tf_rpc", rpc];
    if (typeof request?.type_name === "string" && request.type_name !== "") fields.push(rpc.includes("DataSource") ? "tf_data_source_type" : "tf_resource_type", request.type_name);
    const proto = protoLog.with(...fields);
    proto.trace("Received request");
    const started = performance.now();
    // The handlers' requestLogger() carries the same fields.
    withRequestLogger(log.with(...fields), () => Promise.resolve().then(() => f(call.request))).then(
      (res) => {
        for (const d of (res as { diagnostics?: readonly ProtoDiagnostic[] }).diagnostics ?? []) {
          const error = d.severity === "ERROR";
          proto.log(error ? "error" : "warn", `Response contains ${error ? "error" : "warning"} diagnostic`, "diagnostic_severity", String(d.severity), "diagnostic_summary", d.summary ?? "", "diagnostic_detail", d.detail ?? "");
        }
        proto.trace("Served request", "tf_req_duration_ms", Math.round(performance.now() - started));
        callback(null, res);
      },
      (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        proto.error("Request failed", "error", message);
        callback({ code: grpc.status.INTERNAL, details: message });
      },
    );
  };
}

/**
 * Starts serving `def` and returns once the handshake line is written. Use `servePlugin` from a
 * provider's entry point; this lower-level form is what tests call.
 */
export async function startPlugin<M>(def: ProviderDefinition<M>, opts: ServeOptions = {}): Promise<RunningPlugin> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? providerLogger(env);
  // The key pair is generated on the thread pool while the server is set up below.
  const clientCert = env.PLUGIN_CLIENT_CERT;
  const ownCert = clientCert ? generatePluginCertificate() : undefined;
  ownCert?.catch(() => undefined); // awaited below; a failure before that point must not go unhandled
  const provider = new ProviderServer<M>(def);
  const svcs = serverServices();
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 256 * 1024 * 1024,
    "grpc.max_send_message_length": 256 * 1024 * 1024,
  });

  const p = provider;
  // With logging off, requests go straight to the provider (the PlanResourceChange benchmark path).
  const handle = <Req, Res>(rpc: string, f: (req: Req) => Res | Promise<Res>): Unary<Req, Res> => (log.enabled("error") ? loggedUnary(log, rpc, f) : unary(f));
  server.addService(svcs.provider6, {
    GetMetadata: handle("GetMetadata", () => p.getMetadata()),
    GetProviderSchema: handle("GetProviderSchema", () => p.getProviderSchema()),
    GetResourceIdentitySchemas: handle("GetResourceIdentitySchemas", () => p.getResourceIdentitySchemas()),
    ValidateProviderConfig: handle("ValidateProviderConfig", (r: Parameters<typeof p.validateProviderConfig>[0]) => p.validateProviderConfig(r)),
    ValidateResourceConfig: handle("ValidateResourceConfig", (r: Parameters<typeof p.validateResourceConfig>[0]) => p.validateResourceConfig(r)),
    ValidateDataResourceConfig: handle("ValidateDataResourceConfig", (r: Parameters<typeof p.validateDataResourceConfig>[0]) => p.validateDataResourceConfig(r)),
    UpgradeResourceState: handle("UpgradeResourceState", (r: Parameters<typeof p.upgradeResourceState>[0]) => p.upgradeResourceState(r)),
    UpgradeResourceIdentity: handle("UpgradeResourceIdentity", () => ({ diagnostics: [{ severity: "ERROR", summary: "Resource identity is not supported by this provider", detail: "" }] })),
    ConfigureProvider: handle("ConfigureProvider", (r: Parameters<typeof p.configureProvider>[0]) => p.configureProvider(r)),
    ReadResource: handle("ReadResource", (r: Parameters<typeof p.readResource>[0]) => p.readResource(r)),
    PlanResourceChange: handle("PlanResourceChange", (r: Parameters<typeof p.planResourceChange>[0]) => p.planResourceChange(r)),
    ApplyResourceChange: handle("ApplyResourceChange", (r: Parameters<typeof p.applyResourceChange>[0]) => p.applyResourceChange(r)),
    ImportResourceState: handle("ImportResourceState", (r: Parameters<typeof p.importResourceState>[0]) => p.importResourceState(r)),
    MoveResourceState: handle("MoveResourceState", (r: Parameters<typeof p.moveResourceState>[0]) => p.moveResourceState(r)),
    ReadDataSource: handle("ReadDataSource", (r: Parameters<typeof p.readDataSource>[0]) => p.readDataSource(r)),
    ValidateEphemeralResourceConfig: handle("ValidateEphemeralResourceConfig", (r: Parameters<typeof p.validateEphemeralResourceConfig>[0]) => p.validateEphemeralResourceConfig(r)),
    OpenEphemeralResource: handle("OpenEphemeralResource", (r: Parameters<typeof p.openEphemeralResource>[0]) => p.openEphemeralResource(r)),
    RenewEphemeralResource: handle("RenewEphemeralResource", (r: Parameters<typeof p.renewEphemeralResource>[0]) => p.renewEphemeralResource(r)),
    CloseEphemeralResource: handle("CloseEphemeralResource", (r: Parameters<typeof p.closeEphemeralResource>[0]) => p.closeEphemeralResource(r)),
    GetFunctions: handle("GetFunctions", () => p.getFunctions()),
    CallFunction: handle("CallFunction", (r: Parameters<typeof p.callFunction>[0]) => p.callFunction(r)),
    StopProvider: handle("StopProvider", () => p.stopProvider()),
  });

  // Streams the host opens at start; go-plugin's client only needs them to stay open.
  const open = new Set<grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>>();
  server.addService(svcs.stdio, {
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      open.add(call);
      call.on("cancelled", () => open.delete(call));
    },
  });
  server.addService(svcs.broker, {
    StartStream: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      open.add(call);
      call.on("data", () => undefined);
      call.on("end", () => {
        open.delete(call);
        call.end();
      });
      call.on("cancelled", () => open.delete(call));
    },
  });

  const dir = mkdtempSync(path.join(env.PLUGIN_UNIX_SOCKET_DIR || os.tmpdir(), "plugin"));
  const socketPath = path.join(dir, "plugin.sock");
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const s of open) s.end();
    open.clear();
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 500);
      server.tryShutdown(() => {
        clearTimeout(t);
        resolve();
      });
    });
    rmSync(dir, { recursive: true, force: true });
  };

  server.addService(svcs.controller, {
    Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<Record<string, never>>) => {
      callback(null, {});
      // Answer first, then go: the host waits for the reply before it stops watching the process.
      setImmediate(() => {
        void stop().then(() => (opts.onShutdown ?? (() => process.exit(0)))());
      });
    },
  });

  let creds = grpc.ServerCredentials.createInsecure();
  let certField = "";
  if (clientCert && ownCert) {
    log.resetNamed("").info("configuring server automatic mTLS");
    const own = await ownCert;
    creds = grpc.ServerCredentials.createSsl(Buffer.from(clientCert), [{ private_key: Buffer.from(own.keyPem), cert_chain: Buffer.from(own.certPem) }], true);
    certField = own.certBase64;
  }

  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix://${socketPath}`, creds, (err) => (err ? reject(err) : resolve()));
  });

  log.resetNamed("").debug("plugin address", "address", socketPath, "network", "unix");
  const handshake = `${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|unix|${socketPath}|grpc|${certField}`;
  (opts.writeHandshake ?? ((line: string) => process.stdout.write(line)))(`${handshake}\n`);
  return { server, provider: provider as ProviderServer<unknown>, socketPath, handshake, stop };
}

export interface ServePluginOptions {
  /**
   * The provider's source address (`registry.opentofu.org/acme/thing`, or `acme/thing`), which
   * `-debug` prints for TF_REATTACH_PROVIDERS.
   */
  readonly address?: string;
}

/**
 * A provider executable's main: refuses to run without go-plugin's magic cookie (printing
 * go-plugin's message and exiting 1), then serves until the host calls Shutdown. With `-debug`
 * it serves for debugging instead (see serveDebug).
 */
export async function servePlugin<M>(def: ProviderDefinition<M>, opts: ServePluginOptions = {}): Promise<void> {
  const env = process.env;
  const args = process.argv.slice(2);
  if (args.includes("-debug") || args.includes("--debug")) return serveDebug(def, opts.address);
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    process.stderr.write(NOT_A_PLUGIN_MESSAGE);
    process.exit(1);
  }
  if (negotiateProtocol(env) === undefined) {
    process.stderr.write(
      `This plugin speaks protocol version ${PROTOCOL_VERSION}; the host offered ${env.PLUGIN_PROTOCOL_VERSIONS}.\n`,
    );
    process.exit(1);
  }
  // The host handles interrupts (it sends StopProvider); like go-plugin, ignore them here.
  process.on("SIGINT", () => undefined);
  try {
    const running = await startPlugin(def);
    process.on("SIGTERM", () => void running.stop().then(() => process.exit(0)));
  } catch (e) {
    process.stderr.write(`failed to start plugin: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}

/** The key a debug provider prints: the short form (`hashicorp/null`) on the public registries, which tofu and terraform both read as their own. */
function reattachKey(address: string): string {
  const parts = address.split("/");
  return parts.length === 3 && (parts[0] === "registry.opentofu.org" || parts[0] === "registry.terraform.io") ? parts.slice(1).join("/") : address;
}

/** The TF_REATTACH_PROVIDERS assignment for one provider serving at `socketPath`. */
export function reattachAssignment(address: string, pid: number, socketPath: string): string {
  const entry = { Protocol: "grpc", ProtocolVersion: PROTOCOL_VERSION, Pid: pid, Test: true, Addr: { Network: "unix", String: socketPath } };
  return `TF_REATTACH_PROVIDERS='${JSON.stringify({ [reattachKey(address)]: entry })}'`;
}

/**
 * `-debug`: the provider is started by hand (under a debugger, say `node --inspect`) rather than by
 * a host, so there is no magic cookie and no host certificate (plain gRPC on the unix socket); it
 * prints the TF_REATTACH_PROVIDERS value that points terrace, tofu or terraform at it, and serves
 * every command run with that value until it is stopped (Ctrl-C). A host's Shutdown does not stop it.
 */
async function serveDebug<M>(def: ProviderDefinition<M>, address: string | undefined): Promise<void> {
  if (!address) {
    process.stderr.write("-debug needs the provider's source address: servePlugin(definition, { address: \"registry.opentofu.org/<namespace>/<type>\" })\n");
    process.exit(1);
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PLUGIN_CLIENT_CERT;
  try {
    const running = await startPlugin(def, { env, writeHandshake: () => undefined, onShutdown: () => undefined });
    const stop = () => void running.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    process.stdout.write(
      `Provider ${address} is serving for debugging (pid ${process.pid}). To use it, run terrace, tofu or\n` +
        `terraform with this variable in their environment; stop the provider with Ctrl-C.\n\n` +
        `\t${reattachAssignment(address, process.pid, running.socketPath)}\n\n`,
    );
  } catch (e) {
    process.stderr.write(`failed to start plugin: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
