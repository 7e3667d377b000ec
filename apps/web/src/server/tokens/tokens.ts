import { z } from "zod";
import type { Team } from "@prisma/client";
import { type Actor, createToken, tokenView } from "../auth";
import type { OrgAccess } from "../authz";
import { audit, auditPersonal } from "../audit";
import { db } from "../db";
import { notFound } from "../http";
import { isUuid } from "../orgs";

type User = Extract<Actor, { kind: "user" }>;

// Revoked tokens stay listed (marked by revokedAt) so people can see what was cut off and when.
const newestFirst = [{ createdAt: "desc" as const }, { id: "desc" as const }];

export async function listUserTokens(userId: string) {
  const rows = await db().apiToken.findMany({ where: { userId }, orderBy: newestFirst });
  return rows.map(tokenView);
}

export async function listTeamTokens(team: Team) {
  const rows = await db().apiToken.findMany({ where: { teamId: team.id }, orderBy: newestFirst });
  return rows.map(tokenView);
}

function expiry(days: number | undefined): Date | null {
  return days === undefined ? null : new Date(Date.now() + days * 86400_000);
}

/** A personal token for the caller; the secret is in the answer and nowhere else, ever. */
export async function createUserToken(req: Request, actor: User, description: string, expiresInDays?: number) {
  const { token, row } = await createToken({ userId: actor.userId }, description, actor.userId);
  const expiresAt = expiry(expiresInDays);
  const saved = expiresAt ? await db().apiToken.update({ where: { id: row.id }, data: { expiresAt } }) : row;
  await auditPersonal(req, actor, actor.userId, {
    action: "token.create",
    targetType: "token",
    targetId: row.id,
    targetLabel: `${row.prefix}… (${description})`,
    detail: { owner: "user", prefix: row.prefix, description, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return { token, data: tokenView(saved) };
}

/** A token that acts as the team (owners only: the route checks). */
export async function createTeamToken(req: Request, actor: Actor, access: OrgAccess, team: Team, description: string, expiresInDays?: number) {
  const createdBy = actor.kind === "user" ? actor.userId : null;
  const { token, row } = await createToken({ teamId: team.id }, description, createdBy);
  const expiresAt = expiry(expiresInDays);
  const saved = expiresAt ? await db().apiToken.update({ where: { id: row.id }, data: { expiresAt } }) : row;
  await audit(req, actor, {
    organizationId: access.org.id,
    action: "token.create",
    targetType: "token",
    targetId: row.id,
    targetLabel: `${row.prefix}… (${description})`,
    detail: { owner: "team", team: team.name, prefix: row.prefix, description, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return { token, data: tokenView(saved) };
}

/** Marks a token revoked (kept for the record). Revoking twice changes nothing and is not an error. */
async function revoke(id: string, where: { userId: string } | { teamId: string }) {
  if (!isUuid(id)) return null;
  const row = await db().apiToken.findFirst({ where: { id, ...where } });
  if (!row) return null;
  if (row.revokedAt) return { row, changed: false };
  const updated = await db().apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return { row, changed: updated.count === 1 };
}

export async function revokeUserToken(req: Request, actor: User, id: string) {
  const r = await revoke(id, { userId: actor.userId });
  if (!r) throw notFound("No such token");
  if (r.changed) {
    await auditPersonal(req, actor, actor.userId, {
      action: "token.revoke",
      targetType: "token",
      targetId: r.row.id,
      targetLabel: `${r.row.prefix}… (${r.row.description})`,
      detail: { owner: "user", prefix: r.row.prefix },
    });
  }
}

export async function revokeTeamToken(req: Request, actor: Actor, access: OrgAccess, team: Team, id: string) {
  const r = await revoke(id, { teamId: team.id });
  if (!r) throw notFound(`No such token for team "${team.name}"`);
  if (r.changed) {
    await audit(req, actor, {
      organizationId: access.org.id,
      action: "token.revoke",
      targetType: "token",
      targetId: r.row.id,
      targetLabel: `${r.row.prefix}… (${r.row.description})`,
      detail: { owner: "team", team: team.name, prefix: r.row.prefix },
    });
  }
}

/** The body that creates a token, user or team. */
export const TokenBody = z.object({
  description: z.string().trim().min(1, "A description is required").max(200),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
