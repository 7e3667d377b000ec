import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AbsProviderConfig, Resource as ResourceAddr, RootModule, newBuiltInProvider } from "../addrs/index.js";
import { LocalStore, acquireLock, lockInfoPath, marshalLockInfo, newLockInfo, newObjectSrc, newState, readStateFile, type State } from "./index.js";
import { localLockFileContent } from "./local_lock.js";

const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
const addr = new ResourceAddr("managed", "terraform_data", "a").instance({ kind: "NoKey" });

function withObject(id: string): State {
  const s = newState();
  s.rootModule().setResourceInstanceCurrent(addr, newObjectSrc({ attrsJSON: `{"id":"${id}"}` }), provider);
  return s;
}

describe("LocalStore", () => {
  it("creates terraform.tfstate, bumps the serial only on change, keeps one backup of the first snapshot", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-local-"));
    const p = path.join(dir, "terraform.tfstate");
    const store = new LocalStore(p);
    expect(await store.refresh()).toEqual([]);
    expect(store.state()).toBeUndefined();
    store.write(withObject("one"));
    expect(await store.persist()).toEqual([]);
    expect(store.snapshotMeta().serial).toBe(1);
    const first = readFileSync(p, "utf8");
    expect(existsSync(p + ".backup")).toBe(false); // nothing to back up yet
    await store.persist();
    expect(store.snapshotMeta().serial).toBe(1);

    // A new manager (a new command run): backup of what it found, once.
    const next = new LocalStore(p);
    await next.refresh();
    next.write(withObject("two"));
    await next.persist();
    expect(readFileSync(p + ".backup", "utf8")).toBe(first);
    expect(next.snapshotMeta().serial).toBe(2);
    next.write(withObject("three"));
    await next.persist();
    expect(readFileSync(p + ".backup", "utf8")).toBe(first);
    const r = readStateFile(readFileSync(p));
    expect(r.kind === "ok" && r.file.serial).toBe(3);
    expect(r.kind === "ok" && r.file.lineage).toBe(store.snapshotMeta().lineage);
    // No temp files are left behind.
    expect(readdirSync(dir).sort()).toEqual(["terraform.tfstate", "terraform.tfstate.backup"]);
  });

  it("reads from -state and writes to -state-out", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-local-"));
    const src = path.join(dir, "in.tfstate");
    const out = path.join(dir, "out.tfstate");
    const a = new LocalStore(src, { backupPath: "" });
    a.write(withObject("x"));
    await a.persist();
    const b = new LocalStore(out, { readPath: src });
    await b.refresh();
    expect(b.state()?.resourceInstance(addr.absolute(b.state()?.rootModule().addr ?? newState().rootModule().addr))?.current?.attrsJSON).toBe('{"id":"x"}');
  });

  it("locks with .terraform.tfstate.lock.info; a second locker gets the holder's info", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-local-"));
    const p = path.join(dir, "terraform.tfstate");
    expect(lockInfoPath(p)).toBe(path.join(dir, ".terraform.tfstate.lock.info"));
    expect(lockInfoPath(path.join(dir, ".hidden"))).toBe(path.join(dir, ".hidden.lock.info"));
    const a = new LocalStore(p);
    const info = newLockInfo("OperationTypeApply");
    expect(await a.lock(info)).toEqual({ ok: true, id: info.id });
    const onDisk = JSON.parse(readFileSync(lockInfoPath(p), "utf8")) as Record<string, string>;
    // OpenTofu's fields in its order, then the holder's process ID (local_lock.ts).
    expect(Object.keys(onDisk)).toEqual(["ID", "Operation", "Info", "Who", "Version", "Created", "Path", "TerracePID"]);
    expect(onDisk["Path"]).toBe(p);
    expect(onDisk["TerracePID"]).toBe(process.pid);

    const b = new LocalStore(p);
    const got = await acquireLock(b, "OperationTypePlan", 0);
    expect(got.diagnostics[0]?.summary).toBe("Error acquiring the state lock");
    expect(got.diagnostics[0]?.detail).toContain(`Error message: resource temporarily unavailable\nLock Info:\n  ID:        ${info.id}\n  Path:      ${p}\n  Operation: OperationTypeApply`);

    const wrong = await a.unlock("nope");
    expect(wrong.ok).toBe(false);
    expect(await a.unlock(info.id)).toEqual({ ok: true });
    expect(existsSync(lockInfoPath(p))).toBe(false);
    const again = await b.lock(newLockInfo("OperationTypePlan"));
    expect(again.ok).toBe(true);
  });

  it("takes over a lock left by a Terrace process of this host that has exited, and no other", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-local-"));
    const p = path.join(dir, "terraform.tfstate");
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const here = newLockInfo("OperationTypeApply");
    const write = (content: string) => writeFileSync(lockInfoPath(p), content);
    const held = async () => {
      const r = await new LocalStore(p).lock(newLockInfo("OperationTypePlan"));
      return r.ok ? "taken" : r.error.kind === "LockError" ? `held by ${r.error.info?.id ?? "?"}` : r.error.message;
    };
    // Killed mid-apply: the process is gone, its file is not.
    write(localLockFileContent(here, gone));
    expect(await held()).toBe("taken");
    // A live holder (this test process), another host, tofu's own file: all held.
    write(localLockFileContent(here, process.pid));
    expect(await held()).toBe(`held by ${here.id}`);
    write(localLockFileContent({ ...here, who: "someone@another-host" }, gone));
    expect(await held()).toBe(`held by ${here.id}`);
    write(marshalLockInfo(here));
    expect(await held()).toBe(`held by ${here.id}`);
  });

  it("reports unreadable state with the reader's diagnostics", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-local-"));
    const p = path.join(dir, "terraform.tfstate");
    writeFileSync(p, '{"version": 5, "terraform_version": "0.11.14"}');
    const d = await new LocalStore(p).refresh();
    expect(d[0]?.summary).toBe("Unsupported state file format");
  });
});
