-- Audit events get their insertion order, so the log lists events of one millisecond correctly.
-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_seq_idx" ON "AuditEvent"("organizationId", "seq");
