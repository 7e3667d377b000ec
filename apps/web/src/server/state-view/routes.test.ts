// The state-history route handlers, called as Next calls them, against the real test database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { brotliCompressSync, gunzipSync } from "node:zlib";
import { db } from "@/server/db";
import { seal } from "@/server/crypto/secretbox";
import { sealState } from "@/server/state/stored";
import { createToken } from "@/server/auth/tokens";
import type { StateV4 } from "@/server/state/types";
import * as listRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/route";
import * as showRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/route";
import * as instancesRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/instances/route";
import * as instanceRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/instance/route";
import * as rawRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/raw/route";
import * as diffRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/diff/route";
import { clearStateViewCaches, isIndexCached } from "./service";
import { SENSITIVE_TEXT } from "./sensitive";
import { smallState } from "./testdata/small-state";
import { generateLargeStateJson } from "./testdata/generate";

// Each handler wants its own params type; the tests pass the right ones.
type Handler = (req: Request, ctx: { params: Promise<never> }) => Promise<Response>;

const BASE = "http://terrace.test/api/v1/orgs/acme/workspaces/net/state-versions";

async function call(handler: Handler, params: Record<string, string>, token: string | null, query: Record<string, string> = {}, path = BASE) {
  const url = new URL(path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await handler(new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve(params) as Promise<never> });
  const text = Buffer.from(await res.arrayBuffer());
  const isJson = res.headers.get("content-type")?.includes("json") && !res.headers.get("content-disposition");
  return { status: res.status, headers: res.headers, raw: text, body: isJson ? JSON.parse(text.toString("utf8")) : null };
}

const P = { org: "acme", workspace: "net" };
const withSerial = (serial: string | number) => ({ ...P, serial: String(serial) });

let owner: string; // org owner's token
let reader: string; // member of a team with read access
let teamReader: string; // that team's token
let outsider: string; // member of another organization
let memberNoAccess: string; // member of the organization, no team access to the workspace
let workspaceId: string;
const versionIds: Record<number, string> = {};

async function user(email: string) {
  const u = await db().user.create({ data: { email, name: email, passwordHash: "x" } });
  return { id: u.id, token: (await createToken({ userId: u.id }, "test", u.id)).token };
}

async function addVersion(serial: number, state: StateV4 | string, extra: { source?: "cli" | "rollback"; rolledBackFromId?: string } = {}) {
  const text = Buffer.from(typeof state === "string" ? state : JSON.stringify(state, null, 2));
  const row = await db().stateVersion.create({
    data: {
      workspaceId,
      serial: BigInt(serial),
      lineage: "00000000-0000-0000-0000-0000000000aa",
      terraformVersion: "1.10.0",
      sha256: createHash("sha256").update(text).digest("hex"),
      md5: createHash("md5").update(text).digest("base64"),
      size: text.length,
      resourceCount: 4,
      instanceCount: 5,
      content: seal(text) as Uint8Array<ArrayBuffer>,
      source: extra.source ?? "cli",
      rolledBackFromId: extra.rolledBackFromId ?? null,
      actorLabel: "ci@example.com",
      lockId: serial === 2 ? "lock-2" : null,
    },
  });
  versionIds[serial] = row.id;
  return row;
}

function v2(): StateV4 {
  const s = smallState({ serial: 2 });
  s.resources![0]!.instances[0]!.attributes = { id: "vpc-123", cidr_block: "10.0.0.0/16", tags: { Name: "main", Env: "prod" } };
  const db = s.resources![3]!.instances[0]!;
  db.attributes = { ...db.attributes, password: "rotated-secret" };
  s.outputs!.db_password = { value: "rotated-secret", type: "string", sensitive: true };
  return s;
}

