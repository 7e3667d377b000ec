import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { verifyPassword } from "@/server/auth";
import { addToOrg, call, makeOrg, makeUser, makeWorkspace, TEST_PASSWORD } from "@/server/orgs/testkit";
import * as orgs from "./route";
import * as org from "./[org]/route";
import * as members from "./[org]/members/route";
import * as member from "./[org]/members/[userId]/route";
import * as teams from "./[org]/teams/route";
import * as team from "./[org]/teams/[team]/route";
import * as teamMembers from "./[org]/teams/[team]/members/route";
import * as teamMember from "./[org]/teams/[team]/members/[userId]/route";
import * as access from "./[org]/workspaces/[workspace]/access/route";
import * as accessTeam from "./[org]/workspaces/[workspace]/access/[team]/route";
import * as auditLog from "./[org]/audit/route";
import * as loginRoute from "../auth/login/route";

let owner: Awaited<ReturnType<typeof makeUser>>;
let bob: Awaited<ReturnType<typeof makeUser>>;
let orgId: string;
const P = { org: "acme" };

beforeAll(async () => {
  owner = await makeUser("owner@example.com", "Olive Owner");
  bob = await makeUser("bob@example.com", "Bob");
  orgId = (await makeOrg("acme", owner)).id;
});

const actions = async () => (await db().auditEvent.findMany({ where: { organizationId: orgId }, orderBy: { seq: "asc" } })).map((e) => e.action);

describe("organizations", () => {
  it("creates an organization owned by its creator and lists the caller's organizations", async () => {
    const created = await call(orgs.POST, "POST", "/api/v1/orgs", {}, { ...bob.as, body: { name: "bobs-org" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "bobs-org", role: "owner" });
    expect((await call(orgs.POST, "POST", "/api/v1/orgs", {}, { ...owner.as, body: { name: "bobs-org" } })).status).toBe(409);
    expect((await call(orgs.POST, "POST", "/api/v1/orgs", {}, { ...owner.as, body: { name: "bad org" } })).status).toBe(400);
    const mine = await call(orgs.GET, "GET", "/api/v1/orgs", {}, bob.as);
    expect(mine.body.data.map((o: { name: string; role: string }) => [o.name, o.role])).toEqual([["bobs-org", "owner"]]);
    const details = await call(org.GET, "GET", "/api/v1/orgs/bobs-org", { org: "bobs-org" }, bob.as);
    expect(details.body).toMatchObject({ name: "bobs-org", role: "owner", isOwner: true, canCreateWorkspaces: true });
    // The creation time is the instant it was stored (UTC), in any server time zone.
    const tz = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    const inTokyo = await call(org.GET, "GET", "/api/v1/orgs/bobs-org", { org: "bobs-org" }, bob.as);
    process.env.TZ = tz;
    expect(inTokyo.body.createdAt).toBe(details.body.createdAt);
    expect(Math.abs(Date.parse(details.body.createdAt) - Date.now())).toBeLessThan(60_000);
    // Someone else's organization does not exist for the caller.
    expect((await call(org.GET, "GET", "/api/v1/orgs/bobs-org", { org: "bobs-org" }, owner.as)).status).toBe(404);
    const bobsOrg = await db().organization.findUniqueOrThrow({ where: { name: "bobs-org" } });
    expect(await db().auditEvent.count({ where: { organizationId: bobsOrg.id, action: "org.create" } })).toBe(1);
  });
});

describe("members", () => {
  it("adds an existing person, creates a new one (who can then sign in), changes roles and removes", async () => {
    const add = await call(members.POST, "POST", "/x", P, { ...owner.as, body: { email: "BOB@example.com", role: "member" } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ userId: bob.id, email: "bob@example.com", role: "member" });
    expect((await call(members.POST, "POST", "/x", P, { ...owner.as, body: { email: "bob@example.com" } })).status).toBe(409);

    const noPassword = await call(members.POST, "POST", "/x", P, { ...owner.as, body: { email: "carol@example.com" } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.errors[0].detail).toMatch(/name and an initial password/);
    const weak = await call(members.POST, "POST", "/x", P, { ...owner.as, body: { email: "carol@example.com", name: "Carol", password: "short" } });
    expect(weak.status).toBe(400);
    expect(await db().user.count({ where: { email: "carol@example.com" } })).toBe(0);
    const carol = await call(members.POST, "POST", "/x", P, {
      ...owner.as,
      body: { email: "carol@example.com", name: "Carol", password: "carols-first-password", role: "owner" },
    });
    expect(carol.status).toBe(201);
    const carolId: string = carol.body.userId;
    const login = await call(loginRoute.POST, "POST", "/x", {}, { body: { email: "carol@example.com", password: "carols-first-password" } });
    expect(login.status).toBe(200);

    // An existing person's password is never set by an owner.
    await call(members.POST, "POST", "/x", { org: "bobs-org" }, { ...bob.as, body: { email: "owner@example.com", name: "X", password: "owners-new-password" } });
    const ownerRow = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(await verifyPassword(TEST_PASSWORD, ownerRow.passwordHash)).toBe(true);

    const list = await call(members.GET, "GET", "/x", P, bob.as);
    expect(list.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["bob@example.com", "member"],
      ["carol@example.com", "owner"],
      ["owner@example.com", "owner"],
    ]);

    const promote = await call(member.PATCH, "PATCH", "/x", { org: "acme", userId: bob.id }, { ...owner.as, body: { role: "owner" } });
    expect(promote.body).toMatchObject({ userId: bob.id, role: "owner" });
    expect((await call(member.PATCH, "PATCH", "/x", { org: "acme", userId: bob.id }, { ...owner.as, body: { role: "king" } })).status).toBe(400);
    expect((await call(member.PATCH, "PATCH", "/x", { org: "acme", userId: "nope" }, { ...owner.as, body: { role: "member" } })).status).toBe(404);
    await call(member.PATCH, "PATCH", "/x", { org: "acme", userId: bob.id }, { ...owner.as, body: { role: "member" } });

    expect((await call(member.DELETE, "DELETE", "/x", { org: "acme", userId: carolId }, owner.as)).status).toBe(204);
    expect((await call(members.GET, "GET", "/x", P, owner.as)).body.data).toHaveLength(2);

    const events = await db().auditEvent.findMany({ where: { organizationId: orgId, action: { startsWith: "member." } }, orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.action, e.targetLabel, e.detail])).toEqual([
      ["member.add", "bob@example.com", { role: "member", newAccount: false }],
      ["member.add", "carol@example.com", { role: "owner", newAccount: true }],
      ["member.update", "bob@example.com", { from: "member", to: "owner" }],
      ["member.update", "bob@example.com", { from: "owner", to: "member" }],
      ["member.remove", "carol@example.com", expect.objectContaining({ role: "owner" })],
    ]);
  });

  it("never leaves an organization without an owner, and lets members leave", async () => {
    const solo = await makeOrg("solo", owner);
    const p = { org: "solo", userId: owner.id };
    const demote = await call(member.PATCH, "PATCH", "/x", p, { ...owner.as, body: { role: "member" } });
    expect(demote.status).toBe(409);
    expect(demote.body.errors[0].title).toBe("An organization needs at least one owner");
    expect((await call(member.DELETE, "DELETE", "/x", p, owner.as)).status).toBe(409);

    // Two owners removing each other at once: exactly one succeeds. The other is refused as the
    // last owner (409), or, when the winner's removal lands before its own authorization, as no
    // longer a member (404).
    await addToOrg(solo.id, bob.id, "owner");
    const [a, b] = await Promise.all([
      call(member.DELETE, "DELETE", "/x", { org: "solo", userId: bob.id }, owner.as),
      call(member.DELETE, "DELETE", "/x", { org: "solo", userId: owner.id }, bob.as),
    ]);
    const [won, lost] = [a.status, b.status].sort();
    expect(won).toBe(204);
    expect([404, 409]).toContain(lost);
    expect(await db().organizationMember.count({ where: { organizationId: solo.id, role: "owner" } })).toBe(1);

    // A plain member may leave, but may not remove anyone else.
    const dave = await makeUser("dave@example.com");
    const eve = await makeUser("eve@example.com");
    await addToOrg(orgId, dave.id);
    await addToOrg(orgId, eve.id);
    expect((await call(member.DELETE, "DELETE", "/x", { org: "acme", userId: eve.id }, dave.as)).status).toBe(403);
    expect((await call(member.DELETE, "DELETE", "/x", { org: "acme", userId: dave.id }, dave.as)).status).toBe(204);
    expect((await call(org.GET, "GET", "/x", P, dave.as)).status).toBe(404);
  });
});

