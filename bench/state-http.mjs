// Benchmark of the `backend "http"` state endpoints (not a test): 20 clients, each on its own
// workspace, write 1 MB states with rising serials (no lock, like `-lock=false`), then read them,
// for a fixed time each. Prints p50 / p99 latency and requests per second.
//
//   node bench/state-http.mjs                     # starts its own Terrace (embedded PostgreSQL)
//   TERRACE_BENCH_URL=http://host:3000 TERRACE_BENCH_TOKEN=trc_… node bench/state-http.mjs
//
// Each phase runs twice: "saturated" (autocannon: every client sends its next request as soon as
// the last one is answered, so latency = clients / throughput) and "paced" (the same clients, each
// sending one request every clients / BENCH_RATE seconds: BENCH_RATE requests per second in all,
// the latency a team's CLIs see below capacity).
//
// Besides latency, each phase shows the server process's CPU time per request (known when the
// bench starts the server, or from TERRACE_BENCH_PID) and how busy the whole machine was: on a
// shared machine, latency mostly measures the neighbours.
//
// Options (env): BENCH_CLIENTS (20), BENCH_SECONDS (12), BENCH_STATE_BYTES (1048576), BENCH_RATE (10),
// BENCH_PHASES (write,write-paced,write-1,read,read-paced).
import os from "node:os";
import autocannon from "autocannon";
import { benchTerrace } from "./lib/terrace.mjs";
import { FIRST_SERIAL, stateTemplate } from "./lib/state-body.mjs";
import { runPaced } from "./lib/paced.mjs";
import { machineCpuMs, processTreeCpuMs } from "./lib/cpu.mjs";

const clients = Number(process.env.BENCH_CLIENTS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 12);
const stateBytes = Number(process.env.BENCH_STATE_BYTES ?? 1024 * 1024);
const rate = Number(process.env.BENCH_RATE ?? 10);
const phases = new Set((process.env.BENCH_PHASES ?? "write,write-paced,write-1,read,read-paced").split(","));

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ timeout: 30, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function summary(name, r) {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) console.error(`[bench] ${name}: ${bad} failed; status codes ${JSON.stringify(r.statusCodeStats)}, ${r.errors} errors, ${r.timeouts} timeouts`);
  return {
    phase: name,
    clients: r.connections,
    seconds: Math.round(r.duration),
    requests: r.requests.total,
    "req/s": Number(r.requests.average.toFixed(1)),
    "p50 ms": r.latency.p50,
    "p90 ms": r.latency.p90,
    "p99 ms": r.latency.p99,
    "max ms": r.latency.max,
    "MB/s": Number((r.throughput.average / 1e6).toFixed(1)),
    failed: bad,
  };
}

