// Synchronous unary calls to a running plugin, for the one caller that cannot wait for a promise:
// the expression evaluator calling a provider-defined function (`provider::aws::arn_parse(...)`),
// which, as in OpenTofu, is an ordinary function call in the middle of evaluating an expression.
// The call is made by a worker thread (sync_worker.ts) over its own connection to the plugin,
// while this thread blocks on a shared flag (Atomics.wait) and then takes the answer off the
// message port (receiveMessageOnPort). Nothing else on this thread runs meanwhile, which is why
// only short calls belong here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { PluginEndpoint } from "./client.js";
import type { SyncCallRequest, SyncCallResponse, SyncWarm, SyncWorkerData } from "./sync_worker.js";

export type SyncCallResult = { ok: true; message: Uint8Array } | { ok: false; code: number; details: string };

interface Bridge {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly answered: Int32Array;
  seq: number;
  failed?: string;
}

let bridge: Bridge | undefined;

/**
 * The worker's code. Compiled, it is the `.js` beside this module; run from the TypeScript
 * sources (the tests), it is compiled here with esbuild, which the sources' tooling provides.
 */
function startWorker(data: SyncWorkerData): Worker {
  const here = import.meta.url;
  const options = { workerData: data, transferList: [data.port] };
  if (here.endsWith(".js")) return new Worker(new URL("./sync_worker.js", here), options);
  const require = createRequire(here);
  const esbuild = require("esbuild") as { transformSync(code: string, opts: object): { code: string } };
  const source = readFileSync(fileURLToPath(new URL("./sync_worker.ts", here)), "utf8");
  const { code } = esbuild.transformSync(source, { loader: "ts", format: "cjs", platform: "node", target: "node20" });
  const wrapped = `(function (require) {\n${code}\n})(require("node:module").createRequire(${JSON.stringify(here)}));`;
  return new Worker(wrapped, { ...options, eval: true });
}

function getBridge(): Bridge {
  if (bridge && !bridge.failed) return bridge;
  const { port1, port2 } = new MessageChannel();
  const flag = new SharedArrayBuffer(8);
  const worker = startWorker({ port: port2, flag });
  // Never what keeps the process alive.
  worker.unref();
  port1.unref();
  const b: Bridge = { worker, port: port1, answered: new Int32Array(flag), seq: 0 };
  worker.on("error", (e) => (b.failed = e.message));
  worker.on("exit", () => (b.failed ??= "the worker thread exited"));
  bridge = b;
  return b;
}

// A worker that fails while loading cannot say so (its error event would need this thread's
// event loop): one that has not said it is ready (slot 1) by then is taken for dead.
const WORKER_START_MS = 60_000;

/** The flag's value once the worker has failed for good (sync_worker.ts). */
const WORKER_FAILED = -1;

/**
 * One unary call, made while this thread waits. `path` is the method's full path
 * ("/tfplugin6.Provider/CallFunction"); `message` the serialized request. Like OpenTofu's, the
 * call has no deadline of its own: a plugin that dies fails it, one that hangs holds it.
 */
export function callUnarySync(endpoint: PluginEndpoint, path: string, message: Uint8Array): SyncCallResult {
  const b = getBridge();
  const seq = ++b.seq;
  const req: SyncCallRequest = { seq, endpoint, path, message };
  b.port.postMessage(req);
  const started = Date.now();
  for (;;) {
    const now = Atomics.load(b.answered, 0);
    if (Atomics.load(b.answered, 1) === 0 && Date.now() - started > WORKER_START_MS) b.failed ??= "the worker thread did not start";
    if (now === WORKER_FAILED || b.failed) {
      b.failed ??= "the worker thread failed";
      return { ok: false, code: 13, details: `the provider function call could not be made: ${b.failed}` };
    }
    if (now < seq) {
      Atomics.wait(b.answered, 0, now, 1_000);
      continue;
    }
    const got = receiveMessageOnPort(b.port);
    if (!got) continue;
    const r = got.message as SyncCallResponse;
    // An answer to an earlier call whose caller gave up cannot happen (callers block), but a
    // stale message must never be taken for this call's.
    if (r.seq !== seq) continue;
    return r.ok ? { ok: true, message: r.message } : { ok: false, code: r.code, details: r.details };
  }
}

/**
 * Starts the worker and its connection to a plugin without waiting, so that the first call made
 * while the evaluator waits does not also pay for the thread's start (about 200 ms).
 */
export function warmEndpoint(endpoint: PluginEndpoint): void {
  const warm: SyncWarm = { warm: endpoint };
  getBridge().port.postMessage(warm);
}

/** Closes the worker's connection to a plugin that has exited. */
export function forgetEndpoint(endpoint: PluginEndpoint): void {
  if (bridge && !bridge.failed) bridge.port.postMessage({ forget: endpoint.target });
}
