import type { Actor } from "../auth";
import type { AccessLevel, WorkspaceAccess } from "../authz";
import { audit } from "../audit";
import { db } from "../db";
import { notFound } from "../http";
import { findTeam } from "../teams";

/** The teams granted access to a workspace, by team name. */
export async function listAccess(wa: WorkspaceAccess) {
  const rows = await db().workspaceAccess.findMany({ where: { workspaceId: wa.workspace.id }, include: { team: { select: { name: true } } } });
  return rows.map((r) => ({ team: r.team.name, level: r.level })).sort((a, b) => a.team.localeCompare(b.team));
}

/** Grants a team a level on a workspace, replacing any earlier grant (audited with before/after). */
export async function setAccess(req: Request, actor: Actor, wa: WorkspaceAccess, teamName: string, level: AccessLevel) {
  const team = await findTeam(wa, teamName);
  const ws = wa.workspace;
  await db().$transaction(async (tx) => {
    const before = await tx.workspaceAccess.findUnique({ where: { workspaceId_teamId: { workspaceId: ws.id, teamId: team.id } } });
    if (before?.level === level) return;
    await tx.workspaceAccess.upsert({
      where: { workspaceId_teamId: { workspaceId: ws.id, teamId: team.id } },
      create: { workspaceId: ws.id, teamId: team.id, level },
      update: { level },
    });
    await audit(
      req,
      actor,
      { organizationId: wa.org.id, action: "workspace.access_set", targetType: "workspace", targetId: ws.id, targetLabel: ws.name, detail: { team: team.name, from: before?.level ?? null, to: level } },
      tx,
    );
  });
  return { team: team.name, level };
}

export async function removeAccess(req: Request, actor: Actor, wa: WorkspaceAccess, teamName: string) {
  const team = await findTeam(wa, teamName);
  const ws = wa.workspace;
  await db().$transaction(async (tx) => {
    const before = await tx.workspaceAccess.findUnique({ where: { workspaceId_teamId: { workspaceId: ws.id, teamId: team.id } } });
    const gone = before ? await tx.workspaceAccess.deleteMany({ where: { workspaceId: ws.id, teamId: team.id } }) : { count: 0 };
    if (!before || gone.count === 0) throw notFound(`Team "${team.name}" has no access to workspace "${ws.name}"`);
    await audit(
      req,
      actor,
      { organizationId: wa.org.id, action: "workspace.access_remove", targetType: "workspace", targetId: ws.id, targetLabel: ws.name, detail: { team: team.name, from: before.level } },
      tx,
    );
  });
}