beforeAll(async () => {
  const o = await user("owner@example.com");
  const r = await user("reader@example.com");
  const m = await user("member@example.com");
  const x = await user("outsider@example.com");
  owner = o.token;
  reader = r.token;
  memberNoAccess = m.token;
  outsider = x.token;
  const org = await db().organization.create({ data: { name: "acme" } });
  const other = await db().organization.create({ data: { name: "other" } });
  await db().organizationMember.createMany({
    data: [
      { organizationId: org.id, userId: o.id, role: "owner" },
      { organizationId: org.id, userId: r.id, role: "member" },
      { organizationId: org.id, userId: m.id, role: "member" },
      { organizationId: other.id, userId: x.id, role: "owner" },
    ],
  });
  const team = await db().team.create({ data: { organizationId: org.id, name: "readers", members: { create: [{ userId: r.id }] } } });
  teamReader = (await createToken({ teamId: team.id }, "ci", null)).token;
  const ws = await db().workspace.create({ data: { organizationId: org.id, name: "net", access: { create: [{ teamId: team.id, level: "read" }] } } });
  workspaceId = ws.id;
  await addVersion(1, smallState({ serial: 1 }));
  await addVersion(2, v2());
  const v1 = await db().stateVersion.findFirstOrThrow({ where: { workspaceId, serial: 1n } });
  // Serial 3 is a rollback to serial 1: the same content, a higher serial.
  await addVersion(3, smallState({ serial: 3 }), { source: "rollback", rolledBackFromId: v1.id });
});

afterAll(() => clearStateViewCaches());

describe("GET state-versions", () => {
  it("lists versions newest first, paged, with the contract's fields", async () => {
    const r = await call(listRoute.GET, P, reader, { pageSize: "2" });
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ page: 1, pageSize: 2, total: 3 });
    expect(r.body.data.map((v: { serial: number }) => v.serial)).toEqual([3, 2]);
    const [three, two] = r.body.data;
    expect(Object.keys(three).sort()).toEqual(
      ["id", "serial", "lineage", "terraformVersion", "sha256", "md5", "size", "resourceCount", "instanceCount", "encrypted", "source", "actorLabel", "lockId", "rolledBackFromSerial", "createdAt", "current"].sort(),
    );
    expect(three).toMatchObject({ serial: 3, source: "rollback", rolledBackFromSerial: 1, current: true, actorLabel: "ci@example.com", terraformVersion: "1.10.0" });
    expect(two).toMatchObject({ serial: 2, source: "cli", rolledBackFromSerial: null, current: false, lockId: "lock-2" });
    expect(new Date(two.createdAt).toISOString()).toBe(two.createdAt);
    const p2 = await call(listRoute.GET, P, reader, { pageSize: "2", page: "2" });
    expect(p2.body.data.map((v: { serial: number }) => v.serial)).toEqual([1]);
  });

  it("starts loading the current version when the first page is listed", async () => {
    clearStateViewCaches();
    await call(listRoute.GET, P, reader, { page: "2", pageSize: "1" });
    expect(isIndexCached(versionIds[3]!)).toBe(false);
    await call(listRoute.GET, P, reader);
    expect(isIndexCached(versionIds[3]!)).toBe(true);
    expect(isIndexCached(versionIds[2]!)).toBe(false);
  });

  it("refuses bad paging with a 400", async () => {
    const bad: Record<string, string>[] = [{ pageSize: "500" }, { page: "0" }, { page: "x" }];
    for (const query of bad) {
      const r = await call(listRoute.GET, P, reader, query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.errors[0].title).toBe("Invalid request");
    }
  });
});

describe("GET state-versions/:serial", () => {
  it("shows a version with masked outputs and modules; `current` is the highest serial", async () => {
    const r = await call(showRoute.GET, withSerial(2), reader);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: versionIds[2], serial: 2, current: false });
    expect(r.body.outputs).toEqual([
      { name: "db_password", type: "string", sensitive: true, value: null },
      { name: "vpc_id", type: "string", sensitive: false, value: "vpc-123" },
      { name: "zones", type: ["list", "string"], sensitive: false, value: ["a", "b"] },
    ]);
    expect(r.body.modules).toEqual([
      { module: "", resourceCount: 2, instanceCount: 2 },
      { module: 'module.app["web"]', resourceCount: 2, instanceCount: 3 },
    ]);
    expect(r.raw.toString()).not.toMatch(/hunter2|rotated-secret/);
    const cur = await call(showRoute.GET, withSerial("current"), reader);
    expect(cur.body.data).toMatchObject({ serial: 3, current: true });
  });

  it("answers 404 for a serial the workspace does not have and 400 for a malformed one", async () => {
    const missing = await call(showRoute.GET, withSerial(99), reader);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].title).toBe("State version 99 not found");
    const bad = await call(showRoute.GET, withSerial("-1"), reader);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ title: "Invalid serial" });
  });

  it("answers 422 for stored content that is not a state v4 file", async () => {
    const ws = await db().workspace.create({ data: { organizationId: (await db().organization.findUniqueOrThrow({ where: { name: "acme" } })).id, name: "broken" } });
    const text = Buffer.from(JSON.stringify({ version: 3, serial: 1 }));
    await db().stateVersion.create({
      data: { workspaceId: ws.id, serial: 1n, lineage: "l", sha256: "x", md5: "x", size: text.length, resourceCount: 0, instanceCount: 0, content: seal(text) as Uint8Array<ArrayBuffer>, source: "api", actorLabel: "t" },
    });
    const r = await call(showRoute.GET, { org: "acme", workspace: "broken", serial: "1" }, owner);
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ title: "Stored state cannot be read", detail: expect.stringMatching(/format version 3/) });
  });
});

