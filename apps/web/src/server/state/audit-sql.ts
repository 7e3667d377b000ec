import { randomUUID } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { actorRefs, type Actor } from "../auth/actor";
import type { AuditInput } from "../audit";
import { clientIp } from "../http/client-ip";

/**
 * The same audit row as server/audit's `audit()`, written through node-postgres (../sql.ts): on a
 * transaction's connection, so a state write and its audit event commit together, or on the pool
 * for the lock and unlock of every CLI operation.
 */
export async function auditOnClient(c: Pool | PoolClient, req: Request, actor: Actor, input: AuditInput): Promise<void> {
  const refs = actorRefs(actor);
  await c.query(
    `INSERT INTO "AuditEvent" ("id", "organizationId", "actorUserId", "actorTokenId", "actorLabel", "action", "targetType", "targetId", "targetLabel", "ip", "detail", "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, clock_timestamp() AT TIME ZONE 'UTC')`,
    [
      randomUUID(),
      input.organizationId,
      refs.actorUserId,
      refs.actorTokenId,
      refs.actorLabel,
      input.action,
      input.targetType,
      input.targetId ?? null,
      input.targetLabel,
      clientIp(req),
      input.detail === undefined ? null : JSON.stringify(input.detail),
    ],
  );
}
