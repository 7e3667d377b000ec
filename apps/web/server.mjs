// Terrace's HTTP server: Next.js behind a thin Node front that (1) maps the WebDAV-style LOCK and
// UNLOCK methods the `backend "http"` client uses onto POST, which Next's route handlers accept,
// and (2) records the socket's address for audit logs. Started by scripts/start.mjs.
import http from "node:http";
import next from "next";
import path from "node:path";

const dir = path.dirname(new URL(import.meta.url).pathname);
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

const app = next({ dev: false, dir, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  delete req.headers["x-terrace-method"];
  delete req.headers["x-terrace-remote-addr"];
  req.headers["x-terrace-remote-addr"] = req.socket.remoteAddress ?? "";
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
  console.log(`[terrace] listening on http://localhost:${port}`);
  process.send?.({ type: "listening", port });
});

// If whoever started us dies without stopping us (SIGKILL), do not linger as an orphan.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
