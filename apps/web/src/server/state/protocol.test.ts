// The `backend "http"` protocol, rule by rule (PROTOCOLS.md), against the route handlers and a
// real PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { db } from "@/server/db";
import { openState } from "@/server/state/stored";
import { auditActions, lockBody, makeOrg, md5, proto, rollbackApi, stateJson, versions } from "./testdata/fixtures";

let orgId: string;
let token: string;
let userId: string;

beforeAll(async () => {
  const { org, owner } = await makeOrg("acme", "owner@acme.test");
  orgId = org.id;
  token = owner.token;
  userId = owner.user.id;
});

describe("GET", () => {
  it("answers 204 for a workspace without state, creating the workspace for an owner (audited)", async () => {
    const res = await proto("GET", "acme", "fresh", { token });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const ws = await db().workspace.findUniqueOrThrow({ where: { organizationId_name: { organizationId: orgId, name: "fresh" } } });
    const created = (await auditActions(orgId)).filter((a) => a.action === "workspace.create" && a.targetId === ws.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.detail).toEqual({ via: "state" });
    // A second request finds it rather than creating another.
    expect((await proto("GET", "acme", "fresh", { token })).status).toBe(204);
    expect((await auditActions(orgId)).filter((a) => a.action === "workspace.create" && a.targetId === ws.id)).toHaveLength(1);
  });

  it("returns the stored bytes exactly, with their Content-MD5", async () => {
    const body = stateJson({ serial: 1, resources: 2 });
    expect((await proto("POST", "acme", "get", { token, body })).status).toBe(200);
    const res = await proto("GET", "acme", "get", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-md5")).toBe(md5(body));
    expect(res.headers.get("x-terrace-content-encoding")).toBeNull();
    expect(await res.text()).toBe(body);
  });

  it("answers a client that accepts gzip (as the CLI's does) with the stored compressed bytes", async () => {
    const body = stateJson({ serial: 1, resources: 30 });
    expect((await proto("POST", "acme", "get-gz", { token, body })).status).toBe(200);
    const res = await proto("GET", "acme", "get-gz", { token, headers: { "accept-encoding": "gzip, deflate" } });
    expect(res.status).toBe(200);
    // The front (server.mjs) sends this as Content-Encoding; Next.js would drop that header.
    expect(res.headers.get("x-terrace-content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    // Content-MD5 is the state file's, which the client checks after decoding.
    expect(res.headers.get("content-md5")).toBe(md5(body));
    const raw = Buffer.from(await res.arrayBuffer());
    expect(raw.length).toBeLessThan(body.length / 2);
    expect(gunzipSync(raw).toString()).toBe(body);
    // gzip refused: the state itself.
    const plain = await proto("GET", "acme", "get-gz", { token, headers: { "accept-encoding": "gzip;q=0, *" } });
    expect(plain.headers.get("x-terrace-content-encoding")).toBeNull();
    expect(await plain.text()).toBe(body);
  });
});

describe("writes", () => {
  it("stores every accepted POST as an immutable, sealed version with its metadata", async () => {
    const body = stateJson({ serial: 3, resources: 2, terraformVersion: "1.11.4" });
    const res = await proto("POST", "acme", "w1", { token, body });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ serial: 3, lineage: "11111111-2222-3333-4444-555555555555", source: "cli", current: true, size: body.length, resourceCount: 2, instanceCount: 2, lockId: null, actorLabel: "owner@acme.test" });
    const [v] = await versions("acme", "w1");
    expect(v).toMatchObject({ serial: 3n, terraformVersion: "1.11.4", md5: md5(body), size: Buffer.byteLength(body), source: "cli", createdById: userId });
    expect(v!.tokenId).not.toBeNull();
    expect(v!.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Sealed at rest: the plain text is not in the row, and opening it gives the bytes back.
    expect(Buffer.from(v!.content).includes(Buffer.from("terraform_data"))).toBe(false);
    expect(openState(Buffer.from(v!.content)).toString()).toBe(body);
    // Compressed before sealing: a state's repeated keys take a fraction of its size.
    expect(v!.content.length).toBeLessThan(body.length / 2);
    const audit = (await auditActions(orgId)).filter((a) => a.action === "state.write" && a.targetLabel === "w1");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ serial: 3, size: Buffer.byteLength(body) });
  });

  it("compares serials as numbers: 10 is newer than 9", async () => {
    for (const serial of [9, 10]) expect((await proto("POST", "acme", "tens", { token, body: stateJson({ serial }) })).status).toBe(200);
    expect(JSON.parse(await (await proto("GET", "acme", "tens", { token })).text()).serial).toBe(10);
    expect((await proto("POST", "acme", "tens", { token, body: stateJson({ serial: 9, resources: 2 }) })).status).toBe(409);
    expect((await proto("POST", "acme", "tens", { token, body: stateJson({ serial: 11 }) })).status).toBe(200);
    const rb = await rollbackApi("acme", "tens", "9", token);
    expect((await rb.json()).data.serial).toBe(12);
  });

  it("accepts PUT (update_method = PUT) like POST", async () => {
    expect((await proto("PUT", "acme", "put", { token, body: stateJson({ serial: 1 }) })).status).toBe(200);
    expect((await proto("PUT", "acme", "put", { token, body: stateJson({ serial: 2 }) })).status).toBe(200);
    expect((await versions("acme", "put")).map((v) => v.serial)).toEqual([1n, 2n]);
  });

  it("treats a repeated serial with the same content as a no-op, even reformatted", async () => {
    const body = stateJson({ serial: 5 });
    expect((await proto("POST", "acme", "same", { token, body })).status).toBe(200);
    expect((await proto("POST", "acme", "same", { token, body })).status).toBe(200);
    const compact = JSON.stringify(JSON.parse(body));
    expect((await proto("POST", "acme", "same", { token, body: compact })).status).toBe(200);
    expect(await versions("acme", "same")).toHaveLength(1);
  });

  it("refuses (409) a repeated serial with other content, a lower serial, or another lineage, writing nothing", async () => {
    expect((await proto("POST", "acme", "guard", { token, body: stateJson({ serial: 5 }) })).status).toBe(200);
    const cases = [
      { body: stateJson({ serial: 5, resources: 3 }), title: "State serial already used with other content" },
      { body: stateJson({ serial: 4 }), title: "State serial went backwards" },
      { body: stateJson({ serial: 6, lineage: "99999999-0000-0000-0000-000000000000" }), title: "State lineage does not match" },
    ];
    for (const c of cases) {
      const res = await proto("POST", "acme", "guard", { token, body: c.body });
      expect(res.status).toBe(409);
      const err = (await res.json()).errors[0];
      expect(err.title).toBe(c.title);
      expect(err.detail).toContain("Nothing was written");
    }
    expect((await versions("acme", "guard")).map((v) => v.serial)).toEqual([5n]);
    expect((await auditActions(orgId)).filter((a) => a.action === "state.write" && a.targetLabel === "guard")).toHaveLength(1);
  });

  it("accepts writes without a lock ID while unlocked (-lock=false), and a stale ID once unlocked", async () => {
    expect((await proto("POST", "acme", "nolock", { token, body: stateJson({ serial: 1 }) })).status).toBe(200);
    expect((await proto("POST", "acme", "nolock", { token, body: stateJson({ serial: 2 }), query: `?ID=${randomUUID()}` })).status).toBe(200);
  });

  it("counts managed and data resources, and instances without deposed objects", async () => {
    const body = JSON.stringify({
      version: 4, terraform_version: "1.11.4", serial: 1, lineage: "l-count", outputs: {},
      resources: [
        { mode: "managed", type: "a", name: "x", each: "list", instances: [{ index_key: 0, schema_version: 0, attributes: {} }, { index_key: 1, schema_version: 0, attributes: {} }, { index_key: 1, deposed: "abcd1234", schema_version: 0, attributes: {} }] },
        { mode: "data", type: "b", name: "y", instances: [{ schema_version: 0, attributes: {} }] },
      ],
    });
    const { data } = await (await proto("POST", "acme", "count", { token, body })).json();
    expect(data).toMatchObject({ resourceCount: 2, instanceCount: 3 });
  });
});

