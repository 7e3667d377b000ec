import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { SESSION_COOKIE, CSRF_COOKIE } from "@/server/auth";
import { call } from "@/server/orgs/testkit";
import * as setup from "./route";
import * as me from "../me/route";

const admin = { email: "Admin@Example.com", name: "Ada Admin", password: "a-very-long-password", organization: "acme" };

function cookiesOf(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string]));
}

describe("first-start setup", () => {
  it("creates the first admin and organization, signs them in, and only once", async () => {
    expect((await call(setup.GET, "GET", "/api/v1/setup", {})).body).toEqual({ needed: true });

    const bad = await call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, organization: "not a name" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].title).toMatch(/Invalid organization name/);
    const short = await call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, password: "short" } });
    expect(short.status).toBe(400);
    const noEmail = await call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, email: "nope" } });
    expect(noEmail.status).toBe(400);
    expect(await db().user.count()).toBe(0);

    const res = await call(setup.POST, "POST", "/api/v1/setup", {}, { body: admin });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: { email: "admin@example.com", name: "Ada Admin" }, organization: { name: "acme" } });
    const setCookies = res.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(/HttpOnly/);
    expect(setCookies.find((c) => c.startsWith(`${CSRF_COOKIE}=`))).not.toMatch(/HttpOnly/);

    const cookies = cookiesOf(res.headers);
    const who = await call(me.GET, "GET", "/api/v1/me", {}, { cookie: `${SESSION_COOKIE}=${cookies[SESSION_COOKIE]}` });
    expect(who.body).toEqual({ user: res.body.user, organizations: [{ name: "acme", role: "owner" }] });

    expect((await call(setup.GET, "GET", "/api/v1/setup", {})).body).toEqual({ needed: false });
    const again = await call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, email: "other@example.com", organization: "other" } });
    expect(again.status).toBe(409);
    expect(await db().user.count()).toBe(1);

    const org = await db().organization.findUniqueOrThrow({ where: { name: "acme" } });
    const events = await db().auditEvent.findMany({ where: { organizationId: org.id }, orderBy: { seq: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["org.create", "auth.login"]);
    expect(events[1]).toMatchObject({ actorLabel: "admin@example.com", ip: "192.0.2.10" });
  });

  it("lets only one of two simultaneous setups win", async () => {
    await db().user.deleteMany();
    await db().organization.deleteMany();
    const [a, b] = await Promise.all([
      call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, email: "a@example.com", organization: "org-a" } }),
      call(setup.POST, "POST", "/api/v1/setup", {}, { body: { ...admin, email: "b@example.com", organization: "org-b" } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(await db().user.count()).toBe(1);
    expect(await db().organization.count()).toBe(1);
  });
});
