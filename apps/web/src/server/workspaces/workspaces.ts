import { Prisma, type Workspace } from "@prisma/client";
import type { Actor } from "../auth";
import { highest, type AccessLevel, type OrgAccess, type WorkspaceAccess } from "../authz";
import { audit } from "../audit";
import { db } from "../db";
import { conflict } from "../http";
import { checkName } from "../names";
import { isUniqueViolation, paged, pageWindow, type Page } from "../orgs";
import { lockView } from "./lock-view";

type Current = { serial: number; resourceCount: number; encrypted: boolean; createdAt: Date };

/** The current (highest-serial) state version of each workspace, without loading any content. */
async function currentVersions(ids: string[]): Promise<Map<string, Current>> {
  if (ids.length === 0) return new Map();
  const rows = await db().$queryRaw<{ workspaceId: string; serial: bigint; resourceCount: number; encrypted: boolean; createdAt: Date }[]>`
    SELECT DISTINCT ON ("workspaceId") "workspaceId", "serial", "resourceCount", "encrypted", "createdAt"
    FROM "StateVersion" WHERE "workspaceId" = ANY(${ids}::uuid[])
    ORDER BY "workspaceId", "serial" DESC`;
  return new Map(
    rows.map((r) => [r.workspaceId, { serial: Number(r.serial), resourceCount: r.resourceCount, encrypted: r.encrypted, createdAt: r.createdAt }]),
  );
}

function view(ws: Workspace, level: AccessLevel, locked: boolean, current: Current | undefined) {
  return {
    id: ws.id,
    name: ws.name,
    description: ws.description,
    level,
    createdAt: ws.createdAt,
    updatedAt: ws.updatedAt,
    locked,
    current: current ?? null,
  };
}

// Prisma passes `contains` into ILIKE as is: escape its wildcards so "_" finds an underscore.
function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Which grants count for the actor: a team token's own team, or any team a person is in. */
function grantFilter(actor: Actor): Prisma.WorkspaceAccessWhereInput {
  return actor.kind === "team" ? { teamId: actor.teamId } : { team: { members: { some: { userId: actor.userId } } } };
}

/**
 * The workspaces the actor can read, by name, with their level. Owners and teams that manage
 * workspaces see all of them (as admins); everyone else sees what their teams were granted.
 */
export async function listWorkspaces(actor: Actor, access: OrgAccess, q: Page & { q?: string | undefined }) {
  const seesAll = access.isOwner || access.manageWorkspaces;
  const grants = grantFilter(actor);
  const where: Prisma.WorkspaceWhereInput = {
    organizationId: access.org.id,
    ...(q.q ? { name: { contains: likeLiteral(q.q), mode: "insensitive" } } : {}),
    ...(seesAll ? {} : { access: { some: grants } }),
  };
  const [rows, total] = await Promise.all([
    db().workspace.findMany({
      where,
      orderBy: { name: "asc" },
      ...pageWindow(q),
      include: { lock: { select: { workspaceId: true } }, access: { where: grants, select: { level: true } } },
    }),
    db().workspace.count({ where }),
  ]);
  const current = await currentVersions(rows.map((w) => w.id));
  const data = rows.map((w) => view(w, seesAll ? "admin" : (highest(w.access.map((a) => a.level)) ?? "read"), w.lock !== null, current.get(w.id)));
  return paged(data, q, total);
}

/** One workspace (already authorised) with its lock. */
export async function getWorkspace(wa: WorkspaceAccess) {
  const ws = wa.workspace;
  const [lock, current] = await Promise.all([db().stateLock.findUnique({ where: { workspaceId: ws.id } }), currentVersions([ws.id])]);
  return { ...view(ws, wa.level, lock !== null, current.get(ws.id)), lock: lock ? lockView(lock) : null };
}

function nameTaken(orgName: string, name: string) {
  return conflict(`Workspace "${name}" already exists in organization "${orgName}"`);
}

