import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { CSRF_COOKIE, SESSION_COOKIE } from "@/server/auth";
import { call, makeOrg, makeTeam, makeUser, sessionFor, teamToken, TEST_PASSWORD } from "@/server/orgs/testkit";
import * as loginRoute from "./login/route";
import * as logoutRoute from "./logout/route";
import * as me from "../me/route";
import * as orgs from "../orgs/route";

let alice: Awaited<ReturnType<typeof makeUser>>;
let orgId: string;

beforeAll(async () => {
  alice = await makeUser("alice@example.com", "Alice");
  orgId = (await makeOrg("acme", alice)).id;
});

const login = (email: string, password: string, ip = "192.0.2.10") =>
  call(loginRoute.POST, "POST", "/api/v1/auth/login", {}, { body: { email, password }, ip });

describe("sign in", () => {
  it("signs in with the right password, case-insensitively by email, and audits it", async () => {
    const res = await login("ALICE@example.com", TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { id: alice.id, email: "alice@example.com", name: "Alice" } });
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`) && c.includes("HttpOnly") && c.includes("SameSite=Lax"))).toBe(true);
    expect(cookies.some((c) => c.startsWith(`${CSRF_COOKIE}=`))).toBe(true);
    const event = await db().auditEvent.findFirstOrThrow({ where: { organizationId: orgId, action: "auth.login" } });
    expect(event).toMatchObject({ actorUserId: alice.id, actorLabel: "alice@example.com", ip: "192.0.2.10", targetType: "user" });
  });

  it("gives the same answer, in similar time, for an unknown email and a wrong password", async () => {
    await login("nobody@example.com", "whatever-password", "192.0.2.50"); // warm the dummy hash
    const t0 = performance.now();
    const unknown = await login("nobody@example.com", "whatever-password", "192.0.2.50");
    const t1 = performance.now();
    const wrong = await login("alice@example.com", "wrong-password!", "192.0.2.50");
    const t2 = performance.now();
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.errors[0].title).toBe("Invalid email or password");
    expect(unknown.headers.get("set-cookie")).toBeNull();
    // Both run one scrypt verification; without the dummy hash the unknown email would answer in ~1 ms.
    expect(t1 - t0).toBeGreaterThan((t2 - t1) / 4);
    const failed = await db().auditEvent.findMany({ where: { action: "auth.login_failed", organizationId: null } });
    expect(failed.map((e) => e.targetLabel)).toEqual(expect.arrayContaining(["nobody@example.com", "alice@example.com"]));
    expect(failed.every((e) => e.ip === "192.0.2.50")).toBe(true);
  });

  it("refuses sign-in posted from another site (login CSRF)", async () => {
    const from = (headers: Record<string, string>) =>
      call(loginRoute.POST, "POST", "/api/v1/auth/login", {}, { body: { email: "alice@example.com", password: TEST_PASSWORD }, headers: { host: "terrace.test", ...headers } });
    expect((await from({ origin: "https://evil.example" })).status).toBe(403);
    expect((await from({ origin: "null" })).status).toBe(403);
    expect((await from({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await from({ origin: "http://terrace.test", "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("refuses bad bodies with 400", async () => {
    expect((await call(loginRoute.POST, "POST", "/x", {}, { rawBody: "{nope" })).status).toBe(400);
    expect((await call(loginRoute.POST, "POST", "/x", {}, { body: { email: "alice@example.com" } })).status).toBe(400);
  });

  it("slows down password guessing: 10 failures per email and address, then 429 with Retry-After", async () => {
    const bob = await makeUser("bob@example.com");
    for (let i = 0; i < 10; i++) expect((await login(bob.email, `wrong-${i}-password`, "198.51.100.7")).status).toBe(401);
    const blocked = await login(bob.email, TEST_PASSWORD, "198.51.100.7");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    // Another address is not blocked for this account.
    expect((await login(bob.email, TEST_PASSWORD, "198.51.100.8")).status).toBe(200);
  });
});

describe("sessions", () => {
  it("needs the CSRF header for changes made with a cookie session", async () => {
    const s = await sessionFor(alice.id);
    const noCsrf = await call(orgs.POST, "POST", "/api/v1/orgs", {}, { cookie: s.cookie, body: { name: "new-org" } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.errors[0].title).toMatch(/CSRF/);
    const withCsrf = await call(orgs.POST, "POST", "/api/v1/orgs", {}, { ...s, body: { name: "new-org" } });
    expect(withCsrf.status).toBe(201);
    // Reads need no CSRF header.
    expect((await call(orgs.GET, "GET", "/api/v1/orgs", {}, { cookie: s.cookie })).status).toBe(200);
  });

  it("replaces the session the browser had when signing in again", async () => {
    const before = await sessionFor(alice.id);
    const res = await call(loginRoute.POST, "POST", "/api/v1/auth/login", {}, { cookie: before.cookie, body: { email: "alice@example.com", password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { cookie: before.cookie })).status).toBe(401);
  });

  it("signs out: deletes the session and clears the cookies", async () => {
    const s = await sessionFor(alice.id);
    expect((await call(logoutRoute.POST, "POST", "/api/v1/auth/logout", {}, { cookie: s.cookie })).status).toBe(403);
    const out = await call(logoutRoute.POST, "POST", "/api/v1/auth/logout", {}, s);
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().every((c) => c.includes("Max-Age=0"))).toBe(true);
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { cookie: s.cookie })).status).toBe(401);
    expect(await db().auditEvent.count({ where: { action: "auth.logout", actorUserId: alice.id } })).toBeGreaterThan(0);
  });
});

describe("me", () => {
  it("describes a person, a team token, and refuses anonymous callers", async () => {
    expect((await call(me.GET, "GET", "/api/v1/me", {})).status).toBe(401);
    const u = await call(me.GET, "GET", "/api/v1/me", {}, alice.as);
    expect(u.body.user).toEqual({ id: alice.id, email: "alice@example.com", name: "Alice" });
    expect(u.body.organizations).toContainEqual({ name: "acme", role: "owner" });
    const team = await makeTeam(orgId, "ci", []);
    const t = await call(me.GET, "GET", "/api/v1/me", {}, await teamToken(team.id));
    expect(t.body).toEqual({ team: { id: team.id, name: "ci", organization: "acme" } });
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { token: "trc_not-a-token" })).status).toBe(401);
  });
});
