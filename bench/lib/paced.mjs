// A paced load generator: `clients` clients, each sending its next request `interval` ms after
// the start of its previous one (at once if that one took longer), like CLIs that each wait for
// their answer. autocannon cannot offer fewer than one request per second per connection.
import http from "node:http";

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function send(agent, url, { method, path, headers, body }) {
  return new Promise((resolve) => {
    const req = http.request(new URL(path, url), { method, headers, agent }, (res) => {
      let size = 0;
      res.on("data", (c) => (size += c.length));
      res.on("end", () => resolve({ status: res.statusCode, size }));
    });
    req.on("error", () => resolve({ status: 0, size: 0 }));
    req.end(body);
  });
}

/**
 * Runs the load for `seconds`; `request(client)` returns `{method, path, headers, body}` for a
 * client's next request. Returns latency percentiles (ms), requests per second and failures.
 */
export async function runPaced({ url, clients, seconds, ratePerClient, request }) {
  const interval = 1000 / ratePerClient;
  const until = Date.now() + seconds * 1000;
  const latencies = [];
  let failed = 0;
  let bytes = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      // Spread the clients over the first interval so they do not fire in lockstep.
      await new Promise((r) => setTimeout(r, (interval * client) / clients));
      while (Date.now() < until) {
        const t0 = performance.now();
        const res = await send(agent, url, request(client));
        latencies.push(performance.now() - t0);
        bytes += res.size;
        if (res.status < 200 || res.status >= 300) failed++;
        const wait = interval - (performance.now() - t0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      agent.destroy();
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (v) => Math.round(v);
  return {
    clients,
    seconds: Math.round(elapsed),
    requests: latencies.length,
    reqPerSec: latencies.length / elapsed,
    p50: ms(percentile(latencies, 50)),
    p90: ms(percentile(latencies, 90)),
    p99: ms(percentile(latencies, 99)),
    max: ms(latencies.at(-1) ?? 0),
    mbPerSec: bytes / elapsed / 1e6,
    failed,
  };
}
