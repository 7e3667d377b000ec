// Download a state version exactly as it was written (read). A browser that accepts gzip gets the
// stored compressed bytes as they are and saves the file they decode to.
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { route } from "@/server/http";
import { stateResponse } from "@/server/state/stored";
import { findVersion, parseSerial, storedContent } from "@/server/state-view";

export const dynamic = "force-dynamic";

export const GET = route<{ org: string; workspace: string; serial: string }>(async (req, { org, workspace, serial }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const row = await findVersion(wa.workspace.id, parseSerial(serial));
  const { body, headers } = stateResponse(req, await storedContent(row));
  return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
    status: 200,
    headers: {
      "Content-Type": "application/json",
      // Workspace names are letters, digits, "-" and "_" (checkName), safe inside the quotes.
      "Content-Disposition": `attachment; filename="${wa.workspace.name}-${row.serial}.tfstate"`,
      ...headers,
    },
  });
});
