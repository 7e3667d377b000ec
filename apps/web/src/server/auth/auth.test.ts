import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { hashPassword, verifyPassword } from "./password";
import { createToken, findToken } from "./tokens";
import { authenticate } from "./actor";
import { createSession, SESSION_COOKIE, CSRF_HEADER } from "./sessions";

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

describe("sessions", () => {
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
