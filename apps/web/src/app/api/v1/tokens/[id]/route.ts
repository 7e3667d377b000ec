import { requireUser } from "@/server/auth";
import { noContent, route } from "@/server/http";
import { revokeUserToken } from "@/server/tokens";

export const DELETE = route<{ id: string }>(async (req, { id }) => {
  const user = await requireUser(req);
  await revokeUserToken(req, user, id);
  return noContent();
});
