import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireOrgOwner } from "@/server/authz";
import { listAudit } from "@/server/audit";
import { json, parseQuery, route } from "@/server/http";
import { pageFields } from "@/server/orgs";

const Query = z.object({ ...pageFields, action: z.string().max(100).optional() });

/** The organization's audit log, newest first (owners only). */
export const GET = route<{ org: string }>(async (req, { org }) => {
  const access = await requireOrgOwner(await requireActor(req), org);
  return json(await listAudit(access.org.id, parseQuery(req, Query)));
});
