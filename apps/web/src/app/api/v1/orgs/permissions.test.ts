// The permission matrix of the accounts and workspace routes: for each kind of caller (a member
// per workspace level, an owner, a member without access, a non-member, team tokens), each route
// either works or refuses with the status a client relies on. Unknown to the caller = 404.
import { beforeAll, describe, expect, it } from "vitest";
import type { AccessLevel } from "@/server/authz";
import { db } from "@/server/db";
import { addToOrg, call, makeOrg, makeTeam, makeUser, makeWorkspace, teamToken, type Caller } from "@/server/orgs/testkit";
import * as orgRoute from "./[org]/route";
import * as members from "./[org]/members/route";
import * as member from "./[org]/members/[userId]/route";
import * as teams from "./[org]/teams/route";
import * as team from "./[org]/teams/[team]/route";
import * as teamMembers from "./[org]/teams/[team]/members/route";
import * as teamTokens from "./[org]/teams/[team]/tokens/route";
import * as auditLog from "./[org]/audit/route";
import * as workspaces from "./[org]/workspaces/route";
import * as workspace from "./[org]/workspaces/[workspace]/route";
import * as access from "./[org]/workspaces/[workspace]/access/route";
import * as accessTeam from "./[org]/workspaces/[workspace]/access/[team]/route";
import * as userTokens from "../tokens/route";

type Who = "read" | "plan" | "write" | "admin" | "owner" | "manager" | "nogrant" | "outsider" | "readToken" | "writeToken" | "managerToken" | "anonymous";
const callers = {} as Record<Who, Caller>;
let orgId: string;
let memberId: string;
const teamIds = {} as Record<AccessLevel, string>;

beforeAll(async () => {
  const owner = await makeUser("owner@example.com");
  orgId = (await makeOrg("acme", owner)).id;
  callers.owner = owner.as;
  callers.anonymous = {};
  for (const level of ["read", "plan", "write", "admin"] as const) {
    const u = await makeUser(`${level}@example.com`);
    await addToOrg(orgId, u.id);
    teamIds[level] = (await makeTeam(orgId, `t-${level}`, [u.id])).id;
    callers[level] = u.as;
  }
  const manager = await makeUser("manager@example.com");
  await addToOrg(orgId, manager.id);
  const managers = await makeTeam(orgId, "managers", [manager.id], true);
  callers.manager = manager.as;
  const nogrant = await makeUser("nogrant@example.com");
  await addToOrg(orgId, nogrant.id);
  memberId = nogrant.id;
  callers.nogrant = nogrant.as;
  const outsider = await makeUser("outsider@example.com");
  await makeOrg("elsewhere", outsider);
  callers.outsider = outsider.as;
  callers.readToken = await teamToken(teamIds.read);
  callers.writeToken = await teamToken(teamIds.write);
  callers.managerToken = await teamToken(managers.id);
});

/** A fresh workspace granting each level's team its level. */
async function workspaceWithGrants(name: string) {
  const ws = await makeWorkspace(orgId, name, Object.entries(teamIds).map(([level, id]) => [id, level as AccessLevel]));
  return ws;
}

type Case = { who: Who; status: number };
const expectStatuses = async (cases: Case[], run: (who: Who, i: number) => Promise<{ status: number }>) => {
  const got: Case[] = [];
  for (const [i, c] of cases.entries()) got.push({ who: c.who, status: (await run(c.who, i)).status });
  expect(got).toEqual(cases);
};

