import pg, { type Pool, type PoolClient } from "pg";

// node-postgres for the hot paths: every CLI state request (authentication, authorization, the
// workspace, the state content) goes through here rather than Prisma. Prisma's query compiler
// costs 0.7–1.6 ms of CPU per query on these small lookups (~0.15 ms here), and its driver
// adapter turns a bytea into a JavaScript array of numbers and back (~100 ms per MiB read, ~50 ms
// per MiB written). Everything else stays with Prisma.
//
// Timestamps: Prisma keeps DateTime in `timestamp` columns holding UTC, which node-postgres would
// read as local time; queries here select them as `"col" AT TIME ZONE 'UTC'` (a timestamptz).

const holder = globalThis as { __terraceSqlPool?: { url: string; pool: Pool } };

export function sqlPool(): Pool {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  if (holder.__terraceSqlPool?.url !== url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.TERRACE_STATE_DB_POOL ?? 8), idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // An idle connection dropped by the server (restart, test database dropped) must not crash us.
    pool.on("error", (err) => {
      if ((err as { code?: string }).code !== "57P01") console.error("[terrace] sql pool:", err.message);
    });
    holder.__terraceSqlPool = { url, pool };
  }
  return holder.__terraceSqlPool!.pool;
}

/** Runs `fn` in a transaction on one connection; rolls back if it throws. */
export async function sqlTx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const client = await sqlPool().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/**
 * SQL for a column holding a bytea as base64 text, to be read with `fromBase64`. node-postgres
 * cannot read binary results of arbitrary bytes, and its hex bytea parsing takes twice as long
 * as PostgreSQL's base64 encoding plus Node's decoder (which skips the line breaks PostgreSQL adds).
 */
export const asBase64 = (column: string) => `encode(${column}, 'base64')`;

export function fromBase64(text: string): Buffer {
  return Buffer.from(text, "base64");
}
