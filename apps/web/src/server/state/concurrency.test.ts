// Concurrent requests on one workspace: the workspace row lock and the unique (workspace, serial)
// index keep history sound, and exactly one of several competing LOCKs wins.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { lockBody, makeOrg, proto, stateJson, versions } from "./testdata/fixtures";

let token: string;

beforeAll(async () => {
  token = (await makeOrg("acme", "owner@acme.test")).owner.token;
});

describe("concurrent requests", () => {
  it("writes with rising serials: every 200 is a version, versions only go up, no duplicates", async () => {
    const serials = Array.from({ length: 12 }, (_, i) => i + 1);
    const results = await Promise.all(serials.map((serial) => proto("POST", "acme", "race", { token, body: stateJson({ serial, resources: serial }) })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const rows = await versions("acme", "race");
    expect(rows).toHaveLength(ok);
    expect(new Set(rows.map((r) => r.serial)).size).toBe(rows.length);
    // In commit order (the audit log's insertion sequence, written in the same transaction) the
    // serials only rise: no write was accepted after a higher one.
    const writes = await db().auditEvent.findMany({ where: { action: "state.write", targetLabel: "race" }, orderBy: { seq: "asc" } });
    const committed = writes.map((w) => (w.detail as { serial: number }).serial);
    expect(committed).toEqual([...committed].sort((a, b) => a - b));
    expect(committed).toHaveLength(ok);
  });

  it("one serial, different contents: exactly one write wins, the rest get 409", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => proto("POST", "acme", "same-serial", { token, body: stateJson({ serial: 1, resources: i + 1 }) })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await versions("acme", "same-serial")).toHaveLength(1);
  });

  it("competing LOCKs: exactly one is granted, the others see its lock JSON", async () => {
    const bodies = Array.from({ length: 8 }, () => lockBody());
    const results = await Promise.all(bodies.map((body) => proto("LOCK", "acme", "lock-race", { token, body })));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const lock = await db().stateLock.findFirstOrThrow({ where: { workspace: { name: "lock-race" } } });
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(423);
      expect(JSON.parse(await r.text()).ID).toBe(lock.lockId);
    }
  });

  it("first requests racing to create a workspace create it once", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => proto("GET", "acme", "born", { token })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(204));
    expect(await db().workspace.count({ where: { name: "born" } })).toBe(1);
  });
});
