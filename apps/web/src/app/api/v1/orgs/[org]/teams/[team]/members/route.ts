import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireOrgOwner } from "@/server/authz";
import { json, parseJson, route } from "@/server/http";
import { emailSchema } from "@/server/orgs";
import { addTeamMember } from "@/server/teams";

const Body = z.object({ email: emailSchema });

export const POST = route<{ org: string; team: string }>(async (req, { org, team }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const { email } = await parseJson(req, Body);
  return json(await addTeamMember(req, actor, access, team, email), 201);
});
