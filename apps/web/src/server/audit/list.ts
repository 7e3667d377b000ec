import { db } from "../db";
// The paging leaf directly: the orgs module itself records audit events.
import { paged, pageWindow, type Page } from "../orgs/paging";

export type AuditQuery = Page & { action?: string | undefined };

/**
 * An organization's audit log, newest first. `action` filters by one action ("token.create") or,
 * ending in ".", by a family of them ("state.").
 */
export async function listAudit(organizationId: string, q: AuditQuery) {
  const action = q.action ? (q.action.endsWith(".") ? { startsWith: q.action } : q.action) : undefined;
  const where = { organizationId, ...(action ? { action } : {}) };
  const [rows, total] = await Promise.all([
    db().auditEvent.findMany({ where, orderBy: { seq: "desc" }, ...pageWindow(q) }),
    db().auditEvent.count({ where }),
  ]);
  return paged(
    rows.map((e) => ({
      id: e.id,
      action: e.action,
      actorLabel: e.actorLabel,
      targetType: e.targetType,
      targetId: e.targetId,
      targetLabel: e.targetLabel,
      ip: e.ip,
      detail: e.detail ?? null,
      createdAt: e.createdAt,
    })),
    q,
    total,
  );
}
