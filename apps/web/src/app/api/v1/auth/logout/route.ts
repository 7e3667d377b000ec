import { auditPersonal } from "@/server/audit";
import { authenticate, clearedSessionCookies, deleteSession, readCookie, SESSION_COOKIE } from "@/server/auth";
import { noContent, route } from "@/server/http";

/** Ends the browser session (CSRF-checked like any other change) and clears its cookies. */
export const POST = route(async (req) => {
  const actor = await authenticate(req);
  const secret = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  if (actor?.kind === "user" && actor.via === "session" && secret) {
    await deleteSession(secret);
    await auditPersonal(req, actor, actor.userId, { action: "auth.logout", targetType: "user", targetId: actor.userId, targetLabel: actor.email });
  }
  const res = noContent();
  for (const c of clearedSessionCookies(req)) res.headers.append("Set-Cookie", c);
  return res;
});
