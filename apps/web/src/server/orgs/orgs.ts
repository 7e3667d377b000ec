import type { Actor } from "../auth";
import type { OrgAccess } from "../authz";
import { db } from "../db";
import { conflict } from "../http";
import { audit } from "../audit";
import { checkName } from "../names";
import { isUniqueViolation } from "./fields";

export type OrgRoleView = "owner" | "member";

/** The organizations an actor belongs to; a team token belongs to its team's organization. */
export async function listOrgs(actor: Actor) {
  if (actor.kind === "team") {
    const org = await db().organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
    return [{ name: org.name, role: "member" as OrgRoleView, createdAt: org.createdAt }];
  }
  const rows = await db().organizationMember.findMany({
    where: { userId: actor.userId },
    include: { organization: true },
    orderBy: { organization: { name: "asc" } },
  });
  return rows.map((m) => ({ name: m.organization.name, role: m.role as OrgRoleView, createdAt: m.organization.createdAt }));
}

/** What the UI needs to know about the actor's place in one organization. */
export function orgView(a: OrgAccess) {
  return {
    name: a.org.name,
    role: (a.isOwner ? "owner" : "member") as OrgRoleView,
    isOwner: a.isOwner,
    canCreateWorkspaces: a.manageWorkspaces,
    createdAt: a.org.createdAt,
  };
}

/**
 * Creates an organization owned by its creator, with an "owners" team that manages every
 * workspace (the same shape the first-start setup creates).
 */
export async function createOrg(req: Request, actor: Extract<Actor, { kind: "user" }>, name: string) {
  checkName("organization", name);
  const created = db().$transaction(async (tx) => {
    const taken = await tx.organization.findUnique({ where: { name } });
    if (taken) throw conflict(`Organization "${name}" already exists`);
    const org = await tx.organization.create({ data: { name, email: actor.email } });
    await tx.organizationMember.create({ data: { organizationId: org.id, userId: actor.userId, role: "owner" } });
    await tx.team.create({
      data: { organizationId: org.id, name: "owners", manageWorkspaces: true, members: { create: { userId: actor.userId } } },
    });
    await audit(req, actor, { organizationId: org.id, action: "org.create", targetType: "organization", targetId: org.id, targetLabel: name }, tx);
    return { name: org.name, role: "owner" as OrgRoleView, createdAt: org.createdAt };
  });
  return created.catch((e: unknown) => {
    throw isUniqueViolation(e) ? conflict(`Organization "${name}" already exists`) : e;
  });
}
