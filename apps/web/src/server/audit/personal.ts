import { db, type Tx } from "../db";
import type { Actor } from "../auth";
import { audit, type AuditInput } from "./audit";

/**
 * Records an event about a person rather than one organization (a sign-in, a personal API token):
 * one copy per organization they belong to, so every owner who can be affected sees it in their
 * organization's log; an org-less copy when they belong to none.
 */
export async function auditPersonal(
  req: Request,
  actor: Actor | { label: string; userId?: string | null },
  userId: string,
  input: Omit<AuditInput, "organizationId">,
  tx?: Tx,
) {
  const memberships = await (tx ?? db()).organizationMember.findMany({ where: { userId }, select: { organizationId: true } });
  const orgs = memberships.length ? memberships.map((m) => m.organizationId) : [null];
  for (const organizationId of orgs) await audit(req, actor, { ...input, organizationId }, tx);
}
