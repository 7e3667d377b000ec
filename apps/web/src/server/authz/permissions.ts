import type { Organization, Workspace } from "@prisma/client";
import { db } from "../db";
import { forbidden, notFound } from "../http/errors";
import type { Actor } from "../auth/actor";
import { atLeast, highest, type AccessLevel } from "./levels";

export type OrgAccess = { org: Organization; isOwner: boolean; isMember: boolean; manageWorkspaces: boolean };

/** The actor's standing in an organization; 404 when the organization does not exist or is not theirs. */
export async function orgAccess(actor: Actor, orgName: string): Promise<OrgAccess> {
  const org = await db().organization.findUnique({ where: { name: orgName } });
  if (!org) throw notFound(`Organization "${orgName}" not found`);
  if (actor.kind === "team") {
    if (actor.organizationId !== org.id) throw notFound(`Organization "${orgName}" not found`);
    const team = await db().team.findUnique({ where: { id: actor.teamId } });
    return { org, isOwner: false, isMember: true, manageWorkspaces: !!team?.manageWorkspaces };
  }
  const member = await db().organizationMember.findUnique({
    where: { organizationId_userId: { organizationId: org.id, userId: actor.userId } },
  });
  if (!member) throw notFound(`Organization "${orgName}" not found`);
  const managing = await db().teamMember.count({
    where: { userId: actor.userId, team: { organizationId: org.id, manageWorkspaces: true } },
  });
  return { org, isOwner: member.role === "owner", isMember: true, manageWorkspaces: member.role === "owner" || managing > 0 };
}

export async function requireOrgOwner(actor: Actor, orgName: string): Promise<OrgAccess> {
  const a = await orgAccess(actor, orgName);
  if (!a.isOwner) throw forbidden("Only organization owners can do this");
  return a;
}

/** The actor's access level on one workspace (null: none). */
export async function workspaceLevel(actor: Actor, access: OrgAccess, workspaceId: string): Promise<AccessLevel | null> {
  if (access.isOwner || access.manageWorkspaces) return "admin";
  const where =
    actor.kind === "team"
      ? { workspaceId, teamId: actor.teamId }
      : { workspaceId, team: { members: { some: { userId: actor.userId } } } };
  const grants = await db().workspaceAccess.findMany({ where, select: { level: true } });
  return highest(grants.map((g) => g.level));
}

export type WorkspaceAccess = OrgAccess & { workspace: Workspace; level: AccessLevel };

/**
 * Loads a workspace the actor may use at `need`. No read access looks like no workspace (404), so
 * names do not leak; read access without the level needed is a 403 that says what is missing.
 */
export async function requireWorkspace(actor: Actor, orgName: string, wsName: string, need: AccessLevel): Promise<WorkspaceAccess> {
  const access = await orgAccess(actor, orgName);
  const workspace = await db().workspace.findUnique({
    where: { organizationId_name: { organizationId: access.org.id, name: wsName } },
  });
  if (!workspace) throw notFound(`Workspace "${wsName}" not found in organization "${orgName}"`);
  const level = await workspaceLevel(actor, access, workspace.id);
  if (!level) throw notFound(`Workspace "${wsName}" not found in organization "${orgName}"`);
  if (!atLeast(level, need)) throw forbidden(`This needs "${need}" access to workspace "${wsName}"; you have "${level}"`);
  return { ...access, workspace, level };
}
