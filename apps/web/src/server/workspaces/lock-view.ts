import type { StateLock } from "@prisma/client";

type LockInfo = { Version?: unknown; Created?: unknown; Path?: unknown; Info?: unknown };

/**
 * A state lock as the API shows it: the fields the CLI sent (`info` is the lock JSON verbatim)
 * plus who holds it in Terrace's terms and for how long. Same shape as GET .../lock.
 */
export function lockView(lock: StateLock, now = Date.now()) {
  const info = (lock.info && typeof lock.info === "object" && !Array.isArray(lock.info) ? lock.info : {}) as LockInfo;
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    locked: true as const,
    id: lock.lockId,
    operation: lock.operation,
    who: lock.who,
    version: text(info.Version),
    created: text(info.Created) || lock.createdAt.toISOString(),
    path: text(info.Path),
    info: text(info.Info),
    holder: lock.actorLabel,
    lockedAt: lock.createdAt,
    ageSeconds: Math.max(0, Math.floor((now - lock.createdAt.getTime()) / 1000)),
  };
}
