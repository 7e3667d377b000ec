import type { Prisma, StateLock } from "@prisma/client";
import { db, type Tx } from "../db";
import { actorRefs, type Actor } from "../auth/actor";
import type { LockBody } from "./lock-info";

export type AcquireResult = { acquired: true; lock: StateLock; fresh: boolean } | { acquired: false; holder: StateLock };

/**
 * Takes the workspace's lock unless someone holds it: an insert that does nothing when the row
 * exists, so two clients racing for the lock cannot both win. Re-locking with the ID already
 * held succeeds (the CLI retries a LOCK whose answer it did not get).
 */
export async function acquireLock(workspaceId: string, body: LockBody, actor: Actor): Promise<AcquireResult> {
  const refs = actorRefs(actor);
  for (;;) {
    const { count } = await db().stateLock.createMany({
      data: [
        {
          workspaceId,
          lockId: body.id,
          operation: body.operation,
          who: body.who,
          info: body.fields as Prisma.InputJsonObject,
          raw: body.raw,
          holderUserId: refs.actorUserId,
          holderTokenId: refs.actorTokenId,
          actorLabel: refs.actorLabel,
        },
      ],
      skipDuplicates: true,
    });
    const lock = await db().stateLock.findUnique({ where: { workspaceId } });
    // Released between our insert and our read: try again.
    if (!lock) continue;
    if (lock.lockId === body.id) return { acquired: true, lock, fresh: count === 1 };
    return { acquired: false, holder: lock };
  }
}

export type ReleaseResult = { released: StateLock | null; holder: StateLock | null };

/** Releases the lock held under `lockId`; when another ID holds it, returns that holder instead. */
export async function releaseLock(workspaceId: string, lockId: string): Promise<ReleaseResult> {
  const lock = await db().stateLock.findUnique({ where: { workspaceId } });
  if (!lock) return { released: null, holder: null };
  if (lock.lockId !== lockId) return { released: null, holder: lock };
  const { count } = await db().stateLock.deleteMany({ where: { workspaceId, lockId } });
  return count === 1 ? { released: lock, holder: null } : releaseLock(workspaceId, lockId);
}

/** Removes whatever lock the workspace has (force-unlock); returns the lock removed, if any. */
export async function forceReleaseLock(workspaceId: string): Promise<StateLock | null> {
  for (;;) {
    const lock = await currentLock(workspaceId);
    if (!lock) return null;
    // Delete exactly the lock we read, so the audit entry names the lock that was broken.
    const { count } = await db().stateLock.deleteMany({ where: { workspaceId, lockId: lock.lockId, createdAt: lock.createdAt } });
    if (count === 1) return lock;
  }
}

export async function currentLock(workspaceId: string, tx?: Tx): Promise<StateLock | null> {
  return (tx ?? db()).stateLock.findUnique({ where: { workspaceId } });
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
