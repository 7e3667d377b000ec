import { randomBytes } from "node:crypto";
import type { User } from "@prisma/client";
import { hashPassword, verifyPassword, createSession, deleteSession, readCookie, SESSION_COOKIE } from "../auth";
import { audit, auditPersonal } from "../audit";
import { db } from "../db";
import { ApiError, clientIp } from "../http";
import { LoginLimiter } from "./login-limiter";

const limiter = new LoginLimiter();

// Unknown addresses are checked against this hash so that they take as long as a wrong password
// and the answer does not tell which addresses have accounts.
let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(18).toString("base64")));

// No WWW-Authenticate here: a browser would answer it with its own password dialog.
const invalid = () => new ApiError(401, "Invalid email or password");

/** Checks an email and password and opens a session; every attempt is audited. */
export async function login(req: Request, email: string, password: string): Promise<{ user: User; secret: string; csrfToken: string }> {
  const ip = clientIp(req);
  const key = `${email}\n${ip ?? ""}`;
  const wait = limiter.retryAfter(key);
  if (wait > 0) {
    throw new ApiError(429, "Too many failed sign-in attempts", `Try again in ${Math.ceil(wait / 60)} minute(s).`, { "Retry-After": String(wait) });
  }
  const user = await db().user.findUnique({ where: { email } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !ok) {
    limiter.fail(key);
    await audit(req, { label: email }, { organizationId: null, action: "auth.login_failed", targetType: "user", targetId: user?.id ?? null, targetLabel: email, detail: { email } });
    throw invalid();
  }
  limiter.succeed(key);
  // A new session each sign-in; whatever session the browser presented before ends here.
  const previous = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  if (previous) await deleteSession(previous);
  const session = await createSession(user.id, ip, req.headers.get("user-agent"));
  await auditPersonal(req, { label: user.email, userId: user.id }, user.id, { action: "auth.login", targetType: "user", targetId: user.id, targetLabel: user.email });
  return { user, secret: session.secret, csrfToken: session.csrfToken };
}
