import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { addToOrg, call, makeOrg, makeTeam, makeUser, teamToken } from "@/server/orgs/testkit";
import * as userTokens from "./route";
import * as userToken from "./[id]/route";
import * as teamTokens from "../orgs/[org]/teams/[team]/tokens/route";
import * as teamTokenRoute from "../orgs/[org]/teams/[team]/tokens/[id]/route";
import * as me from "../me/route";

let owner: Awaited<ReturnType<typeof makeUser>>;
let member: Awaited<ReturnType<typeof makeUser>>;
let orgId: string;

beforeAll(async () => {
  owner = await makeUser("owner@example.com");
  member = await makeUser("member@example.com");
  orgId = (await makeOrg("acme", owner)).id;
  await addToOrg(orgId, member.id);
});

describe("user tokens", () => {
  it("creates a token shown once, lists it with last use, and revokes it for good", async () => {
    const created = await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...member.as, body: { description: "laptop" } });
    expect(created.status).toBe(201);
    const secret: string = created.body.token;
    expect(secret).toMatch(/^trc_/);
    expect(created.body.data).toMatchObject({ description: "laptop", prefix: secret.slice(0, 8), revokedAt: null, lastUsedAt: null, owner: { type: "user", id: member.id } });
    const id: string = created.body.data.id;

    // The secret works, and using it stamps lastUsedAt.
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { token: secret })).body.user.id).toBe(member.id);
    const listed = await call(userTokens.GET, "GET", "/api/v1/tokens", {}, member.as);
    const row = listed.body.data.find((t: { id: string }) => t.id === id);
    expect(row.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // Only one's own tokens are listed.
    const ownerList = await call(userTokens.GET, "GET", "/api/v1/tokens", {}, owner.as);
    expect(ownerList.body.data.map((t: { id: string }) => t.id)).not.toContain(id);

    // Nobody else can revoke it.
    expect((await call(userToken.DELETE, "DELETE", `/api/v1/tokens/${id}`, { id }, owner.as)).status).toBe(404);
    expect((await call(userToken.DELETE, "DELETE", "/api/v1/tokens/nope", { id: "nope" }, member.as)).status).toBe(404);

    expect((await call(userToken.DELETE, "DELETE", `/api/v1/tokens/${id}`, { id }, member.as)).status).toBe(204);
    const afterRevoke = await call(me.GET, "GET", "/api/v1/me", {}, { token: secret });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.errors[0].title).toMatch(/revoked/);
    // Still listed, as revoked; revoking again changes nothing.
    const again = await call(userTokens.GET, "GET", "/api/v1/tokens", {}, member.as);
    const revokedAt = again.body.data.find((t: { id: string }) => t.id === id).revokedAt;
    expect(revokedAt).not.toBeNull();
    expect((await call(userToken.DELETE, "DELETE", `/api/v1/tokens/${id}`, { id }, member.as)).status).toBe(204);
    expect((await db().apiToken.findUniqueOrThrow({ where: { id } })).revokedAt?.toISOString()).toBe(revokedAt);

    // Audited in the member's organization, without the secret.
    const events = await db().auditEvent.findMany({ where: { organizationId: orgId, targetId: id }, orderBy: { seq: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["token.create", "token.revoke"]);
    expect(events[0]).toMatchObject({ actorLabel: "member@example.com", ip: "192.0.2.10" });
    expect(JSON.stringify(events, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secret);
  });

  it("supports an expiry, and expired tokens stop working", async () => {
    const created = await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...member.as, body: { description: "short", expiresInDays: 1 } });
    expect(created.status).toBe(201);
    expect(new Date(created.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now());
    await db().apiToken.update({ where: { id: created.body.data.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { token: created.body.token })).status).toBe(401);
  });

  it("refuses bad bodies and team tokens", async () => {
    expect((await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...member.as, body: {} })).status).toBe(400);
    expect((await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...member.as, body: { description: "  " } })).status).toBe(400);
    expect((await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...member.as, body: { description: "x", expiresInDays: 0 } })).status).toBe(400);
    expect((await call(userTokens.GET, "GET", "/api/v1/tokens", {})).status).toBe(401);
    const team = await makeTeam(orgId, "bots", []);
    const tt = await teamToken(team.id);
    expect((await call(userTokens.GET, "GET", "/api/v1/tokens", {}, tt)).status).toBe(403);
    expect((await call(userTokens.POST, "POST", "/api/v1/tokens", {}, { ...tt, body: { description: "x" } })).status).toBe(403);
  });
});

describe("team tokens", () => {
  it("are managed by owners only, act as the team, and stop working when revoked", async () => {
    const team = await makeTeam(orgId, "deployers", [member.id]);
    const p = { org: "acme", team: "deployers" };
    const path = "/api/v1/orgs/acme/teams/deployers/tokens";
    expect((await call(teamTokens.POST, "POST", path, p, { ...member.as, body: { description: "ci" } })).status).toBe(403);
    expect((await call(teamTokens.GET, "GET", path, p, member.as)).status).toBe(403);
    const created = await call(teamTokens.POST, "POST", path, p, { ...owner.as, body: { description: "ci" } });
    expect(created.status).toBe(201);
    expect(created.body.data.owner).toEqual({ type: "team", id: team.id });
    const secret: string = created.body.token;
    const id: string = created.body.data.id;

    expect((await call(me.GET, "GET", "/api/v1/me", {}, { token: secret })).body.team).toMatchObject({ name: "deployers" });
    const list = await call(teamTokens.GET, "GET", path, p, owner.as);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(secret);

    // A token of another team, or an unknown team, is not found here.
    expect((await call(teamTokenRoute.DELETE, "DELETE", `${path}/${id}`, { org: "acme", team: "bots", id }, owner.as)).status).toBe(404);
    expect((await call(teamTokenRoute.DELETE, "DELETE", `${path}/${id}`, { org: "acme", team: "ghosts", id }, owner.as)).status).toBe(404);
    expect((await call(teamTokenRoute.DELETE, "DELETE", `${path}/${id}`, { ...p, id }, member.as)).status).toBe(403);
    expect((await call(teamTokenRoute.DELETE, "DELETE", `${path}/${id}`, { ...p, id }, owner.as)).status).toBe(204);
    expect((await call(me.GET, "GET", "/api/v1/me", {}, { token: secret })).status).toBe(401);
    expect((await call(teamTokens.GET, "GET", path, p, owner.as)).body.data[0].revokedAt).not.toBeNull();

    const events = await db().auditEvent.findMany({ where: { organizationId: orgId, targetId: id }, orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.action, e.actorLabel])).toEqual([
      ["token.create", "owner@example.com"],
      ["token.revoke", "owner@example.com"],
    ]);
    expect(events[0]!.detail).toMatchObject({ owner: "team", team: "deployers" });
    expect(JSON.stringify(events, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secret);
  });
});
