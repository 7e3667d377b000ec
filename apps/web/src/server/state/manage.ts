// The state endpoints of the workspace API: lock status, force-unlock, rollback.
import { requireActor } from "../auth/actor";
import { requireWorkspace } from "../authz";
import { badRequest, json, noContent } from "../http";
import { lockedResponse, StateLockedError } from "./errors";
import { currentLock, lockStatusView } from "./locks";
import { forceUnlock } from "./protocol";
import { rollbackStateVersion } from "./versions";
import { stateVersionView } from "./view";

type WsParams = { org: string; workspace: string };

export async function getLockStatus(req: Request, p: WsParams): Promise<Response> {
  const actor = await requireActor(req);
  const { workspace } = await requireWorkspace(actor, p.org, p.workspace, "read");
  return json(lockStatusView(await currentLock(workspace.id)));
}

export async function deleteLock(req: Request, p: WsParams): Promise<Response> {
  const actor = await requireActor(req);
  const { workspace } = await requireWorkspace(actor, p.org, p.workspace, "write");
  await forceUnlock(req, actor, workspace, "api");
  return noContent();
}

function parseSerial(raw: string): bigint {
  if (!/^\d{1,18}$/.test(raw)) throw badRequest(`Invalid serial "${raw.slice(0, 40)}"`, "A serial is a non-negative integer.");
  return BigInt(raw);
}

export async function rollback(req: Request, p: WsParams & { serial: string }): Promise<Response> {
  const actor = await requireActor(req);
  const serial = parseSerial(p.serial);
  const { workspace } = await requireWorkspace(actor, p.org, p.workspace, "write");
  try {
    const { version, from } = await rollbackStateVersion(req, actor, workspace, serial);
    return json({ data: stateVersionView(version, { current: true, rolledBackFromSerial: from.serial }) }, 201);
  } catch (e) {
    if (e instanceof StateLockedError) return lockedResponse(e);
    throw e;
  }
}
