import type { StateLock } from "@prisma/client";
import type { Pool, PoolClient } from "pg";
import { actorRefs, type Actor } from "../auth/actor";
import { sqlPool } from "../sql";
import type { LockBody } from "./lock-info";

// A workspace's state lock is one row, taken and released with single statements through
// node-postgres (../sql.ts): every CLI operation locks and unlocks, so this is the hot path.

const LOCK_COLUMNS = `"workspaceId", "lockId", "operation", "who", "info", "raw", "holderUserId", "holderTokenId", "actorLabel",
  ("createdAt" AT TIME ZONE 'UTC') AS "createdAt"`;

export type AcquireResult = { acquired: true; lock: StateLock; fresh: boolean } | { acquired: false; holder: StateLock };

/**
 * Takes the workspace's lock unless someone holds it: an insert that does nothing when the row
 * exists, so two clients racing for the lock cannot both win. Re-locking with the ID already
 * held succeeds (the CLI retries a LOCK whose answer it did not get).
 */
export async function acquireLock(workspaceId: string, body: LockBody, actor: Actor): Promise<AcquireResult> {
  const refs = actorRefs(actor);
  for (;;) {
    const { rows } = await sqlPool().query<StateLock>(
      `INSERT INTO "StateLock" ("workspaceId", "lockId", "operation", "who", "info", "raw", "holderUserId", "holderTokenId", "actorLabel", "createdAt")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, clock_timestamp() AT TIME ZONE 'UTC')
       ON CONFLICT ("workspaceId") DO NOTHING
       RETURNING ${LOCK_COLUMNS}`,
      [workspaceId, body.id, body.operation, body.who, JSON.stringify(body.fields), body.raw, refs.actorUserId, refs.actorTokenId, refs.actorLabel],
    );
    if (rows[0]) return { acquired: true, lock: rows[0], fresh: true };
    const lock = await currentLock(workspaceId);
    // Released between our insert and our read: try again.
    if (!lock) continue;
    if (lock.lockId === body.id) return { acquired: true, lock, fresh: false };
    return { acquired: false, holder: lock };
  }
}

export type ReleaseResult = { released: StateLock | null; holder: StateLock | null };

/** Releases the lock held under `lockId`; when another ID holds it, returns that holder instead. */
export async function releaseLock(workspaceId: string, lockId: string): Promise<ReleaseResult> {
  const { rows } = await sqlPool().query<StateLock>(`DELETE FROM "StateLock" WHERE "workspaceId" = $1 AND "lockId" = $2 RETURNING ${LOCK_COLUMNS}`, [
    workspaceId,
    lockId,
  ]);
  if (rows[0]) return { released: rows[0], holder: null };
  return { released: null, holder: await currentLock(workspaceId) };
}

/** Removes whatever lock the workspace has (force-unlock); returns the lock removed, if any. */
export async function forceReleaseLock(workspaceId: string): Promise<StateLock | null> {
  // One statement, so the audit entry names exactly the lock that was broken.
  const { rows } = await sqlPool().query<StateLock>(`DELETE FROM "StateLock" WHERE "workspaceId" = $1 RETURNING ${LOCK_COLUMNS}`, [workspaceId]);
  return rows[0] ?? null;
}

/** The workspace's lock; `c` is a transaction's connection when the read must be inside it. */
export async function currentLock(workspaceId: string, c: Pool | PoolClient = sqlPool()): Promise<StateLock | null> {
  const { rows } = await c.query<StateLock>(`SELECT ${LOCK_COLUMNS} FROM "StateLock" WHERE "workspaceId" = $1`, [workspaceId]);
  return rows[0] ?? null;
}

/** The lock JSON exactly as its holder sent it. */
export function lockJson(lock: StateLock): string {
  return lock.raw || JSON.stringify(lock.info);
}

/** The lock as the lock-status API shows it (see docs/api.md). */
export function lockStatusView(lock: StateLock | null, now = new Date()) {
  if (!lock) return { locked: false as const };
  const f = (lock.info ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    locked: true as const,
    id: lock.lockId,
    operation: lock.operation,
    who: lock.who,
    version: str(f.Version),
    created: str(f.Created),
    path: str(f.Path),
    info: str(f.Info),
    holder: lock.actorLabel,
    lockedAt: lock.createdAt,
    ageSeconds: Math.max(0, Math.floor((now.getTime() - lock.createdAt.getTime()) / 1000)),
  };
}