describe("GET state-versions/:serial/instances and /instance", () => {
  it("pages instance rows sorted by module, address and key, with per-instance providers", async () => {
    const r = await call(instancesRoute.GET, withSerial(1), reader, { offset: "2", limit: "2" });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(5);
    expect(r.body.data).toEqual([
      {
        address: 'module.app["web"].aws_db_instance.db["main \\"primary\\""]',
        module: 'module.app["web"]',
        mode: "managed",
        type: "aws_db_instance",
        name: "db",
        key: 'main "primary"',
        provider: 'module.app["web"].provider["registry.opentofu.org/hashicorp/aws"]',
        providerLevel: "resource",
        status: null,
        deposed: [],
      },
      {
        address: 'module.app["web"].aws_instance.server[0]',
        module: 'module.app["web"]',
        mode: "managed",
        type: "aws_instance",
        name: "server",
        key: 0,
        provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]',
        providerLevel: "instance",
        status: "tainted",
        deposed: ["00000001"],
      },
    ]);
    const q = await call(instancesRoute.GET, withSerial("current"), reader, { q: "DATA.aws" });
    expect(q.body).toMatchObject({ total: 1, data: [{ address: "data.aws_ami.ubuntu", mode: "data" }] });
    expect((await call(instancesRoute.GET, withSerial(1), reader, { limit: "0" })).status).toBe(400);
    expect((await call(instancesRoute.GET, withSerial(1), reader, { offset: "-3" })).status).toBe(400);
  });

  it("shows one instance with sensitive attributes masked", async () => {
    const address = 'module.app["web"].aws_db_instance.db["main \\"primary\\""]';
    const r = await call(instanceRoute.GET, withSerial(2), reader, { address });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      address,
      provider: 'module.app["web"].provider["registry.opentofu.org/hashicorp/aws"]',
      schemaVersion: 2,
      sensitivePaths: [["password"], ["connection", "token"]],
      dependencies: [],
      deposed: [],
    });
    expect(r.body.attributes).toMatchObject({ id: "db-1", password: SENSITIVE_TEXT, connection: { host: "db.internal", token: SENSITIVE_TEXT } });
    expect(r.raw.toString()).not.toMatch(/hunter2|rotated-secret|t0ken/);

    const server = await call(instanceRoute.GET, withSerial(1), reader, { address: 'module.app["web"].aws_instance.server[0]' });
    expect(server.body.deposed).toEqual([expect.objectContaining({ key: "00000001", attributes: expect.objectContaining({ id: "i-0-old" }) })]);

    const missing = await call(instanceRoute.GET, withSerial(1), reader, { address: "aws_vpc.other" });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].title).toBe("No resource instance aws_vpc.other in state version 1");
    expect((await call(instanceRoute.GET, withSerial(1), reader)).status).toBe(400);
  });
});

describe("GET state-versions/:serial/raw", () => {
  it("downloads the state exactly as written, as an attachment", async () => {
    const r = await call(rawRoute.GET, withSerial(2), reader);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="net-2.tfstate"');
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.raw.toString("utf8")).toBe(JSON.stringify(v2(), null, 2));
    const row = await db().stateVersion.findUniqueOrThrow({ where: { id: versionIds[2] } });
    expect(createHash("sha256").update(r.raw).digest("hex")).toBe(row.sha256);
  });
});

