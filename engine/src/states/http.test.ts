// The http backend client against a throwaway server that behaves as PROTOCOLS.md describes.
import { createHash } from "node:crypto";
import { FakeBackend } from "./httpbackend.testkit.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Logger, withLoggers } from "../logging/index.js";
import { resourceInstanceIn, RootModuleInstance, newBuiltInProvider, AbsProviderConfig, RootModule } from "../addrs/index.js";
import {
  HttpClient,
  RemoteState,
  acquireLock,
  lockErrorDiagnostic,
  newLockInfo,
  newObjectSrc,
  newState,
  newTerraceStore,
  persistOrSaveErrored,
  readStateFile,
  type LockInfo,
} from "./index.js";


const fast = { retryWaitMinMs: 5, retryWaitMaxMs: 20 };

function oneResourceState(id: string): ReturnType<typeof newState> {
  const s = newState();
  const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
  s.rootModule().setResourceInstanceCurrent(
    resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "a").resource,
    newObjectSrc({ attrsJSON: `{"id":"${id}"}` }),
    provider,
  );
  return s;
}

describe("http backend client", () => {
  let backend: FakeBackend;
  let base: string;
  beforeEach(async () => {
    backend = new FakeBackend();
    base = await backend.start();
  });
  afterEach(async () => backend.stop());

  const client = (extra = {}): HttpClient =>
    new HttpClient({ address: `${base}/state`, lockAddress: `${base}/state/lock`, unlockAddress: `${base}/state/lock`, ...fast, ...extra });

  it("lock, get (404 = no state), post ?ID=, unlock — with Content-MD5 and the lock JSON shape", async () => {
    const c = client();
    const store = new RemoteState(c);
    const info = newLockInfo("OperationTypeApply", { now: new Date("2026-01-02T03:04:05.678Z") });
    const l = await store.lock(info);
    expect(l).toEqual({ ok: true, id: info.id });
    expect(await store.refresh()).toEqual([]);
    expect(store.state()).toBeUndefined();
    store.write(oneResourceState("x"));
    expect(await store.persist()).toEqual([]);
    expect(await store.unlock(info.id)).toEqual({ ok: true });

    // apply = LOCK, GET, [GET], POST?ID…, UNLOCK: the second GET checks for a snapshot to update.
    expect(backend.seen.map((x) => x.method)).toEqual(["LOCK", "GET", "GET", "POST", "UNLOCK"]);
    const [lock, get, , post, unlock] = backend.seen;
    expect(lock?.method).toBe("LOCK");
    expect(lock?.body).toBe(
      `{"ID":"${info.id}","Operation":"OperationTypeApply","Info":"","Who":"${info.who}","Version":"1.11.0","Created":"2026-01-02T03:04:05.678Z","Path":""}`,
    );
    expect(lock?.headers["content-type"]).toBe("application/json");
    expect(get?.method).toBe("GET");
    expect(post?.method).toBe("POST");
    expect(post?.url).toBe(`/state?ID=${info.id}`);
    expect(post?.headers["content-md5"]).toBe(createHash("md5").update(post?.body ?? "").digest("base64"));
    expect(unlock?.method).toBe("UNLOCK");
    expect(unlock?.body).toBe(lock?.body);
    const r = readStateFile(backend.state ?? "");
    expect(r.kind).toBe("ok");
  });

  it("does not POST when nothing changed; serial rises per changed write", async () => {
    const store = new RemoteState(client());
    await store.refresh();
    store.write(oneResourceState("a"));
    await store.persist();
    const serial1 = store.snapshotMeta().serial;
    const posts = (): number => backend.seen.filter((s) => s.method === "POST").length;
    expect(posts()).toBe(1);
    await store.persist();
    expect(posts()).toBe(1);
    store.write(oneResourceState("b"));
    await store.persist();
    expect(posts()).toBe(2);
    expect(store.snapshotMeta().serial).toBe(serial1 + 1);
    // A new store reads what was written.
    const again = new RemoteState(client());
    await again.refresh();
    expect(again.snapshotMeta()).toEqual(store.snapshotMeta());
  });

  it("423 with the holder's JSON gives OpenTofu's lock error text", async () => {
    const holder = client();
    const hi = newLockInfo("OperationTypePlan");
    await holder.lock(hi);
    const other = client();
    const mine = newLockInfo("OperationTypeApply", { now: new Date("2026-01-02T03:04:05Z") });
    const r = await other.lock(mine);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const d = lockErrorDiagnostic(r.error);
    expect(d.summary).toBe("Error acquiring the state lock");
    expect(d.detail).toBe(`Error message: HTTP remote state already locked: ID=${hi.id}
Lock Info:
  ID:        ${mine.id}
  Path:      
  Operation: OperationTypeApply
  Who:       ${mine.who}
  Version:   1.11.0
  Created:   2026-01-02 03:04:05 +0000 UTC
  Info:      


OpenTofu acquires a state lock to protect the state from being written
by multiple users at the same time. Please resolve the issue above and try
again. For most commands, you can disable locking with the "-lock=false"
flag, but this is not recommended.`);
    expect(r.error.kind === "LockError" && r.error.holder?.id).toBe(hi.id);
  });

  it("acquireLock retries a held lock until the timeout", async () => {
    const holder = client();
    await holder.lock(newLockInfo("OperationTypePlan"));
    setTimeout(() => void holder.unlock(""), 150);
    const got = await acquireLock(client(), "OperationTypeApply", 5000);
    expect(got.diagnostics).toEqual([]);
    expect(got.id).not.toBe("");
  }, 10000);

  it("retries 5xx (3 attempts in all) and then gives up", async () => {
    backend.state = "";
    backend.failNext = 2;
    const c = client();
    const g = await c.get();
    expect(g.ok).toBe(true);
    expect(backend.seen.length).toBe(3);
    backend.failNext = 3;
    const g2 = await c.get();
    expect(g2).toEqual({ ok: false, error: `Failed to get state: GET ${base}/state giving up after 3 attempt(s)` });
  });

  it("logs each request and retry as go-retryablehttp does, with the URL's password hidden (TF_LOG=DEBUG)", async () => {
    backend.state = "";
    backend.failNext = 2;
    let text = "";
    const core = new Logger({ json: false, write: (t) => (text += t) }, "", 2);
    const url = base.replace("http://", "http://user:secret@");
    const c = new HttpClient({ address: `${url}/state`, ...fast });
    await withLoggers({ core, provider: core.named("provider"), pluginEnv: {} }, () => c.get());
    const redacted = `${url.replace(":secret@", ":xxxxx@")}/state`;
    expect(text.split("\n").map((l) => l.replace(/^\S+ /, ""))).toEqual([
      `[DEBUG] GET ${redacted}`,
      `[DEBUG] GET ${redacted} (status: 503): retrying in 5ms (2 left)`,
      `[DEBUG] GET ${redacted}`,
      `[DEBUG] GET ${redacted} (status: 503): retrying in 10ms (1 left)`,
      `[DEBUG] GET ${redacted}`,
      "",
    ]);
    expect(text).not.toContain("secret");
    // The credentials went as basic auth (Go's client does so for a URL's userinfo), not in the URL.
    expect(backend.seen.map((r) => [r.url, r.headers.authorization])).toEqual(Array(3).fill(["/state", `Basic ${Buffer.from("user:secret").toString("base64")}`]));
  });

  it("never shows the address's password in an error", async () => {
    backend.failNext = 3;
    const url = base.replace("http://", "http://user:secret@");
    const r = await new HttpClient({ address: `${url}/state`, ...fast }).get();
    expect(r).toEqual({ ok: false, error: `Failed to get state: GET ${url.replace(":secret@", ":xxxxx@")}/state giving up after 3 attempt(s)` });
  });

  it("force-unlock sends UNLOCK with an empty body", async () => {
    await client().lock(newLockInfo("OperationTypeApply"));
    const r = await client().unlock("whatever");
    expect(r.ok).toBe(true);
    const last = backend.seen[backend.seen.length - 1];
    expect(last?.method).toBe("UNLOCK");
    expect(last?.body).toBe("");
  });

  it("GitLab-style POST/DELETE lock methods are configurable", async () => {
    const c = client({ lockMethod: "POST", unlockMethod: "DELETE" });
    await c.lock(newLockInfo("OperationTypeApply"));
    expect(backend.seen[0]?.method).toBe("POST");
  });

  it("a rejected write leaves errored.tfstate with OpenTofu's message", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-errored-"));
    backend.rejectWrites = true;
    const store = new RemoteState(client());
    await store.refresh();
    store.write(oneResourceState("lost?"));
    const r = await persistOrSaveErrored(store, { dir });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Failed to save state", "Failed to persist state to backend"]);
    expect(r.diagnostics[0]?.detail).toBe("Error saving state: HTTP error: 409");
    expect(r.diagnostics[1]?.detail).toContain('the state has been written to the file "errored.tfstate"');
    expect(r.diagnostics[1]?.detail).toContain("    tofu state push errored.tfstate\n");
    const saved = readStateFile(readFileSync(path.join(dir, "errored.tfstate")));
    expect(saved.kind === "ok" && saved.file.state.resource(resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "a").containingResource())).toBeTruthy();
  });

  it("the Terrace store is the http protocol with a bearer token", async () => {
    backend.token = "tok";
    const store = newTerraceStore({ baseUrl: base + "/", organization: "acme", workspace: "prod", token: "tok", ...fast });
    const l = await store.lock(newLockInfo("OperationTypeApply"));
    expect(l.ok).toBe(true);
    await store.refresh();
    store.write(oneResourceState("t"));
    expect(await store.persist()).toEqual([]);
    expect(backend.seen.map((s) => `${s.method} ${s.url.replace(/ID=[^&]+/, "ID=…")}`)).toEqual([
      "LOCK /api/v1/state/acme/prod/lock",
      "GET /api/v1/state/acme/prod",
      "GET /api/v1/state/acme/prod",
      `POST /api/v1/state/acme/prod?ID=…`,
    ]);
    const bad = newTerraceStore({ baseUrl: base, organization: "acme", workspace: "prod", token: "nope", ...fast });
    const d = await bad.refresh();
    expect(d[0]?.detail).toBe("HTTP remote state endpoint requires auth");
  });
});
