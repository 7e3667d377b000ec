export { audit, type AuditAction, type AuditInput } from "./audit";
export { auditPersonal } from "./personal";
export { listAudit, type AuditQuery } from "./list";
