import type { OrgRole } from "@prisma/client";
import { type Actor, hashPassword, passwordProblem } from "../auth";
import type { OrgAccess } from "../authz";
import { audit } from "../audit";
import { db, type Tx } from "../db";
import { badRequest, conflict, forbidden, notFound } from "../http";
import { isUniqueViolation, isUuid, lockOrganization } from "../orgs";

export type MemberInput = { email: string; name?: string | undefined; password?: string | undefined; role: OrgRole };

export async function listMembers(organizationId: string) {
  const rows = await db().organizationMember.findMany({
    where: { organizationId },
    include: { user: true },
    orderBy: { user: { email: "asc" } },
  });
  return rows.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, createdAt: m.createdAt }));
}

/**
 * Adds a person to an organization. Someone new to Terrace gets an account here, so a name and an
 * initial password are required for them; for an existing account both are ignored (an owner
 * never sets another person's password).
 */
export async function addMember(req: Request, actor: Actor, access: OrgAccess, input: MemberInput) {
  const existing = await db().user.findUnique({ where: { email: input.email } });
  let passwordHash: string | null = null;
  if (!existing) {
    if (!input.name || input.password === undefined) {
      throw badRequest(`No account exists for ${input.email}`, "To create one, give a name and an initial password too.");
    }
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest(problem);
    passwordHash = await hashPassword(input.password);
  }
  const org = access.org;
  const added = db().$transaction(async (tx) => {
    const user = existing ?? (await tx.user.create({ data: { email: input.email, name: input.name!, passwordHash: passwordHash! } }));
    const already = await tx.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } } });
    if (already) throw conflict(`${user.email} is already a member of "${org.name}"`);
    const m = await tx.organizationMember.create({ data: { organizationId: org.id, userId: user.id, role: input.role } });
    await audit(
      req,
      actor,
      {
        organizationId: org.id,
        action: "member.add",
        targetType: "user",
        targetId: user.id,
        targetLabel: user.email,
        detail: { role: input.role, newAccount: !existing },
      },
      tx,
    );
    return { userId: user.id, email: user.email, name: user.name, role: m.role, createdAt: m.createdAt };
  });
  return added.catch((e: unknown) => {
    throw isUniqueViolation(e) ? conflict(`${input.email} was added by someone else at the same time`) : e;
  });
}

async function ownerCount(tx: Tx, organizationId: string) {
  return tx.organizationMember.count({ where: { organizationId, role: "owner" } });
}

const LAST_OWNER = "An organization needs at least one owner";

export async function updateMemberRole(req: Request, actor: Actor, access: OrgAccess, userId: string, role: OrgRole) {
  const org = access.org;
  if (!isUuid(userId)) throw notFound("No such member");
  return db().$transaction(async (tx) => {
    await lockOrganization(tx, org.id);
    const m = await tx.organizationMember.findUnique({
      where: { organizationId_userId: { organizationId: org.id, userId } },
      include: { user: true },
    });
    if (!m) throw notFound(`No such member of "${org.name}"`);
    if (m.role !== role) {
      if (m.role === "owner" && (await ownerCount(tx, org.id)) <= 1) throw conflict(LAST_OWNER, "Make someone else an owner first.");
      await tx.organizationMember.update({ where: { organizationId_userId: { organizationId: org.id, userId } }, data: { role } });
      await audit(
        req,
        actor,
        { organizationId: org.id, action: "member.update", targetType: "user", targetId: userId, targetLabel: m.user.email, detail: { from: m.role, to: role } },
        tx,
      );
    }
    return { userId, email: m.user.email, name: m.user.name, role, createdAt: m.createdAt };
  });
}

/**
 * Removes a member (owners may remove anyone, anyone may leave), together with their places in the
 * organization's teams, so no team grant outlives the membership.
 */
export async function removeMember(req: Request, actor: Actor, access: OrgAccess, userId: string) {
  const org = access.org;
  const self = actor.kind === "user" && actor.userId === userId;
  if (!access.isOwner && !self) throw forbidden("Only organization owners can do this");
  if (!isUuid(userId)) throw notFound("No such member");
  await db().$transaction(async (tx) => {
    await lockOrganization(tx, org.id);
    const m = await tx.organizationMember.findUnique({
      where: { organizationId_userId: { organizationId: org.id, userId } },
      include: { user: true },
    });
    if (!m) throw notFound(`No such member of "${org.name}"`);
    if (m.role === "owner" && (await ownerCount(tx, org.id)) <= 1) throw conflict(LAST_OWNER, "Make someone else an owner first.");
    const teams = await tx.teamMember.deleteMany({ where: { userId, team: { organizationId: org.id } } });
    await tx.organizationMember.delete({ where: { organizationId_userId: { organizationId: org.id, userId } } });
    await audit(
      req,
      actor,
      {
        organizationId: org.id,
        action: "member.remove",
        targetType: "user",
        targetId: userId,
        targetLabel: m.user.email,
        detail: { role: m.role, teamsLeft: teams.count, left: self },
      },
      tx,
    );
  });
}
