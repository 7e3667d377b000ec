import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbsProviderConfig, RootModule, RootModuleInstance, newBuiltInProvider, resourceInstanceIn } from "../addrs/index.js";
import { DEFAULT_PERSIST_INTERVAL_MS, LocalStore, SyncState, lockInfoPath, marshalLockInfo, newLockInfo, newObjectSrc, newState, readStateFile, type State } from "./index.js";
import { parseJournal } from "./journal.js";

const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
const inst = (name: string) => resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", name);

function withObjects(...names: string[]): State {
  const s = newState();
  for (const n of names) s.rootModule().setResourceInstanceCurrent(inst(n).resource, newObjectSrc({ attrsJSON: `{"id":"${n}"}` }), provider);
  return s;
}

function names(s: State | undefined): string[] {
  return s ? [...s.rootModule().resources.values()].map((r) => r.addr.resource.name).sort() : [];
}

function onDisk(p: string): { serial: number; lineage: string; names: string[] } {
  const r = readStateFile(readFileSync(p));
  if (r.kind !== "ok") throw new Error("no state on disk");
  return { serial: r.file.serial, lineage: r.file.lineage, names: names(r.file.state) };
}

function workspace(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "terrace-journal-store-")), "terraform.tfstate");
}

/** An apply that creates `created` and is then killed: nothing after the journal writes. */
async function killedApply(p: string, base: State, created: string[]): Promise<void> {
  const store = new LocalStore(p);
  const lock = await store.lock(newLockInfo("OperationTypeApply"));
  if (!lock.ok) throw new Error("lock");
  await store.refresh();
  const j = store.beginJournal(base);
  expect(j.diagnostics).toEqual([]);
  const sync = new SyncState(base.deepCopy(), j.observer);
  for (const n of created) sync.setResourceInstanceCurrent(inst(n), newObjectSrc({ attrsJSON: `{"id":"${n}"}` }), provider);
  // The process dies here: no persist. (A kill would also leave the lock file; these tests
  // release it, and the last one shows what a leftover lock changes.)
  await store.unlock(lock.id);
}