export async function createWorkspace(req: Request, actor: Actor, access: OrgAccess, input: { name: string; description: string }) {
  checkName("workspace", input.name);
  const org = access.org;
  const created = db().$transaction(async (tx) => {
    if (await tx.workspace.findUnique({ where: { organizationId_name: { organizationId: org.id, name: input.name } } })) {
      throw nameTaken(org.name, input.name);
    }
    const ws = await tx.workspace.create({ data: { organizationId: org.id, name: input.name, description: input.description } });
    await audit(req, actor, { organizationId: org.id, action: "workspace.create", targetType: "workspace", targetId: ws.id, targetLabel: ws.name }, tx);
    return ws;
  });
  const ws = await created.catch((e: unknown) => {
    throw isUniqueViolation(e) ? nameTaken(org.name, input.name) : e;
  });
  return view(ws, "admin", false, undefined);
}

/** Renames a workspace (audited: every CLI backend address that names it changes) or edits its description. */
export async function updateWorkspace(req: Request, actor: Actor, wa: WorkspaceAccess, input: { name?: string | undefined; description?: string | undefined }) {
  const ws = wa.workspace;
  if (input.name !== undefined) checkName("workspace", input.name);
  const rename = input.name !== undefined && input.name !== ws.name;
  const data = { ...(rename ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) };
  if (Object.keys(data).length > 0) {
    await db()
      .$transaction(async (tx) => {
        await tx.workspace.update({ where: { id: ws.id }, data });
        if (rename) {
          await audit(
            req,
            actor,
            { organizationId: wa.org.id, action: "workspace.rename", targetType: "workspace", targetId: ws.id, targetLabel: input.name!, detail: { from: ws.name, to: input.name! } },
            tx,
          );
        }
      })
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? nameTaken(wa.org.name, input.name!) : e;
      });
  }
  const fresh = await db().workspace.findUniqueOrThrow({ where: { id: ws.id } });
  return getWorkspace({ ...wa, workspace: fresh });
}

/**
 * Deletes a workspace with its whole state history. Refused while the current state still tracks
 * resources (they would be orphaned in the cloud) or while the state is locked, unless forced.
 * The workspace row is locked first, so no state write can slip in between check and delete.
 */
export async function deleteWorkspace(req: Request, actor: Actor, wa: WorkspaceAccess, force: boolean) {
  const ws = wa.workspace;
  await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${ws.id}::uuid FOR UPDATE`;
    const current = await tx.stateVersion.findFirst({
      where: { workspaceId: ws.id },
      orderBy: { serial: "desc" },
      select: { serial: true, resourceCount: true, encrypted: true },
    });
    const lock = await tx.stateLock.findUnique({ where: { workspaceId: ws.id } });
    const resourceCount = current?.resourceCount ?? 0;
    // What a client-encrypted state tracks is unknown here: it may hold resources.
    if (!force && current?.encrypted) {
      throw conflict(
        "Workspace state is encrypted",
        `State serial ${current.serial} was encrypted by the client, so Terrace cannot tell whether it tracks resources. Destroy them first, or delete with ?force=true to abandon them.`,
      );
    }
    if (!force && resourceCount > 0) {
      throw conflict(
        "Workspace state holds resources",
        `State serial ${current!.serial} tracks ${resourceCount} resource(s). Destroy them first, or delete with ?force=true to abandon them.`,
      );
    }
    if (!force && lock) throw conflict("Workspace state is locked", `Locked by ${lock.actorLabel} (${lock.operation}). Unlock it first, or delete with ?force=true.`);
    await tx.workspace.delete({ where: { id: ws.id } });
    await audit(
      req,
      actor,
      {
        organizationId: wa.org.id,
        action: "workspace.delete",
        targetType: "workspace",
        targetId: ws.id,
        targetLabel: ws.name,
        detail: { forced: force, resourceCount, serial: current ? Number(current.serial) : null, wasLocked: lock !== null },
      },
      tx,
    );
  });
}
