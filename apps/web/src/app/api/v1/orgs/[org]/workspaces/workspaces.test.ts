import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { addStateVersion, addToOrg, call, makeOrg, makeTeam, makeUser, makeWorkspace } from "@/server/orgs/testkit";
import * as list from "./route";
import * as one from "./[workspace]/route";

let owner: Awaited<ReturnType<typeof makeUser>>;
let orgId: string;

beforeAll(async () => {
  owner = await makeUser("owner@example.com");
  orgId = (await makeOrg("acme", owner)).id;
});

const create = (name: unknown, description?: string) =>
  call(list.POST, "POST", "/api/v1/orgs/acme/workspaces", { org: "acme" }, { ...owner.as, body: { name, description } });
const get = (workspace: string) => call(one.GET, "GET", `/api/v1/orgs/acme/workspaces/${workspace}`, { org: "acme", workspace }, owner.as);
const events = (action: string) => db().auditEvent.findMany({ where: { organizationId: orgId, action }, orderBy: { seq: "asc" } });

describe("workspaces", () => {
  it("creates a workspace, audited, and refuses duplicates", async () => {
    const res = await create("network", "VPCs and subnets");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "network", description: "VPCs and subnets", level: "admin", locked: false, current: null });
    expect((await create("network")).status).toBe(409);
    expect((await events("workspace.create")).map((e) => e.targetLabel)).toEqual(["network"]);
    const got = await get("network");
    expect(got.body).toMatchObject({ name: "network", lock: null, current: null });
  });

  it("refuses bad names with a clear 400 and writes nothing", async () => {
    for (const name of ["", "has space", "-leading", "a/b", "x".repeat(91), "ünï", 42]) {
      const res = await create(name);
      expect(res.status, String(name)).toBe(400);
    }
    const bad = await create("a/b");
    expect(bad.body.errors[0].title).toBe('Invalid workspace name "a/b"');
    expect(bad.body.errors[0].detail).toMatch(/letters, digits/);
    expect(await db().workspace.count({ where: { name: { contains: "/" } } })).toBe(0);
  });

  it("answers 404 for an unknown organization or workspace", async () => {
    const r = await call(list.GET, "GET", "/api/v1/orgs/nope/workspaces", { org: "nope" }, owner.as);
    expect(r.status).toBe(404);
    expect(r.body.errors[0].title).toBe('Organization "nope" not found');
    expect((await call(list.POST, "POST", "/x", { org: "nope" }, { ...owner.as, body: { name: "w" } })).status).toBe(404);
    expect((await get("missing")).status).toBe(404);
  });

  it("lists by name, paged, searchable case-insensitively, with the current state", async () => {
    for (const n of ["app-prod", "app-staging", "App-dev", "db_prod", "dns"]) await makeWorkspace(orgId, n);
    const ws = await db().workspace.findFirstOrThrow({ where: { name: "app-prod" } });
    await addStateVersion(ws.id, 1, 3);
    await addStateVersion(ws.id, 2, 5);

    const all = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { pageSize: "2" } });
    expect(all.body.pagination).toEqual({ page: 1, pageSize: 2, total: 6 });
    expect(all.body.data.map((w: { name: string }) => w.name)).toEqual(["App-dev", "app-prod"]);
    expect(all.body.data[1].current).toMatchObject({ serial: 2, resourceCount: 5 });
    const page3 = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { pageSize: "2", page: "3" } });
    expect(page3.body.data.map((w: { name: string }) => w.name)).toEqual(["dns", "network"]);
    const beyond = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { page: "9" } });
    expect(beyond.body).toMatchObject({ data: [], pagination: { total: 6 } });

    const found = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { q: "APP" } });
    expect(found.body.data.map((w: { name: string }) => w.name)).toEqual(["App-dev", "app-prod", "app-staging"]);
    // "_" is a literal underscore, not a LIKE wildcard.
    const underscore = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { q: "_" } });
    expect(underscore.body.data.map((w: { name: string }) => w.name)).toEqual(["db_prod"]);

    for (const query of [{ pageSize: "201" }, { page: "0" }, { page: "x" }] as Record<string, string>[]) {
      expect((await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query })).status).toBe(400);
    }
  });

  it("renames (audited) and edits the description; a taken name is a 409", async () => {
    await makeWorkspace(orgId, "old-name");
    const p = { org: "acme", workspace: "old-name" };
    const res = await call(one.PATCH, "PATCH", "/x", p, { ...owner.as, body: { name: "new-name", description: "moved" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "new-name", description: "moved" });
    expect((await get("old-name")).status).toBe(404);
    expect((await get("new-name")).status).toBe(200);
    const rename = await events("workspace.rename");
    expect(rename).toHaveLength(1);
    expect(rename[0]).toMatchObject({ targetLabel: "new-name", detail: { from: "old-name", to: "new-name" }, actorLabel: "owner@example.com" });

    const taken = await call(one.PATCH, "PATCH", "/x", { org: "acme", workspace: "new-name" }, { ...owner.as, body: { name: "dns" } });
    expect(taken.status).toBe(409);
    const bad = await call(one.PATCH, "PATCH", "/x", { org: "acme", workspace: "new-name" }, { ...owner.as, body: { name: "bad name" } });
    expect(bad.status).toBe(400);
    expect((await get("new-name")).status).toBe(200);
  });

  it("deletes an empty workspace, refuses one whose state holds resources unless forced, and audits both", async () => {
    const empty = await makeWorkspace(orgId, "empty");
    await addStateVersion(empty.id, 1, 2);
    await addStateVersion(empty.id, 2, 0); // destroyed: the current state is empty
    expect((await call(one.DELETE, "DELETE", "/x", { org: "acme", workspace: "empty" }, owner.as)).status).toBe(204);
    expect(await db().stateVersion.count({ where: { workspaceId: empty.id } })).toBe(0);

    const full = await makeWorkspace(orgId, "full");
    await addStateVersion(full.id, 1, 4);
    const p = { org: "acme", workspace: "full" };
    const refused = await call(one.DELETE, "DELETE", "/x", p, owner.as);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].title).toBe("Workspace state holds resources");
    expect(refused.body.errors[0].detail).toMatch(/4 resource/);
    expect((await get("full")).status).toBe(200);
    expect((await call(one.DELETE, "DELETE", "/x", p, { ...owner.as, query: { force: "yes" } })).status).toBe(400);

    const forced = await call(one.DELETE, "DELETE", "/x", p, { ...owner.as, query: { force: "true" } });
    expect(forced.status).toBe(204);
    expect((await get("full")).status).toBe(404);
    expect(await db().stateVersion.count({ where: { workspaceId: full.id } })).toBe(0);

    const deleted = await events("workspace.delete");
    expect(deleted.map((e) => [e.targetLabel, e.detail])).toEqual([
      ["empty", expect.objectContaining({ forced: false, resourceCount: 0 })],
      ["full", expect.objectContaining({ forced: true, resourceCount: 4 })],
    ]);
    expect(deleted[1]).toMatchObject({ ip: "192.0.2.10", actorLabel: "owner@example.com", targetId: full.id });
  });

  it("refuses to delete a locked workspace unless forced", async () => {
    const ws = await makeWorkspace(orgId, "locked-one");
    await db().stateLock.create({
      data: { workspaceId: ws.id, lockId: "abc", operation: "OperationTypeApply", who: "me@host", info: { ID: "abc", Operation: "OperationTypeApply", Who: "me@host", Version: "1.11.4", Created: "2026-11-22T05:00:00Z", Path: "", Info: "" }, actorLabel: "owner@example.com" },
    });
    const shown = await get("locked-one");
    expect(shown.body).toMatchObject({ locked: true, lock: { id: "abc", operation: "OperationTypeApply", who: "me@host", holder: "owner@example.com", version: "1.11.4" } });
    const listed = await call(list.GET, "GET", "/x", { org: "acme" }, { ...owner.as, query: { q: "locked" } });
    expect(listed.body.data[0].locked).toBe(true);
    const p = { org: "acme", workspace: "locked-one" };
    expect((await call(one.DELETE, "DELETE", "/x", p, owner.as)).status).toBe(409);
    expect((await call(one.DELETE, "DELETE", "/x", p, { ...owner.as, query: { force: "true" } })).status).toBe(204);
  });

  it("lets members of a workspace-managing team create workspaces, and nobody else but owners", async () => {
    const manager = await makeUser("manager@example.com");
    const plain = await makeUser("plain@example.com");
    await addToOrg(orgId, manager.id);
    await addToOrg(orgId, plain.id);
    await makeTeam(orgId, "platform", [manager.id], true);
    const byManager = await call(list.POST, "POST", "/x", { org: "acme" }, { ...manager.as, body: { name: "by-manager" } });
    expect(byManager.status).toBe(201);
    const byPlain = await call(list.POST, "POST", "/x", { org: "acme" }, { ...plain.as, body: { name: "by-plain" } });
    expect(byPlain.status).toBe(403);
    // The manager sees every workspace as admin; the plain member sees none.
    const seen = await call(list.GET, "GET", "/x", { org: "acme" }, { ...manager.as, query: { pageSize: "200" } });
    expect(seen.body.pagination.total).toBe(await db().workspace.count({ where: { organizationId: orgId } }));
    expect(seen.body.data.every((w: { level: string }) => w.level === "admin")).toBe(true);
    expect((await call(list.GET, "GET", "/x", { org: "acme" }, plain.as)).body.pagination.total).toBe(0);
  });
});
