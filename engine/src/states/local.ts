// The local state store (OpenTofu's statemgr.Filesystem behind the `local` backend):
// terraform.tfstate, a one-time terraform.tfstate.backup of the snapshot first read, and a lock
// shown to others through `.terraform.tfstate.lock.info`. Unlike OpenTofu, a snapshot is written
// to a temporary file in the same directory, fsynced and renamed over the old one, so a crash
// never leaves a half-written state file. An apply journals its changes beside the snapshot
// (journal.ts) and a later read replays a journal that a killed apply left behind.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../hcl/index.js";
import { fsyncDir, writeAll } from "./durable.js";
import { DEFAULT_TOFU_VERSION, deepCopyFile, newFile, newLineage, readStateFile, statesMarshalEqual, writeStateFile, type File, type StateEncryption } from "./file.js";
import { JournalWriter, journalPath, parseJournal, removeJournal, replayChanges } from "./journal.js";
import { newLockInfo, parseLockInfo, type LockInfo, type LockResult, type UnlockResult } from "./lock.js";
import { localLockFileContent, removeStaleLocalLock } from "./local_lock.js";
import { State } from "./state.js";
import type { SnapshotMeta, StateStore } from "./store.js";
import type { StateChange, StateObserver } from "./sync.js";
import { coreLog } from "../logging/logger.js";

export const DEFAULT_STATE_FILENAME = "terraform.tfstate";
export const DEFAULT_BACKUP_EXTENSION = ".backup";

/** How often an apply writes the whole snapshot (OpenTofu's default StateHook persist interval). */
export const DEFAULT_PERSIST_INTERVAL_MS = 20_000;

export interface JournalOptions {
  /** Time between whole snapshots written during the apply. */
  persistIntervalMs?: number;
}

/** An apply between beginJournal and persist: the changes not yet in the snapshot on disk. */
interface ApplySession {
  readonly intervalMs: number;
  /** Changes since the last snapshot, in order (the journal holds them too, when there is one). */
  pending: StateChange[];
  /** When the last snapshot was written; undefined until the first change starts the clock. */
  lastPersist: number | undefined;
  /** Problems of intermediate snapshots, reported with the final persist. */
  warnings: Diagnostic[];
}

export interface LocalStoreOptions {
  /** Where snapshots are read from until the first persist (-state); default: the same path. */
  readPath?: string;
  /** Backup path; "" disables backups. Default: `<path>.backup`. */
  backupPath?: string;
  terraformVersion?: string;
  /**
   * Encrypts snapshots and their backup as the configuration asks. An encrypted store keeps no
   * apply journal: its records would hold the objects' values in the clear.
   */
  encryption?: StateEncryption | undefined;
}

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

function warn(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail };
}

function errnoCode(e: unknown): string | undefined {
  return e && typeof e === "object" && "code" in e && typeof e.code === "string" ? e.code : undefined;
}

/** `.terraform.tfstate.lock.info` beside `terraform.tfstate` (a leading dot is not doubled). */
export function lockInfoPath(statePath: string): string {
  const dir = path.dirname(statePath);
  let name = path.basename(statePath);
  if (name.startsWith(".")) name = name.slice(1);
  return path.join(dir, `.${name}.lock.info`);
}

/**
 * Writes bytes durably: temp file in the same directory, fsync, rename, fsync of the directory.
 * The file is created with mode 0666 (before umask), as OpenTofu creates state files.
 */
export function writeFileAtomic(target: string, data: Uint8Array, mode = 0o666): void {
  const dir = path.dirname(target);
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w", mode);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dir);
}

export class LocalStore implements StateStore {
  readonly path: string;
  private readPath: string;
  readonly backupPath: string;
  private file: File | undefined;
  /** The snapshot on disk as this store last read or wrote it (what a journal applies to). */
  private readFile: File | undefined;
  /**
   * What a persist compares with to decide whether the serial goes up: the snapshot last read,
   * not the last one written, as OpenTofu's Filesystem keeps its readFile. So each snapshot an
   * apply writes after its first change gets a new serial. When nothing was read, the first
   * snapshot written takes its place (OpenTofu's WriteState then reads what it persisted).
   */
  private serialBase: File | undefined;
  private backupFile: File | undefined;
  private backupLoaded = false;
  private writtenBackup = false;
  private lockID = "";
  /** `.terraform.tfstate.journal`: the changes of an apply not yet folded into the snapshot. */
  readonly journalPath: string;
  private journal: JournalWriter | undefined;
  private session: ApplySession | undefined;

