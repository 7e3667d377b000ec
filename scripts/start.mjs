// `npm start`: everything Terrace needs, in one process tree. Without DATABASE_URL it runs an
// embedded PostgreSQL with data under $TERRACE_HOME (default .terrace/); it applies migrations,
// builds what is not built, and serves on PORT (3000). Ctrl-C or SIGTERM stops all of it.
import { spawn } from "node:child_process";
import path from "node:path";
import { startEmbeddedPostgres } from "./lib/postgres.mjs";
import { ensureDatabase, migrate } from "./lib/migrate.mjs";
import { ensureEngineBuilt, ensurePrismaClient, ensureWebBuilt } from "./lib/build.mjs";
import { ensureSecretKey } from "./lib/secret-key.mjs";
import { WEB, terraceHome } from "./lib/paths.mjs";

const log = (m) => console.log(`[terrace] ${m}`);
const home = terraceHome();
let pg = null;
let child = null;
let stopping = false;

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => { child.kill("SIGKILL"); r(); }, 5000);
      child.once("exit", () => { clearTimeout(t); r(); });
    });
  }
  if (pg) {
    log("stopping embedded PostgreSQL");
    await pg.stop().catch((e) => console.error(e));
  }
  process.exit(code);
}
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => shutdown(0));
// `npm start` runs us under `sh -c`, which does not pass SIGTERM on: when our parent goes away,
// we are orphaned, and stop as if we had been signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) shutdown(0);
}, 500).unref();

try {
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log(`starting embedded PostgreSQL (data in ${path.join(home, "postgres")})`);
    pg = await startEmbeddedPostgres({
      dir: path.join(home, "postgres"),
      port: Number(process.env.TERRACE_PG_PORT ?? 5433),
    });
    await ensureDatabase(pg.baseUrl, "terrace");
    databaseUrl = `${pg.baseUrl}/terrace`;
    log(`PostgreSQL ready on 127.0.0.1:${pg.port}`);
  }
  const applied = await migrate(databaseUrl, { log });
  if (applied.length) log(`applied ${applied.length} migration(s)`);
  ensurePrismaClient();
  ensureEngineBuilt();
  if (ensureWebBuilt()) log("built the web app");

  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TERRACE_HOME: home,
    TERRACE_SECRET_KEY: ensureSecretKey(home),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: process.env.PORT ?? "3000",
  };
  child = spawn(process.execPath, [path.join(WEB, "server.mjs")], { cwd: WEB, env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log(`web server exited (${signal ?? code})`);
      shutdown(code ?? 1);
    }
  });
} catch (e) {
  console.error(`[terrace] could not start: ${e.message}`);
  await shutdown(1);
}
