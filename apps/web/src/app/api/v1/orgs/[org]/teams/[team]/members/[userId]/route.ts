import { requireActor } from "@/server/auth";
import { requireOrgOwner } from "@/server/authz";
import { noContent, route } from "@/server/http";
import { removeTeamMember } from "@/server/teams";

export const DELETE = route<{ org: string; team: string; userId: string }>(async (req, { org, team, userId }) => {
  const actor = await requireActor(req);
  await removeTeamMember(req, actor, await requireOrgOwner(actor, org), team, userId);
  return noContent();
});
