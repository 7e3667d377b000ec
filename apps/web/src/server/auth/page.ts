// For server components (pages and layouts): who is signed in, read from the session cookie.
// Pages that need a person redirect to /setup while Terrace has no users, else to /login.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { needsSetup } from "../setup/first-admin";
import { findSession, SESSION_COOKIE } from "./sessions";
import { listOrgs } from "../orgs";

export type PageUser = { id: string; email: string; name: string };

/** The signed-in user, or null (no cookie, unknown or expired session). */
export async function sessionUser(): Promise<PageUser | null> {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!secret) return null;
  const s = await findSession(secret);
  return s ? { id: s.user.id, email: s.user.email, name: s.user.name } : null;
}

/** The signed-in user; otherwise redirects to /setup (no users yet) or /login (with a return path). */
export async function requirePageUser(returnTo?: string): Promise<PageUser> {
  const user = await sessionUser();
  if (user) return user;
  if (await needsSetup()) redirect("/setup");
  redirect(returnTo ? `/login?next=${encodeURIComponent(returnTo)}` : "/login");
}

/** The organizations the user belongs to, sorted by name (for the switcher and `/`). */
export async function pageOrgs(user: PageUser) {
  const orgs = await listOrgs({ kind: "user", userId: user.id, email: user.email, name: user.name, via: "session", tokenId: null });
  return orgs.map((o) => ({ name: o.name, role: o.role }));
}

export { needsSetup };
