// A Terrace to benchmark: the one at TERRACE_BENCH_URL (with TERRACE_BENCH_TOKEN), or a fresh one
// started here (throwaway embedded PostgreSQL, migrations, the production server.mjs).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, startEmbeddedPostgres } from "../../scripts/lib/postgres.mjs";
import { migrate } from "../../scripts/lib/migrate.mjs";
import { ensurePrismaClient, ensureWebBuilt } from "../../scripts/lib/build.mjs";
import { WEB } from "../../scripts/lib/paths.mjs";

export async function benchTerrace({ log = console.log } = {}) {
  if (process.env.TERRACE_BENCH_URL) {
    const token = process.env.TERRACE_BENCH_TOKEN;
    if (!token) throw new Error("TERRACE_BENCH_URL needs TERRACE_BENCH_TOKEN (an API token of an owner of TERRACE_BENCH_ORG, default \"default\")");
    return { url: process.env.TERRACE_BENCH_URL.replace(/\/$/, ""), token, org: process.env.TERRACE_BENCH_ORG ?? "default", stop: async () => {} };
  }

  const stops = [];
  const stop = async () => {
    while (stops.length) await stops.pop()().catch((e) => console.error(e));
  };
  try {
    ensurePrismaClient();
    ensureWebBuilt();
    const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-"));
    chmodSync(dir, 0o755);
    log("[bench] starting a throwaway embedded PostgreSQL");
    const server = await startEmbeddedPostgres({ dir });
    stops.push(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    await c.query(`CREATE DATABASE "terrace_bench"`);
    await c.end();
    const databaseUrl = `${server.baseUrl}/terrace_bench`;
    await migrate(databaseUrl);

    const port = await freePort();
    const token = `trc_bench_${Date.now()}_token`;
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, path.join(WEB, "server.mjs")], {
      cwd: WEB,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        TERRACE_HOME: dir,
        TERRACE_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"),
        TERRACE_ADMIN_EMAIL: "bench@terrace.test",
        TERRACE_ADMIN_PASSWORD: "bench-password-123",
        TERRACE_ADMIN_TOKEN: token,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const output = [];
    child.stdout.on("data", (d) => output.push(String(d)));
    child.stderr.on("data", (d) => output.push(String(d)));
    stops.push(async () => {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    });
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`Terrace did not start:\n${output.join("")}`)), 60_000);
      child.on("message", (m) => m?.type === "listening" && (clearTimeout(t), resolve()));
      child.on("exit", (code) => reject(new Error(`Terrace exited (${code}):\n${output.join("")}`)));
    });
    return { url: `http://127.0.0.1:${port}`, token, org: "default", stop, pid: child.pid };
  } catch (e) {
    await stop();
    throw e;
  }
}
