// Terrace's HTTP server: Next.js behind a thin Node front that (1) maps the WebDAV-style LOCK and
// UNLOCK methods the `backend "http"` client uses onto POST, which Next's route handlers accept,
// (2) records the socket's address for audit logs, and (3) sends the Content-Encoding of a state
// read answered with stored compressed bytes (sendPrecompressed). Started by scripts/start.mjs.
//
// TERRACE_WEB_PROCESSES processes serve the one port (node:cluster; default: one per CPU, at most
// 4). A Node server does its JavaScript on one thread, and the state endpoints' work is CPU work
// (hashing, validating, compressing and sealing every byte), so one process per core is what lets
// a team's CLIs use the machine. Each process keeps its own caches: the state-history cache's
// budget (TERRACE_STATE_CACHE_MB) is shared out between them.
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

/** How many processes serve: TERRACE_WEB_PROCESSES (a positive integer), else one per CPU, up to 4. */
function processCount() {
  const raw = process.env.TERRACE_WEB_PROCESSES;
  if (raw === undefined || raw === "") return Math.max(1, Math.min(os.availableParallelism(), 4));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`[terrace] TERRACE_WEB_PROCESSES must be a positive integer, not ${JSON.stringify(raw)}`);
    process.exit(1);
  }
  return n;
}

// If whoever started us dies without stopping us (SIGKILL), do not linger as an orphan. (A
// worker's parent is the primary, which stops it in turn.)
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();

const count = cluster.isPrimary ? processCount() : 1;
if (cluster.isPrimary && count > 1) await runPrimary(count);
else await runServer();

/**
 * The primary: starts the workers, tells its own parent (over IPC) once all of them listen,
 * replaces a worker that dies while serving, and stops them all on SIGINT/SIGTERM.
 */
async function runPrimary(n) {
  const cacheMb = Number(process.env.TERRACE_STATE_CACHE_MB ?? 512);
  const env = { TERRACE_STATE_CACHE_MB: String(Math.max(1, Math.floor((Number.isFinite(cacheMb) && cacheMb > 0 ? cacheMb : 512) / n))) };
  let stopping = false;
  let listening = 0;
  let announced = false;
  let restarts = 0;
  let alive = 0;
  let exitCode = 0;
  const fork = () => {
    alive++;
    const worker = cluster.fork(env);
    worker.on("message", (m) => {
      if (m?.type !== "listening" || announced || ++listening < n) return;
      announced = true;
      console.log(`[terrace] listening on http://localhost:${port} (${n} processes)`);
      process.send?.({ type: "listening", port });
    });
  };
  cluster.on("exit", (worker, code, signal) => {
    alive--;
    if (stopping) {
      if (alive === 0) process.exit(exitCode);
      return;
    }
    // A worker that fails before all are up is a start-up problem (a port in use, a bad build):
    // give up rather than loop. Later, replace it, within reason.
    console.error(`[terrace] server process ${worker.process.pid} exited (${signal ?? code})`);
    if (!announced || ++restarts > 10 * n) {
      stopAll("SIGTERM", 1);
      return;
    }
    fork();
  });
  const stopAll = (sig, code = 0) => {
    stopping = true;
    exitCode = code;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(sig);
    setTimeout(() => process.exit(code), 5000).unref();
    if (alive === 0) process.exit(code);
  };
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => stopAll(sig));
  for (let i = 0; i < n; i++) fork();
}

/**
 * A state read answered with the stored gzip bytes sets X-Terrace-Content-Encoding, because Next.js
 * drops a route's own Content-Encoding; it becomes Content-Encoding here as the headers go out.
 */
function sendPrecompressed(res) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    const encoding = res.getHeader(PRECOMPRESSED);
    if (encoding !== undefined) {
      res.removeHeader(PRECOMPRESSED);
      res.setHeader("Content-Encoding", encoding);
    }
    // Headers may also come as writeHead's last argument.
    const last = args[args.length - 1];
    if (last && typeof last === "object" && !Array.isArray(last)) {
      for (const key of Object.keys(last)) {
        if (key.toLowerCase() !== PRECOMPRESSED) continue;
        last["Content-Encoding"] = last[key];
        delete last[key];
      }
    }
    return writeHead.apply(this, args);
  };
}
const PRECOMPRESSED = "x-terrace-content-encoding";

/** One server process: Next.js behind the front described at the top. */
async function runServer() {
  const { default: next } = await import("next");
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const app = next({ dev: false, dir, hostname: "localhost", port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    delete req.headers["x-terrace-method"];
    delete req.headers["x-terrace-remote-addr"];
    req.headers["x-terrace-remote-addr"] = req.socket.remoteAddress ?? "";
    sendPrecompressed(res);
    if (req.method === "LOCK" || req.method === "UNLOCK") {
      req.headers["x-terrace-method"] = req.method;
      req.method = "POST";
    }
    handle(req, res).catch((err) => {
      console.error("[terrace] request failed:", err);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end('{"errors":[{"status":"500","title":"Internal server error"}]}');
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => {
    if (cluster.isPrimary) console.log(`[terrace] listening on http://localhost:${port}`);
    process.send?.({ type: "listening", port });
  });

  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 3000).unref();
    });
  }
}
