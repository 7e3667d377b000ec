// Differences between two state versions of a workspace (read).
import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, parseQuery, route } from "@/server/http";
import { diffPage, findVersion, loadDiff, parseSerial, toDtos } from "@/server/state-view";

export const dynamic = "force-dynamic";

const Query = z.object({
  from: z.string({ error: "from is required" }),
  to: z.string({ error: "to is required" }),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  q: z.string().max(500).optional(),
});

export const GET = route<{ org: string; workspace: string }>(async (req, { org, workspace }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const query = parseQuery(req, Query);
  const [fromRow, toRow] = await Promise.all([
    findVersion(wa.workspace.id, parseSerial(query.from, "from serial")),
    findVersion(wa.workspace.id, parseSerial(query.to, "to serial")),
  ]);
  const [[from, to], diff] = await Promise.all([toDtos(wa.workspace.id, [fromRow, toRow]), loadDiff(fromRow, toRow)]);
  const page = diffPage(diff, query);
  return json({ from, to, summary: diff.summary, outputs: diff.outputs, total: page.total, data: page.data });
});