describe("LocalStore apply journal", () => {
  it("recovers a first apply that was killed: the objects, the journal's lineage, serial 1", async () => {
    const p = workspace();
    const store = new LocalStore(p);
    await store.refresh();
    const j = store.beginJournal(newState());
    const sync = new SyncState(newState(), j.observer);
    sync.setResourceInstanceCurrent(inst("a"), newObjectSrc({ attrsJSON: '{"id":"a"}' }), provider);
    sync.setResourceInstanceCurrent(inst("b"), newObjectSrc({ attrsJSON: '{"id":"b"}' }), provider);
    expect(existsSync(p)).toBe(false); // no snapshot per object
    const lineage = store.snapshotMeta().lineage;

    const next = new LocalStore(p);
    const d = await next.refresh();
    expect(d).toEqual([
      {
        severity: "warning",
        summary: "Recovered changes from an unfinished apply",
        detail: "An apply did not finish; the 2 state changes it recorded in .terraform.tfstate.journal were written to terraform.tfstate (serial 1).",
      },
    ]);
    expect(names(next.state())).toEqual(["a", "b"]);
    expect(onDisk(p)).toEqual({ serial: 1, lineage, names: ["a", "b"] });
    expect(existsSync(next.journalPath)).toBe(false);
    expect(existsSync(lockInfoPath(p))).toBe(false); // the recovery's own lock is released
    expect(await new LocalStore(p).refresh()).toEqual([]);
  });

  it("replays onto an existing snapshot, bumps its serial and backs up the old one", async () => {
    const p = workspace();
    const first = new LocalStore(p);
    first.write(withObjects("old"));
    await first.persist();
    const before = readFileSync(p, "utf8");
    await killedApply(p, withObjects("old"), ["new1", "new2"]);
    expect(onDisk(p).names).toEqual(["old"]);

    const next = new LocalStore(p);
    expect((await next.refresh()).map((d) => d.summary)).toEqual(["Recovered changes from an unfinished apply"]);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["new1", "new2", "old"] });
    expect(readFileSync(p + ".backup", "utf8")).toBe(before);
  });

  it("persists a starting state that differs from the snapshot before journaling against it", async () => {
    const p = workspace();
    const first = new LocalStore(p);
    first.write(withObjects("old"));
    await first.persist();
    // The plan's prior state moved `old` to `moved`: the journal must not replay onto `old`.
    await killedApply(p, withObjects("moved"), ["x"]);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["moved"] });
    const next = new LocalStore(p);
    await next.refresh();
    expect(onDisk(p)).toMatchObject({ serial: 3, names: ["moved", "x"] });
  });

  it("an apply that changes nothing after its refreshed starting state gets one new serial, as in OpenTofu", async () => {
    const p = workspace();
    const first = new LocalStore(p);
    first.write(withObjects("old"));
    await first.persist();
    const store = new LocalStore(p);
    await store.refresh();
    // The starting state differs (a refresh), so it is written before the journal starts ...
    store.beginJournal(withObjects("refreshed"));
    expect(onDisk(p).serial).toBe(2);
    // ... and the end of an apply that changed nothing more writes no second serial.
    store.write(withObjects("refreshed"));
    expect(await store.persist()).toEqual([]);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["refreshed"] });
  });

  it("a clean end writes the snapshot and removes the journal", async () => {
    const p = workspace();
    const store = new LocalStore(p);
    await store.refresh();
    const j = store.beginJournal(newState());
    expect(existsSync(store.journalPath)).toBe(true);
    const sync = new SyncState(newState(), j.observer);
    sync.setResourceInstanceCurrent(inst("a"), newObjectSrc({ attrsJSON: '{"id":"a"}' }), provider);
    await store.journalDurable();
    store.write(sync.close());
    expect(await store.persist()).toEqual([]);
    expect(existsSync(store.journalPath)).toBe(false);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a"] });
  });

  it("drops a journal whose changes a later snapshot already holds (killed between rename and removal)", async () => {
    const p = workspace();
    const store = new LocalStore(p);
    store.write(withObjects("a"));
    await store.persist();
    await killedApply(p, withObjects("a"), ["b"]);
    const journal = readFileSync(new LocalStore(p).journalPath);
    await new LocalStore(p).refresh(); // folds it: serial 2
    writeFileSync(new LocalStore(p).journalPath, journal); // as if the removal had not happened
    const next = new LocalStore(p);
    expect(await next.refresh()).toEqual([]);
    expect(existsSync(next.journalPath)).toBe(false);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["a", "b"] });
  });

  it("drops the journal of a first apply whose final snapshot was written", async () => {
    const p = workspace();
    const store = new LocalStore(p);
    await store.refresh();
    const j = store.beginJournal(newState());
    const sync = new SyncState(newState(), j.observer);
    sync.setResourceInstanceCurrent(inst("a"), newObjectSrc({ attrsJSON: '{"id":"a"}' }), provider);
    const journal = readFileSync(store.journalPath);
    store.write(sync.close());
    await store.persist();
    writeFileSync(store.journalPath, journal); // as if the removal had not reached the disk
    const next = new LocalStore(p);
    expect(await next.refresh()).toEqual([]);
    expect(existsSync(next.journalPath)).toBe(false);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a"] });
  });

  it("does not replay a journal recorded against another state", async () => {
    const p = workspace();
    await killedApply(p, newState(), ["a"]);
    // Someone puts a different state in place meanwhile.
    const other = new LocalStore(p + ".other");
    other.write(withObjects("z"));
    await other.persist();
    writeFileSync(p, readFileSync(p + ".other"));
    const next = new LocalStore(p);
    const d = await next.refresh();
    expect(d.map((x) => x.summary)).toEqual(["State journal does not match the state"]);
    expect(d[0]?.detail).toMatch(/^\.terraform\.tfstate\.journal records changes to an empty state, but terraform\.tfstate holds lineage .*, serial 1, so it was not replayed\./);
    expect(names(next.state())).toEqual(["z"]);
    expect(existsSync(next.journalPath)).toBe(true);
  });

  it("while another process holds the lock, shows the journaled objects without writing them", async () => {
    const p = workspace();
    const store = new LocalStore(p);
    store.write(withObjects("a"));
    await store.persist();
    await killedApply(p, withObjects("a"), ["b"]);
    const holder = { ...newLockInfo("OperationTypeApply"), id: "11111111-2222-3333-4444-555555555555", who: "ci@runner" };
    writeFileSync(lockInfoPath(p), marshalLockInfo(holder));

    const reader = new LocalStore(p);
    const d = await reader.refresh();
    expect(d).toEqual([
      {
        severity: "warning",
        summary: "State includes changes from an unfinished apply",
        detail:
          ".terraform.tfstate.journal holds 1 state changes from an apply that has not finished, and the state is locked (lock ID 11111111-2222-3333-4444-555555555555, OperationTypeApply by ci@runner), so they are included here but not yet written to terraform.tfstate. If that apply was killed, release its lock; the next command then writes them.",
      },
    ]);
    expect(names(reader.state())).toEqual(["a", "b"]);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a"] });
    expect(existsSync(reader.journalPath)).toBe(true);

    // The lock holder itself (the apply that resumes after a force-unlock and lock) folds it in.
    LocalStore.forceUnlock(p, holder.id);
    const owner = new LocalStore(p);
    const lock = await owner.lock(newLockInfo("OperationTypeApply"));
    expect(lock.ok).toBe(true);
    expect((await owner.refresh()).map((x) => x.summary)).toEqual(["Recovered changes from an unfinished apply"]);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["a", "b"] });
    if (lock.ok) await owner.unlock(lock.id);
  });
});

