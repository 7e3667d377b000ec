// States the client encrypted (OpenTofu's state encryption): accepted through the http backend
// protocol with the serial and lineage rules applied to their clear fields, stored byte for byte,
// shown as encrypted, and never rolled back or silently deleted.
import { beforeAll, describe, expect, it } from "vitest";
import { openState } from "@/server/state/stored";
import * as showRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/[serial]/route";
import * as diffRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/diff/route";
import * as listRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions/route";
import * as workspaceRoute from "@/app/api/v1/orgs/[org]/workspaces/[workspace]/route";
import * as workspacesRoute from "@/app/api/v1/orgs/[org]/workspaces/route";
import { makeOrg, proto, rollbackApi, stateJson, versions } from "./testdata/fixtures";

let token: string;

const LINEAGE = "11111111-2222-3333-4444-555555555555";

/** OpenTofu's encrypted state: serial and lineage in the clear, the rest sealed. */
function envelope(serial: number, data = "c2VhbGVkLWJ5LXRoZS1jbGllbnQ=", lineage = LINEAGE): string {
  return JSON.stringify({
    serial,
    lineage,
    meta: { "key_provider.pbkdf2.k": "eyJzYWx0IjoiQUFBQSIsIml0ZXJhdGlvbnMiOjYwMDAwMCwiaGFzaF9mdW5jdGlvbiI6InNoYTUxMiIsImtleV9sZW5ndGgiOjMyfQ==" },
    encrypted_data: data,
    encryption_version: "v0",
  });
}

async function api(handler: (req: Request, ctx: { params: Promise<never> }) => Promise<Response>, params: Record<string, string>, method = "GET", query = "") {
  const res = await handler(new Request(`http://terrace.test/x${query}`, { method, headers: { authorization: `Bearer ${token}` } }), {
    params: Promise.resolve(params) as Promise<never>,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { errors?: Array<{ title: string; detail: string }> } };
}

beforeAll(async () => {
  const { owner } = await makeOrg("acme", "owner@acme.test");
  token = owner.token;
});

describe("client-encrypted states", () => {
  it("are stored as received, with their clear serial and lineage, and read back byte for byte", async () => {
    const body = envelope(1);
    const res = await proto("POST", "acme", "enc", { token, body });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ serial: 1, lineage: LINEAGE, encrypted: true, resourceCount: 0, terraformVersion: "" });
    const rows = await versions("acme", "enc");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ serial: 1n, encrypted: true });
    expect(openState(Buffer.from(rows[0]!.content)).toString()).toBe(body);
    expect(await (await proto("GET", "acme", "enc", { token })).text()).toBe(body);

    // The serial and lineage rules hold as for plain states.
    expect((await proto("POST", "acme", "enc", { token, body: envelope(1, "b3RoZXI=") })).status).toBe(409);
    expect((await proto("POST", "acme", "enc", { token, body: envelope(2, "b3RoZXI=", "99999999-2222-3333-4444-555555555555") })).status).toBe(409);
    expect((await proto("POST", "acme", "enc", { token, body: envelope(2, "c2Vjb25k") })).status).toBe(200);
    // Moving from encrypted to plain and back (a migration) is only another serial.
    expect((await proto("POST", "acme", "enc", { token, body: stateJson({ serial: 3 }) })).status).toBe(200);
    expect((await versions("acme", "enc")).map((v) => [v.serial, v.encrypted])).toEqual([
      [1n, true],
      [2n, true],
      [3n, false],
    ]);
  });

  it("refuse an envelope without its clear serial or lineage, and a malformed one; nothing is written", async () => {
    const noSerial = JSON.stringify({ lineage: LINEAGE, meta: {}, encrypted_data: "eA==", encryption_version: "v0" });
    const r1 = await proto("POST", "acme", "enc-bad", { token, body: noSerial });
    expect(r1.status).toBe(400);
    expect((await r1.json()).errors[0].detail).toBe(
      'An encrypted state must carry its "serial" in the clear as a non-negative integer, as OpenTofu 1.7 and later write it. Nothing was written.',
    );
    const noData = JSON.stringify({ serial: 1, lineage: LINEAGE, encryption_version: "v0" });
    expect((await proto("POST", "acme", "enc-bad", { token, body: noData })).status).toBe(400);
    expect(await versions("acme", "enc-bad")).toHaveLength(0);
  });

  it("are shown as encrypted: metadata only, no diff, no rollback, no delete without force", async () => {
    for (const [i, body] of [envelope(1), envelope(2, "dHdv"), stateJson({ serial: 3 })].entries()) {
      expect((await proto("POST", "acme", "enc-view", { token, body })).status, `version ${i + 1}`).toBe(200);
    }
    const P = { org: "acme", workspace: "enc-view" };
    const shown = await api(showRoute.GET, { ...P, serial: "1" });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ data: { serial: 1, encrypted: true }, outputs: [], modules: [] });
    const list = await api(listRoute.GET, P);
    expect((list.body.data as Array<{ serial: number; encrypted: boolean }>).map((v) => [v.serial, v.encrypted])).toEqual([
      [3, false],
      [2, true],
      [1, true],
    ]);
    const diff = await api(diffRoute.GET, P, "GET", "?from=2&to=3");
    expect(diff.status).toBe(422);
    expect(diff.body.errors?.[0]?.title).toBe("State version 2 is encrypted by the client");

    const rb = await rollbackApi("acme", "enc-view", "1", token);
    expect(rb.status).toBe(409);
    expect((await rb.json()).errors[0].title).toBe("State version 1 is encrypted by the client");
    expect(await versions("acme", "enc-view")).toHaveLength(3);

    // The current version encrypted: Terrace cannot tell whether it tracks resources.
    expect((await proto("POST", "acme", "enc-view", { token, body: envelope(4, "Zm91cg==") })).status).toBe(200);
    const listed = await api(workspacesRoute.GET, { org: "acme" }, "GET", "?q=enc-view");
    expect((listed.body.data as Array<{ name: string; current: unknown }>).find((w) => w.name === "enc-view")?.current).toMatchObject({ serial: 4, encrypted: true });
    const del = await api(workspaceRoute.DELETE, P, "DELETE");
    expect(del.status).toBe(409);
    expect(del.body.errors?.[0]?.title).toBe("Workspace state is encrypted");
    expect(await versions("acme", "enc-view")).toHaveLength(4);
  });
});
