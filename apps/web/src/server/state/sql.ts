import pg, { type Pool, type PoolClient } from "pg";

// State content moves through node-postgres directly, not Prisma: Prisma's driver adapter turns a
// bytea into a JavaScript array of numbers and back, which cost ~100 ms per MiB read and ~50 ms
// per MiB written. Here a Buffer goes out as a binary parameter and comes back as base64 text.
// Small queries stay with Prisma.

const holder = globalThis as { __terraceStatePool?: { url: string; pool: Pool } };

export function statePool(): Pool {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  if (holder.__terraceStatePool?.url !== url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.TERRACE_STATE_DB_POOL ?? 8), idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // An idle connection dropped by the server (restart, test database dropped) must not crash us.
    pool.on("error", (err) => {
      if ((err as { code?: string }).code !== "57P01") console.error("[terrace] state pool:", err.message);
    });
    holder.__terraceStatePool = { url, pool };
  }
  return holder.__terraceStatePool!.pool;
}

/** Runs `fn` in a transaction on one connection; rolls back if it throws. */
export async function stateTx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const client = await statePool().connect();
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