describe("LocalStore apply journal: periodic snapshots", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An apply whose clock the test moves: a change at each given second. */
  async function timedApply(p: string, base: State, steps: Array<[seconds: number, name: string]>): Promise<{ store: LocalStore; sync: SyncState }> {
    vi.useFakeTimers({ toFake: ["Date"], now: 0 });
    const store = new LocalStore(p);
    expect(await store.refresh()).toEqual([]);
    const j = store.beginJournal(base);
    expect(j.diagnostics).toEqual([]);
    const sync = new SyncState(base.deepCopy(), j.observer);
    for (const [seconds, name] of steps) {
      vi.setSystemTime(seconds * 1000);
      sync.setResourceInstanceCurrent(inst(name), newObjectSrc({ attrsJSON: `{"id":"${name}"}` }), provider);
    }
    return { store, sync };
  }

  function journalHeader(store: LocalStore): unknown {
    const j = parseJournal(readFileSync(store.journalPath));
    return j.kind === "ok" ? { ...j.header, changes: j.changes.length } : j.kind;
  }

  it("writes the whole snapshot once the persist interval has passed since the first change, as OpenTofu's StateHook", async () => {
    expect(DEFAULT_PERSIST_INTERVAL_MS).toBe(20_000);
    const p = workspace();
    // The first change starts the clock; the one 20 s later writes a, b and c.
    const { store, sync } = await timedApply(p, newState(), [
      [1, "a"],
      [15, "b"],
      [21, "c"],
      [30, "d"],
    ]);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a", "b", "c"] });
    // The journal now starts from that snapshot and holds only what came after it.
    expect(journalHeader(store)).toEqual({ lineage: onDisk(p).lineage, serial: 1, snapshot: true, changes: 1 });
    vi.setSystemTime(42_000);
    sync.setResourceInstanceCurrent(inst("e"), newObjectSrc({ attrsJSON: '{"id":"e"}' }), provider);
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["a", "b", "c", "d", "e"] });
    expect(journalHeader(store)).toEqual({ lineage: onDisk(p).lineage, serial: 2, snapshot: true, changes: 0 });

    store.write(sync.close());
    expect(await store.persist()).toEqual([]);
    expect(existsSync(store.journalPath)).toBe(false);
    // Nothing changed since the last snapshot, but the serial still goes up: as in OpenTofu's
    // Filesystem, it is compared with the snapshot read before the apply (here the first one
    // written, as nothing was read), not the last one written.
    expect(onDisk(p)).toMatchObject({ serial: 3, names: ["a", "b", "c", "d", "e"] });
  });

  it("a kill after a periodic snapshot leaves a state other tools can read, and the journal has the rest", async () => {
    const p = workspace();
    const first = new LocalStore(p);
    first.write(withObjects("old"));
    await first.persist();
    const before = readFileSync(p, "utf8");
    await timedApply(p, withObjects("old"), [
      [0, "a"],
      [20, "b"],
      [25, "c"],
    ]);
    // Killed here. terraform.tfstate is a complete snapshot (what terraform and tofu read) ...
    expect(onDisk(p)).toMatchObject({ serial: 2, names: ["a", "b", "old"] });
    // ... the first snapshot replaced made the one-time backup ...
    expect(readFileSync(p + ".backup", "utf8")).toBe(before);
    // ... and the next Terrace command replays the journal for what came after it.
    vi.useRealTimers();
    const next = new LocalStore(p);
    expect((await next.refresh()).map((d) => d.detail)).toEqual([
      "An apply did not finish; the 1 state changes it recorded in .terraform.tfstate.journal were written to terraform.tfstate (serial 3).",
    ]);
    expect(onDisk(p)).toMatchObject({ serial: 3, names: ["a", "b", "c", "old"] });
  });

  it("a kill between the snapshot and the new journal loses nothing: the old journal is dropped", async () => {
    const p = workspace();
    const { store, sync } = await timedApply(p, newState(), [[0, "a"]]);
    const oldJournal = readFileSync(store.journalPath);
    vi.setSystemTime(20_000);
    sync.setResourceInstanceCurrent(inst("b"), newObjectSrc({ attrsJSON: '{"id":"b"}' }), provider);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a", "b"] });
    writeFileSync(store.journalPath, oldJournal); // as if the kill came before the new journal
    vi.useRealTimers();
    const next = new LocalStore(p);
    expect(await next.refresh()).toEqual([]);
    expect(existsSync(next.journalPath)).toBe(false);
    expect(onDisk(p)).toMatchObject({ serial: 1, names: ["a", "b"] });
  });
});

