// The apply journal: an append-only log beside the local snapshot that makes an apply durable at
// O(changes) cost. Every change the graph walk makes through SyncState becomes one record,
// written with write(2) before the SyncState method returns (so a killed process loses nothing
// it finished) and fdatasync'd in group commits (so a power loss loses at most the last few
// milliseconds). The snapshot stays the checkpoint: the next read replays a leftover journal onto
// it (README.md, "Durability").
//
// File format, one record per line: `<crc32 of the JSON, 8 hex digits> <JSON>\n`. The first
// record is the header naming the base snapshot (lineage, serial, whether one existed); the rest
// are StateChange records. A last line without its newline or with a bad checksum is a torn
// append and is ignored; a damaged record before the end stops the replay there (with a warning).
import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync, rmSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import {
  NoKey,
  RootModuleInstance,
  intKey,
  parseAbsProviderConfigStr,
  parseAbsResourceInstanceStr,
  parseAbsResourceStr,
  parseModuleInstanceStr,
  stringKey,
  type AbsProviderConfig,
  type AddrResult,
  type InstanceKey,
} from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { DynamicPseudoType, marshalJSON, marshalType, typeFromJSON, unmarkDeep, unmarshalJSON, type Path, type PathStep } from "../values/index.js";
import { base64DecodeStrict, base64Encode } from "./base64.js";
import { fsyncDir, writeAll } from "./durable.js";
import { newObjectSrc, type ObjectStatus, type ResourceInstanceObjectSrc } from "./objects.js";
import type { CheckResults, State } from "./state.js";
import { SyncState, type StateChange } from "./sync.js";

export const JOURNAL_FORMAT_VERSION = 1;

/** `.terraform.tfstate.journal` beside `terraform.tfstate` (hidden, like the lock-info file). */
export function journalPath(statePath: string): string {
  let name = path.basename(statePath);
  if (name.startsWith(".")) name = name.slice(1);
  return path.join(path.dirname(statePath), `.${name}.journal`);
}

/** The snapshot a journal's changes apply to. */
export interface JournalHeader {
  lineage: string;
  serial: number;
  /** False when there was no snapshot file yet (the changes then apply to an empty state). */
  snapshot: boolean;
}

// ---------------------------------------------------------------------------------------------
// Record codec: StateChange <-> plain JSON. Addresses travel as their strings, objects in the
// fields of the v4 instance shape (attributes kept as the JSON text the state already holds).

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

function keyToJSON(k: InstanceKey): Json {
  switch (k.kind) {
    case "NoKey":
      return null;
    case "IntKey":
      return k.value;
    case "StringKey":
      return k.value;
  }
}

function keyFromJSON(j: Json | undefined): InstanceKey {
  if (typeof j === "number") return intKey(j);
  if (typeof j === "string") return stringKey(j);
  return NoKey;
}

function pathsToJSON(paths: readonly Path[]): Json {
  return paths.map((p) =>
    p.map((step): Json => {
      if (step.kind === "attr") return { a: step.name };
      const key = marshalJSON(step.key, DynamicPseudoType);
      // Index keys are known strings or numbers (or set elements); a failure here is a bug.
      if (!key.ok) throw new Error(`journal: cannot encode a sensitive path index key`);
      return { i: key.value };
    }),
  );
}

function objectToJSON(o: ResourceInstanceObjectSrc): JsonObject {
  const j: JsonObject = { sv: o.schemaVersion, st: o.status, sens: pathsToJSON(o.attrSensitivePaths), deps: o.dependencies.map((d) => d.toString()) };
  if (o.attrsJSON !== undefined) j["attrs"] = o.attrsJSON;
  if (o.attrsFlat !== undefined) j["flat"] = Object.fromEntries(o.attrsFlat);
  if (o.private !== undefined) j["priv"] = base64Encode(o.private);
  if (o.createBeforeDestroy) j["cbd"] = true;
  if (o.skipDestroy) j["sd"] = true;
  if (o.identityJSON !== undefined) j["id"] = o.identityJSON;
  if (o.identitySchemaVersion !== 0) j["isv"] = o.identitySchemaVersion;
  return j;
}

