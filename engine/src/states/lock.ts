// State locks (OpenTofu's statemgr.LockInfo / LockError / LockWithContext and the CLI's
// "Error acquiring the state lock" message). Lock info travels as compact JSON with Go's field
// names, exactly as the `http` backend and the local lock-info file carry it.
import { hostname, userInfo } from "node:os";
import type { Diagnostic } from "../hcl/index.js";
import { DEFAULT_TOFU_VERSION } from "./file.js";
import { goField, goJSONString, parseGoJSON } from "../values/index.js";

export interface LockInfo {
  /** Unique lock ID (a UUID). */
  id: string;
  /** The operation holding the lock: OperationTypePlan, OperationTypeApply, "state-push", ... */
  operation: string;
  /** Extra information from the caller. */
  info: string;
  /** user@host. */
  who: string;
  version: string;
  /** When the lock was taken, as Go marshals time.Time (RFC 3339 with nanoseconds, UTC). */
  created: string;
  /** The state's path, when the store has one. */
  path: string;
}

/** Go's RFC3339Nano for a UTC instant: trailing zeros of the fraction dropped. */
export function formatRFC3339Nano(d: Date): string {
  const iso = d.toISOString(); // 2024-01-02T03:04:05.678Z
  const [base, frac = "000Z"] = iso.split(".");
  const digits = frac.replace("Z", "").replace(/0+$/, "");
  return `${base}${digits ? "." + digits : ""}Z`;
}

/** OpenTofu's NewLockInfo: a random ID, who and version filled in; the caller sets the operation. */
export function newLockInfo(operation = "", opts: { version?: string; now?: Date } = {}): LockInfo {
  let user = "";
  try {
    user = userInfo().username;
  } catch {
    user = "";
  }
  return {
    id: crypto.randomUUID(),
    operation,
    info: "",
    who: `${user}@${hostname()}`,
    version: opts.version ?? DEFAULT_TOFU_VERSION,
    created: formatRFC3339Nano(opts.now ?? new Date()),
    path: "",
  };
}

/** LockInfo.Marshal: compact JSON, Go's field order. */
export function marshalLockInfo(l: LockInfo): string {
  return (
    `{"ID":${goJSONString(l.id)},"Operation":${goJSONString(l.operation)},"Info":${goJSONString(l.info)},` +
    `"Who":${goJSONString(l.who)},"Version":${goJSONString(l.version)},"Created":${goJSONString(l.created)},"Path":${goJSONString(l.path)}}`
  );
}

/** Decodes lock info JSON as Go would (fields matched case-insensitively); undefined if not JSON. */
export function parseLockInfo(text: string | Uint8Array): LockInfo | undefined {
  const src = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const parsed = parseGoJSON(src);
  if (!parsed.ok) return undefined;
  if (parsed.node.t === "null") return { id: "", operation: "", info: "", who: "", version: "", created: "0001-01-01T00:00:00Z", path: "" };
  if (parsed.node.t !== "object") return undefined;
  const obj = parsed.node;
  const s = (name: string): string | undefined => {
    const n = goField(obj, name);
    if (!n || n.t === "null") return "";
    return n.t === "string" ? n.v : undefined;
  };
  const fields = ["ID", "Operation", "Info", "Who", "Version", "Created", "Path"].map(s);
  if (fields.some((f) => f === undefined)) return undefined;
  const [id, operation, info, who, version, created, path] = fields as string[];
  return { id: id ?? "", operation: operation ?? "", info: info ?? "", who: who ?? "", version: version ?? "", created: created || "0001-01-01T00:00:00Z", path: path ?? "" };
}

/** Go's time.Time.String() for an RFC 3339 timestamp: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTimeString(rfc3339: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339);
  if (!m) return rfc3339;
  const frac = m[3] ? m[3].replace(/0+$/, "") : "";
  const zone = m[4] === "Z" ? "+0000 UTC" : `${(m[4] as string).replace(":", "")} ${(m[4] as string).replace(":", "")}`;
  return `${m[1]} ${m[2]}${frac === "." ? "" : frac} ${zone}`;
}

/** LockInfo.String(): the block the CLI prints under a lock error. */
export function lockInfoString(l: LockInfo): string {
  return (
    "Lock Info:\n" +
    `  ID:        ${l.id}\n` +
    `  Path:      ${l.path}\n` +
    `  Operation: ${l.operation}\n` +
    `  Who:       ${l.who}\n` +
    `  Version:   ${l.version}\n` +
    `  Created:   ${goTimeString(l.created)}\n` +
    `  Info:      ${l.info}\n`
  );
}

