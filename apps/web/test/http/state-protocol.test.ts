// The `backend "http"` protocol over the wire against a running Terrace (apps/web/server.mjs):
// real LOCK and UNLOCK methods, which only the Node front in server.mjs can route.
import { describe, expect, it } from "vitest";
import http from "node:http";
import { createHash, randomUUID } from "node:crypto";

const base = process.env.TERRACE_TEST_URL!;
const token = process.env.TERRACE_TEST_ADMIN_TOKEN!;
const maxBytes = Number(process.env.TERRACE_TEST_MAX_STATE_BYTES ?? 64 * 1024 * 1024);
const auth = `Basic ${Buffer.from(`terraform:${token}`).toString("base64")}`;
const ws = `proto-${randomUUID().slice(0, 8)}`;
const address = `/api/v1/state/default/${ws}`;

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request with any method (fetch refuses LOCK/UNLOCK), the way terraform sends it. */
function send(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(path, base);
  const h: Record<string, string> = { authorization: auth, ...headers };
  if (body !== undefined) {
    h["content-type"] ??= "application/json";
    h["content-md5"] ??= createHash("md5").update(body).digest("base64");
    h["content-length"] ??= String(Buffer.byteLength(body));
  }
  for (const [k, v] of Object.entries(h)) if (v === "") delete h[k];
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function state(serial: number, lineage = "a0b1c2d3-0000-4000-8000-000000000001"): string {
  return JSON.stringify({ version: 4, terraform_version: "1.11.4", serial, lineage, outputs: {}, resources: [{ mode: "managed", type: "terraform_data", name: "x", provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ schema_version: 0, attributes: { id: `i${serial}` } }] }], check_results: null }, null, 2) + "\n";
}

function lockInfo(id = randomUUID()): string {
  return `{"ID":"${id}","Operation":"OperationTypeApply","Info":"","Who":"tester@host","Version":"1.11.4","Created":"${new Date().toISOString()}","Path":""}`;
}

describe("backend http protocol over the wire", () => {
  it("GET of a new workspace is 204 (terraform starts from an empty state)", async () => {
    const r = await send("GET", address);
    expect(r.status).toBe(204);
  });

  it("LOCK, 423 with the holder's JSON verbatim, write under ?ID=, UNLOCK", async () => {
    const mine = lockInfo();
    const id = JSON.parse(mine).ID;
    expect((await send("LOCK", `${address}/lock`, mine)).status).toBe(200);
    const theirs = await send("LOCK", address, lockInfo());
    expect(theirs.status).toBe(423);
    expect(theirs.body).toBe(mine);
    const unlocked = await send("POST", address, state(1));
    expect(unlocked.status).toBe(423);
    expect(JSON.parse(unlocked.body).ID).toBe(id);
    expect((await send("POST", `${address}?ID=${id}`, state(1))).status).toBe(200);
    const wrongUnlock = await send("UNLOCK", `${address}/lock`, lockInfo());
    expect(wrongUnlock.status).toBe(423);
    expect(wrongUnlock.body).toBe(mine);
    expect((await send("UNLOCK", `${address}/lock`, mine)).status).toBe(200);
    const got = await send("GET", address);
    expect(got.status).toBe(200);
    expect(got.body).toBe(state(1));
    expect(got.headers["content-md5"]).toBe(createHash("md5").update(state(1)).digest("base64"));
  });

  it("GitLab style: POST …/lock locks, DELETE …/lock unlocks; PUT writes", async () => {
    const l = lockInfo();
    expect((await send("POST", `${address}/lock`, l)).status).toBe(200);
    expect((await send("LOCK", `${address}/lock`, lockInfo())).status).toBe(423);
    expect((await send("PUT", `${address}?ID=${JSON.parse(l).ID}`, state(2))).status).toBe(200);
    expect((await send("DELETE", `${address}/lock`, l)).status).toBe(200);
    expect((await send("PUT", address, state(3))).status).toBe(200);
  });

  it("an empty-body UNLOCK force-unlocks", async () => {
    expect((await send("LOCK", address, lockInfo())).status).toBe(200);
    expect((await send("UNLOCK", address)).status).toBe(200);
    expect((await send("LOCK", address, lockInfo())).status).toBe(200);
    const status = await send("GET", `/api/v1/orgs/default/workspaces/${ws}/lock`);
    expect(JSON.parse(status.body)).toMatchObject({ locked: true, holder: process.env.TERRACE_TEST_ADMIN_EMAIL });
    expect((await send("DELETE", `/api/v1/orgs/default/workspaces/${ws}/lock`)).status).toBe(204);
  });

  it("refuses a corrupted upload, an old serial, and an anonymous client", async () => {
    const corrupt = await send("POST", address, state(4), { "content-md5": createHash("md5").update("other").digest("base64") });
    expect(corrupt.status).toBe(400);
    expect((await send("POST", address, state(1))).status).toBe(409);
    const anon = await send("GET", address, undefined, { authorization: "" });
    expect(anon.status).toBe(401);
    expect(anon.headers["www-authenticate"]).toMatch(/^Basic/);
    const got = await send("GET", address);
    expect(JSON.parse(got.body).serial).toBe(3);
  });

  it("answers 413 to a body over the limit", async () => {
    const big = Buffer.alloc(maxBytes + 1, 0x20);
    const r = await send("POST", address, big);
    expect(r.status).toBe(413);
    expect(JSON.parse((await send("GET", address)).body).serial).toBe(3);
  });

  it("rolls back through the API and the next GET has the old content with serial current + 1", async () => {
    const r = await send("POST", `/api/v1/orgs/default/workspaces/${ws}/state-versions/1/rollback`);
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body).data).toMatchObject({ serial: 4, source: "rollback", rolledBackFromSerial: 1 });
    const got = await send("GET", address);
    expect(got.body).toBe(state(1).replace('"serial": 1,', '"serial": 4,'));
  });
});
