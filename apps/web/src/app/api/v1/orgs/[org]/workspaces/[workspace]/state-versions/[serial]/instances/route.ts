// A page of a version's resource instances, sorted by module, resource and key (read).
import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, parseQuery, route } from "@/server/http";
import { findVersion, instancePage, loadIndex, parseSerial } from "@/server/state-view";

export const dynamic = "force-dynamic";

const Query = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  q: z.string().max(500).optional(),
  // "" is the root module; absent means every module.
  module: z.string().max(2000).optional(),
});

export const GET = route<{ org: string; workspace: string; serial: string }>(async (req, { org, workspace, serial }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const query = parseQuery(req, Query);
  const row = await findVersion(wa.workspace.id, parseSerial(serial));
  return json(instancePage(await loadIndex(row), query));
});
