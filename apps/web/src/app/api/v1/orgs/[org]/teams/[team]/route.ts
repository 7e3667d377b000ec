import { z } from "zod";
import { requireActor } from "@/server/auth";
import { orgAccess, requireOrgOwner } from "@/server/authz";
import { json, noContent, parseJson, route } from "@/server/http";
import { deleteTeam, getTeam, updateTeam } from "@/server/teams";

type Params = { org: string; team: string };

export const GET = route<Params>(async (req, { org, team }) => {
  const access = await orgAccess(await requireActor(req), org);
  return json(await getTeam(access, team));
});

const Body = z.object({ name: z.string().optional(), manageWorkspaces: z.boolean().optional() });

export const PATCH = route<Params>(async (req, { org, team }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const body = await parseJson(req, Body);
  return json(await updateTeam(req, actor, access, team, body));
});

export const DELETE = route<Params>(async (req, { org, team }) => {
  const actor = await requireActor(req);
  await deleteTeam(req, actor, await requireOrgOwner(actor, org), team);
  return noContent();
});
