import { requireActor } from "@/server/auth";
import { requireOrgOwner } from "@/server/authz";
import { noContent, route } from "@/server/http";
import { findTeam } from "@/server/teams";
import { revokeTeamToken } from "@/server/tokens";

export const DELETE = route<{ org: string; team: string; id: string }>(async (req, { org, team, id }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  await revokeTeamToken(req, actor, access, await findTeam(access, team), id);
  return noContent();
});
