// Launching and talking to a provider plugin process, the way go-plugin's client does it:
// start the executable with the magic cookie and AutoMTLS client certificate in its environment,
// read the handshake line from its stdout, connect with gRPC (unix socket or TCP, mutual TLS
// trusting the certificate from the handshake), open GRPCStdio/StreamStdio (the plugin's own
// stdout/stderr) and GRPCBroker/StartStream, and on close ask GRPCController/Shutdown, wait,
// then kill. Everything the plugin prints goes to a log sink and to a ring buffer that crash
// diagnostics quote. Start failures come back as values, not exceptions.

import * as grpc from "@grpc/grpc-js";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { coreLog, logPluginLine, pluginLogEnv, providerLog, type Logger } from "../../logging/index.js";
import { pluginServices } from "../proto/index.js";
import type { ProtoStdioData } from "../proto/types.js";
import { clientCertificate, type CertificatePair } from "./certs.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshake, type Handshake } from "./handshake.js";
import type { ReattachConfig } from "./reattach.js";
import { processAlive } from "../../host/processes.js";

export type PluginStream = "stdout" | "stderr";

export interface PluginLogEntry {
  /** The plugin's name (its executable's base name unless given). */
  readonly plugin: string;
  readonly stream: PluginStream;
  readonly line: string;
}

export type PluginLogSink = (entry: PluginLogEntry) => void;

export interface StartPluginOptions {
  /** The plugin executable. */
  readonly command: string;
  readonly args?: readonly string[];
  /** The working directory (OpenTofu uses the configuration's directory). */
  readonly cwd?: string;
  /** Extra environment on top of this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly name?: string;
  /** How long to wait for the handshake line (go-plugin's default: one minute). */
  readonly handshakeTimeoutMs?: number;
  /** Mutual TLS with a certificate minted per launch (default true, as OpenTofu does). */
  readonly autoMTLS?: boolean;
  /** Protocol versions offered in PLUGIN_PROTOCOL_VERSIONS (default 5,6). */
  readonly protocolVersions?: readonly (5 | 6)[];
  /** How long close() waits for a clean exit after Shutdown before killing (default 2 s). */
  readonly shutdownGraceMs?: number;
  readonly logSink?: PluginLogSink;
}

export type StartPluginResult = { ok: true; client: PluginClient } | { ok: false; error: string };

/**
 * How to open another connection to a running plugin: its gRPC target and, with AutoMTLS, the
 * certificates of this launch. Plain data, so that it can cross to a worker thread.
 */
export interface PluginEndpoint {
  readonly target: string;
  readonly serverCertPem?: string;
  readonly clientKeyPem?: string;
  readonly clientCertPem?: string;
}

/** A plugin process this client did not start (TF_REATTACH_PROVIDERS). */
export interface UnmanagedProcess {
  readonly pid: number;
  /** Started for debugging: it outlives the command, which neither stops nor kills it. */
  readonly test: boolean;
}

export interface PluginExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const OUTPUT_LINES_KEPT = 200;

/** Live plugin processes, killed if this process exits without closing them. */
const livePlugins = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  livePlugins.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const c of livePlugins) c.kill("SIGKILL");
    });
  }
}

/**
 * The plugin's output, line-buffered per stream, copied to the sink, a ring buffer and the debug
 * log. The process's own stderr carries the plugin's log lines (go-plugin re-logs them under
 * `provider.<executable>`); what arrives over GRPCStdio is output the plugin did not mean to
 * print, which OpenTofu logs as a warning.
 */
class OutputCapture {
  private readonly lines: string[] = [];
  private readonly partial = new Map<string, string>();
  private readonly pluginLog: Logger;
  private readonly coreLog: Logger;

  constructor(
    private readonly plugin: string,
    private readonly sink: PluginLogSink | undefined,
  ) {
    this.pluginLog = providerLog().named(plugin);
    this.coreLog = coreLog();
  }

  write(stream: PluginStream, chunk: string, viaStdio = false): void {
    const key = viaStdio ? `stdio:${stream}` : stream;
    const text = (this.partial.get(key) ?? "") + chunk;
    const parts = text.split("\n");
    this.partial.set(key, parts.pop() ?? "");
    for (const line of parts) this.line(stream, line.replace(/\r$/, ""), viaStdio);
  }

