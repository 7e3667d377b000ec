import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { hashPassword, verifyPassword } from "./password";
import { createToken, findToken } from "./tokens";
import { authenticate } from "./actor";
import { createSession, findSession, SESSION_COOKIE, CSRF_HEADER } from "./sessions";
import { hashSecret } from "./secrets";

async function user(email: string) {
  return db().user.create({ data: { email, name: email, passwordHash: await hashPassword("a-long-password") } });
}

describe("passwords", () => {
  it("verifies the right password and rejects others", async () => {
    const h = await hashPassword("correct horse battery");
    expect(h).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword("correct horse battery", h)).toBe(true);
    expect(await verifyPassword("correct horse batterz", h)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});

describe("API tokens", () => {
  it("stores only a hash, authenticates by Bearer and Basic, and stops after revocation", async () => {
    const u = await user("tok@example.com");
    const { token, row } = await createToken({ userId: u.id }, "ci", u.id);
    expect(row.tokenHash).not.toContain(token);
    const bearer = await authenticate(new Request("http://x/", { headers: { authorization: `Bearer ${token}` } }));
    expect(bearer).toMatchObject({ kind: "user", userId: u.id, via: "token" });
    const basic = await authenticate(
      new Request("http://x/", { headers: { authorization: `Basic ${Buffer.from(`anything:${token}`).toString("base64")}` } }),
    );
    expect(basic).toMatchObject({ kind: "user", userId: u.id });
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull();
    await db().apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    expect(await findToken(token)).toBeNull();
    await expect(authenticate(new Request("http://x/", { headers: { authorization: `Bearer ${token}` } }))).rejects.toMatchObject({ status: 401 });
  });
});

describe("API token lookup", () => {
  it("refuses an expired token and accepts one that expires later, whatever the server's time zone", async () => {
    const u = await user("expiry@example.com");
    const past = await createToken({ userId: u.id }, "old", u.id);
    const future = await createToken({ userId: u.id }, "new", u.id);
    await db().apiToken.update({ where: { id: past.row.id }, data: { expiresAt: new Date(Date.now() - 60 * 60_000) } });
    await db().apiToken.update({ where: { id: future.row.id }, data: { expiresAt: new Date(Date.now() + 60 * 60_000) } });
    const tz = process.env.TZ;
    try {
      // Prisma keeps UTC in columns without a zone; reading them as local time would shift them by hours.
      for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
        process.env.TZ = zone;
        expect(await findToken(past.token)).toBeNull();
        expect(await findToken(future.token)).toMatchObject({ id: future.row.id, user: { id: u.id, email: "expiry@example.com" }, team: null });
      }
    } finally {
      process.env.TZ = tz;
    }
  });

  it("finds a team token's team, and touches last-used at most once a minute", async () => {
    const org = await db().organization.create({ data: { name: "tokteam" } });
    const team = await db().team.create({ data: { organizationId: org.id, name: "ci" } });
    const { token, row } = await createToken({ teamId: team.id }, "team", null);
    expect(await findToken(token)).toEqual({ id: row.id, user: null, team: { id: team.id, name: "ci", organizationId: org.id } });
    const first = (await db().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt!;
    expect(Math.abs(first.getTime() - Date.now())).toBeLessThan(60_000);
    await findToken(token);
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).toEqual(first);
    const stale = new Date(Date.now() - 5 * 60_000);
    await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: stale } });
    await findToken(token);
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt!.getTime()).toBeGreaterThan(stale.getTime() + 60_000);
  });
});

describe("sessions", () => {
  it("finds a live session and its user, and not an expired one, whatever the server's time zone", async () => {
    const u = await user("sessexp@example.com");
    const live = await createSession(u.id, null, null);
    const old = await createSession(u.id, null, null);
    await db().session.updateMany({ where: { tokenHash: hashSecret(old.secret) }, data: { expiresAt: new Date(Date.now() - 60 * 60_000) } });
    const tz = process.env.TZ;
    try {
      for (const zone of ["UTC", "America/Los_Angeles"]) {
        process.env.TZ = zone;
        expect(await findSession(live.secret)).toEqual({ csrfToken: live.csrfToken, user: { id: u.id, email: "sessexp@example.com", name: "sessexp@example.com" } });
        expect(await findSession(old.secret)).toBeNull();
      }
    } finally {
      process.env.TZ = tz;
    }
  });

  it("needs the CSRF token on unsafe methods", async () => {
    const u = await user("sess@example.com");
    const s = await createSession(u.id, null, null);
    const cookie = `${SESSION_COOKIE}=${s.secret}`;
    expect(await authenticate(new Request("http://x/", { headers: { cookie } }))).toMatchObject({ userId: u.id, via: "session" });
    await expect(authenticate(new Request("http://x/", { method: "POST", headers: { cookie } }))).rejects.toMatchObject({ status: 403 });
    await expect(
      authenticate(new Request("http://x/", { method: "POST", headers: { cookie, [CSRF_HEADER]: "wrong" } })),
    ).rejects.toMatchObject({ status: 403 });
    expect(
      await authenticate(new Request("http://x/", { method: "POST", headers: { cookie, [CSRF_HEADER]: s.csrfToken } })),
    ).toMatchObject({ userId: u.id });
  });
});
