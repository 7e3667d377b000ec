import type { Prisma } from "@prisma/client";
import { db, type Tx } from "../db";
import { actorRefs, type Actor } from "../auth/actor";
import { clientIp } from "../http/client-ip";

export type AuditAction =
  | "auth.login"
  | "auth.login_failed"
  | "auth.logout"
  | "token.create"
  | "token.revoke"
  | "org.create"
  | "member.add"
  | "member.update"
  | "member.remove"
  | "team.create"
  | "team.update"
  | "team.delete"
  | "team.member_add"
  | "team.member_remove"
  | "workspace.create"
  | "workspace.rename"
  | "workspace.delete"
  | "workspace.access_set"
  | "workspace.access_remove"
  | "state.lock"
  | "state.unlock"
  | "state.force_unlock"
  | "state.write"
  | "state.rollback";

export type AuditInput = {
  organizationId: string | null;
  action: AuditAction;
  targetType: string;
  targetId?: string | null;
  targetLabel: string;
  detail?: Prisma.InputJsonValue;
};

/** Records one audit event; pass `tx` to make it part of the change it describes. */
export async function audit(req: Request, actor: Actor | { label: string; userId?: string | null }, input: AuditInput, tx?: Tx) {
  const refs =
    "kind" in actor ? actorRefs(actor) : { actorUserId: actor.userId ?? null, actorTokenId: null, actorLabel: actor.label };
  await (tx ?? db()).auditEvent.create({
    data: {
      organizationId: input.organizationId,
      ...refs,
      action: input.action,
      targetType: input.targetType,
      targetId: input.targetId ?? null,
      targetLabel: input.targetLabel,
      ip: clientIp(req),
      ...(input.detail !== undefined ? { detail: input.detail } : {}),
    },
  });
}
