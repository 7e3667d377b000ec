// Applies the checked-in migrations (prisma/migrations/*/migration.sql) in name order, each in its
// own transaction, recording them in Prisma's `_prisma_migrations` table so that the Prisma CLI
// sees the same history. Runs offline and in ~100 ms; an advisory lock serialises concurrent starts.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const MIGRATIONS = path.join(ROOT, "prisma", "migrations");
const LOCK_KEY = 7_372_237_001; // any constant; shared by every Terrace migrator

export function listMigrations() {
  return readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(MIGRATIONS, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies pending migrations to the database at `url`; returns the names applied. */
export async function migrate(url, { log = () => {} } = {}) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of listMigrations()) {
      if (done.has(m.name)) {
        if (done.get(m.name) !== m.checksum) {
          throw new Error(`migration ${m.name} was changed after it was applied (checksum differs); add a new migration instead`);
        }
        continue;
      }
      log(`applying migration ${m.name}`);
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${e.message}`);
      }
      applied.push(m.name);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return applied;
}

/** Creates database `name` on the server at `baseUrl` if it does not exist. */
export async function ensureDatabase(baseUrl, name) {
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
