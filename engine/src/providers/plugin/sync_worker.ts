// The worker thread behind sync_calls.ts: it makes unary gRPC calls to running plugins for a
// main thread that waits on a shared flag. Requests and responses are serialized messages (the
// main thread owns the protocol's codecs), so this file needs nothing but grpc-js; it opens its
// own connection to each plugin, with the certificates of that plugin's launch.
import * as grpc from "@grpc/grpc-js";
import { workerData, type MessagePort } from "node:worker_threads";

/** A call asked for by the main thread. */
export interface SyncCallRequest {
  readonly seq: number;
  readonly endpoint: { readonly target: string; readonly serverCertPem?: string; readonly clientKeyPem?: string; readonly clientCertPem?: string };
  /** The method's full path, e.g. "/tfplugin6.Provider/CallFunction". */
  readonly path: string;
  readonly message: Uint8Array;
}

export type SyncCallResponse =
  | { readonly seq: number; readonly ok: true; readonly message: Uint8Array }
  | { readonly seq: number; readonly ok: false; readonly code: number; readonly details: string };

/** Tells the worker a plugin is gone, so its connection can be closed. */
export interface SyncForget {
  readonly forget: string;
}

/** Asks the worker to connect to a plugin ahead of the first call (no answer). */
export interface SyncWarm {
  readonly warm: SyncCallRequest["endpoint"];
}

export interface SyncWorkerData {
  readonly port: MessagePort;
  /** Int32 slot 0: the sequence number of the last answered request, -1 once the worker failed; slot 1: 1 once it listens. */
  readonly flag: SharedArrayBuffer;
}

const { port, flag } = workerData as SyncWorkerData;
const answered = new Int32Array(flag);
const channels = new Map<string, grpc.Client>();

const passThrough = (b: Buffer): Buffer => b;

function client(endpoint: SyncCallRequest["endpoint"]): grpc.Client {
  let c = channels.get(endpoint.target);
  if (c) return c;
  const options: grpc.ChannelOptions = { "grpc.max_receive_message_length": -1, "grpc.max_send_message_length": -1 };
  let creds: grpc.ChannelCredentials;
  if (endpoint.serverCertPem && endpoint.clientKeyPem && endpoint.clientCertPem) {
    creds = grpc.credentials.createSsl(Buffer.from(endpoint.serverCertPem), Buffer.from(endpoint.clientKeyPem), Buffer.from(endpoint.clientCertPem));
    options["grpc.ssl_target_name_override"] = "localhost";
    options["grpc.default_authority"] = "localhost";
  } else {
    creds = grpc.credentials.createInsecure();
  }
  c = new grpc.Client(endpoint.target, creds, options);
  channels.set(endpoint.target, c);
  return c;
}

// Anything thrown outside a call would leave the main thread waiting for ever: say so instead.
process.on("uncaughtException", () => {
  Atomics.store(answered, 0, -1);
  Atomics.notify(answered, 0);
});

function answer(r: SyncCallResponse): void {
  port.postMessage(r);
  Atomics.store(answered, 0, r.seq);
  Atomics.notify(answered, 0);
}

Atomics.store(answered, 1, 1);
port.on("message", (m: SyncCallRequest | SyncForget | SyncWarm) => {
  if ("forget" in m) {
    channels.get(m.forget)?.close();
    channels.delete(m.forget);
    return;
  }
  if ("warm" in m) {
    // A failure to connect now shows again, as the first call's error.
    client(m.warm).waitForReady(Date.now() + 30_000, () => undefined);
    return;
  }
  try {
    client(m.endpoint).makeUnaryRequest(m.path, passThrough, passThrough, Buffer.from(m.message), (err, res) => {
      if (err || !res) answer({ seq: m.seq, ok: false, code: err?.code ?? grpc.status.UNKNOWN, details: err?.details ?? "no response" });
      else answer({ seq: m.seq, ok: true, message: new Uint8Array(res) });
    });
  } catch (e) {
    answer({ seq: m.seq, ok: false, code: grpc.status.INTERNAL, details: e instanceof Error ? e.message : String(e) });
  }
});