describe("content stored compressed", () => {
  it("reads versions written compressed and older ones written plain or with Brotli, and downloads them as the same JSON", async () => {
    const org = await db().organization.findUniqueOrThrow({ where: { name: "acme" } });
    const text = Buffer.from(JSON.stringify(smallState({ serial: 1 })));
    for (const [name, content] of [
      ["compressed", sealState(text)],
      ["plain", seal(text)],
      ["brotli", seal(Buffer.concat([Buffer.from("\0br1", "latin1"), brotliCompressSync(text)]))],
    ] as const) {
      const ws = await db().workspace.create({ data: { organizationId: org.id, name } });
      await db().stateVersion.create({
        data: { workspaceId: ws.id, serial: 1n, lineage: "l", sha256: "x", md5: "x", size: text.length, resourceCount: 4, instanceCount: 5, content: content as Uint8Array<ArrayBuffer>, source: "api", actorLabel: "t" },
      });
      const GP = { org: "acme", workspace: name, serial: "1" };
      expect((await call(instancesRoute.GET, GP, owner)).body.total).toBe(5);
      expect((await call(rawRoute.GET, GP, owner)).raw.equals(text)).toBe(true);
    }
    // A browser that accepts gzip gets the gzip-stored version's bytes as stored, for server.mjs
    // to send with Content-Encoding; a version stored otherwise is sent as the file.
    const gz = (name: string) =>
      rawRoute.GET(new Request(`${BASE}/1/raw`, { headers: { authorization: `Bearer ${owner}`, "accept-encoding": "gzip, deflate, br" } }), {
        params: Promise.resolve({ org: "acme", workspace: name, serial: "1" }) as Promise<never>,
      });
    const compressed = await gz("compressed");
    expect(compressed.headers.get("x-terrace-content-encoding")).toBe("gzip");
    expect(compressed.headers.get("content-disposition")).toBe('attachment; filename="compressed-1.tfstate"');
    expect(gunzipSync(Buffer.from(await compressed.arrayBuffer())).equals(text)).toBe(true);
    const plain = await gz("plain");
    expect(plain.headers.get("x-terrace-content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(text)).toBe(true);
  });
});

describe("GET state-versions/diff", () => {
  it("diffs two versions with attribute-level changes and masked sensitive values", async () => {
    const r = await call(diffRoute.GET, P, reader, { from: "1", to: "2" }, `${BASE}/diff`);
    expect(r.status).toBe(200);
    expect(r.body.from).toMatchObject({ serial: 1, current: false });
    expect(r.body.to).toMatchObject({ serial: 2, current: false });
    expect(r.body.summary).toEqual({ added: 0, removed: 0, changed: 2, unchanged: 4 });
    expect(r.body.outputs).toEqual([{ name: "db_password", action: "changed", sensitive: true, before: null, after: null }]);
    expect(r.body.total).toBe(2);
    expect(r.body.data).toEqual([
      {
        address: "aws_vpc.main",
        module: "",
        deposed: null,
        action: "changed",
        provider: 'provider["registry.opentofu.org/hashicorp/aws"]',
        changes: [{ path: "tags.Env", action: "added", before: null, after: "prod", sensitive: false }],
        changesOmitted: 0,
      },
      {
        address: 'module.app["web"].aws_db_instance.db["main \\"primary\\""]',
        module: 'module.app["web"]',
        deposed: null,
        action: "changed",
        provider: 'module.app["web"].provider["registry.opentofu.org/hashicorp/aws"]',
        changes: [{ path: "password", action: "changed", before: null, after: null, sensitive: true }],
        changesOmitted: 0,
      },
    ]);
    expect(r.raw.toString()).not.toMatch(/hunter2|rotated-secret/);

    const paged = await call(diffRoute.GET, P, reader, { from: "2", to: "current", offset: "1", limit: "1" }, `${BASE}/diff`);
    expect(paged.body.total).toBe(2);
    expect(paged.body.to).toMatchObject({ serial: 3, current: true });
    expect(paged.body.data.map((d: { address: string }) => d.address)).toEqual(['module.app["web"].aws_db_instance.db["main \\"primary\\""]']);
  });

  it("refuses missing or malformed serials and answers 404 for unknown ones", async () => {
    const missing = await call(diffRoute.GET, P, reader, { from: "1" }, `${BASE}/diff`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].detail).toMatch(/to/);
    const bad = await call(diffRoute.GET, P, reader, { from: "1", to: "two" }, `${BASE}/diff`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].title).toBe("Invalid to serial");
    expect((await call(diffRoute.GET, P, reader, { from: "1", to: "42" }, `${BASE}/diff`)).status).toBe(404);
  });
});