/**
 * Why a lock was not granted (statemgr.LockError). `info` is the lock info the store reports
 * with the error: for the local store the holder's, for the http backend (as in OpenTofu) the
 * requester's own; `holder` is the holder's whenever it is known.
 */
export interface LockError {
  kind: "LockError";
  message: string;
  info?: LockInfo;
  holder?: LockInfo;
  /** Set when a retry may succeed without waiting (a lock file vanished between two reads). */
  inconsistentRead?: boolean;
}

/** A failure that is not "someone else holds the lock": auth, transport, unexpected status. */
export interface StoreError {
  kind: "StoreError";
  message: string;
}

export function lockErrorString(e: LockError | StoreError): string {
  if (e.kind === "StoreError") return e.message;
  const out: string[] = [];
  if (e.message !== "") out.push(e.message);
  if (e.info) out.push(lockInfoString(e.info));
  return out.join("\n");
}

/** LockError.Retriable: a lock held by someone we can name may be released later. */
export function lockErrorRetriable(e: LockError | StoreError): boolean {
  if (e.kind !== "LockError") return false;
  return e.inconsistentRead === true || (e.info !== undefined && e.info.id !== "");
}

export type LockResult = { ok: true; id: string } | { ok: false; error: LockError | StoreError };
export type UnlockResult = { ok: true } | { ok: false; error: LockError | StoreError };

export interface Locker {
  lock(info: LockInfo): Promise<LockResult>;
  unlock(id: string): Promise<UnlockResult>;
}

const LOCK_ERROR_MESSAGE = `Error message: %s

OpenTofu acquires a state lock to protect the state from being written
by multiple users at the same time. Please resolve the issue above and try
again. For most commands, you can disable locking with the "-lock=false"
flag, but this is not recommended.`;

const UNLOCK_ERROR_MESSAGE = `Error message: %s

OpenTofu acquires a lock when accessing your state to prevent others
running OpenTofu to potentially modify the state at the same time. An
error occurred while releasing this lock. This could mean that the lock
did or did not release properly. If the lock didn't release properly,
OpenTofu may not be able to run future commands since it'll appear as if
the lock is held.

In this scenario, please call the "force-unlock" command to unlock the
state manually. This is a very dangerous operation since if it is done
erroneously it could result in two people modifying state at the same time.
Only call this command if you're certain that the unlock above failed and
that no one else is holding a lock.`;

export function lockErrorDiagnostic(e: LockError | StoreError): Diagnostic {
  return { severity: "error", summary: "Error acquiring the state lock", detail: LOCK_ERROR_MESSAGE.replace("%s", lockErrorString(e)) };
}

export function unlockErrorDiagnostic(e: LockError | StoreError): Diagnostic {
  return { severity: "error", summary: "Error releasing the state lock", detail: UNLOCK_ERROR_MESSAGE.replace("%s", lockErrorString(e)) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * LockWithContext: tries to lock, retrying a held lock after 1 s, 2 s, 4 s … (at most 16 s
 * apart) until `timeoutMs` has passed. A timeout of 0 tries once.
 */
export async function lockWithTimeout(
  locker: Locker,
  info: LockInfo,
  timeoutMs: number,
  opts: { initialDelayMs?: number; maxDelayMs?: number } = {},
): Promise<LockResult> {
  const deadline = Date.now() + timeoutMs;
  let delay = opts.initialDelayMs ?? 1000;
  const maxDelay = opts.maxDelayMs ?? 16000;
  for (;;) {
    const r = await locker.lock(info);
    if (r.ok || !lockErrorRetriable(r.error)) return r;
    if (r.error.kind === "LockError" && r.error.inconsistentRead) continue;
    if (Date.now() + delay > deadline) return r;
    await sleep(delay);
    if (delay < maxDelay) delay *= 2;
  }
}

/** The CLI's lock step: lock with retries, or the "Error acquiring the state lock" diagnostic. */
export async function acquireLock(
  locker: Locker,
  operation: string,
  timeoutMs = 0,
  opts: { version?: string } = {},
): Promise<{ id: string; diagnostics: Diagnostic[] }> {
  const info = newLockInfo(operation, opts);
  const r = await lockWithTimeout(locker, info, timeoutMs);
  if (r.ok) return { id: r.id, diagnostics: [] };
  return { id: "", diagnostics: [lockErrorDiagnostic(r.error)] };
}
