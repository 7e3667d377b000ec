import { z } from "zod";
import { requireActor } from "@/server/auth";
import { ACCESS_LEVELS, requireWorkspace } from "@/server/authz";
import { json, noContent, parseJson, route } from "@/server/http";
import { removeAccess, setAccess } from "@/server/workspaces";

type Params = { org: string; workspace: string; team: string };

const Body = z.object({ level: z.enum(ACCESS_LEVELS) });

export const PUT = route<Params>(async (req, { org, workspace, team }) => {
  const actor = await requireActor(req);
  const wa = await requireWorkspace(actor, org, workspace, "admin");
  const { level } = await parseJson(req, Body);
  return json(await setAccess(req, actor, wa, team, level));
});

export const DELETE = route<Params>(async (req, { org, workspace, team }) => {
  const actor = await requireActor(req);
  await removeAccess(req, actor, await requireWorkspace(actor, org, workspace, "admin"), team);
  return noContent();
});