describe("teams and workspace access", () => {
  it("creates teams, manages their members, grants workspace access, all audited", async () => {
    const created = await call(teams.POST, "POST", "/x", P, { ...owner.as, body: { name: "devs" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "devs", manageWorkspaces: false, members: [] });
    expect((await call(teams.POST, "POST", "/x", P, { ...owner.as, body: { name: "devs" } })).status).toBe(409);
    expect((await call(teams.POST, "POST", "/x", P, { ...owner.as, body: { name: "bad name!" } })).status).toBe(400);
    const tp = { org: "acme", team: "devs" };

    expect((await call(teamMembers.POST, "POST", "/x", tp, { ...owner.as, body: { email: "bob@example.com" } })).status).toBe(201);
    expect((await call(teamMembers.POST, "POST", "/x", tp, { ...owner.as, body: { email: "bob@example.com" } })).status).toBe(409);
    const stranger = await call(teamMembers.POST, "POST", "/x", tp, { ...owner.as, body: { email: "stranger@example.com" } });
    expect(stranger.status).toBe(404);
    expect(stranger.body.errors[0].title).toMatch(/not a member of organization/);

    const ws = await makeWorkspace(orgId, "app");
    const wp = { org: "acme", workspace: "app" };
    const grant = await call(accessTeam.PUT, "PUT", "/x", { ...wp, team: "devs" }, { ...owner.as, body: { level: "write" } });
    expect(grant.body).toEqual({ team: "devs", level: "write" });
    expect((await call(accessTeam.PUT, "PUT", "/x", { ...wp, team: "devs" }, { ...owner.as, body: { level: "root" } })).status).toBe(400);
    expect((await call(accessTeam.PUT, "PUT", "/x", { ...wp, team: "ghosts" }, { ...owner.as, body: { level: "read" } })).status).toBe(404);
    await call(accessTeam.PUT, "PUT", "/x", { ...wp, team: "devs" }, { ...owner.as, body: { level: "plan" } });
    expect((await call(access.GET, "GET", "/x", wp, bob.as)).body).toEqual({ data: [{ team: "devs", level: "plan" }] });

    const detail = await call(team.GET, "GET", "/x", tp, bob.as);
    expect(detail.body).toMatchObject({ name: "devs", members: [{ userId: bob.id, email: "bob@example.com" }], workspaces: [{ name: "app", level: "plan" }] });

    const renamed = await call(team.PATCH, "PATCH", "/x", tp, { ...owner.as, body: { name: "developers", manageWorkspaces: true } });
    expect(renamed.body).toMatchObject({ name: "developers", manageWorkspaces: true });
    const dp = { org: "acme", team: "developers" };
    expect((await call(teamMember.DELETE, "DELETE", "/x", { ...dp, userId: bob.id }, owner.as)).status).toBe(204);
    expect((await call(teamMember.DELETE, "DELETE", "/x", { ...dp, userId: bob.id }, owner.as)).status).toBe(404);
    expect((await call(accessTeam.DELETE, "DELETE", "/x", { ...wp, team: "developers" }, owner.as)).status).toBe(204);
    expect((await call(accessTeam.DELETE, "DELETE", "/x", { ...wp, team: "developers" }, owner.as)).status).toBe(404);
    expect((await call(team.DELETE, "DELETE", "/x", dp, owner.as)).status).toBe(204);
    expect((await call(team.GET, "GET", "/x", dp, owner.as)).status).toBe(404);

    const events = await db().auditEvent.findMany({
      where: { organizationId: orgId, action: { in: ["team.create", "team.update", "team.delete", "team.member_add", "team.member_remove", "workspace.access_set", "workspace.access_remove"] } },
      orderBy: { seq: "asc" },
    });
    expect(events.map((e) => [e.action, e.detail])).toEqual([
      ["team.create", { manageWorkspaces: false }],
      ["team.member_add", { userId: bob.id, email: "bob@example.com" }],
      ["workspace.access_set", { team: "devs", from: null, to: "write" }],
      ["workspace.access_set", { team: "devs", from: "write", to: "plan" }],
      ["team.update", { from: { name: "devs", manageWorkspaces: false }, to: { name: "developers", manageWorkspaces: true } }],
      ["team.member_remove", { userId: bob.id, email: "bob@example.com" }],
      ["workspace.access_remove", { team: "developers", from: "plan" }],
      ["team.delete", { members: 0, workspaceGrants: 0, liveTokens: 0 }],
    ]);
    expect(events.find((e) => e.action === "workspace.access_set")).toMatchObject({ targetId: ws.id, targetLabel: "app" });
  });
});

describe("audit log", () => {
  it("is paged newest first, filterable, and shows actor, time, target and source address", async () => {
    const page1 = await call(auditLog.GET, "GET", "/x", P, { ...owner.as, query: { pageSize: "3" } });
    expect(page1.status).toBe(200);
    const total = await db().auditEvent.count({ where: { organizationId: orgId } });
    expect(page1.body.pagination).toEqual({ page: 1, pageSize: 3, total });
    const all = await call(auditLog.GET, "GET", "/x", P, { ...owner.as, query: { pageSize: "200" } });
    expect(all.body.data.map((e: { action: string }) => e.action)).toEqual((await actions()).reverse());
    expect(all.body.data.slice(0, 3)).toEqual(page1.body.data);
    const times = all.body.data.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page1.body.data[0]).toEqual({
      id: expect.any(String),
      action: "team.delete",
      actorLabel: "owner@example.com",
      targetType: "team",
      targetId: expect.any(String),
      targetLabel: "developers",
      ip: "192.0.2.10",
      detail: expect.any(Object),
      createdAt: expect.any(String),
    });

    const family = await call(auditLog.GET, "GET", "/x", P, { ...owner.as, query: { action: "member.", pageSize: "200" } });
    expect(family.body.data.length).toBeGreaterThan(0);
    expect(family.body.data.every((e: { action: string }) => e.action.startsWith("member."))).toBe(true);
    const exact = await call(auditLog.GET, "GET", "/x", P, { ...owner.as, query: { action: "member.add" } });
    expect(exact.body.data.every((e: { action: string }) => e.action === "member.add")).toBe(true);

    expect((await call(auditLog.GET, "GET", "/x", P, bob.as)).status).toBe(403);
    expect((await call(auditLog.GET, "GET", "/x", { org: "nope" }, owner.as)).status).toBe(404);
    expect((await call(auditLog.GET, "GET", "/x", P, { ...owner.as, query: { pageSize: "0" } })).status).toBe(400);
  });
});
