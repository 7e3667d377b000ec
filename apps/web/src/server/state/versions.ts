import { randomUUID } from "node:crypto";
import type { StateSource } from "@prisma/client";
import type { PoolClient } from "pg";
import { actorRefs, type Actor } from "../auth/actor";
import { conflict, notFound } from "../http/errors";
import { auditOnClient } from "./audit-sql";
import { digests, type Digests } from "./digest";
import { describeLock, StateLockedError } from "./errors";
import { currentLock } from "./locks";
import { sameSnapshot, parseSnapshot, type SnapshotSummary } from "./snapshot";
import { openState, openStoredState, sealState, type StoredState } from "./stored";
import { rewriteSerial } from "./serial";
import { asBase64, fromBase64, sqlPool, sqlTx } from "../sql";
import type { VersionMeta } from "./view";

export type StateWorkspace = { id: string; organizationId: string; name: string };

// Serials are read as text (they are bigints); ORDER BY names the table's column, as a bare
// "serial" would sort by the text alias ("9" after "12").
// Timestamps are `timestamp(3)` holding UTC (Prisma's convention): read them through
// `AT TIME ZONE 'UTC'` so node-postgres gets an absolute time whatever the session zone. New rows
// take `clock_timestamp()` (taken under the workspace row lock), not `now()` (the transaction's
// start), so that creation times follow serial order.
const META_COLUMNS = `"id", "workspaceId", "serial"::text AS "serial", "lineage", "terraformVersion", "sha256", "md5", "size",
  "resourceCount", "instanceCount", "encrypted", "source"::text AS "source", "lockId", "rolledBackFromId", "createdById", "tokenId",
  "actorLabel", ("createdAt" AT TIME ZONE 'UTC') AS "createdAt"`;

type MetaRow = Omit<VersionMeta, "serial"> & { serial: string };
const toMeta = (r: MetaRow): VersionMeta => ({ ...r, serial: BigInt(r.serial) });

/**
 * Runs `fn` in a transaction holding the workspace row `FOR UPDATE`: state writes to one
 * workspace happen one at a time (the serial checks need that), and a lock insert (whose foreign
 * key takes `FOR KEY SHARE` on the same row) cannot slip in between a writer's check and commit.
 */
async function withWorkspaceRow<T>(workspaceId: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  return sqlTx(async (c) => {
    const { rows } = await c.query(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, [workspaceId]);
    if (rows.length === 0) throw notFound("Workspace not found", "It was deleted while the request ran.");
    return fn(c);
  });
}

async function head(c: PoolClient, workspaceId: string) {
  const { rows } = await c.query<{ id: string; serial: string; lineage: string; sha256: string }>(
    `SELECT "id", "serial"::text AS "serial", "lineage", "sha256" FROM "StateVersion" WHERE "workspaceId" = $1 ORDER BY "StateVersion"."serial" DESC LIMIT 1`,
    [workspaceId],
  );
  const r = rows[0];
  return r ? { ...r, serial: BigInt(r.serial) } : null;
}

async function contentOf(c: PoolClient, id: string): Promise<Buffer> {
  const { rows } = await c.query<{ content: string }>(`SELECT ${asBase64(`"content"`)} AS "content" FROM "StateVersion" WHERE "id" = $1`, [id]);
  if (!rows[0]) throw new Error(`state version ${id} vanished`);
  return openState(fromBase64(rows[0].content));
}

async function versionById(c: PoolClient, id: string): Promise<VersionMeta> {
  const { rows } = await c.query<MetaRow>(`SELECT ${META_COLUMNS} FROM "StateVersion" WHERE "id" = $1`, [id]);
  return toMeta(rows[0]!);
}

type Insert = {
  workspace: StateWorkspace;
  content: Buffer;
  summary: SnapshotSummary;
  digests: Digests;
  source: StateSource;
  lockId: string | null;
  rolledBackFromId?: string;
  actor: Actor;
};

async function insertVersion(c: PoolClient, v: Insert): Promise<VersionMeta> {
  const refs = actorRefs(v.actor);
  try {
    const { rows } = await c.query<MetaRow>(
      `INSERT INTO "StateVersion" ("id", "workspaceId", "serial", "lineage", "terraformVersion", "sha256", "md5", "size", "resourceCount",
         "instanceCount", "content", "source", "lockId", "rolledBackFromId", "createdById", "tokenId", "actorLabel", "encrypted", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::"StateSource", $13, $14, $15, $16, $17, $18, clock_timestamp() AT TIME ZONE 'UTC')
       RETURNING ${META_COLUMNS}`,
      [
        randomUUID(),
        v.workspace.id,
        String(v.summary.serial),
        v.summary.lineage,
        v.summary.terraformVersion,
        v.digests.sha256,
        v.digests.md5,
        v.content.length,
        v.summary.resourceCount,
        v.summary.instanceCount,
        sealState(v.content),
        v.source,
        v.lockId,
        v.rolledBackFromId ?? null,
        refs.actorUserId,
        refs.actorTokenId,
        refs.actorLabel,
        v.summary.encrypted,
      ],
    );
    return toMeta(rows[0]!);
  } catch (e) {
    // The row lock makes this unreachable; the unique index is the last line of defence.
    if ((e as { code?: string }).code === "23505") {
      throw conflict(`State serial ${v.summary.serial} already exists`, "Another write took this serial first. Nothing was written.");
    }
    throw e;
  }
}

export type WriteInput = {
  workspace: StateWorkspace;
  /** The state exactly as received; stored byte for byte. */
  content: Buffer;
  summary: SnapshotSummary;
  digests: Digests;
  source: Exclude<StateSource, "rollback">;
  /** The lock ID the writer presented (`?ID=`), if any. */
  lockId: string | null;
  actor: Actor;
};