  flush(): void {
    for (const [key, rest] of this.partial) if (rest !== "") this.line(key.endsWith("stdout") ? "stdout" : "stderr", rest, key.startsWith("stdio:"));
    this.partial.clear();
  }

  private line(stream: PluginStream, line: string, viaStdio: boolean): void {
    this.lines.push(line);
    if (this.lines.length > OUTPUT_LINES_KEPT) this.lines.shift();
    this.sink?.({ plugin: this.plugin, stream, line });
    if (viaStdio) this.coreLog.warn("unexpected data", `${this.plugin}:${stream}`, line.length > 1024 ? `${line.slice(0, 1024)}...` : line);
    else if (stream === "stderr") logPluginLine(this.pluginLog, line);
    else this.pluginLog.debug(line);
  }

  last(): string {
    return this.lines.join("\n");
  }
}

/** A running, connected plugin. */
export class PluginClient {
  private exitInfo: PluginExit | undefined;
  private readonly exitPromise: Promise<PluginExit>;
  private closing: Promise<void> | undefined;
  private stdioCall: grpc.ClientReadableStream<unknown> | undefined;
  private brokerCall: grpc.ClientDuplexStream<unknown, unknown> | undefined;
  private readonly inflight = new Set<ChannelCall>();

  /** @internal use startPlugin */
  constructor(
    readonly name: string,
    readonly handshake: Handshake,
    /** The process, when this client started it; an unmanaged (reattached) plugin is not ours. */
    private readonly process: ChildProcess | UnmanagedProcess,
    private readonly output: OutputCapture,
    private readonly channel: grpc.Channel,
    private readonly channelClient: grpc.Client,
    private readonly shutdownGraceMs: number,
    exitPromise: Promise<PluginExit>,
    /** Another connection to this plugin (the synchronous function calls' worker opens one). */
    readonly endpoint: PluginEndpoint,
  ) {
    this.exitPromise = exitPromise.then((e) => {
      this.exitInfo = e;
      // Calls still waiting on a dead process would otherwise wait for gRPC's own timeouts.
      setTimeout(() => {
        for (const call of this.inflight) call.cancelWithStatus(grpc.status.CANCELLED, "Cancelled on client");
      }, 100).unref();
      return e;
    });
  }