describe("workspace routes enforce each level", () => {
  it("GET workspace: any level reads; no grant, outsiders and other teams' tokens get 404; anonymous 401", async () => {
    await workspaceWithGrants("shared");
    const p = { org: "acme", workspace: "shared" };
    await expectStatuses(
      [
        { who: "read", status: 200 },
        { who: "plan", status: 200 },
        { who: "write", status: 200 },
        { who: "admin", status: 200 },
        { who: "owner", status: 200 },
        { who: "manager", status: 200 },
        { who: "readToken", status: 200 },
        { who: "managerToken", status: 200 },
        { who: "nogrant", status: 404 },
        { who: "outsider", status: 404 },
        { who: "anonymous", status: 401 },
      ],
      (who) => call(workspace.GET, "GET", "/x", p, callers[who]),
    );
    const levels = await Promise.all(
      (["read", "plan", "write", "admin", "owner", "readToken"] as const).map(async (w) => (await call(workspace.GET, "GET", "/x", p, callers[w])).body.level),
    );
    expect(levels).toEqual(["read", "plan", "write", "admin", "admin", "read"]);
    const hidden = await makeWorkspace(orgId, "hidden", [[teamIds.write, "write"]]);
    expect((await call(workspace.GET, "GET", "/x", { org: "acme", workspace: hidden.name }, callers.readToken)).status).toBe(404);
    expect((await call(workspace.GET, "GET", "/x", { org: "acme", workspace: hidden.name }, callers.writeToken)).status).toBe(200);
  });

  it("PATCH workspace (rename) needs admin", async () => {
    await workspaceWithGrants("renamable");
    let name = "renamable";
    await expectStatuses(
      [
        { who: "read", status: 403 },
        { who: "plan", status: 403 },
        { who: "write", status: 403 },
        { who: "writeToken", status: 403 },
        { who: "nogrant", status: 404 },
        { who: "outsider", status: 404 },
        { who: "admin", status: 200 },
        { who: "owner", status: 200 },
        { who: "managerToken", status: 200 },
      ],
      async (who, i) => {
        const res = await call(workspace.PATCH, "PATCH", "/x", { org: "acme", workspace: name }, { ...callers[who], body: { name: `renamed-${i}` } });
        if (res.status === 200) name = `renamed-${i}`;
        return res;
      },
    );
    const forbidden = await call(workspace.PATCH, "PATCH", "/x", { org: "acme", workspace: name }, { ...callers.write, body: { name: "x" } });
    expect(forbidden.body.errors[0].title).toBe(`This needs "admin" access to workspace "${name}"; you have "write"`);
  });

  it("DELETE workspace needs admin (and force too)", async () => {
    for (const who of ["read", "plan", "write", "writeToken"] as const) {
      await workspaceWithGrants(`del-${who}`);
      const res = await call(workspace.DELETE, "DELETE", "/x", { org: "acme", workspace: `del-${who}` }, { ...callers[who], query: { force: "true" } });
      expect(res.status, who).toBe(403);
    }
    expect((await call(workspace.DELETE, "DELETE", "/x", { org: "acme", workspace: "del-read" }, callers.nogrant)).status).toBe(404);
    expect((await call(workspace.DELETE, "DELETE", "/x", { org: "acme", workspace: "del-read" }, callers.admin)).status).toBe(204);
    expect((await call(workspace.DELETE, "DELETE", "/x", { org: "acme", workspace: "del-plan" }, callers.owner)).status).toBe(204);
    expect((await call(workspace.DELETE, "DELETE", "/x", { org: "acme", workspace: "del-write" }, callers.managerToken)).status).toBe(204);
  });

  it("access: any level lists it, only admins change it", async () => {
    await workspaceWithGrants("guarded");
    const p = { org: "acme", workspace: "guarded" };
    expect((await call(access.GET, "GET", "/x", p, callers.read)).status).toBe(200);
    expect((await call(access.GET, "GET", "/x", p, callers.nogrant)).status).toBe(404);
    await expectStatuses(
      [
        { who: "read", status: 403 },
        { who: "plan", status: 403 },
        { who: "write", status: 403 },
        { who: "readToken", status: 403 },
        { who: "nogrant", status: 404 },
        { who: "admin", status: 200 },
        { who: "owner", status: 200 },
      ],
      (who) => call(accessTeam.PUT, "PUT", "/x", { ...p, team: "t-read" }, { ...callers[who], body: { level: "plan" } }),
    );
    expect((await call(accessTeam.DELETE, "DELETE", "/x", { ...p, team: "t-read" }, callers.write)).status).toBe(403);
    expect((await call(accessTeam.DELETE, "DELETE", "/x", { ...p, team: "t-read" }, callers.admin)).status).toBe(204);
    // The read team lost its grant: the workspace is gone from its view.
    expect((await call(workspace.GET, "GET", "/x", p, callers.read)).status).toBe(404);
  });

  it("creating workspaces needs an owner or a workspace-managing team (person or token)", async () => {
    await expectStatuses(
      [
        { who: "read", status: 403 },
        { who: "admin", status: 403 },
        { who: "writeToken", status: 403 },
        { who: "nogrant", status: 403 },
        { who: "outsider", status: 404 },
        { who: "anonymous", status: 401 },
        { who: "owner", status: 201 },
        { who: "manager", status: 201 },
        { who: "managerToken", status: 201 },
      ],
      (who, i) => call(workspaces.POST, "POST", "/x", { org: "acme" }, { ...callers[who], body: { name: `new-${i}` } }),
    );
  });

  it("lists only the workspaces the caller can read, with their level", async () => {
    const all = await db().workspace.count({ where: { organizationId: orgId } });
    const list = async (who: Who) => (await call(workspaces.GET, "GET", "/x", { org: "acme" }, { ...callers[who], query: { pageSize: "200" } })).body;
    expect((await list("owner")).pagination.total).toBe(all);
    expect((await list("managerToken")).pagination.total).toBe(all);
    expect((await list("nogrant")).pagination.total).toBe(0);
    const byRead = await list("read");
    expect(byRead.data.map((w: { name: string }) => w.name)).toEqual(
      (await db().workspace.findMany({ where: { organizationId: orgId, access: { some: { teamId: teamIds.read } } }, orderBy: { name: "asc" } })).map((w) => w.name),
    );
    expect(byRead.data.every((w: { level: string }) => w.level === "read")).toBe(true);
    expect((await list("readToken")).data.map((w: { name: string }) => w.name)).toEqual(byRead.data.map((w: { name: string }) => w.name));
    expect((await list("admin")).data.every((w: { level: string }) => w.level === "admin")).toBe(true);
    expect((await call(workspaces.GET, "GET", "/x", { org: "acme" }, callers.outsider)).status).toBe(404);
  });
});