  constructor(statePath = DEFAULT_STATE_FILENAME, private readonly opts: LocalStoreOptions = {}) {
    this.path = statePath;
    this.readPath = opts.readPath ?? statePath;
    this.backupPath = opts.backupPath ?? statePath + DEFAULT_BACKUP_EXTENSION;
    this.journalPath = journalPath(statePath);
  }

  state(): State | undefined {
    return this.file?.state.deepCopy();
  }

  snapshotMeta(): SnapshotMeta {
    return { lineage: this.file?.lineage ?? "", serial: this.file?.serial ?? 0, terraformVersion: this.file?.terraformVersion };
  }

  get encryption(): StateEncryption | undefined {
    return this.opts.encryption;
  }

  /** Whether snapshots are written encrypted (such a store keeps no journal). */
  get encrypted(): boolean {
    return this.opts.encryption?.encrypts === true;
  }

  snapshotFile(): File {
    return this.file ? deepCopyFile(this.file) : newFile(undefined, newLineage(), 0);
  }

  private readAt(p: string): { file: File | undefined; diagnostics: Diagnostic[] } {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(p);
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return { file: undefined, diagnostics: [] };
      return { file: undefined, diagnostics: [err("Failed to read state file", `The state file could not be read: ${String(e)}`)] };
    }
    const r = readStateFile(bytes, { tofuVersion: this.opts.terraformVersion, encryption: this.opts.encryption });
    if (r.kind === "no-state") return { file: undefined, diagnostics: [] };
    if (r.kind === "error") return { file: undefined, diagnostics: r.diagnostics };
    return { file: r.file, diagnostics: [] };
  }

  /** The snapshot that was in the output file before we first wrote it: the backup's content. */
  private loadBackupSource(): Diagnostic[] {
    if (this.backupLoaded) return [];
    this.backupLoaded = true;
    const r = this.readAt(this.path);
    this.backupFile = r.file;
    return r.diagnostics;
  }

  async refresh(): Promise<Diagnostic[]> {
    const d = this.readSnapshot();
    // A journal belongs to the file we write; one we are writing ourselves is not a leftover.
    if (d.length > 0 || this.readPath !== this.path || this.journal || !exists(this.journalPath)) return d;
    return this.recoverJournal();
  }

  private readSnapshot(): Diagnostic[] {
    coreLog().trace(`statemgr.Filesystem: reading latest snapshot from ${this.readPath}`);
    const r = this.readAt(this.readPath);
    if (r.diagnostics.length > 0) return r.diagnostics;
    this.file = r.file;
    this.readFile = r.file ? deepCopyFile(r.file) : undefined;
    this.serialBase = this.readFile;
    return [];
  }

  /**
   * Replays a journal left by an apply that did not finish. Under the lock (taken here unless
   * we hold it) the merged state is persisted and the journal removed; when another process
   * holds the lock (an apply still running, or a killed one whose lock file remains) the
   * merged state is only this store's view, and the journal stays for a later reader.
   */
  private async recoverJournal(): Promise<Diagnostic[]> {
    if (this.lockID !== "") return this.foldJournal(true).diagnostics;
    const lock = await this.lock(newLockInfo("OperationTypeRecoverJournal", { version: this.opts.terraformVersion }));
    if (!lock.ok) {
      const r = this.foldJournal(false);
      if (r.replayed === undefined) return r.diagnostics;
      const h = lock.error.kind === "LockError" ? lock.error.holder : undefined;
      const holder = h ? ` (lock ID ${h.id}, ${h.operation} by ${h.who})` : "";
      return [
        ...r.diagnostics,
        warn(
          "State includes changes from an unfinished apply",
          `${path.basename(this.journalPath)} holds ${r.replayed} state changes from an apply that has not finished, and the state is locked${holder}, so they are included here but not yet written to ${path.basename(this.path)}. If that apply was killed, release its lock; the next command then writes them.`,
        ),
      ];
    }
    try {
      // Read again under the lock: the snapshot may have changed since the first read.
      const d = this.readSnapshot();
      if (d.length > 0) return d;
      return this.foldJournal(true).diagnostics;
    } finally {
      await this.unlock(lock.id);
    }
  }

  /**
   * Replays the journal onto the snapshot just read (`replayed`: how many changes, undefined
   * when nothing was replayed); with `write`, persists the result and removes the journal.
   */
  private foldJournal(write: boolean): { replayed?: number; diagnostics: Diagnostic[] } {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(this.journalPath);
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return { diagnostics: [] };
      return { diagnostics: [err("Failed to read state journal", `The state journal ${this.journalPath} could not be read: ${String(e)}`)] };
    }
    const name = path.basename(this.journalPath);
    const j = parseJournal(bytes, name);
    if (j.kind === "error") return { diagnostics: j.diagnostics };
    if (j.kind === "empty") {
      // Killed while creating the journal: it holds nothing.
      if (write) removeJournal(this.journalPath);
      return { diagnostics: [] };
    }
    const base = this.readFile;
    const h = j.header;
    const matches = h.snapshot ? base !== undefined && base.lineage === h.lineage && base.serial === h.serial : base === undefined;
    if (!matches) {
      // The final persist renamed its snapshot and died before removing the journal: its
      // changes are in that snapshot (same lineage, later serial; for a first apply the
      // lineage is the one the journal chose).
      if (base !== undefined && base.lineage === h.lineage && base.serial > h.serial) {
        if (write) removeJournal(this.journalPath);
        return { diagnostics: [] };
      }
      const have = base ? `lineage ${base.lineage}, serial ${base.serial}` : "no state";
      const want = h.snapshot ? `lineage ${h.lineage}, serial ${h.serial}` : "an empty state";
      const detail = `${name} records changes to ${want}, but ${path.basename(this.path)} holds ${have}, so it was not replayed. Move it away once you have checked that the state is complete.`;
      return { diagnostics: [warn("State journal does not match the state", detail)] };
    }
    const file = base ? deepCopyFile(base) : newFile(new State(), h.lineage, 0);
    replayChanges(file.state, j.changes);
    this.file = file;
    const diagnostics = [...j.diagnostics];
    if (!write) return { replayed: j.changes.length, diagnostics };
    const d = this.persistFile(true);
    if (d.some((x) => x.severity === "error")) return { replayed: j.changes.length, diagnostics: [...diagnostics, ...d] };
    removeJournal(this.journalPath);
    // The recovered snapshot is what this command has read.
    this.serialBase = this.readFile;
    const detail = `An apply did not finish; the ${j.changes.length} state changes it recorded in ${name} were written to ${path.basename(this.path)} (serial ${file.serial}).`;
    diagnostics.push(warn("Recovered changes from an unfinished apply", detail));
    return { replayed: j.changes.length, diagnostics };
  }

  /**
   * Starts journaling an apply whose walk begins from `base` (the plan's prior state). The
   * journal records changes relative to the snapshot on disk, so `base` is persisted first
   * when it differs (refreshed or moved objects). The returned observer goes to SyncState: it
   * appends each change to the journal and, as OpenTofu's StateHook does, writes the whole
   * snapshot once `persistIntervalMs` has passed since the last one (the first change starts
   * the clock), so other readers (terraform, tofu, terraform_remote_state) are never more than
   * that far behind. `persist` ends the session.
   */
  beginJournal(base: State, opts: JournalOptions = {}): { observer: StateObserver | undefined; diagnostics: Diagnostic[] } {
    const onDisk = this.readPath === this.path ? this.readFile : undefined;
    this.write(base);
    const needsSnapshot = this.readPath !== this.path || (onDisk ? !statesMarshalEqual(base, onDisk.state) : !statesMarshalEqual(base, undefined));
    if (needsSnapshot) {
      const d = this.persistFile(true);
      if (d.some((x) => x.severity === "error")) return { observer: undefined, diagnostics: d };
      // OpenTofu writes no such snapshot: counting from it keeps an apply that changes nothing
      // after a refresh at one new serial, as in OpenTofu.
      this.serialBase = this.readFile;
    }
    const file = this.file ?? newFile(undefined, newLineage(), 0);
    this.file = file;
    const session: ApplySession = { intervalMs: opts.persistIntervalMs ?? DEFAULT_PERSIST_INTERVAL_MS, pending: [], lastPersist: undefined, warnings: [] };
    this.session = session;
    const observer: StateObserver = (c) => {
      this.journal?.append(c);
      session.pending.push(c);
      this.maybeCheckpoint(session);
    };
    const d = this.startJournal();
    if (d) return { observer, diagnostics: [warn("Failed to create the state journal", `${d}\n\nThe apply goes on, but a crash can lose the objects it created since its last state snapshot.`)] };
    return { observer, diagnostics: [] };
  }

  /** Creates the journal for the snapshot now on disk (or none yet); the error text on failure. */
  private startJournal(): string | undefined {
    const file = this.file;
    if (!file) return "no state to journal";
    const hasSnapshot = this.readFile !== undefined;
    try {
      this.journal = JournalWriter.create(this.journalPath, { lineage: file.lineage, serial: hasSnapshot ? file.serial : 0, snapshot: hasSnapshot });
      return undefined;
    } catch (e) {
      this.journal = undefined;
      return String(e);
    }
  }

  private maybeCheckpoint(session: ApplySession): void {
    const now = Date.now();
    if (session.lastPersist === undefined) {
      session.lastPersist = now;
      return;
    }
    if (now - session.lastPersist < session.intervalMs) return;
    session.lastPersist = now;
    this.checkpoint(session);
  }

  /**
   * Writes the snapshot with every change so far, then starts a new journal for it. Runs inside
   * the observer, so no change can come in between. A crash after the snapshot's rename and
   * before the new journal's header leaves the old journal, whose header names an older serial
   * of the same lineage: readers drop it, as its changes are all in the snapshot.
   */
  private checkpoint(session: ApplySession): void {
    const file = this.file;
    if (!file) return;
    replayChanges(file.state, session.pending);
    session.pending = [];
    const d = this.persistFile(true);
    if (d.some((x) => x.severity === "error")) {
      // The old snapshot and the journal still hold everything; the next interval tries again.
      const why = d.map((x) => x.detail || x.summary).join("; ");
      if (session.warnings.length === 0) session.warnings.push(warn("Failed to write an intermediate state snapshot", `${why}\n\nThe apply went on; the state journal kept its changes.`));
      return;
    }
    const old = this.journal;
    if (!old) return;
    this.journal = undefined;
    if (old.error !== undefined) session.warnings.push(warn("State journal failed during the apply", `${old.error}\n\nA state snapshot written since holds every change made until then.`));
    old.close(false);
    const e = this.startJournal();
    if (e) session.warnings.push(warn("Failed to create the state journal", `${e}\n\nThe apply went on; a crash could have lost the objects created since its last state snapshot.`));
  }

  /** Resolves when every journaled change so far is on stable storage. */
  journalDurable(): Promise<void> {
    return this.journal?.durable() ?? Promise.resolve();
  }

  write(state: State): void {
    const f = this.file ? deepCopyFile(this.file) : newFile(undefined, newLineage(), 0);
    f.state = state.deepCopy();
    this.file = f;
  }

  /** Writes a given snapshot with its own lineage and serial (state push, migration). */
  async writeForMigration(f: File): Promise<Diagnostic[]> {
    this.file = deepCopyFile(f);
    return this.persistFile(false);
  }

  /** Writes the snapshot; an open journal is then folded in, so it is closed and removed. */
  async persist(): Promise<Diagnostic[]> {
    coreLog().trace(`statemgr.Filesystem: writing snapshot at ${this.path}`);
    const d = this.persistFile(true);
    const journal = this.journal;
    // On failure the journal stays: it and the old snapshot still hold every change.
    if (d.some((x) => x.severity === "error")) return d;
    if (this.session) d.push(...this.session.warnings);
    this.session = undefined;
    if (!journal) return d;
    this.journal = undefined;
    journal.close(false);
    removeJournal(journal.path);
    if (journal.error !== undefined) {
      d.push(warn("State journal failed during the apply", `${journal.error}\n\nThe final state was written; only a crash during the apply could have lost objects.`));
    }
    return d;
  }

  private persistFile(bumpSerial: boolean): Diagnostic[] {
    const d = this.loadBackupSource();
    if (d.length > 0) return d;
    if (!this.file) this.file = newFile(undefined, newLineage(), 0);
    const file = this.file;

    // The backup first, so it exists before the file it copies is replaced.
    if (!this.writtenBackup && this.backupFile && this.backupPath !== "" && !statesMarshalEqual(file.state, this.backupFile.state)) {
      const b = writeStateFile(deepCopyFile(this.backupFile), { terraformVersion: this.backupFile.terraformVersion, encryption: this.opts.encryption });
      if (!b.ok) return b.diagnostics;
      try {
        writeFileAtomic(this.backupPath, b.bytes);
      } catch (e) {
        return [err("Failed to save state", `Error saving state: failed to create local state backup file: ${String(e)}`)];
      }
      this.writtenBackup = true;
    }

    if (bumpSerial && (this.serialBase === undefined || !statesMarshalEqual(file.state, this.serialBase.state))) file.serial++;
    const w = writeStateFile(file, { terraformVersion: this.opts.terraformVersion ?? DEFAULT_TOFU_VERSION, encryption: this.opts.encryption });
    if (!w.ok) return w.diagnostics;
    try {
      writeFileAtomic(this.path, w.bytes);
    } catch (e) {
      return [err("Failed to save state", `Error saving state: ${String(e)}`)];
    }
    this.readFile = deepCopyFile(file);
    this.serialBase ??= this.readFile;
    // Later reads come from the file we now own.
    this.readPath = this.path;
    return [];
  }

  /**
   * Takes the lock by creating the lock-info file exclusively. A second Terrace process sees
   * the file and gets a LockError with the holder's info, like OpenTofu's fcntl failure; a file
   * left by a Terrace process on this host that has exited is taken over (local_lock.ts).
   */
  async lock(info: LockInfo): Promise<LockResult> {
    coreLog().trace(`statemgr.Filesystem: locking ${this.path} using fcntl flock`);
    const first = this.tryLock(info);
    if (first.ok || first.error.kind !== "LockError" || !first.stale) return first;
    return this.tryLock(info);
  }

  private tryLock(info: LockInfo): LockResult & { stale?: boolean } {
    if (this.lockID !== "") return { ok: false, error: { kind: "StoreError", message: `state ${JSON.stringify(this.path)} already locked` } };
    const p = lockInfoPath(this.path);
    const stamped: LockInfo = { ...info, path: this.readPath };
    try {
      mkdirSync(path.dirname(p), { recursive: true });
      const fd = openSync(p, "wx", 0o600);
      try {
        writeSync(fd, localLockFileContent(stamped));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") return { ok: false, error: { kind: "StoreError", message: `could not write lock info for ${JSON.stringify(this.readPath)}: ${String(e)}` } };
      let holderText: Buffer;
      try {
        holderText = readFileSync(p);
      } catch (re) {
        // Released between our create and our read: try again at once.
        if (errnoCode(re) === "ENOENT") return { ok: false, error: { kind: "LockError", message: "resource temporarily unavailable", inconsistentRead: true } };
        return { ok: false, error: { kind: "LockError", message: `resource temporarily unavailable\n${String(re)}` } };
      }
      if (removeStaleLocalLock(p, holderText)) return { ok: false, error: { kind: "LockError", message: "resource temporarily unavailable" }, stale: true };
      const holder = parseLockInfo(holderText);
      if (!holder) {
        return {
          ok: false,
          error: {
            kind: "LockError",
            message: `resource temporarily unavailable\nstate file ${JSON.stringify(this.readPath)} locked, but could not unmarshal lock info`,
          },
        };
      }
      return { ok: false, error: { kind: "LockError", message: "resource temporarily unavailable", info: holder, holder } };
    }
    this.lockID = info.id;
    return { ok: true, id: info.id };
  }

  async unlock(id: string): Promise<UnlockResult> {
    coreLog().trace(`statemgr.Filesystem: unlocking ${this.path} using fcntl flock`);
    if (this.lockID === "") return { ok: false, error: { kind: "StoreError", message: "LocalState not locked" } };
    if (id !== this.lockID) {
      const holder = parseLockInfo(safeRead(lockInfoPath(this.path)));
      const e = { kind: "LockError" as const, message: `invalid lock id: ${JSON.stringify(id)}. current id: ${JSON.stringify(this.lockID)}` };
      return { ok: false, error: holder ? { ...e, info: holder, holder } : e };
    }
    rmSync(lockInfoPath(this.path), { force: true });
    this.lockID = "";
    return { ok: true };
  }

  /** The CLI's force-unlock for a local state: removes the lock-info file if its ID matches. */
  static forceUnlock(statePath: string, id: string): UnlockResult {
    const p = lockInfoPath(statePath);
    const holder = parseLockInfo(safeRead(p));
    if (!holder) return { ok: false, error: { kind: "StoreError", message: "LocalState not locked" } };
    if (holder.id !== id) {
      return { ok: false, error: { kind: "LockError", message: `invalid lock id: ${JSON.stringify(id)}. current id: ${JSON.stringify(holder.id)}`, info: holder, holder } };
    }
    rmSync(p, { force: true });
    return { ok: true };
  }

  /** Whether a state file exists (with any size). */
  exists(): boolean {
    try {
      statSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

function safeRead(p: string): Uint8Array {
  try {
    return readFileSync(p);
  } catch {
    return new Uint8Array(0);
  }
}