describe("permissions", () => {
  const endpoints: [string, Handler, Record<string, string>, Record<string, string>, string?][] = [
    ["list", listRoute.GET, P, {}],
    ["show", showRoute.GET, withSerial(1), {}],
    ["instances", instancesRoute.GET, withSerial(1), {}],
    ["instance", instanceRoute.GET, withSerial(1), { address: "aws_vpc.main" }],
    ["raw", rawRoute.GET, withSerial(1), {}],
    ["diff", diffRoute.GET, P, { from: "1", to: "2" }, `${BASE}/diff`],
  ];

  it("lets read-level users and team tokens in", async () => {
    for (const [name, handler, params, query, path] of endpoints) {
      for (const token of [reader, teamReader, owner]) expect((await call(handler, params, token, query, path)).status, name).toBe(200);
    }
  });

  it("answers 404 without read access, never showing state, and 401 without credentials", async () => {
    for (const [name, handler, params, query, path] of endpoints) {
      for (const token of [outsider, memberNoAccess]) {
        const r = await call(handler, params, token, query, path);
        expect(r.status, `${name}`).toBe(404);
        expect(r.raw.toString()).not.toMatch(/vpc-123|aws_vpc/);
      }
      const anonymous = await call(handler, params, null, query, path);
      expect(anonymous.status, name).toBe(401);
      // The UI calls these routes: a Basic challenge would pop the browser's own password dialog.
      expect(anonymous.headers.get("www-authenticate"), name).toBeNull();
    }
  });
});

describe("large states", () => {
  // Smaller than the 50 MB / 20,000-instance states of the pure tests and bench/state-view.mjs, to
  // keep the suite quick; this one is about the route and database path of a sizeable state.
  it("serves and diffs two generated versions with 5,000 instances", { timeout: 120_000 }, async () => {
    const org = await db().organization.findUniqueOrThrow({ where: { name: "acme" } });
    const ws = await db().workspace.create({ data: { organizationId: org.id, name: "big" } });
    for (const variant of [0, 1]) {
      const text = Buffer.from(generateLargeStateJson({ variant, instances: 5000, targetBytes: 8 * 1024 * 1024 }));
      await db().stateVersion.create({
        data: {
          workspaceId: ws.id,
          serial: BigInt(variant + 1),
          lineage: "l",
          sha256: createHash("sha256").update(text).digest("hex"),
          md5: "x",
          size: text.length,
          resourceCount: 0,
          instanceCount: 0,
          content: seal(text) as Uint8Array<ArrayBuffer>,
          source: "cli",
          actorLabel: "t",
        },
      });
    }
    const BP = { org: "acme", workspace: "big" };
    const page = await call(instancesRoute.GET, { ...BP, serial: "1" }, owner, { offset: "4000", limit: "500" });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5001);
    expect(page.body.data).toHaveLength(500);
    const diff = await call(diffRoute.GET, BP, owner, { from: "1", to: "2", limit: "200" }, `${BASE}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body.total).toBe(diff.body.summary.added + diff.body.summary.removed + diff.body.summary.changed);
    expect(diff.body.data).toHaveLength(200);
    const raw = await call(rawRoute.GET, { ...BP, serial: "2" }, owner);
    expect(raw.raw.length).toBeGreaterThan(7 * 1024 * 1024);
    expect(createHash("sha256").update(raw.raw).digest("hex")).toBe((await db().stateVersion.findFirstOrThrow({ where: { workspaceId: ws.id, serial: 2n } })).sha256);
  });
});
