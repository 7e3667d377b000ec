// Issue 2, point 5: each access level is enforced on the state endpoints. A `read` member can
// read but gets 403 on lock, write and rollback; `write` can do all three; no access is a 404.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { createToken } from "@/server/auth";
import { lockApi, lockBody, makeMember, makeOrg, proto, rollbackApi, stateJson, versions } from "./testdata/fixtures";

let owner: string;
let reader: string;
let planner: string;
let writer: string;
let outsider: string;
let teamToken: string;
let orgId: string;

beforeAll(async () => {
  const { org, owner: o } = await makeOrg("acme", "owner@acme.test");
  orgId = org.id;
  owner = o.token;
  reader = (await makeMember(org.id, "reader@acme.test", "readers", "app", "read")).token;
  planner = (await makeMember(org.id, "planner@acme.test", "planners", "app", "plan")).token;
  const w = await makeMember(org.id, "writer@acme.test", "writers", "app", "write");
  writer = w.token;
  teamToken = (await createToken({ teamId: w.team.id }, "ci", null)).token;
  outsider = (await makeMember(org.id, "outsider@acme.test", "others", "app", null)).token;
  expect((await proto("POST", "acme", "app", { token: owner, body: stateJson({ serial: 1 }) })).status).toBe(200);
  expect((await proto("POST", "acme", "app", { token: owner, body: stateJson({ serial: 2, resources: 2 }) })).status).toBe(200);
});

const forbidden = async (res: Response) => {
  expect(res.status).toBe(403);
  expect((await res.json()).errors[0].title).toMatch(/needs "write" access/);
};

describe("a read member", () => {
  it("can read the state and the lock status", async () => {
    expect((await proto("GET", "acme", "app", { token: reader })).status).toBe(200);
    expect((await lockApi("GET", "acme", "app", reader)).status).toBe(200);
  });

  it("gets 403 on LOCK, UNLOCK, write, force-unlock and rollback, and nothing changes", async () => {
    for (const t of [reader, planner]) {
      await forbidden(await proto("LOCK", "acme", "app", { token: t, body: lockBody() }));
      await forbidden(await proto("LOCK_POST", "acme", "app", { token: t, body: lockBody() }));
      await forbidden(await proto("UNLOCK", "acme", "app", { token: t }));
      await forbidden(await proto("POST", "acme", "app", { token: t, body: stateJson({ serial: 3 }) }));
      await forbidden(await proto("PUT", "acme", "app", { token: t, body: stateJson({ serial: 3 }) }));
      await forbidden(await rollbackApi("acme", "app", "1", t));
      await forbidden(await lockApi("DELETE", "acme", "app", t));
    }
    expect((await versions("acme", "app")).map((v) => v.serial)).toEqual([1n, 2n]);
    expect(await db().stateLock.count()).toBe(0);
  });

  it("cannot create workspaces through a state request (404)", async () => {
    expect((await proto("GET", "acme", "elsewhere", { token: reader })).status).toBe(404);
    expect((await proto("POST", "acme", "elsewhere", { token: writer, body: stateJson({ serial: 1 }) })).status).toBe(404);
    expect(await db().workspace.count({ where: { name: "elsewhere" } })).toBe(0);
  });
});

describe("a write member", () => {
  it("can lock, write under the lock, unlock, force-unlock and roll back", async () => {
    const raw = lockBody();
    const id = JSON.parse(raw).ID as string;
    expect((await proto("LOCK", "acme", "app", { token: writer, body: raw })).status).toBe(200);
    expect((await proto("POST", "acme", "app", { token: writer, body: stateJson({ serial: 3 }), query: `?ID=${id}` })).status).toBe(200);
    expect((await proto("UNLOCK", "acme", "app", { token: writer, body: raw })).status).toBe(200);
    const rb = await rollbackApi("acme", "app", "1", writer);
    expect(rb.status).toBe(201);
    expect((await rb.json()).data).toMatchObject({ serial: 4, source: "rollback", rolledBackFromSerial: 1, actorLabel: "writer@acme.test" });
    expect((await proto("LOCK", "acme", "app", { token: owner, body: lockBody() })).status).toBe(200);
    expect((await proto("UNLOCK", "acme", "app", { token: writer })).status).toBe(200);
    expect(await db().stateLock.count()).toBe(0);
  });

  it("works through a team token, recorded as the team", async () => {
    expect((await proto("POST", "acme", "app", { token: teamToken, body: stateJson({ serial: 5 }) })).status).toBe(200);
    const v = (await versions("acme", "app")).at(-1)!;
    expect(v).toMatchObject({ serial: 5n, actorLabel: "team writers", createdById: null });
    expect(v.tokenId).not.toBeNull();
  });
});

describe("no access", () => {
  it("looks like no workspace at all (404) for a member without access", async () => {
    for (const res of [
      await proto("GET", "acme", "app", { token: outsider }),
      await proto("POST", "acme", "app", { token: outsider, body: stateJson({ serial: 9 }) }),
      await proto("LOCK", "acme", "app", { token: outsider, body: lockBody() }),
      await lockApi("GET", "acme", "app", outsider),
      await rollbackApi("acme", "app", "1", outsider),
    ]) {
      expect(res.status).toBe(404);
    }
  });

  it("hides the organization from a user outside it (404)", async () => {
    const { owner: stranger } = await makeOrg("other", "stranger@other.test");
    expect((await proto("GET", "acme", "app", { token: stranger.token })).status).toBe(404);
    expect((await proto("GET", "acme", "newws", { token: stranger.token })).status).toBe(404);
    expect(await db().workspace.count({ where: { organizationId: orgId, name: "newws" } })).toBe(0);
  });
});