function checkResultsToJSON(r: CheckResults | undefined): Json {
  if (!r) return null;
  return r.configResults.map((a) => ({
    kind: a.objectKind,
    addr: a.configAddr,
    status: a.status,
    objects: a.objects.map((o) => ({ addr: o.objectAddr, status: o.status, msgs: [...o.failureMessages] })),
  }));
}

/** The JSON text of one change; undefined for a change the journal cannot hold (an unknown output value). */
export function encodeChange(c: StateChange): string | undefined {
  let j: JsonObject;
  switch (c.kind) {
    case "setCurrent":
    case "setDeposed":
      j = { k: c.kind, addr: c.addr.toString(), obj: c.obj ? objectToJSON(c.obj) : null, prov: c.provider ? c.provider.toString() : null, pkey: keyToJSON(c.providerKey) };
      if (c.kind === "setDeposed") j["dk"] = c.deposedKey;
      break;
    case "depose":
    case "restoreDeposed":
      j = { k: c.kind, addr: c.addr.toString(), dk: c.deposedKey };
      break;
    case "forgetInstance":
    case "removeResource":
      j = { k: c.kind, addr: c.addr.toString() };
      break;
    case "setResourceProvider":
      j = { k: c.kind, addr: c.addr.toString(), prov: c.provider.toString() };
      break;
    case "setOutput": {
      const [plain] = unmarkDeep(c.value);
      const v = marshalJSON(plain, plain.type);
      if (!v.ok) return undefined;
      j = { k: c.kind, name: c.name, value: v.value, type: marshalType(plain.type), sens: c.sensitive };
      break;
    }
    case "removeOutput":
      j = { k: c.kind, name: c.name };
      break;
    case "removeModule":
      j = { k: c.kind, addr: c.addr.toString() };
      break;
    case "setCheckResults":
      j = { k: c.kind, results: checkResultsToJSON(c.results) };
      break;
  }
  return JSON.stringify(j);
}

class DecodeError extends Error {}

function str(o: JsonObject, name: string): string {
  const v = o[name];
  if (typeof v !== "string") throw new DecodeError(`field ${JSON.stringify(name)} is not a string`);
  return v;
}

function num(o: JsonObject, name: string): number {
  const v = o[name];
  if (typeof v !== "number") throw new DecodeError(`field ${JSON.stringify(name)} is not a number`);
  return v;
}

function obj(v: Json | undefined, what: string): JsonObject {
  if (v === null || v === undefined || typeof v !== "object" || Array.isArray(v)) throw new DecodeError(`${what} is not an object`);
  return v;
}

function arr(v: Json | undefined, what: string): Json[] {
  if (!Array.isArray(v)) throw new DecodeError(`${what} is not an array`);
  return v;
}

function addr<T>(r: AddrResult<T>, text: string): T {
  if (r.result === undefined || r.diagnostics.some((d) => d.severity === "error")) throw new DecodeError(`invalid address ${JSON.stringify(text)}`);
  return r.result;
}

function pathsFromJSON(j: Json | undefined): Path[] {
  return arr(j, "sensitive paths").map((p) =>
    arr(p, "sensitive path").map((s): PathStep => {
      const step = obj(s, "path step");
      if (typeof step["a"] === "string") return { kind: "attr", name: step["a"] };
      const key = unmarshalJSON(str(step, "i"), DynamicPseudoType);
      if (!key.ok) throw new DecodeError("invalid path index key");
      return { kind: "index", key: key.value };
    }),
  );
}

function isStatus(s: string): s is ObjectStatus {
  return s === "ready" || s === "tainted" || s === "planned";
}