describe("organization routes are for owners", () => {
  it("only owners manage members, teams and team tokens, and see the audit log", async () => {
    const org = { org: "acme" };
    const t = { org: "acme", team: "t-read" };
    const attempts: [string, (who: Who) => Promise<{ status: number }>][] = [
      ["add member", (who) => call(members.POST, "POST", "/x", org, { ...callers[who], body: { email: "outsider@example.com" } })],
      ["change role", (who) => call(member.PATCH, "PATCH", "/x", { ...org, userId: memberId }, { ...callers[who], body: { role: "owner" } })],
      ["create team", (who) => call(teams.POST, "POST", "/x", org, { ...callers[who], body: { name: "sneaky" } })],
      ["edit team", (who) => call(team.PATCH, "PATCH", "/x", t, { ...callers[who], body: { manageWorkspaces: true } })],
      ["delete team", (who) => call(team.DELETE, "DELETE", "/x", t, callers[who])],
      ["add to team", (who) => call(teamMembers.POST, "POST", "/x", t, { ...callers[who], body: { email: "nogrant@example.com" } })],
      ["list team tokens", (who) => call(teamTokens.GET, "GET", "/x", t, callers[who])],
      ["create team token", (who) => call(teamTokens.POST, "POST", "/x", t, { ...callers[who], body: { description: "x" } })],
      ["read audit log", (who) => call(auditLog.GET, "GET", "/x", org, callers[who])],
    ];
    for (const [what, attempt] of attempts) {
      for (const who of ["admin", "manager", "nogrant", "managerToken", "readToken"] as const) {
        expect((await attempt(who)).status, `${who}: ${what}`).toBe(403);
      }
      expect((await attempt("outsider")).status, `outsider: ${what}`).toBe(404);
      expect((await attempt("anonymous")).status, `anonymous: ${what}`).toBe(401);
    }
    expect(await db().team.count({ where: { name: "sneaky" } })).toBe(0);
    expect((await db().team.findUniqueOrThrow({ where: { id: teamIds.read } })).manageWorkspaces).toBe(false);
    expect(await db().apiToken.count({ where: { teamId: teamIds.read, description: "x" } })).toBe(0);
    // Owners can.
    expect((await call(auditLog.GET, "GET", "/x", org, callers.owner)).status).toBe(200);
    expect((await call(teamTokens.POST, "POST", "/x", t, { ...callers.owner, body: { description: "ok" } })).status).toBe(201);
  });

  it("members and team tokens can see the organization, outsiders cannot", async () => {
    const org = { org: "acme" };
    expect((await call(orgRoute.GET, "GET", "/x", org, callers.read)).body).toMatchObject({ role: "member", isOwner: false, canCreateWorkspaces: false });
    expect((await call(orgRoute.GET, "GET", "/x", org, callers.manager)).body).toMatchObject({ role: "member", canCreateWorkspaces: true });
    expect((await call(orgRoute.GET, "GET", "/x", org, callers.managerToken)).body).toMatchObject({ isOwner: false, canCreateWorkspaces: true });
    expect((await call(orgRoute.GET, "GET", "/x", org, callers.owner)).body).toMatchObject({ role: "owner", isOwner: true });
    expect((await call(orgRoute.GET, "GET", "/x", org, callers.outsider)).status).toBe(404);
    expect((await call(orgRoute.GET, "GET", "/x", { org: "elsewhere" }, callers.readToken)).status).toBe(404);
    expect((await call(members.GET, "GET", "/x", org, callers.read)).status).toBe(200);
    expect((await call(teams.GET, "GET", "/x", org, callers.read)).status).toBe(200);
  });

  it("team tokens cannot act as a person", async () => {
    expect((await call(userTokens.POST, "POST", "/x", {}, { ...callers.managerToken, body: { description: "x" } })).status).toBe(403);
  });
});
