// Download a state version exactly as it was written (read).
import { requireActor } from "@/server/auth";
import { requireWorkspace } from "@/server/authz";
import { route } from "@/server/http";
import { findVersion, parseSerial, rawContent } from "@/server/state-view";

export const dynamic = "force-dynamic";

export const GET = route<{ org: string; workspace: string; serial: string }>(async (req, { org, workspace, serial }) => {
  const wa = await requireWorkspace(await requireActor(req), org, workspace, "read");
  const row = await findVersion(wa.workspace.id, parseSerial(serial));
  const content = await rawContent(row);
  return new Response(new Uint8Array(content.buffer as ArrayBuffer, content.byteOffset, content.byteLength), {
    status: 200,
    headers: {
      "Content-Type": "application/json",
      "Content-Length": String(content.byteLength),
      // Workspace names are letters, digits, "-" and "_" (checkName), safe inside the quotes.
      "Content-Disposition": `attachment; filename="${wa.workspace.name}-${row.serial}.tfstate"`,
      "Cache-Control": "no-store",
    },
  });
});
