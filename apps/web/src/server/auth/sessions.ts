import { randomBytes } from "node:crypto";
import { db } from "../db";
import { sqlPool } from "../sql";
import { hashSecret, newSecret } from "./secrets";

export const SESSION_COOKIE = "terrace_session";
export const CSRF_COOKIE = "terrace_csrf";
export const CSRF_HEADER = "x-csrf-token";
const SESSION_DAYS = 14;

export async function createSession(userId: string, ip: string | null, userAgent: string | null) {
  const secret = newSecret("");
  const csrfToken = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86400_000);
  await db().session.create({
    data: { tokenHash: hashSecret(secret), csrfToken, userId, ip, userAgent: userAgent?.slice(0, 300) ?? null, expiresAt },
  });
  return { secret, csrfToken, expiresAt };
}

/** A live session and its user. */
export type FoundSession = { csrfToken: string; user: { id: string; email: string; name: string } };

/**
 * The unexpired session for a cookie secret. Every page and every request from the UI starts
 * here, so it is one query through node-postgres (../sql.ts); expiry is compared in the
 * database, in UTC, as Prisma stores it.
 */
export async function findSession(secret: string): Promise<FoundSession | null> {
  const { rows } = await sqlPool().query<{ csrfToken: string; userId: string; email: string; name: string }>(
    `SELECT s."csrfToken", u."id" AS "userId", u."email", u."name"
       FROM "Session" s JOIN "User" u ON u."id" = s."userId"
      WHERE s."tokenHash" = $1 AND s."expiresAt" >= now() AT TIME ZONE 'UTC'`,
    [hashSecret(secret)],
  );
  const row = rows[0];
  return row ? { csrfToken: row.csrfToken, user: { id: row.userId, email: row.email, name: row.name } } : null;
}

export async function deleteSession(secret: string) {
  await db().session.deleteMany({ where: { tokenHash: hashSecret(secret) } });
}

function cookie(name: string, value: string, opts: { httpOnly: boolean; maxAge: number; secure: boolean }): string {
  return [
    `${name}=${value}`,
    "Path=/",
    `Max-Age=${opts.maxAge}`,
    "SameSite=Lax",
    opts.httpOnly ? "HttpOnly" : "",
    opts.secure ? "Secure" : "",
  ]
    .filter(Boolean)
    .join("; ");
}

function isSecure(req: Request): boolean {
  return new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
}

/** Set-Cookie values for a new session: the secret (httpOnly) and the CSRF token (readable by our JS). */
export function sessionCookies(req: Request, secret: string, csrfToken: string): string[] {
  const maxAge = SESSION_DAYS * 86400;
  const secure = isSecure(req);
  return [
    cookie(SESSION_COOKIE, secret, { httpOnly: true, maxAge, secure }),
    cookie(CSRF_COOKIE, csrfToken, { httpOnly: false, maxAge, secure }),
  ];
}

export function clearedSessionCookies(req: Request): string[] {
  const secure = isSecure(req);
  return [
    cookie(SESSION_COOKIE, "", { httpOnly: true, maxAge: 0, secure }),
    cookie(CSRF_COOKIE, "", { httpOnly: false, maxAge: 0, secure }),
  ];
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}
