import { timingSafeEqual } from "node:crypto";
import { forbidden, unauthorized } from "../http/errors";
import { findToken } from "./tokens";
import { CSRF_HEADER, SESSION_COOKIE, findSession, readCookie } from "./sessions";

/** Who is making a request: a person (by session or user token) or a team (by team token). */
export type Actor =
  | { kind: "user"; userId: string; email: string; name: string; via: "session" | "token"; tokenId: string | null }
  | { kind: "team"; teamId: string; teamName: string; organizationId: string; tokenId: string };

export function actorLabel(a: Actor): string {
  return a.kind === "user" ? a.email : `team ${a.teamName}`;
}

export function actorRefs(a: Actor): { actorUserId: string | null; actorTokenId: string | null; actorLabel: string } {
  return {
    actorUserId: a.kind === "user" ? a.userId : null,
    actorTokenId: a.tokenId,
    actorLabel: actorLabel(a),
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The secret in an `Authorization` header: a Bearer token, or the password of Basic auth. */
function presentedToken(req: Request): string | null {
  const h = req.headers.get("authorization");
  if (!h) return null;
  const [scheme, rest] = [h.slice(0, h.indexOf(" ")).toLowerCase(), h.slice(h.indexOf(" ") + 1).trim()];
  if (scheme === "bearer") return rest || null;
  if (scheme === "basic") {
    const decoded = Buffer.from(rest, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon >= 0 ? decoded.slice(colon + 1) || null : null;
  }
  return null;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Authenticates a request. A presented token that is unknown, revoked or expired is a 401 (never
 * a silent fall-back to anonymous). Cookie sessions must carry the CSRF token on unsafe methods.
 */
export async function authenticate(req: Request): Promise<Actor | null> {
  const secret = presentedToken(req);
  if (secret !== null) {
    const t = await findToken(secret);
    if (!t) throw unauthorized("Invalid or revoked API token");
    if (t.user) return { kind: "user", userId: t.user.id, email: t.user.email, name: t.user.name, via: "token", tokenId: t.id };
    if (t.team) return { kind: "team", teamId: t.team.id, teamName: t.team.name, organizationId: t.team.organizationId, tokenId: t.id };
    throw unauthorized("Invalid or revoked API token");
  }
  const cookieSecret = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  if (!cookieSecret) return null;
  const s = await findSession(cookieSecret);
  if (!s) return null;
  if (!SAFE_METHODS.has(req.method)) {
    const sent = req.headers.get(CSRF_HEADER);
    if (!sent || !sameString(sent, s.csrfToken)) throw forbidden("Missing or invalid CSRF token");
    const origin = req.headers.get("origin");
    const host = req.headers.get("host");
    if (origin && host && new URL(origin).host !== host) throw forbidden("Cross-origin request refused");
  }
  return { kind: "user", userId: s.user.id, email: s.user.email, name: s.user.name, via: "session", tokenId: null };
}

export async function requireActor(req: Request): Promise<Actor> {
  const a = await authenticate(req);
  if (!a) throw unauthorized();
  return a;
}

export async function requireUser(req: Request): Promise<Extract<Actor, { kind: "user" }>> {
  const a = await requireActor(req);
  if (a.kind !== "user") throw forbidden("This action needs a user, not a team token");
  return a;
}
