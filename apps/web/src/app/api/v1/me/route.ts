import { authenticate } from "@/server/auth";
import { db } from "@/server/db";
import { ApiError, json, route } from "@/server/http";
import { listOrgs } from "@/server/orgs";
import { userView } from "@/server/setup";

/** Who the caller is. Anonymous gets a plain 401 (no WWW-Authenticate: the UI asks this on every load). */
export const GET = route(async (req) => {
  const actor = await authenticate(req);
  if (!actor) throw new ApiError(401, "Authentication required");
  if (actor.kind === "team") {
    const org = await db().organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
    return json({ team: { id: actor.teamId, name: actor.teamName, organization: org.name } });
  }
  const organizations = (await listOrgs(actor)).map(({ name, role }) => ({ name, role }));
  return json({ user: userView({ id: actor.userId, email: actor.email, name: actor.name }), organizations });
});