export type WriteOutcome = { version: VersionMeta; created: boolean };

/**
 * Records a state write as a new immutable version, after the checks that keep history sound:
 * a locked state takes writes only under its lock ID; the lineage never changes; the serial
 * never goes down; a serial repeated with the same content is a no-op, with other content a 409.
 */
export async function writeStateVersion(req: Request, input: WriteInput): Promise<WriteOutcome> {
  const { workspace, summary } = input;
  return withWorkspaceRow(workspace.id, async (c) => {
    const lock = await currentLock(workspace.id, c);
    if (lock && lock.lockId !== input.lockId) {
      const sent = input.lockId ? `with lock ID ${input.lockId}` : "without a lock ID";
      throw new StateLockedError(lock, `The state is ${describeLock(lock)}; this write came ${sent}. Writes to a locked state must carry ?ID=<lock ID>. Nothing was written.`);
    }
    const current = await head(c, workspace.id);
    if (current) {
      if (current.lineage !== summary.lineage) {
        throw conflict(
          "State lineage does not match",
          `The workspace's state has lineage "${current.lineage}"; this write has "${summary.lineage}". A different lineage is a different state: pull the current state or use another workspace. Nothing was written.`,
        );
      }
      if (BigInt(summary.serial) < current.serial) {
        throw conflict("State serial went backwards", `The current serial is ${current.serial}; this write has ${summary.serial}. Nothing was written.`);
      }
      if (BigInt(summary.serial) === current.serial) {
        const same = current.sha256 === input.digests.sha256 || sameSnapshot(await contentOf(c, current.id), input.content);
        if (!same) {
          throw conflict(
            "State serial already used with other content",
            `Serial ${summary.serial} is already stored with different content; a changed state needs a higher serial. Nothing was written.`,
          );
        }
        return { version: await versionById(c, current.id), created: false };
      }
    }
    const version = await insertVersion(c, input);
    await auditOnClient(c, req, input.actor, {
      organizationId: workspace.organizationId,
      action: "state.write",
      targetType: "workspace",
      targetId: workspace.id,
      targetLabel: workspace.name,
      detail: { serial: summary.serial, size: input.content.length, source: input.source, lockId: input.lockId },
    });
    return { version, created: true };
  });
}

/** The current (highest-serial) state of a workspace, decrypted, or null when it has none. */
export async function currentState(workspaceId: string): Promise<{ stored: StoredState; md5: string; sha256: string; serial: bigint } | null> {
  const { rows } = await sqlPool().query<{ content: string; md5: string; sha256: string; serial: string }>({
    text: `SELECT ${asBase64(`"content"`)} AS "content", "md5", "sha256", "serial"::text AS "serial"
             FROM "StateVersion" WHERE "workspaceId" = $1 ORDER BY "StateVersion"."serial" DESC LIMIT 1`,
    values: [workspaceId],
  });
  const row = rows[0];
  if (!row) return null;
  return { stored: openStoredState(fromBase64(row.content)), md5: row.md5, sha256: row.sha256, serial: BigInt(row.serial) };
}

export type RollbackOutcome = { version: VersionMeta; from: VersionMeta };

/**
 * Rolls the state back to version `serial`: a new version with that version's content, whose
 * own "serial" field is rewritten to current + 1 (the CLI refuses a state whose serial is below
 * what it last saw). Refused while anyone holds the lock: a run or CLI mid-apply would
 * overwrite the rollback, or be overwritten by it.
 */
export async function rollbackStateVersion(req: Request, actor: Actor, workspace: StateWorkspace, serial: bigint): Promise<RollbackOutcome> {
  return withWorkspaceRow(workspace.id, async (c) => {
    const lock = await currentLock(workspace.id, c);
    if (lock) throw new StateLockedError(lock, `The state is ${describeLock(lock)}. Roll back once it is unlocked.`);
    const { rows } = await c.query<MetaRow>(`SELECT ${META_COLUMNS} FROM "StateVersion" WHERE "workspaceId" = $1 AND "serial" = $2`, [workspace.id, String(serial)]);
    if (!rows[0]) throw notFound(`State version ${serial} not found in workspace "${workspace.name}"`);
    const from = toMeta(rows[0]);
    const current = await head(c, workspace.id);
    if (!current || current.serial === from.serial) {
      throw conflict(`State version ${serial} is already the current state`, "Nothing to roll back.");
    }
    if (from.encrypted) {
      throw conflict(
        `State version ${serial} is encrypted by the client`,
        "OpenTofu's state encryption seals the serial inside the state, and Terrace cannot give it a new one without the client's key. Roll back from a machine that has the key: decrypt the downloaded version there and `state push -force` it. Nothing was written.",
      );
    }
    const newSerial = current.serial + 1n;
    const content = rewriteSerial(await contentOf(c, from.id), newSerial);
    const { summary } = parseSnapshot(content);
    const version = await insertVersion(c, {
      workspace,
      content,
      summary,
      digests: digests(content),
      source: "rollback",
      lockId: null,
      rolledBackFromId: from.id,
      actor,
    });
    await auditOnClient(c, req, actor, {
      organizationId: workspace.organizationId,
      action: "state.rollback",
      targetType: "workspace",
      targetId: workspace.id,
      targetLabel: workspace.name,
      detail: { fromSerial: Number(from.serial), serial: Number(newSerial), previousSerial: Number(current.serial) },
    });
    return { version, from };
  });
}
