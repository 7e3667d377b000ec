import { requireActor } from "@/server/auth";
import { orgAccess } from "@/server/authz";
import { json, route } from "@/server/http";
import { orgView } from "@/server/orgs";

export const GET = route<{ org: string }>(async (req, { org }) => {
  const actor = await requireActor(req);
  return json(orgView(await orgAccess(actor, org)));
});
