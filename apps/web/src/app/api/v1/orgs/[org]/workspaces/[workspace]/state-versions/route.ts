// State versions of a workspace, newest first (read).
import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, parseQuery, route } from "@/server/http";
import { listVersions } from "@/server/state-view";

export const dynamic = "force-dynamic";

const Query = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const GET = route<{ org: string; workspace: string }>(async (req, { org, workspace }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const { page, pageSize } = parseQuery(req, Query);
  return json(await listVersions(wa.workspace.id, page, pageSize));
});
