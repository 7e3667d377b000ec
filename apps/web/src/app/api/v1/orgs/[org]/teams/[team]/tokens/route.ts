import { requireActor } from "@/server/auth";
import { requireOrgOwner } from "@/server/authz";
import { json, parseJson, route } from "@/server/http";
import { findTeam } from "@/server/teams";
import { createTeamToken, listTeamTokens, TokenBody } from "@/server/tokens";

type Params = { org: string; team: string };

export const GET = route<Params>(async (req, { org, team }) => {
  const access = await requireOrgOwner(await requireActor(req), org);
  return json({ data: await listTeamTokens(await findTeam(access, team)) });
});

/** A token that acts as the team; the secret is in this answer only. */
export const POST = route<Params>(async (req, { org, team }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const t = await findTeam(access, team);
  const body = await parseJson(req, TokenBody);
  return json(await createTeamToken(req, actor, access, t, body.description, body.expiresInDays), 201);
});
