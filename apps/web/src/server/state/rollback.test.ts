// Rollback and the lock API of the workspace endpoints.
import { beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/server/db";
import { openState } from "@/server/state/stored";
import { auditActions, lockApi, lockBody, makeOrg, md5, proto, rollbackApi, stateJson, versions } from "./testdata/fixtures";

let token: string;
let orgId: string;

beforeAll(async () => {
  const { org, owner } = await makeOrg("acme", "owner@acme.test");
  token = owner.token;
  orgId = org.id;
});

async function history(ws: string, bodies: string[]) {
  for (const body of bodies) expect((await proto("POST", "acme", ws, { token, body })).status).toBe(200);
}

describe("rollback", () => {
  it("makes a new version with the old content, serial current + 1 written into the content too", async () => {
    // A large integer attribute: re-serialising through JS numbers would round it.
    const v1 = stateJson({ serial: 1, extra: { outputs: { big: { value: 0, type: "number" } } } }).replace('"value": 0', '"value": 12345678901234567890');
    await history("rb", [v1, stateJson({ serial: 2, resources: 2 }), stateJson({ serial: 3, resources: 3 })]);
    const res = await rollbackApi("acme", "rb", "1", token);
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ serial: 4, source: "rollback", rolledBackFromSerial: 1, current: true, resourceCount: 1, lineage: "11111111-2222-3333-4444-555555555555" });
    const rows = await versions("acme", "rb");
    expect(rows.map((r) => r.serial)).toEqual([1n, 2n, 3n, 4n]);
    const content = openState(Buffer.from(rows[3]!.content)).toString();
    // Byte for byte the old content but for the serial.
    expect(content).toBe(v1.replace('"serial": 1,', '"serial": 4,'));
    expect(content).toContain("12345678901234567890");
    expect(rows[3]).toMatchObject({ md5: md5(content), size: Buffer.byteLength(content), rolledBackFromId: rows[0]!.id, lockId: null });
    // The CLI's next GET sees it.
    const get = await proto("GET", "acme", "rb", { token });
    expect(await get.text()).toBe(content);
    const audit = (await auditActions(orgId)).filter((a) => a.action === "state.rollback");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ fromSerial: 1, serial: 4 });
    // Pushing the rolled-back state again is a no-op that answers with that version.
    const again = await proto("POST", "acme", "rb", { token, body: content });
    expect((await again.json()).data).toMatchObject({ serial: 4, source: "rollback", rolledBackFromSerial: 1 });
    expect(await versions("acme", "rb")).toHaveLength(4);
    // The CLI carries on from the rolled-back state with serial 5.
    expect((await proto("POST", "acme", "rb", { token, body: stateJson({ serial: 5 }) })).status).toBe(200);
  });

  it("is refused with 423 and the lock JSON while the state is locked; nothing is written", async () => {
    await history("rb-locked", [stateJson({ serial: 1 }), stateJson({ serial: 2, resources: 2 })]);
    const id = randomUUID();
    expect((await proto("LOCK", "acme", "rb-locked", { token, body: lockBody(id) })).status).toBe(200);
    const res = await rollbackApi("acme", "rb-locked", "1", token);
    expect(res.status).toBe(423);
    const body = await res.json();
    expect(body).toMatchObject({ ID: id, Operation: "OperationTypeApply", Who: "ci@runner" });
    expect(body.errors[0].title).toBe("State is locked");
    expect((await versions("acme", "rb-locked")).map((v) => v.serial)).toEqual([1n, 2n]);
  });

  it("answers 404 for an unknown serial, 400 for a malformed one, 409 for the current one", async () => {
    await history("rb-bad", [stateJson({ serial: 1 }), stateJson({ serial: 2, resources: 2 })]);
    expect((await rollbackApi("acme", "rb-bad", "7", token)).status).toBe(404);
    expect((await rollbackApi("acme", "rb-bad", "abc", token)).status).toBe(400);
    expect((await rollbackApi("acme", "rb-bad", "-1", token)).status).toBe(400);
    expect((await rollbackApi("acme", "rb-bad", "2", token)).status).toBe(409);
    expect((await rollbackApi("acme", "missing-ws", "1", token)).status).toBe(404);
    expect((await rollbackApi("acme", "rb-bad", "1", null)).status).toBe(401);
    expect(await versions("acme", "rb-bad")).toHaveLength(2);
  });
});

describe("lock API", () => {
  it("shows the lock with holder, operation and age, and force-unlocks it (audited)", async () => {
    await history("lk", [stateJson({ serial: 1 })]);
    expect(await (await lockApi("GET", "acme", "lk", token)).json()).toEqual({ locked: false });
    const id = randomUUID();
    const created = "2026-11-22T05:00:00Z";
    const raw = JSON.stringify({ ID: id, Operation: "OperationTypePlan", Info: "ci run 7", Who: "bob@ci", Version: "1.11.4", Created: created, Path: "" });
    expect((await proto("LOCK", "acme", "lk", { token, body: raw })).status).toBe(200);
    const status = await (await lockApi("GET", "acme", "lk", token)).json();
    expect(status).toMatchObject({ locked: true, id, operation: "OperationTypePlan", who: "bob@ci", version: "1.11.4", created, path: "", info: "ci run 7", holder: "owner@acme.test" });
    expect(Math.abs(Date.parse(status.lockedAt) - Date.now())).toBeLessThan(60_000);
    expect(status.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(status.ageSeconds).toBeLessThan(60);
    const del = await lockApi("DELETE", "acme", "lk", token);
    expect(del.status).toBe(204);
    expect(await (await lockApi("GET", "acme", "lk", token)).json()).toEqual({ locked: false });
    const forced = (await auditActions(orgId)).filter((a) => a.action === "state.force_unlock");
    expect(forced.at(-1)!.detail).toMatchObject({ lockId: id, via: "api", holder: "owner@acme.test" });
    // Nothing to unlock is not an error, and not an audit entry.
    expect((await lockApi("DELETE", "acme", "lk", token)).status).toBe(204);
    expect((await auditActions(orgId)).filter((a) => a.action === "state.force_unlock")).toHaveLength(forced.length);
  });

  it("does not create workspaces (404 for an unknown one)", async () => {
    expect((await lockApi("GET", "acme", "nothing-here", token)).status).toBe(404);
    expect(await db().workspace.count({ where: { name: "nothing-here" } })).toBe(0);
  });
});
