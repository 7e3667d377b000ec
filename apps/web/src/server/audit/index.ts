export { audit, type AuditAction, type AuditInput } from "./audit";
