// One resource instance of a version, attributes with sensitive values masked (read).
import { z } from "zod";
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, notFound, parseQuery, route } from "@/server/http";
import { findVersion, instanceDetail, loadIndex, parseSerial } from "@/server/state-view";

export const dynamic = "force-dynamic";

const Query = z.object({ address: z.string().min(1, "address is required").max(4000) });

export const GET = route<{ org: string; workspace: string; serial: string }>(async (req, { org, workspace, serial }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const { address } = parseQuery(req, Query);
  const row = await findVersion(wa.workspace.id, parseSerial(serial));
  const detail = instanceDetail(await loadIndex(row), address);
  if (!detail) throw notFound(`No resource instance ${address} in state version ${row.serial}`);
  return json(detail);
});
