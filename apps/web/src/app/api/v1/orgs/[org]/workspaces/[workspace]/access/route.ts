import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, route } from "@/server/http";
import { listAccess } from "@/server/workspaces";

export const GET = route<{ org: string; workspace: string }>(async (req, { org, workspace }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  return json({ data: await listAccess(wa) });
});
