// Benchmark of provider-defined function calls (not a test): `provider::sim::arn_parse(...)` on the
// bundled `sim` provider process, as the expression evaluator makes them — synchronously, through
// the worker thread's own connection (GRPCProvider.callFunctionSync, providers/plugin/
// sync_calls.ts) — beside the same call made asynchronously on the client's connection.
//
//   node bench/provider-functions.mjs      # or: npm run bench -- provider-functions
//
// Prints calls per second and p50/p99/max latency of each, sequential, for BENCH_SECONDS each after
// a warm-up, and the cost of a process's first synchronous call when readied in advance, and of a
// first call on a new connection. Options (env): BENCH_SECONDS (3), BENCH_ENGINE_DIST (another build).
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ENGINE } from "../scripts/lib/paths.mjs";
import { importEngine, machineLine } from "./lib/engine.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const providers = await importEngine("providers");
const values = await importEngine("values");

const command = path.join(ENGINE, "src", "providers-bundled", "bin", "terraform-provider-sim");
const launched = await providers.launchProvider({ command, handshakeTimeoutMs: 30_000 });
if (!launched.ok) throw new Error(launched.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n"));
const provider = launched.provider;
const decl = (await provider.getProviderSchema()).functions.get("arn_parse");
if (!decl) throw new Error("the sim provider has no arn_parse function");
const args = [values.stringVal("arn:sim:compute:eu-west-1:123456789012:instance/i-0123456789ab")];

function check(r) {
  if (r.error) throw new Error(r.error.text);
  const region = values.getAttr(r.result, "region");
  if (!region.ok || values.asString(region.value) !== "eu-west-1") throw new Error("wrong result");
}

// The first call of a process: the worker thread starts, loads grpc-js and connects. Measured
// twice: readied as a run readies it (prepareFunctionCalls as soon as the provider's schema is in,
// here followed by 500 ms of other work), and cold, on a second plugin process with the thread
// already running (its connection only).
provider.prepareFunctionCalls();
await new Promise((resolve) => setTimeout(resolve, 500));
const t0 = performance.now();
check(provider.callFunctionSync({ name: "arn_parse", decl, arguments: args }));
const readiedMs = performance.now() - t0;
const second = await providers.launchProvider({ command, handshakeTimeoutMs: 30_000 });
if (!second.ok) throw new Error("the second launch failed");
await second.provider.getProviderSchema();
const t1 = performance.now();
check(second.provider.callFunctionSync({ name: "arn_parse", decl, arguments: args }));
const coldConnectionMs = performance.now() - t1;
await second.provider.close();

function stats(name, ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(3);
  const total = ms.reduce((a, b) => a + b, 0);
  console.log(`${name}: ${(ms.length / (total / 1000)).toFixed(0)} calls/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${s[s.length - 1].toFixed(3)} ms (${ms.length} calls)`);
}

async function phase(name, call) {
  for (let i = 0; i < 200; i++) check(await call());
  const ms = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const a = performance.now();
    check(await call());
    ms.push(performance.now() - a);
  }
  stats(name, ms);
}

console.log(await machineLine());
console.log(`first call, readied 500 ms before (worker thread start and connection overlapped): ${readiedMs.toFixed(1)} ms`);
console.log(`first call to a second plugin (the thread running, a new connection): ${coldConnectionMs.toFixed(1)} ms`);
await phase("callFunctionSync (evaluator's path)", () => provider.callFunctionSync({ name: "arn_parse", decl, arguments: args }));
await phase("callFunction (async, client connection)", () => provider.callFunction({ name: "arn_parse", arguments: args }));
await provider.close();