function objectFromJSON(j: Json | undefined): ResourceInstanceObjectSrc | undefined {
  if (j === null || j === undefined) return undefined;
  const o = obj(j, "object");
  const status = str(o, "st");
  if (!isStatus(status)) throw new DecodeError(`invalid object status ${JSON.stringify(status)}`);
  const src = newObjectSrc({
    schemaVersion: num(o, "sv"),
    status,
    attrSensitivePaths: pathsFromJSON(o["sens"]),
    dependencies: arr(o["deps"], "dependencies").map((d) => {
      const text = typeof d === "string" ? d : "";
      return addr(parseAbsResourceStr(text), text).config();
    }),
    createBeforeDestroy: o["cbd"] === true,
    skipDestroy: o["sd"] === true,
    identitySchemaVersion: typeof o["isv"] === "number" ? o["isv"] : 0,
  });
  if (typeof o["attrs"] === "string") src.attrsJSON = o["attrs"];
  if (o["flat"] !== undefined) {
    const flat = new Map<string, string>();
    for (const [k, v] of Object.entries(obj(o["flat"], "flat attributes"))) if (typeof v === "string") flat.set(k, v);
    src.attrsFlat = flat;
  }
  if (typeof o["priv"] === "string") {
    const b = base64DecodeStrict(o["priv"]);
    if (!b.ok) throw new DecodeError("invalid private data");
    src.private = b.bytes;
  }
  if (typeof o["id"] === "string") src.identityJSON = o["id"];
  return src;
}

function checkStatus(s: string): CheckResults["configResults"][number]["status"] {
  if (s === "pass" || s === "fail" || s === "error" || s === "unknown") return s;
  throw new DecodeError(`invalid check status ${JSON.stringify(s)}`);
}

function checkResultsFromJSON(j: Json | undefined): CheckResults | undefined {
  if (j === null || j === undefined) return undefined;
  return {
    configResults: arr(j, "check results").map((aj) => {
      const a = obj(aj, "check result");
      const kind = str(a, "kind");
      if (kind !== "resource" && kind !== "output" && kind !== "check" && kind !== "var") throw new DecodeError(`invalid checkable kind ${JSON.stringify(kind)}`);
      return {
        objectKind: kind,
        configAddr: str(a, "addr"),
        status: checkStatus(str(a, "status")),
        objects: arr(a["objects"], "check objects").map((oj) => {
          const o = obj(oj, "check object");
          return { objectAddr: str(o, "addr"), status: checkStatus(str(o, "status")), failureMessages: arr(o["msgs"], "messages").map((m) => String(m)) };
        }),
      };
    }),
  };
}

function providerFromJSON(j: Json | undefined): AbsProviderConfig | undefined {
  if (typeof j !== "string") return undefined;
  return addr(parseAbsProviderConfigStr(j), j);
}

