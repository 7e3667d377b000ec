import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, noContent, parseJson, parseQuery, route } from "@/server/http";
import { deleteWorkspace, getWorkspace, updateWorkspace } from "@/server/workspaces";

type Params = { org: string; workspace: string };

export const GET = route<Params>(async (req, { org, workspace }) => {
  return json(await getWorkspace(await requireWorkspace(await requireActor(req), org, workspace, "read")));
});

const Body = z.object({ name: z.string().optional(), description: z.string().trim().max(1000).optional() });

export const PATCH = route<Params>(async (req, { org, workspace }) => {
  const actor = await requireActor(req);
  const wa = await requireWorkspace(actor, org, workspace, "admin");
  const body = await parseJson(req, Body);
  return json(await updateWorkspace(req, actor, wa, body));
});

const DeleteQuery = z.object({ force: z.enum(["true", "false"]).default("false") });

export const DELETE = route<Params>(async (req, { org, workspace }) => {
  const actor = await requireActor(req);
  const wa = await requireWorkspace(actor, org, workspace, "admin");
  const { force } = parseQuery(req, DeleteQuery);
  await deleteWorkspace(req, actor, wa, force === "true");
  return noContent();
});
