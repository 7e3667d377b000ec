import type { Tx } from "../db";

/**
 * Serialises changes to one organization's ownership inside a transaction, so two owners removing
 * or demoting each other at once cannot leave the organization without an owner.
 */
export async function lockOrganization(tx: Tx, organizationId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${organizationId}::uuid FOR UPDATE`;
}