function changeFromJSON(j: JsonObject): StateChange {
  const kind = str(j, "k");
  switch (kind) {
    case "setCurrent":
    case "setDeposed": {
      const a = str(j, "addr");
      const base = { addr: addr(parseAbsResourceInstanceStr(a), a), obj: objectFromJSON(j["obj"]), provider: providerFromJSON(j["prov"]), providerKey: keyFromJSON(j["pkey"]) };
      return kind === "setCurrent" ? { kind, ...base } : { kind, ...base, deposedKey: str(j, "dk") };
    }
    case "depose":
    case "restoreDeposed": {
      const a = str(j, "addr");
      return { kind, addr: addr(parseAbsResourceInstanceStr(a), a), deposedKey: str(j, "dk") };
    }
    case "forgetInstance": {
      const a = str(j, "addr");
      return { kind, addr: addr(parseAbsResourceInstanceStr(a), a) };
    }
    case "removeResource": {
      const a = str(j, "addr");
      return { kind, addr: addr(parseAbsResourceStr(a), a) };
    }
    case "setResourceProvider": {
      const a = str(j, "addr");
      const p = str(j, "prov");
      return { kind, addr: addr(parseAbsResourceStr(a), a), provider: addr(parseAbsProviderConfigStr(p), p) };
    }
    case "setOutput": {
      const t = typeFromJSON(JSON.parse(str(j, "type")));
      if (!t.ok) throw new DecodeError(`invalid output type: ${t.error}`);
      const v = unmarshalJSON(str(j, "value"), t.type);
      if (!v.ok) throw new DecodeError("invalid output value");
      return { kind, name: str(j, "name"), value: v.value, sensitive: j["sens"] === true };
    }
    case "removeOutput":
      return { kind, name: str(j, "name") };
    case "removeModule": {
      const a = str(j, "addr");
      return { kind, addr: a === "" ? RootModuleInstance : addr(parseModuleInstanceStr(a), a) };
    }
    case "setCheckResults":
      return { kind, results: checkResultsFromJSON(j["results"]) };
    default:
      throw new DecodeError(`unknown change kind ${JSON.stringify(kind)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Framing

const NEWLINE = 0x0a;

/** One record line: checksum, space, JSON, newline. */
export function frameRecord(json: string): Buffer {
  const body = Buffer.from(json, "utf8");
  const line = Buffer.allocUnsafe(9 + body.length + 1);
  line.write(crc32(body).toString(16).padStart(8, "0"), 0, "latin1");
  line[8] = 0x20;
  body.copy(line, 9);
  line[line.length - 1] = NEWLINE;
  return line;
}

export function headerRecord(h: JournalHeader): string {
  return JSON.stringify({ k: "begin", v: JOURNAL_FORMAT_VERSION, lineage: h.lineage, serial: h.serial, snapshot: h.snapshot });
}

/** The JSON of a line whose checksum matches; undefined for a damaged one. */
function unframe(line: Buffer): string | undefined {
  if (line.length < 10 || line[8] !== 0x20) return undefined;
  const want = Number.parseInt(line.toString("latin1", 0, 8), 16);
  const body = line.subarray(9);
  if (!/^[0-9a-f]{8}$/.test(line.toString("latin1", 0, 8)) || crc32(body) !== want) return undefined;
  return body.toString("utf8");
}

export type ParsedJournal =
  | { kind: "empty" }
  | { kind: "ok"; header: JournalHeader; changes: StateChange[]; diagnostics: Diagnostic[] }
  | { kind: "error"; diagnostics: Diagnostic[] };

function warn(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail };
}

function fail(detail: string): ParsedJournal {
  return { kind: "error", diagnostics: [{ severity: "error", summary: "Invalid state journal", detail }] };
}

/**
 * Reads a journal. "empty" when there is nothing to replay (no complete header: the apply died
 * while creating the file). A torn last line is dropped silently; a damaged line before the end
 * ends the replay there with a warning, since later changes may build on the lost one.
 */
export function parseJournal(bytes: Uint8Array, name = "the state journal"): ParsedJournal {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(NEWLINE, start); i >= 0; i = buf.indexOf(NEWLINE, start)) {
    lines.push(buf.subarray(start, i));
    start = i + 1;
  }
  // Bytes after the last newline are an append that did not finish: never acknowledged.
  const first = lines[0] && unframe(lines[0]);
  if (first === undefined) return { kind: "empty" };
  let header: JournalHeader;
  try {
    const h = obj(JSON.parse(first) as Json, "header");
    if (str(h, "k") !== "begin") throw new DecodeError("the first record is not a header");
    if (num(h, "v") !== JOURNAL_FORMAT_VERSION) throw new DecodeError(`unsupported journal format version ${num(h, "v")}`);
    header = { lineage: str(h, "lineage"), serial: num(h, "serial"), snapshot: h["snapshot"] === true };
  } catch (e) {
    return fail(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const changes: StateChange[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n] as Buffer;
    const json = unframe(line);
    if (json === undefined) {
      if (n === lines.length - 1) break; // torn last record
      diagnostics.push(
        warn(
          "Damaged state journal",
          `Record ${n + 1} of ${name} is damaged; it and the ${lines.length - n - 1} records after it were not replayed. The objects they describe may exist without being in the state.`,
        ),
      );
      break;
    }
    try {
      changes.push(changeFromJSON(obj(JSON.parse(json) as Json, "record")));
    } catch (e) {
      // A well-formed record we cannot decode is a bug or a newer writer: refuse rather than guess.
      return fail(`${name}, record ${n + 1}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { kind: "ok", header, changes, diagnostics };
}

/** Applies journaled changes, in order, to a state (the snapshot they were recorded against). */
export function replayChanges(state: State, changes: readonly StateChange[]): void {
  const s = new SyncState(state);
  for (const c of changes) {
    switch (c.kind) {
      case "setCurrent":
        s.setResourceInstanceCurrent(c.addr, c.obj, c.provider, c.providerKey);
        break;
      case "setDeposed":
        s.setResourceInstanceDeposed(c.addr, c.deposedKey, c.obj, c.provider, c.providerKey);
        break;
      case "depose":
        s.deposeResourceInstanceObject(c.addr, c.deposedKey);
        break;
      case "restoreDeposed":
        s.maybeRestoreResourceInstanceDeposed(c.addr, c.deposedKey);
        break;
      case "forgetInstance":
        s.forgetResourceInstanceAll(c.addr);
        break;
      case "removeResource":
        s.removeResource(c.addr);
        break;
      case "setResourceProvider":
        s.setResourceProvider(c.addr, c.provider);
        break;
      case "setOutput":
        s.setOutputValue(c.name, c.value, c.sensitive);
        break;
      case "removeOutput":
        s.removeOutputValue(c.name);
        break;
      case "removeModule":
        s.removeModule(c.addr);
        break;
      case "setCheckResults":
        s.setCheckResults(c.results);
        break;
      default: {
        const never: never = c;
        throw new Error(`unhandled state change ${JSON.stringify(never)}`);
      }
    }
  }
  s.close();
}

// ---------------------------------------------------------------------------------------------
// Writer

/**
 * Appends records to a new journal. `append` returns once the record is in the kernel (a
 * SIGKILL after that cannot lose it); fdatasync runs in the background, one at a time, each
 * covering every record written before it started (group commit), so a power loss can lose
 * only records written since the last completed sync began. `durable()` waits for that.
 */
export class JournalWriter {
  private fd: number | undefined;
  /** Records written / covered by a completed fdatasync. */
  private written = 0;
  private synced = 0;
  private syncing = false;
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];
  /** The first write or sync failure: from then on the journal is no longer a safety net. */
  error: string | undefined;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates (or truncates) the journal and makes its header durable before returning. */
  static create(file: string, header: JournalHeader): JournalWriter {
    const fd = openSync(file, "w", 0o600);
    try {
      writeAll(fd, frameRecord(headerRecord(header)));
      fsyncSync(fd);
      fsyncDir(path.dirname(file));
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    return new JournalWriter(file, fd);
  }

  /** Writes one change; never throws (a failure is kept in `error` and later reported). */
  append(change: StateChange): void {
    if (this.fd === undefined || this.error !== undefined) return;
    try {
      const json = encodeChange(change);
      if (json === undefined) return;
      writeAll(this.fd, frameRecord(json));
    } catch (e) {
      this.error = `writing ${this.path}: ${String(e)}`;
      return;
    }
    this.written++;
    this.scheduleSync();
  }

  private scheduleSync(): void {
    if (this.syncing || this.fd === undefined || this.synced === this.written) return;
    this.syncing = true;
    const upTo = this.written;
    fdatasync(this.fd, (e) => {
      this.syncing = false;
      if (e && this.error === undefined) this.error = `syncing ${this.path}: ${String(e)}`;
      else this.synced = upTo;
      this.wake();
      this.scheduleSync();
    });
  }

  private wake(): void {
    const failed = this.error !== undefined;
    const waiting: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (failed || w.upTo <= this.synced) w.resolve();
      else waiting.push(w);
    }
    this.waiters = waiting;
  }

  /** Resolves once every record appended so far is on stable storage (or the journal failed). */
  durable(): Promise<void> {
    if (this.synced >= this.written || this.error !== undefined || this.fd === undefined) return Promise.resolve();
    const upTo = this.written;
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  /** Records appended so far (for tests and the benchmark). */
  get records(): number {
    return this.written;
  }

  /**
   * Closes the file. With `sync`, what is not yet on disk is synced first; without, the caller
   * has made the records redundant (a durable snapshot holds them) and only closes.
   */
  close(sync = true): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.fd = undefined;
    try {
      if (sync && this.error === undefined && this.synced < this.written) fdatasyncSync(fd);
      this.synced = this.written;
    } catch (e) {
      this.error ??= `syncing ${this.path}: ${String(e)}`;
    }
    closeSync(fd);
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }
}

/**
 * Removes a journal whose changes are now in a durable snapshot. Not fsynced: if a power loss
 * brings it back, its header names an older serial than the snapshot and a reader drops it.
 */
export function removeJournal(file: string): void {
  rmSync(file, { force: true });
}