const terrace = await benchTerrace();
try {
  const auth = { authorization: `Bearer ${terrace.token}` };
  // Reads ask for gzip, as the CLI's Go HTTP client does (BENCH_READ_GZIP=0: they do not).
  const readHeaders = process.env.BENCH_READ_GZIP === "0" ? auth : { ...auth, "accept-encoding": "gzip" };
  const runId = Date.now().toString(36);
  const workspaces = Array.from({ length: clients }, (_, i) => `bench-${runId}-${i}`);
  // A state request for a new workspace creates it (the token is an organization owner's).
  for (const ws of workspaces) {
    const r = await fetch(`${terrace.url}/api/v1/state/${terrace.org}/${ws}`, { headers: auth });
    if (r.status !== 204) throw new Error(`creating workspace ${ws}: HTTP ${r.status} ${await r.text()}`);
  }
  const template = stateTemplate(stateBytes);
  console.log(`[bench] ${terrace.url}: ${clients} workspaces, state ${(template.size / 1024 / 1024).toFixed(2)} MiB, ${seconds} s per phase`);

  const serials = new Map();
  // Each autocannon connection is given its own workspace when it is set up (setupClient), and
  // requests there only. (autocannon's per-request `context` does not do it: it is cleared after
  // every pass over the request list, so with one request it would spread each connection over
  // all the workspaces, and two connections' writes to one workspace could overtake each other.)
  const pinned = (connections, request) => {
    let next = 0;
    return {
      url: terrace.url,
      connections,
      duration: seconds,
      requests: [request(workspaces[0])],
      setupClient(client) {
        client.setRequests([request(workspaces[next++ % workspaces.length])]);
      },
    };
  };
  const writer = (connections) =>
    pinned(connections, (ws) => ({
      method: "POST",
      setupRequest(req) {
        // Serials rise per workspace across phases (a lower one would be refused with 409).
        const serial = (serials.get(ws) ?? FIRST_SERIAL) + 1;
        serials.set(ws, serial);
        const { body, md5 } = template.withSerial(serial);
        return { ...req, path: `/api/v1/state/${terrace.org}/${ws}`, body, headers: { ...auth, "content-type": "application/json", "content-md5": md5 } };
      },
    }));
  const reader = (connections) =>
    pinned(connections, (ws) => ({
      method: "GET",
      setupRequest(req) {
        return { ...req, path: `/api/v1/state/${terrace.org}/${ws}`, headers: readHeaders };
      },
    }));

  // The paced phases make the same requests as the autocannon ones, through lib/paced.mjs.
  const writeRequest = (client) => {
    const ws = workspaces[client];
    const serial = (serials.get(ws) ?? FIRST_SERIAL) + 1;
    serials.set(ws, serial);
    const { body, md5 } = template.withSerial(serial);
    return { method: "POST", path: `/api/v1/state/${terrace.org}/${ws}`, body, headers: { ...auth, "content-type": "application/json", "content-md5": md5 } };
  };
  const readRequest = (client) => ({ method: "GET", path: `/api/v1/state/${terrace.org}/${workspaces[client]}`, headers: readHeaders });
  const paced = async (name, request) => {
    const r = await runPaced({ url: terrace.url, clients, seconds, ratePerClient: rate / clients, request });
    return { phase: name, clients: r.clients, seconds: r.seconds, requests: r.requests, "req/s": Number(r.reqPerSec.toFixed(1)), "p50 ms": r.p50, "p90 ms": r.p90, "p99 ms": r.p99, "max ms": r.max, "MB/s": Number(r.mbPerSec.toFixed(1)), failed: r.failed };
  };

  const serverPid = terrace.pid ?? Number(process.env.TERRACE_BENCH_PID ?? 0);
  const measured = async (phase) => {
    const [cpu0, m0] = [processTreeCpuMs(serverPid), machineCpuMs()];
    const row = await phase();
    const [cpu1, m1] = [processTreeCpuMs(serverPid), machineCpuMs()];
    row["server CPU ms/req"] = cpu0 === null || cpu1 === null ? "?" : Number(((cpu1 - cpu0) / row.requests).toFixed(1));
    row["machine busy"] = m0 && m1 ? `${Math.round((100 * (m1.busy - m0.busy)) / (m1.total - m0.total))}%` : "?";
    return row;
  };

  const mb = (template.size / 1e6).toFixed(1);
  const results = [];
  const phase = async (name, fn) => phases.has(name) && results.push(await measured(fn));
  await phase("write", async () => summary(`write ${mb} MB, saturated`, await run(writer(clients))));
  await phase("write-paced", () => paced(`write ${mb} MB, paced ${rate} req/s`, writeRequest));
  await phase("write-1", async () => summary(`write ${mb} MB, 1 client`, await run({ ...writer(1), duration: Math.max(3, Math.round(seconds / 2)) })));
  await phase("read", async () => summary(`read ${mb} MB, saturated`, await run(reader(clients))));
  await phase("read-paced", () => paced(`read ${mb} MB, paced ${rate} req/s`, readRequest));
  console.table(results);
  // Other work on the machine skews every figure: say how busy it was.
  console.log(`[bench] load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} CPUs)`);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  if (failed) {
    console.error(`[bench] ${failed} requests failed`);
    process.exitCode = 1;
  }
} finally {
  await terrace.stop();
}
