import { z } from "zod";
import { requireActor } from "@/server/auth";
import { orgAccess, requireOrgOwner } from "@/server/authz";
import { json, parseJson, route } from "@/server/http";
import { createTeam, listTeams } from "@/server/teams";

export const GET = route<{ org: string }>(async (req, { org }) => {
  const access = await orgAccess(await requireActor(req), org);
  return json({ data: await listTeams(access.org.id) });
});

const Body = z.object({ name: z.string(), manageWorkspaces: z.boolean().default(false) });

export const POST = route<{ org: string }>(async (req, { org }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const body = await parseJson(req, Body);
  return json(await createTeam(req, actor, access, body), 201);
});
