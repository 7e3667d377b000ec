// Issue 2, point 11: every kind of bad input gets a clear error and writes nothing.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { lockBody, makeOrg, proto, stateJson, versions } from "./testdata/fixtures";

let orgId: string;
let token: string;
let revoked: string;

beforeAll(async () => {
  const { org, owner } = await makeOrg("acme", "owner@acme.test");
  orgId = org.id;
  token = owner.token;
  const { createToken } = await import("@/server/auth");
  const r = await createToken({ userId: owner.user.id }, "old", owner.user.id);
  await db().apiToken.update({ where: { id: r.row.id }, data: { revokedAt: new Date() } });
  revoked = r.token;
  // An existing workspace with one version, so "nothing written" means "still one version".
  expect((await proto("POST", "acme", "app", { token, body: stateJson({ serial: 1 }) })).status).toBe(200);
});

afterEach(() => {
  delete process.env.TERRACE_MAX_STATE_BYTES;
});

async function expectNothingWritten() {
  expect((await versions("acme", "app")).map((v) => v.serial)).toEqual([1n]);
  expect(await db().auditEvent.count({ where: { organizationId: orgId, action: "state.write" } })).toBe(1);
  expect(await db().workspace.count()).toBe(1);
}

async function errorOf(res: Response) {
  const body = await res.json();
  return body.errors[0] as { status: string; title: string; detail?: string };
}

describe("bad state bodies", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["malformed JSON", '{"version": 4, "serial": ', /not valid JSON/],
    ["an empty body", "", /empty/],
    ["a JSON array", "[]", /JSON object/],
    ["format v3", JSON.stringify({ version: 3, serial: 2, lineage: "l", modules: [] }), /format version 4.*version 3/],
    ["no version", JSON.stringify({ serial: 2, lineage: "l", resources: [] }), /format version 4.*no version/],
    ["no lineage", JSON.stringify({ version: 4, serial: 2, resources: [] }), /"lineage"/],
    ["a negative serial", JSON.stringify({ version: 4, serial: -1, lineage: "l", resources: [] }), /"serial"/],
    ["a fractional serial", JSON.stringify({ version: 4, serial: 1.5, lineage: "l", resources: [] }), /"serial"/],
    ["a string serial", JSON.stringify({ version: 4, serial: "2", lineage: "l", resources: [] }), /"serial"/],
    ["no resources array", JSON.stringify({ version: 4, serial: 2, lineage: "l" }), /"resources"/],
    ["a resource without instances", JSON.stringify({ version: 4, serial: 2, lineage: "l", resources: [{ mode: "managed", type: "t", name: "n" }] }), /resources\[0\]\.instances/],
    ["a resource with a bad mode", JSON.stringify({ version: 4, serial: 2, lineage: "l", resources: [{ mode: "x", type: "t", name: "n", instances: [] }] }), /resources\[0\]\.mode/],
  ];
  for (const [what, body, message] of cases) {
    it(`refuses ${what} with 400`, async () => {
      const res = await proto("POST", "acme", "app", { token, body });
      expect(res.status).toBe(400);
      const err = await errorOf(res);
      expect(`${err.title}: ${err.detail}`).toMatch(message);
      await expectNothingWritten();
    });
  }
});

describe("bad uploads", () => {
  it("refuses a body whose Content-MD5 does not match (400)", async () => {
    const body = stateJson({ serial: 2 });
    const res = await proto("POST", "acme", "app", { token, body, headers: { "content-md5": Buffer.alloc(16, 1).toString("base64") } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).title).toBe("Content-MD5 does not match the body");
    await expectNothingWritten();
  });

  it("refuses a malformed Content-MD5 header (400)", async () => {
    const res = await proto("POST", "acme", "app", { token, body: stateJson({ serial: 2 }), headers: { "content-md5": "abc" } });
    expect(res.status).toBe(400);
    await expectNothingWritten();
  });

  it("refuses a body over TERRACE_MAX_STATE_BYTES with 413, declared or not", async () => {
    const body = stateJson({ serial: 2, resources: 50 });
    process.env.TERRACE_MAX_STATE_BYTES = String(body.length - 1);
    const res = await proto("POST", "acme", "app", { token, body });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).detail).toContain(`${body.length - 1} bytes`);
    // A streamed body with no Content-Length is cut off at the limit too.
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(body)); c.close(); } });
    const { POST } = await import("@/app/api/v1/state/[org]/[workspace]/route");
    const req = new Request("http://terrace.test/api/v1/state/acme/app", {
      method: "POST",
      body: stream,
      headers: { authorization: `Bearer ${token}` },
      duplex: "half",
    } as RequestInit);
    const streamed = await POST(req, { params: Promise.resolve({ org: "acme", workspace: "app" }) });
    expect(streamed.status).toBe(413);
    await expectNothingWritten();
  });
});

describe("bad addresses and credentials", () => {
  it("refuses bad organization and workspace names (400) without creating anything", async () => {
    for (const [org, ws] of [["acme", "-bad"], ["acme", "has space"], ["acme", "x".repeat(91)], ["no.dots", "app"]]) {
      const res = await proto("POST", org!, ws!, { token, body: stateJson({ serial: 9 }) });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).title).toMatch(/Invalid (organization|workspace) name/);
      expect((await proto("GET", org!, ws!, { token })).status).toBe(400);
    }
    await expectNothingWritten();
  });

  it("answers 404 for an unknown organization", async () => {
    for (const kind of ["GET", "POST", "LOCK"] as const) {
      const res = await proto(kind, "nope", "app", { token, body: kind === "GET" ? undefined : kind === "LOCK" ? lockBody() : stateJson({ serial: 2 }) });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).title).toBe('Organization "nope" not found');
    }
    await expectNothingWritten();
  });

  it("answers 401 with a Basic challenge when the token is missing, unknown or revoked", async () => {
    for (const t of [null, "trc_not-a-real-token", revoked]) {
      for (const kind of ["GET", "POST", "LOCK", "UNLOCK"] as const) {
        const res = await proto(kind, "acme", "app", { token: t, body: kind === "GET" ? undefined : kind === "POST" ? stateJson({ serial: 2 }) : lockBody() });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="terrace"/);
      }
    }
    await expectNothingWritten();
    expect(await db().stateLock.count()).toBe(0);
  });

  it("takes the token as Bearer too", async () => {
    const res = await proto("GET", "acme", "app", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });
});
