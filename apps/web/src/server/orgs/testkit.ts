// Fixtures for the route-handler tests: real rows in the test database, and a way to call a Next
// route handler directly with a `Request`, as the server would.
import { createSession, CSRF_HEADER, hashPassword, SESSION_COOKIE, createToken } from "../auth";
import type { AccessLevel } from "../authz";
import { db } from "../db";

type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

export type Caller = { token?: string; cookie?: string; csrf?: string };

export type CallOptions = Caller & {
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string>;
  ip?: string;
  headers?: Record<string, string>;
};

export type CallResult = { status: number; body: any; headers: Headers };

let passwordHash: Promise<string> | null = null;
export const TEST_PASSWORD = "correct horse battery staple";

/** A user with a known password and a personal API token. */
export async function makeUser(email: string, name = email.split("@")[0]!) {
  const user = await db().user.create({ data: { email, name, passwordHash: await (passwordHash ??= hashPassword(TEST_PASSWORD)) } });
  const { token } = await createToken({ userId: user.id }, "test", user.id);
  return { ...user, token, as: { token } as Caller };
}

/** A cookie session for a user, as a browser would hold it after signing in. */
export async function sessionFor(userId: string): Promise<Required<Pick<Caller, "cookie" | "csrf">>> {
  const s = await createSession(userId, null, null);
  return { cookie: `${SESSION_COOKIE}=${s.secret}`, csrf: s.csrfToken };
}

export async function makeOrg(name: string, owner: { id: string }) {
  const org = await db().organization.create({ data: { name } });
  await db().organizationMember.create({ data: { organizationId: org.id, userId: owner.id, role: "owner" } });
  return org;
}

export async function addToOrg(organizationId: string, userId: string, role: "owner" | "member" = "member") {
  await db().organizationMember.create({ data: { organizationId, userId, role } });
}

export async function makeTeam(organizationId: string, name: string, userIds: string[], manageWorkspaces = false) {
  return db().team.create({
    data: { organizationId, name, manageWorkspaces, members: { create: userIds.map((userId) => ({ userId })) } },
  });
}

export async function teamToken(teamId: string): Promise<Caller> {
  const { token } = await createToken({ teamId }, "test", null);
  return { token };
}

export async function makeWorkspace(organizationId: string, name: string, grants: [teamId: string, level: AccessLevel][] = []) {
  return db().workspace.create({
    data: { organizationId, name, access: { create: grants.map(([teamId, level]) => ({ teamId, level })) } },
  });
}

/** Stores a state version row directly (the state API is not what these tests are about). */
export async function addStateVersion(workspaceId: string, serial: number, resourceCount: number) {
  const content = Buffer.from(JSON.stringify({ version: 4, serial, lineage: "l-1", resources: [] }));
  return db().stateVersion.create({
    data: {
      workspaceId,
      serial: BigInt(serial),
      lineage: "l-1",
      sha256: "x",
      md5: "x",
      size: content.length,
      resourceCount,
      instanceCount: resourceCount,
      content,
      source: "api",
      actorLabel: "test",
    },
  });
}

/** Calls a route handler the way Next does: a Request plus a promise of the path parameters. */
export async function call<P>(handler: Handler<P>, method: string, path: string, params: P, opts: CallOptions = {}): Promise<CallResult> {
  const url = new URL(path, "http://terrace.test");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  if (opts.csrf) headers.set(CSRF_HEADER, opts.csrf);
  headers.set("x-terrace-remote-addr", opts.ip ?? "192.0.2.10");
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const res = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(params) });
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function auditActions(organizationId: string | null) {
  return db().auditEvent.findMany({ where: { organizationId }, orderBy: { seq: "asc" } });
}
