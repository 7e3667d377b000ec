// State stores (OpenTofu's statemgr.Full): a transient in-memory snapshot that the engine
// writes freely, and a persistent copy behind it that `persist` updates. RemoteState is
// OpenTofu's remote.State: the serial/lineage rules for any store that keeps whole snapshots
// behind a small client (the `http` backend, the Terrace server).
import type { Diagnostic } from "../hcl/index.js";
import { DEFAULT_TOFU_VERSION, deepCopyFile, newFile, newLineage, readStateFile, statesMarshalEqual, writeStateFile, type File, type StateEncryption } from "./file.js";
import type { LockInfo, LockResult, Locker, UnlockResult } from "./lock.js";
import type { State } from "./state.js";

export interface SnapshotMeta {
  lineage: string;
  serial: number;
  terraformVersion: string | undefined;
}

export interface StateStore extends Locker {
  /** Loads the latest persisted snapshot (RefreshState). */
  refresh(): Promise<Diagnostic[]>;
  /** A deep copy of the transient snapshot; undefined when there is no state at all yet. */
  state(): State | undefined;
  /** Replaces the transient snapshot (WriteState); nothing is stored until `persist`. */
  write(state: State): void;
  /** Stores the transient snapshot (PersistState); a no-op when nothing changed. */
  persist(): Promise<Diagnostic[]>;
  /** Lineage and serial of the latest snapshot read or persisted. */
  snapshotMeta(): SnapshotMeta;
  /** The whole snapshot file as the store would write it, for errored.tfstate. */
  snapshotFile(): File;
  /** How the store encrypts snapshots; errored.tfstate is written the same way. */
  readonly encryption?: StateEncryption | undefined;
}

/** A byte payload from a remote store (remote.Payload). */
export interface Payload {
  data: Uint8Array;
  md5: Uint8Array;
}

export type ClientResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** remote.Client: get and put whole snapshots; locking is optional (Locker). */
export interface RemoteClient {
  get(): Promise<ClientResult<Payload | undefined>>;
  put(data: Uint8Array): Promise<ClientResult<void>>;
}

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

export interface RemoteStateOptions {
  /** Version recorded in written snapshots. */
  terraformVersion?: string;
  /** Ignore the client's locking (the CLI's -lock=false). */
  disableLocks?: boolean;
  /** Encrypts what is stored, as the configuration asks. */
  encryption?: StateEncryption | undefined;
}

/** remote.State: the serial and lineage rules over a RemoteClient. */
export class RemoteState implements StateStore {
  private current: State | undefined;
  private lineage = "";
  private serial = 0;
  private tfVersion: string | undefined;
  private readState: State | undefined;
  private readLineage = "";
  private readSerial = 0;
  private rewrite = false;

  constructor(
    readonly client: RemoteClient & Partial<Locker>,
    private readonly opts: RemoteStateOptions = {},
  ) {}

  get encryption(): StateEncryption | undefined {
    return this.opts.encryption;
  }

  state(): State | undefined {
    return this.current?.deepCopy();
  }

  write(state: State): void {
    this.current = state.deepCopy();
  }

  snapshotMeta(): SnapshotMeta {
    return { lineage: this.lineage, serial: this.serial, terraformVersion: this.tfVersion };
  }

  snapshotFile(): File {
    return deepCopyFile(newFile(this.current, this.lineage, this.serial, this.tfVersion));
  }

  async refresh(): Promise<Diagnostic[]> {
    const got = await this.client.get();
    if (!got.ok) return [err("Failed to load state", got.error)];
    if (got.value === undefined) {
      // No remote state: keep what we have so a new state can still be written.
      this.readState = undefined;
      this.readLineage = "";
      this.readSerial = 0;
      return [];
    }
    const r = readStateFile(got.value.data, { tofuVersion: this.opts.terraformVersion, encryption: this.opts.encryption });
    if (r.kind === "error") return r.diagnostics;
    if (r.kind === "no-state") {
      this.readState = undefined;
      return [];
    }
    this.rewrite = r.migration === true;
    this.current = r.file.state;
    this.lineage = r.file.lineage;
    this.serial = r.file.serial;
    this.tfVersion = r.file.terraformVersion;
    this.readState = this.current.deepCopy();
    this.readLineage = this.lineage;
    this.readSerial = this.serial;
    return [];
  }

  async persist(): Promise<Diagnostic[]> {
    if (this.readState !== undefined) {
      const lineageUnchanged = this.readLineage !== "" && this.lineage === this.readLineage;
      const serialUnchanged = this.readSerial !== 0 && this.serial === this.readSerial;
      // A snapshot read through an encryption fallback is written again even when unchanged,
      // so the migration completes (OpenTofu 1.9's automatic migration).
      if (!this.rewrite && lineageUnchanged && serialUnchanged && statesMarshalEqual(this.current, this.readState)) return [];
      this.serial++;
    } else {
      // Maybe there is a snapshot we should be updating rather than a new lineage to start.
      const d = await this.refresh();
      if (d.some((x) => x.severity === "error")) return d;
      if (this.readState !== undefined) this.serial++;
      if (this.lineage === "") {
        // The first snapshot of a new lineage is serial 1, so an unchanged re-persist is a no-op.
        this.lineage = newLineage();
        this.serial = 1;
      }
    }
    const file = newFile(this.current, this.lineage, this.serial);
    const w = writeStateFile(file, { terraformVersion: this.opts.terraformVersion ?? DEFAULT_TOFU_VERSION, encryption: this.opts.encryption });
    if (!w.ok) return w.diagnostics;
    const put = await this.client.put(w.bytes);
    if (!put.ok) return [err("Failed to save state", `Error saving state: ${put.error}`)];
    this.tfVersion = file.terraformVersion;
    this.rewrite = false;
    this.readState = (this.current ?? file.state).deepCopy();
    this.readLineage = this.lineage;
    this.readSerial = this.serial;
    return [];
  }

  async lock(info: LockInfo): Promise<LockResult> {
    if (this.opts.disableLocks || !this.client.lock) return { ok: true, id: "" };
    return this.client.lock(info);
  }

  async unlock(id: string): Promise<UnlockResult> {
    if (this.opts.disableLocks || !this.client.unlock) return { ok: true };
    return this.client.unlock(id);
  }
}
