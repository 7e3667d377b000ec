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
import { marshalLockInfo, newLockInfo, parseLockInfo, type LockInfo, type LockResult, type UnlockResult } from "./lock.js";
import { State } from "./state.js";
import type { SnapshotMeta, StateStore } from "./store.js";
import type { StateObserver } from "./sync.js";

export const DEFAULT_STATE_FILENAME = "terraform.tfstate";
export const DEFAULT_BACKUP_EXTENSION = ".backup";

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
  private readFile: File | undefined;
  private backupFile: File | undefined;
  private backupLoaded = false;
  private writtenBackup = false;
  private lockID = "";
  /** `.terraform.tfstate.journal`: the changes of an apply not yet folded into the snapshot. */
  readonly journalPath: string;
  private journal: JournalWriter | undefined;

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
    const r = this.readAt(this.readPath);
    if (r.diagnostics.length > 0) return r.diagnostics;
    this.file = r.file;
    this.readFile = r.file ? deepCopyFile(r.file) : undefined;
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
    const detail = `An apply did not finish; the ${j.changes.length} state changes it recorded in ${name} were written to ${path.basename(this.path)} (serial ${file.serial}).`;
    diagnostics.push(warn("Recovered changes from an unfinished apply", detail));
    return { replayed: j.changes.length, diagnostics };
  }

  /**
   * Starts journaling an apply whose walk begins from `base` (the plan's prior state). The
   * journal records changes relative to the snapshot on disk, so `base` is persisted first
   * when it differs (refreshed or moved objects); that is one snapshot write per apply. The
   * returned observer goes to SyncState; `persist` ends the journal, so a periodic persist
   * must not be combined with it.
   */
  beginJournal(base: State): { observer: StateObserver | undefined; diagnostics: Diagnostic[] } {
    const onDisk = this.readPath === this.path ? this.readFile : undefined;
    this.write(base);
    const needsSnapshot = this.readPath !== this.path || (onDisk ? !statesMarshalEqual(base, onDisk.state) : !statesMarshalEqual(base, undefined));
    if (needsSnapshot) {
      const d = this.persistFile(true);
      if (d.some((x) => x.severity === "error")) return { observer: undefined, diagnostics: d };
    }
    const file = this.file ?? newFile(undefined, newLineage(), 0);
    this.file = file;
    const hasSnapshot = this.readFile !== undefined;
    try {
      this.journal = JournalWriter.create(this.journalPath, { lineage: file.lineage, serial: hasSnapshot ? file.serial : 0, snapshot: hasSnapshot });
    } catch (e) {
      return {
        observer: undefined,
        diagnostics: [warn("Failed to create the state journal", `${String(e)}\n\nThe apply goes on, but a crash before it ends can lose objects it creates.`)],
      };
    }
    const journal = this.journal;
    return { observer: (c) => journal.append(c), diagnostics: [] };
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
    const d = this.persistFile(true);
    const journal = this.journal;
    // On failure the journal stays: it and the old snapshot still hold every change.
    if (!journal || d.some((x) => x.severity === "error")) return d;
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

    if (bumpSerial && (this.readFile === undefined || !statesMarshalEqual(file.state, this.readFile.state))) file.serial++;
    const w = writeStateFile(file, { terraformVersion: this.opts.terraformVersion ?? DEFAULT_TOFU_VERSION, encryption: this.opts.encryption });
    if (!w.ok) return w.diagnostics;
    try {
      writeFileAtomic(this.path, w.bytes);
    } catch (e) {
      return [err("Failed to save state", `Error saving state: ${String(e)}`)];
    }
    this.readFile = deepCopyFile(file);
    // Later reads come from the file we now own.
    this.readPath = this.path;
    return [];
  }

  /**
   * Takes the lock by creating the lock-info file exclusively. A second Terrace process sees
   * the file and gets a LockError with the holder's info, like OpenTofu's fcntl failure.
   */
  async lock(info: LockInfo): Promise<LockResult> {
    if (this.lockID !== "") return { ok: false, error: { kind: "StoreError", message: `state ${JSON.stringify(this.path)} already locked` } };
    const p = lockInfoPath(this.path);
    const stamped: LockInfo = { ...info, path: this.readPath };
    try {
      mkdirSync(path.dirname(p), { recursive: true });
      const fd = openSync(p, "wx", 0o600);
      try {
        writeSync(fd, marshalLockInfo(stamped));
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
