import type { Organization, Workspace } from "@prisma/client";
import { sqlPool } from "../sql";
import { forbidden, notFound } from "../http/errors";
import type { Actor } from "../auth/actor";
import { atLeast, highest, type AccessLevel } from "./levels";

// Every API request asks these questions, the CLI's state requests several times a run, so they
// are answered through node-postgres (../sql.ts), one query each, rather than Prisma.

export type OrgAccess = { org: Organization; isOwner: boolean; isMember: boolean; manageWorkspaces: boolean };

const ORG_COLUMNS = `o."id", o."name", o."email", o."createdAt" AT TIME ZONE 'UTC' AS "createdAt"`;

/** The actor's standing in an organization; 404 when the organization does not exist or is not theirs. */
export async function orgAccess(actor: Actor, orgName: string): Promise<OrgAccess> {
  const missing = () => notFound(`Organization "${orgName}" not found`);
  if (actor.kind === "team") {
    const { rows } = await sqlPool().query<Organization & { manageWorkspaces: boolean | null }>(
      `SELECT ${ORG_COLUMNS}, (SELECT t."manageWorkspaces" FROM "Team" t WHERE t."id" = $2) AS "manageWorkspaces"
         FROM "Organization" o WHERE o."name" = $1`,
      [orgName, actor.teamId],
    );
    const row = rows[0];
    if (!row || actor.organizationId !== row.id) throw missing();
    const { manageWorkspaces, ...org } = row;
    return { org, isOwner: false, isMember: true, manageWorkspaces: !!manageWorkspaces };
  }
  const { rows } = await sqlPool().query<Organization & { role: "owner" | "member" | null; managing: boolean }>(
    `SELECT ${ORG_COLUMNS}, m."role",
            EXISTS (SELECT 1 FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId"
                     WHERE tm."userId" = $2 AND t."organizationId" = o."id" AND t."manageWorkspaces") AS "managing"
       FROM "Organization" o
       LEFT JOIN "OrganizationMember" m ON m."organizationId" = o."id" AND m."userId" = $2
      WHERE o."name" = $1`,
    [orgName, actor.userId],
  );
  const row = rows[0];
  if (!row || row.role === null) throw missing();
  const { role, managing, ...org } = row;
  return { org, isOwner: role === "owner", isMember: true, manageWorkspaces: role === "owner" || managing };
}

export async function requireOrgOwner(actor: Actor, orgName: string): Promise<OrgAccess> {
  const a = await orgAccess(actor, orgName);
  if (!a.isOwner) throw forbidden("Only organization owners can do this");
  return a;
}

/** The actor's access level on one workspace (null: none). */
export async function workspaceLevel(actor: Actor, access: OrgAccess, workspaceId: string): Promise<AccessLevel | null> {
  if (access.isOwner || access.manageWorkspaces) return "admin";
  const { rows } =
    actor.kind === "team"
      ? await sqlPool().query<{ level: AccessLevel }>(`SELECT wa."level" FROM "WorkspaceAccess" wa WHERE wa."workspaceId" = $1 AND wa."teamId" = $2`, [
          workspaceId,
          actor.teamId,
        ])
      : await sqlPool().query<{ level: AccessLevel }>(
          `SELECT wa."level" FROM "WorkspaceAccess" wa JOIN "TeamMember" tm ON tm."teamId" = wa."teamId"
            WHERE wa."workspaceId" = $1 AND tm."userId" = $2`,
          [workspaceId, actor.userId],
        );
  return highest(rows.map((g) => g.level));
}

/** An organization's workspace by name, or null. */
export async function findWorkspace(organizationId: string, name: string): Promise<Workspace | null> {
  const { rows } = await sqlPool().query<Workspace>(
    `SELECT w."id", w."organizationId", w."name", w."description",
            w."createdAt" AT TIME ZONE 'UTC' AS "createdAt", w."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt"
       FROM "Workspace" w WHERE w."organizationId" = $1 AND w."name" = $2`,
    [organizationId, name],
  );
  return rows[0] ?? null;
}

export type WorkspaceAccess = OrgAccess & { workspace: Workspace; level: AccessLevel };

/**
 * Loads a workspace the actor may use at `need`. No read access looks like no workspace (404), so
 * names do not leak; read access without the level needed is a 403 that says what is missing.
 */
export async function requireWorkspace(actor: Actor, orgName: string, wsName: string, need: AccessLevel): Promise<WorkspaceAccess> {
  const access = await orgAccess(actor, orgName);
  const workspace = await findWorkspace(access.org.id, wsName);
  if (!workspace) throw notFound(`Workspace "${wsName}" not found in organization "${orgName}"`);
  const level = await workspaceLevel(actor, access, workspace.id);
  if (!level) throw notFound(`Workspace "${wsName}" not found in organization "${orgName}"`);
  if (!atLeast(level, need)) throw forbidden(`This needs "${need}" access to workspace "${wsName}"; you have "${level}"`);
  return { ...access, workspace, level };
}
