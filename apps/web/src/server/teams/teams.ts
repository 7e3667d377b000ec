import type { Team } from "@prisma/client";
import type { Actor } from "../auth";
import type { OrgAccess } from "../authz";
import { audit } from "../audit";
import { db } from "../db";
import { conflict, notFound } from "../http";
import { checkName } from "../names";
import { isUniqueViolation, isUuid } from "../orgs";

const memberSelect = { user: { select: { id: true, email: true, name: true } } } as const;

function teamView(t: Team & { members: { user: { id: string; email: string; name: string } }[] }) {
  return {
    id: t.id,
    name: t.name,
    manageWorkspaces: t.manageWorkspaces,
    members: t.members.map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name })).sort((a, b) => a.email.localeCompare(b.email)),
    createdAt: t.createdAt,
  };
}

export async function listTeams(organizationId: string) {
  const rows = await db().team.findMany({ where: { organizationId }, include: { members: { include: memberSelect } }, orderBy: { name: "asc" } });
  return rows.map(teamView);
}

/** A team by name; 404 when the organization has none by that name. */
export async function findTeam(access: OrgAccess, name: string): Promise<Team> {
  const team = await db().team.findUnique({ where: { organizationId_name: { organizationId: access.org.id, name } } });
  if (!team) throw notFound(`Team "${name}" not found in organization "${access.org.name}"`);
  return team;
}

/** One team with its members and the workspaces it has been granted. */
export async function getTeam(access: OrgAccess, name: string) {
  const team = await findTeam(access, name);
  const full = await db().team.findUniqueOrThrow({
    where: { id: team.id },
    include: { members: { include: memberSelect }, access: { include: { workspace: { select: { name: true } } } } },
  });
  return {
    ...teamView(full),
    workspaces: full.access.map((a) => ({ name: a.workspace.name, level: a.level })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function taken(name: string) {
  return (e: unknown) => {
    throw isUniqueViolation(e) ? conflict(`Team "${name}" already exists`) : e;
  };
}

export async function createTeam(req: Request, actor: Actor, access: OrgAccess, input: { name: string; manageWorkspaces: boolean }) {
  checkName("team", input.name);
  const org = access.org;
  return db()
    .$transaction(async (tx) => {
      if (await tx.team.findUnique({ where: { organizationId_name: { organizationId: org.id, name: input.name } } })) {
        throw conflict(`Team "${input.name}" already exists`);
      }
      const t = await tx.team.create({ data: { organizationId: org.id, name: input.name, manageWorkspaces: input.manageWorkspaces } });
      await audit(
        req,
        actor,
        { organizationId: org.id, action: "team.create", targetType: "team", targetId: t.id, targetLabel: t.name, detail: { manageWorkspaces: t.manageWorkspaces } },
        tx,
      );
      return teamView({ ...t, members: [] });
    })
    .catch(taken(input.name));
}

/** Renames a team or changes whether it manages every workspace (a permission change: audited). */
export async function updateTeam(
  req: Request,
  actor: Actor,
  access: OrgAccess,
  name: string,
  input: { name?: string | undefined; manageWorkspaces?: boolean | undefined },
) {
  const team = await findTeam(access, name);
  if (input.name !== undefined) checkName("team", input.name);
  const data = {
    ...(input.name !== undefined && input.name !== team.name ? { name: input.name } : {}),
    ...(input.manageWorkspaces !== undefined && input.manageWorkspaces !== team.manageWorkspaces ? { manageWorkspaces: input.manageWorkspaces } : {}),
  };
  await db()
    .$transaction(async (tx) => {
      if (Object.keys(data).length === 0) return;
      await tx.team.update({ where: { id: team.id }, data });
      const from = { ...("name" in data ? { name: team.name } : {}), ...("manageWorkspaces" in data ? { manageWorkspaces: team.manageWorkspaces } : {}) };
      await audit(
        req,
        actor,
        { organizationId: access.org.id, action: "team.update", targetType: "team", targetId: team.id, targetLabel: data.name ?? team.name, detail: { from, to: data } },
        tx,
      );
    })
    .catch(taken(input.name ?? name));
  return getTeam(access, input.name ?? name);
}

/** Deletes a team: its members lose the team's workspace grants and its tokens stop working. */
export async function deleteTeam(req: Request, actor: Actor, access: OrgAccess, name: string) {
  const team = await findTeam(access, name);
  await db().$transaction(async (tx) => {
    const [members, grants, tokens] = await Promise.all([
      tx.teamMember.count({ where: { teamId: team.id } }),
      tx.workspaceAccess.count({ where: { teamId: team.id } }),
      tx.apiToken.count({ where: { teamId: team.id, revokedAt: null } }),
    ]);
    await tx.team.delete({ where: { id: team.id } });
    await audit(
      req,
      actor,
      { organizationId: access.org.id, action: "team.delete", targetType: "team", targetId: team.id, targetLabel: team.name, detail: { members, workspaceGrants: grants, liveTokens: tokens } },
      tx,
    );
  });
}

export async function addTeamMember(req: Request, actor: Actor, access: OrgAccess, name: string, email: string) {
  const team = await findTeam(access, name);
  const member = await db().organizationMember.findFirst({ where: { organizationId: access.org.id, user: { email } }, include: { user: true } });
  if (!member) throw notFound(`${email} is not a member of organization "${access.org.name}"`, "Add them to the organization first.");
  await db()
    .$transaction(async (tx) => {
      if (await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: member.userId } } })) {
        throw conflict(`${email} is already in team "${team.name}"`);
      }
      await tx.teamMember.create({ data: { teamId: team.id, userId: member.userId } });
      await audit(
        req,
        actor,
        { organizationId: access.org.id, action: "team.member_add", targetType: "team", targetId: team.id, targetLabel: team.name, detail: { userId: member.userId, email } },
        tx,
      );
    })
    .catch((e: unknown) => {
      throw isUniqueViolation(e) ? conflict(`${email} is already in team "${team.name}"`) : e;
    });
  return { userId: member.userId, email: member.user.email, name: member.user.name };
}

export async function removeTeamMember(req: Request, actor: Actor, access: OrgAccess, name: string, userId: string) {
  const team = await findTeam(access, name);
  const tm = isUuid(userId)
    ? await db().teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId } }, include: { user: true } })
    : null;
  if (!tm) throw notFound(`No such member of team "${team.name}"`);
  await db().$transaction(async (tx) => {
    const gone = await tx.teamMember.deleteMany({ where: { teamId: team.id, userId } });
    if (gone.count === 0) throw notFound(`No such member of team "${team.name}"`);
    await audit(
      req,
      actor,
      { organizationId: access.org.id, action: "team.member_remove", targetType: "team", targetId: team.id, targetLabel: team.name, detail: { userId, email: tm.user.email } },
      tx,
    );
  });
}
