// Roll back: a new state version with an old version's content (write, audited).
import { route } from "@/server/http";
import { rollback } from "@/server/state";

export const dynamic = "force-dynamic";

export const POST = route<{ org: string; workspace: string; serial: string }>(rollback);
