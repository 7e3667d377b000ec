// One state version: metadata, outputs (sensitive ones masked) and resources per module (read);
// only the metadata for one the client encrypted.
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { json, route } from "@/server/http";
import { findVersion, loadIndex, parseSerial, toDto, versionOverview } from "@/server/state-view";

export const dynamic = "force-dynamic";

export const GET = route<{ org: string; workspace: string; serial: string }>(async (req, { org, workspace, serial }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const row = await findVersion(wa.workspace.id, parseSerial(serial));
  // A client-encrypted version has no outputs or modules Terrace can read (data.encrypted says so).
  if (row.encrypted) return json({ data: await toDto(row), outputs: [], modules: [] });
  const [data, index] = await Promise.all([toDto(row), loadIndex(row)]);
  return json({ data, ...versionOverview(index) });
});
