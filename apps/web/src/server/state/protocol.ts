// The `backend "http"` protocol (see ../shared/notes/PROTOCOLS.md): what the plain terraform /
// tofu CLI sends to /api/v1/state/<org>/<workspace> and …/lock, and how Terrace answers.
import type { Actor } from "../auth/actor";
import { requireActor } from "../auth/actor";
import { db } from "../db";
import { badRequest, json, readBody } from "../http";
import { sqlPool } from "../sql";
import { auditOnClient } from "./audit-sql";
import { MAX_LOCK_BYTES, maxStateBytes } from "./config";
import { digests, verifyContentMd5 } from "./digest";
import { lockConflictResponse, lockedResponse, StateLockedError } from "./errors";
import { parseLockBody } from "./lock-info";
import { acquireLock, forceReleaseLock, releaseLock } from "./locks";
import { parseSnapshot } from "./snapshot";
import { stateResponse } from "./stored";
import { currentState, writeStateVersion } from "./versions";
import { stateVersionView } from "./view";
import { ensureStateWorkspace, findStateWorkspace } from "./workspace";

export type StateParams = { org: string; workspace: string };

/** The method the client really used: apps/web/server.mjs turns LOCK/UNLOCK into POST + this header. */
export function tunnelledMethod(req: Request): "LOCK" | "UNLOCK" | null {
  const m = req.headers.get("x-terrace-method");
  if (m === null) return null;
  if (m === "LOCK" || m === "UNLOCK") return m;
  throw badRequest(`Unsupported method ${m}`);
}

/**
 * GET: the current state, or 204 when the workspace has none yet (the CLI starts empty). A client
 * that accepts gzip (the CLI's does) gets the stored bytes as they are; Content-MD5 and the ETag
 * are those of the state file either way.
 */
export async function getState(req: Request, p: StateParams): Promise<Response> {
  const actor = await requireActor(req);
  const target = await findStateWorkspace(actor, p.org, p.workspace, "read");
  const ws = await ensureStateWorkspace(req, actor, target);
  const state = await currentState(ws.id);
  if (!state) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  const { body, headers } = stateResponse(req, state.stored);
  // Node Buffers are ArrayBuffer-backed; the cast only narrows TypeScript's ArrayBufferLike.
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { "Content-Type": "application/json", "Content-MD5": state.md5, ETag: `"${state.sha256}"`, ...headers },
  });
}

/** POST / PUT [?ID=<lock id>]: a new state version. */
export async function putState(req: Request, p: StateParams): Promise<Response> {
  const actor = await requireActor(req);
  const target = await findStateWorkspace(actor, p.org, p.workspace, "write");
  const body = await readBody(req, maxStateBytes());
  const sums = digests(body);
  verifyContentMd5(req.headers.get("content-md5"), sums.md5);
  const { summary } = parseSnapshot(body);
  const lockId = new URL(req.url).searchParams.get("ID") || null;
  const workspace = await ensureStateWorkspace(req, actor, target);
  try {
    const { version } = await writeStateVersion(req, { workspace, content: body, summary, digests: sums, source: "cli", lockId, actor });
    // A repeated write answers with the version already stored, which may be a rollback.
    const from = version.rolledBackFromId
      ? await db().stateVersion.findUnique({ where: { id: version.rolledBackFromId }, select: { serial: true } })
      : null;
    return json({ data: stateVersionView(version, { current: true, rolledBackFromSerial: from?.serial ?? null }) });
  } catch (e) {
    if (e instanceof StateLockedError) return lockedResponse(e);
    throw e;
  }
}

async function lockTarget(req: Request, p: StateParams) {
  const actor = await requireActor(req);
  const target = await findStateWorkspace(actor, p.org, p.workspace, "write");
  const lock = parseLockBody(await readBody(req, MAX_LOCK_BYTES));
  return { actor, target, lock };
}

function auditTarget(ws: { id: string; organizationId: string; name: string }) {
  return { organizationId: ws.organizationId, targetType: "workspace", targetId: ws.id, targetLabel: ws.name };
}

/** LOCK (or GitLab's POST …/lock): 200 when granted, 423 + the holder's lock JSON when taken. */
export async function lockState(req: Request, p: StateParams): Promise<Response> {
  const { actor, target, lock } = await lockTarget(req, p);
  if (!lock) throw badRequest("Lock info required", "LOCK needs the lock info JSON as its body.");
  const ws = await ensureStateWorkspace(req, actor, target);
  const result = await acquireLock(ws.id, lock, actor);
  if (!result.acquired) return lockConflictResponse(result.holder);
  if (result.fresh) {
    await auditOnClient(sqlPool(), req, actor, { ...auditTarget(ws), action: "state.lock", detail: { lockId: lock.id, operation: lock.operation, who: lock.who } });
  }
  return new Response(lock.raw, { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}

/**
 * UNLOCK (or GitLab's DELETE …/lock). With lock info: releases that lock (423 + holder JSON when
 * another lock holds the state). With an empty body: `terraform force-unlock`, which does not
 * send the ID the user typed, so it breaks whatever lock is held (write access, audited).
 */
export async function unlockState(req: Request, p: StateParams): Promise<Response> {
  const { actor, target, lock } = await lockTarget(req, p);
  const ws = await ensureStateWorkspace(req, actor, target);
  if (!lock) {
    await forceUnlock(req, actor, ws, "cli");
    return unlocked();
  }
  const { released, holder } = await releaseLock(ws.id, lock.id);
  if (holder) return lockConflictResponse(holder);
  if (released) {
    await auditOnClient(sqlPool(), req, actor, { ...auditTarget(ws), action: "state.unlock", detail: { lockId: released.lockId, operation: released.operation } });
  }
  return unlocked();
}

/** Breaks the workspace's lock, if any, and records who broke whose lock. */
export async function forceUnlock(req: Request, actor: Actor, ws: { id: string; organizationId: string; name: string }, via: "cli" | "api") {
  const broken = await forceReleaseLock(ws.id);
  if (broken) {
    await auditOnClient(sqlPool(), req, actor, {
      ...auditTarget(ws),
      action: "state.force_unlock",
      detail: { lockId: broken.lockId, operation: broken.operation, who: broken.who, holder: broken.actorLabel, via },
    });
  }
  return broken;
}

function unlocked(): Response {
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
}
