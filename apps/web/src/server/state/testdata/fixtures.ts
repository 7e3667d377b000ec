// Test fixtures for the state tests: an organization with an owner, teams at each level, tokens,
// and helpers that call the route handlers the way Next does.
import { randomUUID, createHash } from "node:crypto";
import { db } from "@/server/db";
import { createToken } from "@/server/auth";
import type { AccessLevel } from "@/server/authz";
import * as stateRoute from "@/app/api/v1/state/[org]/[workspace]/route";
import * as stateLockRoute from "@/app/api/v1/state/[org]/[workspace]/lock/route";
import * as wsLockRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/lock/route";
import * as rollbackRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/rollback/route";

export async function makeUser(email: string) {
  const user = await db().user.create({ data: { email, name: email.split("@")[0]!, passwordHash: "unused" } });
  const { token } = await createToken({ userId: user.id }, "test", user.id);
  return { user, token };
}

export async function makeOrg(name: string, ownerEmail: string) {
  const owner = await makeUser(ownerEmail);
  const org = await db().organization.create({ data: { name } });
  await db().organizationMember.create({ data: { organizationId: org.id, userId: owner.user.id, role: "owner" } });
  return { org, owner };
}

/** A member of `org` in a team with `level` on the given workspace (created when missing). */
export async function makeMember(orgId: string, email: string, teamName: string, wsName: string, level: AccessLevel | null) {
  const m = await makeUser(email);
  await db().organizationMember.create({ data: { organizationId: orgId, userId: m.user.id, role: "member" } });
  const team = await db().team.create({ data: { organizationId: orgId, name: teamName } });
  await db().teamMember.create({ data: { teamId: team.id, userId: m.user.id } });
  const ws = await db().workspace.upsert({
    where: { organizationId_name: { organizationId: orgId, name: wsName } },
    create: { organizationId: orgId, name: wsName },
    update: {},
  });
  if (level) await db().workspaceAccess.create({ data: { workspaceId: ws.id, teamId: team.id, level } });
  return { ...m, team, workspace: ws };
}

export type StateOptions = {
  lineage?: string;
  serial: number;
  resources?: number;
  extra?: Record<string, unknown>;
  terraformVersion?: string;
};

/** A v4 state as terraform writes it: pretty-printed, `terraform_data` resources. */
export function stateJson(o: StateOptions): string {
  const resources = Array.from({ length: o.resources ?? 1 }, (_, i) => ({
    mode: "managed",
    type: "terraform_data",
    name: `r${i}`,
    provider: 'provider["terraform.io/builtin/terraform"]',
    instances: [{ schema_version: 0, attributes: { id: `id-${i}`, input: { value: `v${o.serial}`, type: "string" }, output: null, triggers_replace: null }, sensitive_attributes: [] }],
  }));
  const state = {
    version: 4,
    terraform_version: o.terraformVersion ?? "1.11.4",
    serial: o.serial,
    lineage: o.lineage ?? "11111111-2222-3333-4444-555555555555",
    outputs: {},
    resources,
    check_results: null,
    ...o.extra,
  };
  return JSON.stringify(state, null, 2) + "\n";
}

export const md5 = (body: string | Buffer) => createHash("md5").update(body).digest("base64");

export function lockBody(id = randomUUID(), operation = "OperationTypeApply"): string {
  return JSON.stringify({ ID: id, Operation: operation, Info: "", Who: "ci@runner", Version: "1.11.4", Created: new Date().toISOString(), Path: "" });
}

type Call = {
  token?: string | null;
  body?: string | Buffer;
  headers?: Record<string, string>;
  query?: string;
};

function request(method: string, url: string, c: Call): Request {
  const headers: Record<string, string> = { ...c.headers };
  if (c.token) headers.authorization = `Basic ${Buffer.from(`x:${c.token}`).toString("base64")}`;
  if (c.body !== undefined && headers["content-md5"] === undefined && c.body.length) headers["content-md5"] = md5(c.body);
  if (c.body !== undefined) headers["content-type"] = "application/json";
  return new Request(url + (c.query ?? ""), { method, headers, body: c.body as BodyInit | undefined });
}

const ctx = <P>(p: P) => ({ params: Promise.resolve(p) });

type Proto = "GET" | "POST" | "PUT" | "LOCK" | "UNLOCK" | "LOCK_POST" | "UNLOCK_DELETE" | "LOCK_ON_LOCK" | "UNLOCK_ON_LOCK";

/** Calls the state endpoints as the http backend would, with LOCK/UNLOCK tunnelled like server.mjs does. */
export async function proto(kind: Proto, org: string, workspace: string, c: Call = {}): Promise<Response> {
  const base = `http://terrace.test/api/v1/state/${org}/${workspace}`;
  const p = ctx({ org, workspace });
  const tunnel = (m: string) => ({ ...c, headers: { ...c.headers, "x-terrace-method": m } });
  switch (kind) {
    case "GET":
      return stateRoute.GET(request("GET", base, c), p);
    case "POST":
      return stateRoute.POST(request("POST", base, c), p);
    case "PUT":
      return stateRoute.PUT(request("PUT", base, c), p);
    case "LOCK":
      return stateRoute.POST(request("POST", base, tunnel("LOCK")), p);
    case "UNLOCK":
      return stateRoute.POST(request("POST", base, tunnel("UNLOCK")), p);
    case "LOCK_ON_LOCK":
      return stateLockRoute.POST(request("POST", `${base}/lock`, tunnel("LOCK")), p);
    case "UNLOCK_ON_LOCK":
      return stateLockRoute.POST(request("POST", `${base}/lock`, tunnel("UNLOCK")), p);
    case "LOCK_POST":
      return stateLockRoute.POST(request("POST", `${base}/lock`, c), p);
    case "UNLOCK_DELETE":
      return stateLockRoute.DELETE(request("DELETE", `${base}/lock`, c), p);
  }
}

export async function lockApi(method: "GET" | "DELETE", org: string, workspace: string, token: string | null) {
  const url = `http://terrace.test/api/v1/orgs/${org}/workspaces/${workspace}/lock`;
  const handler = method === "GET" ? wsLockRoute.GET : wsLockRoute.DELETE;
  return handler(request(method, url, { token }), ctx({ org, workspace }));
}

export async function rollbackApi(org: string, workspace: string, serial: string, token: string | null) {
  const url = `http://terrace.test/api/v1/orgs/${org}/workspaces/${workspace}/state-versions/${serial}/rollback`;
  return rollbackRoute.POST(request("POST", url, { token }), ctx({ org, workspace, serial }));
}

export async function versions(org: string, workspace: string) {
  return db().stateVersion.findMany({
    where: { workspace: { name: workspace, organization: { name: org } } },
    orderBy: { serial: "asc" },
  });
}

export async function auditActions(organizationId: string) {
  const rows = await db().auditEvent.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });
  return rows;
}