  get protocolVersion(): 5 | 6 {
    return this.handshake.protocolVersion;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Set once the process has exited. */
  get exited(): PluginExit | undefined {
    return this.exitInfo;
  }

  whenExited(): Promise<PluginExit> {
    return this.exitPromise;
  }

  /** The plugin's most recent output lines (stdout and stderr, interleaved as received). */
  lastOutput(): string {
    return this.output.last();
  }

  /** @internal */
  startStreams(): void {
    const services = pluginServices();
    const stdio = services.stdio.service["StreamStdio"];
    if (stdio) {
      const call = this.channelClient.makeServerStreamRequest(stdio.path, stdio.requestSerialize, stdio.responseDeserialize, {}, new grpc.Metadata(), {});
      call.on("data", (d: unknown) => {
        const data = d as ProtoStdioData;
        const stream: PluginStream = data.channel === "STDOUT" || data.channel === 1 ? "stdout" : "stderr";
        if (data.data) this.output.write(stream, Buffer.from(data.data).toString("utf8"), true);
      });
      // Older plugins lack the service (UNIMPLEMENTED); closing cancels it. Neither matters.
      call.on("error", () => undefined);
      this.stdioCall = call;
    }
    const broker = services.broker.service["StartStream"];
    if (broker) {
      const call = this.channelClient.makeBidiStreamRequest(broker.path, broker.requestSerialize, broker.responseDeserialize, new grpc.Metadata(), {});
      call.on("data", () => undefined);
      call.on("error", () => undefined);
      this.brokerCall = call;
    }
  }

  /**
   * One unary call on `service` (tfplugin5/6.Provider or a go-plugin service). Resolves with the
   * decoded response or the gRPC error; never rejects.
   *
   * Made on the channel directly rather than through grpc.Client's makeUnaryRequest: that layer
   * (interceptor chain, call emitter, a captured stack per call) cost ~6% of the client's CPU per
   * call (docs/performance.md) and offers nothing a plugin connection uses.
   */
  unary(service: grpc.ServiceClientConstructor, method: string, request: object): Promise<UnaryResult> {
    const def = service.service[method];
    if (!def) throw new Error(`no method ${method} in the protocol definition`);
    return new Promise((resolve) => {
      let message: Buffer;
      try {
        message = def.requestSerialize(request);
      } catch (e) {
        resolve({ ok: false, error: serviceError(grpc.status.INTERNAL, `Request message serialization failure: ${e instanceof Error ? e.message : String(e)}`) });
        return;
      }
      const call = this.channel.createCall(def.path, Infinity, undefined, null, undefined);
      let response: unknown;
      let received = false;
      let parseError: string | undefined;
      call.start(new grpc.Metadata(), {
        onReceiveMetadata: () => undefined,
        onReceiveMessage: (bytes: Buffer) => {
          if (received) {
            call.cancelWithStatus(grpc.status.UNIMPLEMENTED, "Too many responses received");
            return;
          }
          try {
            response = def.responseDeserialize(bytes);
            received = true;
          } catch (e) {
            parseError = `Response message parsing error: ${e instanceof Error ? e.message : String(e)}`;
            call.cancelWithStatus(grpc.status.INTERNAL, parseError);
          }
        },
        onReceiveStatus: (status: grpc.StatusObject) => {
          this.inflight.delete(call);
          if (parseError !== undefined) resolve({ ok: false, error: serviceError(grpc.status.INTERNAL, parseError, status.metadata) });
          else if (status.code !== grpc.status.OK) resolve({ ok: false, error: serviceError(status.code, status.details, status.metadata) });
          else if (!received) resolve({ ok: false, error: serviceError(grpc.status.UNIMPLEMENTED, "No message received", status.metadata) });
          else resolve({ ok: true, response });
        },
      });
      this.inflight.add(call);
      call.sendMessageWithContext({}, message);
      call.halfClose();
      call.startRead();
    });
  }

  /**
   * Ends the plugin: GRPCController/Shutdown, up to `shutdownGraceMs` for it to exit, then
   * SIGKILL. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    if ("test" in this.process) {
      // A plugin started for debugging (Test) keeps running for the next command; another
      // unmanaged one is asked to stop, but this process cannot wait for or kill it.
      if (!this.process.test) await Promise.race([this.unary(pluginServices().controller, "Shutdown", {}), delay(this.shutdownGraceMs)]);
    } else if (!this.exitInfo) {
      const services = pluginServices();
      const shutdown = this.unary(services.controller, "Shutdown", {});
      await Promise.race([shutdown, this.exitPromise, delay(this.shutdownGraceMs)]);
      const exited = await Promise.race([this.exitPromise, delay(this.shutdownGraceMs).then(() => undefined)]);
      if (!exited) {
        this.process.kill("SIGKILL");
        await this.exitPromise;
      }
    }
    this.stdioCall?.cancel();
    this.brokerCall?.cancel();
    this.channelClient.close();
    this.channel.close();
    this.output.flush();
  }
}

/** What Channel.createCall returns (grpc-js does not export the type by name). */
type ChannelCall = ReturnType<grpc.Channel["createCall"]>;

export type UnaryResult = { ok: true; response: unknown } | { ok: false; error: grpc.ServiceError };

/** A failed call as grpc-js's client reports one (code, details, metadata on an Error). */
function serviceError(code: grpc.status, details: string, metadata = new grpc.Metadata()): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Launches a plugin and connects to it. */
export async function startPlugin(opts: StartPluginOptions): Promise<StartPluginResult> {
  const name = opts.name ?? path.basename(opts.command);
  const autoMTLS = opts.autoMTLS ?? true;
  const versions = opts.protocolVersions ?? [5, 6];
  const log = providerLog();
  let clientCert: CertificatePair | undefined;
  if (autoMTLS) {
    log.info("configuring client automatic mTLS");
    try {
      clientCert = await clientCertificate();
    } catch (e) {
      return { ok: false, error: `failed to make the AutoMTLS client certificate: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...pluginLogEnv(), ...opts.env })) if (v !== undefined) env[k] = v;
  env[MAGIC_COOKIE_KEY] = MAGIC_COOKIE_VALUE;
  env["PLUGIN_PROTOCOL_VERSIONS"] = versions.join(",");
  env["PLUGIN_MIN_PORT"] = "10000";
  env["PLUGIN_MAX_PORT"] = "25000";
  if (clientCert) env["PLUGIN_CLIENT_CERT"] = clientCert.certPem;
  else delete env["PLUGIN_CLIENT_CERT"];

  const output = new OutputCapture(name, opts.logSink);
  let child: ChildProcess;
  log.debug("starting plugin", "path", opts.command, "args", [opts.command, ...(opts.args ?? [])]);
  try {
    child = spawn(opts.command, [...(opts.args ?? [])], { cwd: opts.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return { ok: false, error: `failed to start plugin ${name}: ${e instanceof Error ? e.message : String(e)}` };
  }
  trackChild(child);
  const pid = child.pid;
  if (pid !== undefined) {
    log.debug("plugin started", "path", opts.command, "pid", pid);
    log.debug("waiting for RPC address", "plugin", opts.command);
  }
  const exitPromise = new Promise<PluginExit>((resolve) => {
    child.on("exit", (code, signal) => {
      livePlugins.delete(child);
      if (code === 0) log.info("plugin process exited", "plugin", opts.command, "id", pid);
      else log.error("plugin process exited", "plugin", opts.command, "id", pid, "error", goExitError({ code, signal }));
      resolve({ code, signal });
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.on("error", resolve));

  // The first stdout line is the handshake; everything after it is ordinary output.
  let handshakeLine: ((line: string) => void) | undefined;
  const firstLine = new Promise<string>((resolve) => (handshakeLine = resolve));
  let stdoutBuf = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    if (handshakeLine) {
      stdoutBuf += chunk;
      const nl = stdoutBuf.indexOf("\n");
      if (nl < 0) return;
      const done = handshakeLine;
      handshakeLine = undefined;
      done(stdoutBuf.slice(0, nl));
      const rest = stdoutBuf.slice(nl + 1);
      if (rest) output.write("stdout", rest);
      return;
    }
    output.write("stdout", chunk);
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => output.write("stderr", chunk));
  // The plugin takes a few hundred milliseconds to reach its handshake, and this process waits
  // idle meanwhile: build the protocol's codecs now rather than after it answers. A failure here
  // shows again, as a diagnostic, where the codecs are used.
  setImmediate(() => {
    try {
      const services = pluginServices();
      for (const service of [services.provider6, services.controller, services.stdio, services.broker]) void service;
    } catch {
      // reported where used
    }
  });

  const fail = async (error: string): Promise<StartPluginResult> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await Promise.race([exitPromise, delay(1000)]);
    output.flush();
    const last = output.last();
    return { ok: false, error: last ? `${error}\n\nThe plugin's output:\n${last}` : error };
  };

  const timeoutMs = opts.handshakeTimeoutMs ?? 60_000;
  const first = await Promise.race([
    firstLine.then((line) => ({ kind: "line" as const, line })),
    exitPromise.then((exit) => ({ kind: "exit" as const, exit })),
    spawnError.then((err) => ({ kind: "error" as const, err })),
    delay(timeoutMs).then(() => ({ kind: "timeout" as const })),
  ]);
  switch (first.kind) {
    case "error":
      return fail(`failed to start plugin ${name}: ${first.err.message}`);
    case "timeout":
      return fail(`timeout while waiting for plugin to start (${name} did not complete the handshake within ${timeoutMs} ms)`);
    case "exit":
      return fail(`plugin exited before we could connect (${exitText(first.exit)})`);
    case "line":
      break;
  }
  const parsed = parseHandshake(first.line);
  if (!parsed.ok) return fail(parsed.error);
  const hs = parsed.handshake;
  log.debug("using plugin", "version", hs.protocolVersion);
  if (clientCert && !hs.serverCertPem) {
    return fail(`plugin ${name} did not offer a TLS certificate although AutoMTLS was requested (PLUGIN_CLIENT_CERT); it is too old or not a Terraform provider`);
  }

  const connection = await connect(hs.network, hs.address, hs.serverCertPem && clientCert ? { serverCertPem: hs.serverCertPem, clientCert } : undefined, timeoutMs);
  if (!connection.ok) return fail(`failed to connect to plugin ${name} at ${hs.network}:${hs.address}: ${connection.error}`);
  const client = new PluginClient(name, hs, child, output, connection.channel, connection.channelClient, opts.shutdownGraceMs ?? 2_000, exitPromise, connection.endpoint);
  client.startStreams();
  return { ok: true, client };
}

/**
 * Connects to a plugin someone else started (TF_REATTACH_PROVIDERS), as go-plugin's client
 * reattaches: the process must be alive; no handshake and no TLS (the host did not hand it a
 * certificate); protocol 5 when the entry names none.
 */
export async function attachPlugin(name: string, cfg: ReattachConfig, opts: { readonly timeoutMs?: number; readonly logSink?: PluginLogSink } = {}): Promise<StartPluginResult> {
  if (cfg.protocol !== "" && cfg.protocol !== "grpc") return { ok: false, error: `Unsupported plugin protocol ${JSON.stringify(cfg.protocol)}: OpenTofu providers speak "grpc"` };
  const protocolVersion = cfg.protocolVersion === 0 ? 5 : cfg.protocolVersion;
  if (protocolVersion !== 5 && protocolVersion !== 6) return { ok: false, error: `no supported plugins for protocol ${protocolVersion}` };
  if (cfg.pid > 0 && !processAlive(cfg.pid)) return { ok: false, error: "Reattachment process not found" };
  const connection = await connect(cfg.network, cfg.address, undefined, opts.timeoutMs ?? 10_000);
  if (!connection.ok) return { ok: false, error: `failed to connect to plugin ${name} at ${cfg.network}:${cfg.address}: ${connection.error}` };
  const hs: Handshake = { protocolVersion, network: cfg.network, address: cfg.address };
  // Its exit is not ours to see: a call to a provider that went away fails as unavailable.
  const never = new Promise<PluginExit>(() => undefined);
  const output = new OutputCapture(name, opts.logSink);
  const client = new PluginClient(name, hs, { pid: cfg.pid, test: cfg.test }, output, connection.channel, connection.channelClient, 2_000, never, connection.endpoint);
  client.startStreams();
  return { ok: true, client };
}

interface Connection {
  readonly ok: true;
  readonly channel: grpc.Channel;
  readonly channelClient: grpc.Client;
  readonly endpoint: PluginEndpoint;
}

/** One gRPC channel to a plugin (mutual TLS when `tls` is given), ready for calls. */
async function connect(
  network: "unix" | "tcp",
  address: string,
  tls: { readonly serverCertPem: string; readonly clientCert: CertificatePair } | undefined,
  timeoutMs: number,
): Promise<Connection | { ok: false; error: string }> {
  const target = network === "unix" ? `unix://${address}` : address;
  const channelOptions: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": -1,
    "grpc.max_send_message_length": -1,
  };
  let creds: grpc.ChannelCredentials;
  if (tls) {
    creds = grpc.credentials.createSsl(Buffer.from(tls.serverCertPem), Buffer.from(tls.clientCert.keyPem), Buffer.from(tls.clientCert.certPem));
    channelOptions["grpc.ssl_target_name_override"] = "localhost";
    channelOptions["grpc.default_authority"] = "localhost";
  } else {
    creds = grpc.credentials.createInsecure();
  }
  // One channel for everything: unary calls go on it directly, streams through a Client over it.
  const channel = new grpc.Channel(target, creds, channelOptions);
  const channelClient = new grpc.Client(target, creds, { channelOverride: channel });
  const ready = await new Promise<Error | undefined>((resolve) => {
    channelClient.waitForReady(Date.now() + Math.max(5_000, Math.min(timeoutMs, 30_000)), (err) => resolve(err ?? undefined));
  });
  if (ready) {
    channelClient.close();
    channel.close();
    return { ok: false, error: ready.message };
  }
  const endpoint: PluginEndpoint = tls
    ? { target, serverCertPem: tls.serverCertPem, clientKeyPem: tls.clientCert.keyPem, clientCertPem: tls.clientCert.certPem }
    : { target };
  return { ok: true, channel, channelClient, endpoint };
}

/** Go's text for a process that did not exit cleanly (exec.ExitError). */
function goExitError(e: PluginExit): string {
  return e.signal ? `signal: ${SIGNAL_NAMES[e.signal] ?? e.signal}` : `exit status ${e.code ?? "unknown"}`;
}

/** Go's names for the signals a plugin meets (syscall.Signal's String). */
const SIGNAL_NAMES: Partial<Record<NodeJS.Signals, string>> = {
  SIGKILL: "killed",
  SIGTERM: "terminated",
  SIGINT: "interrupt",
  SIGSEGV: "segmentation fault",
  SIGABRT: "aborted",
};

function exitText(e: PluginExit): string {
  return e.signal ? `killed by ${e.signal}` : `exit status ${e.code ?? "unknown"}`;
}
