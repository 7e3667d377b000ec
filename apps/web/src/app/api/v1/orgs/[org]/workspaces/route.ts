import { z } from "zod";
import { requireActor } from "@/server/auth";
import { orgAccess } from "@/server/authz";
import { forbidden, json, parseJson, parseQuery, route } from "@/server/http";
import { pageFields } from "@/server/orgs";
import { createWorkspace, listWorkspaces } from "@/server/workspaces";

const Query = z.object({ ...pageFields, q: z.string().trim().max(90).optional() });

export const GET = route<{ org: string }>(async (req, { org }) => {
  const actor = await requireActor(req);
  return json(await listWorkspaces(actor, await orgAccess(actor, org), parseQuery(req, Query)));
});

const Body = z.object({ name: z.string(), description: z.string().trim().max(1000).default("") });

/** Owners and members of a team that manages workspaces may create them. */
export const POST = route<{ org: string }>(async (req, { org }) => {
  const actor = await requireActor(req);
  const access = await orgAccess(actor, org);
  if (!access.manageWorkspaces) throw forbidden("Only organization owners and teams that manage workspaces can create workspaces");
  const body = await parseJson(req, Body);
  return json(await createWorkspace(req, actor, access, body), 201);
});