describe("size limit", () => {
  it("accepts a body of exactly TERRACE_MAX_STATE_BYTES", async () => {
    const body = stateJson({ serial: 1, resources: 20 });
    process.env.TERRACE_MAX_STATE_BYTES = String(Buffer.byteLength(body));
    try {
      expect((await proto("POST", "acme", "limit", { token, body })).status).toBe(200);
      expect((await proto("POST", "acme", "limit", { token, body: stateJson({ serial: 2, resources: 21 }) })).status).toBe(413);
    } finally {
      delete process.env.TERRACE_MAX_STATE_BYTES;
    }
  });
});

describe("locks", () => {
  it("grants LOCK once, answers a competing LOCK with 423 and the holder's JSON verbatim", async () => {
    // Key order and spacing the way the holder sent them: jsonb would reorder these.
    const holderRaw = `{"ID":"${randomUUID()}","Operation":"OperationTypeApply","Info":"","Who":"alice@laptop","Version":"1.11.4","Created":"2026-11-22T05:00:00.123Z","Path":""}`;
    const lock = await proto("LOCK", "acme", "locks", { token, body: holderRaw });
    expect(lock.status).toBe(200);
    const other = await proto("LOCK", "acme", "locks", { token, body: lockBody() });
    expect(other.status).toBe(423);
    expect(await other.text()).toBe(holderRaw);
    // The holder retrying its own LOCK (same ID) is granted.
    expect((await proto("LOCK", "acme", "locks", { token, body: holderRaw })).status).toBe(200);
    const id = JSON.parse(holderRaw).ID;
    const row = await db().stateLock.findFirstOrThrow({ where: { lockId: id } });
    expect(row).toMatchObject({ operation: "OperationTypeApply", who: "alice@laptop", actorLabel: "owner@acme.test" });
    // Stored in UTC like every Prisma timestamp, so Prisma reads back the moment it was taken.
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await auditActions(orgId)).filter((a) => a.action === "state.lock" && a.targetLabel === "locks")).toHaveLength(1);
  });

  it("takes writes to a locked state only under the lock's ID", async () => {
    const id = randomUUID();
    expect((await proto("LOCK", "acme", "locked-w", { token, body: lockBody(id) })).status).toBe(200);
    for (const query of ["", `?ID=${randomUUID()}`]) {
      const res = await proto("POST", "acme", "locked-w", { token, body: stateJson({ serial: 1 }), query });
      expect(res.status).toBe(423);
      const body = await res.json();
      expect(body.ID).toBe(id);
      expect(body.errors[0].detail).toContain("?ID=");
    }
    expect(await versions("acme", "locked-w")).toHaveLength(0);
    // Several writes may arrive under one lock, with rising serials.
    for (const serial of [1, 2]) {
      expect((await proto("POST", "acme", "locked-w", { token, body: stateJson({ serial }), query: `?ID=${id}` })).status).toBe(200);
    }
    expect((await versions("acme", "locked-w")).map((v) => [v.serial, v.lockId])).toEqual([[1n, id], [2n, id]]);
  });

  it("UNLOCK with the holder's ID releases (audited); another ID gets 423 + holder JSON", async () => {
    const id = randomUUID();
    const raw = lockBody(id);
    expect((await proto("LOCK", "acme", "unl", { token, body: raw })).status).toBe(200);
    const wrong = await proto("UNLOCK", "acme", "unl", { token, body: lockBody() });
    expect(wrong.status).toBe(423);
    expect(await wrong.text()).toBe(raw);
    expect(await db().stateLock.count({ where: { lockId: id } })).toBe(1);
    expect((await proto("UNLOCK", "acme", "unl", { token, body: raw })).status).toBe(200);
    expect(await db().stateLock.count({ where: { lockId: id } })).toBe(0);
    const unlocks = (await auditActions(orgId)).filter((a) => a.action === "state.unlock" && a.targetLabel === "unl");
    expect(unlocks).toHaveLength(1);
    expect(unlocks[0]!.detail).toMatchObject({ lockId: id });
    // Unlocking what is already unlocked is fine.
    expect((await proto("UNLOCK", "acme", "unl", { token, body: raw })).status).toBe(200);
  });

  it("an empty-body UNLOCK (terraform force-unlock) breaks any lock and is audited as a force-unlock", async () => {
    const id = randomUUID();
    expect((await proto("LOCK", "acme", "force", { token, body: lockBody(id, "OperationTypePlan") })).status).toBe(200);
    const res = await proto("UNLOCK", "acme", "force", { token });
    expect(res.status).toBe(200);
    expect(await db().stateLock.count({ where: { lockId: id } })).toBe(0);
    const forced = (await auditActions(orgId)).filter((a) => a.action === "state.force_unlock" && a.targetLabel === "force");
    expect(forced).toHaveLength(1);
    expect(forced[0]!.detail).toMatchObject({ lockId: id, operation: "OperationTypePlan", holder: "owner@acme.test", via: "cli" });
  });

  it("speaks LOCK/UNLOCK on the /lock address and GitLab's POST/DELETE there too", async () => {
    const a = lockBody();
    expect((await proto("LOCK_ON_LOCK", "acme", "gl", { token, body: a })).status).toBe(200);
    expect((await proto("LOCK_POST", "acme", "gl", { token, body: lockBody() })).status).toBe(423);
    expect((await proto("UNLOCK_ON_LOCK", "acme", "gl", { token, body: a })).status).toBe(200);
    const b = lockBody();
    expect((await proto("LOCK_POST", "acme", "gl", { token, body: b })).status).toBe(200);
    const conflict = await proto("LOCK", "acme", "gl", { token, body: lockBody() });
    expect(conflict.status).toBe(423);
    expect(await conflict.text()).toBe(b);
    expect((await proto("UNLOCK_DELETE", "acme", "gl", { token, body: b })).status).toBe(200);
    expect(await db().stateLock.count({ where: { workspace: { name: "gl" } } })).toBe(0);
  });

  it("refuses a LOCK without lock info, and lock info without an ID", async () => {
    expect((await proto("LOCK", "acme", "badlock", { token })).status).toBe(400);
    const noId = await proto("LOCK", "acme", "badlock", { token, body: `{"Operation":"OperationTypeApply"}` });
    expect(noId.status).toBe(400);
    expect((await noId.json()).errors[0].title).toContain("ID");
    expect((await proto("LOCK", "acme", "badlock", { token, body: "{nope" })).status).toBe(400);
    expect(await db().stateLock.count({ where: { workspace: { name: "badlock" } } })).toBe(0);
  });
});
