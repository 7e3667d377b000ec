// Lock status (read) and force-unlock (write, audited) of a workspace's state.
import { route } from "@/server/http";
import { deleteLock, getLockStatus } from "@/server/state";

export const dynamic = "force-dynamic";

type Params = { org: string; workspace: string };

export const GET = route<Params>(getLockStatus);
export const DELETE = route<Params>(deleteLock);
