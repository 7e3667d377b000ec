// The local state's lock file, `.terraform.tfstate.lock.info`. OpenTofu holds an fcntl lock that
// dies with its process and writes this file for others to read; Node has no fcntl, so for us the
// file itself is the lock, and a killed process would leave it behind. Our lock files therefore
// also record the holder's process ID (a field Go's decoder ignores), and a lock whose holder
// was on this host and is gone is taken over: the next command goes on as it would after a
// killed tofu. Anything else — a live holder, another host, or a file without our field (tofu's
// or terraform's) — is a held lock.
import { randomUUID } from "node:crypto";
import { linkSync, readFileSync, renameSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { marshalLockInfo, parseLockInfo, type LockInfo } from "./lock.js";
import { processAlive } from "../host/processes.js";

const PID_FIELD = "TerracePID";

/** The lock file's content: the lock info as OpenTofu writes it, plus our process ID. */
export function localLockFileContent(info: LockInfo, pid: number = process.pid): string {
  return `${marshalLockInfo(info).slice(0, -1)},"${PID_FIELD}":${pid}}`;
}

/** The process that wrote a lock file of ours, when it was on this host. */
function localHolderPid(text: Buffer): number | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text.toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null) return undefined;
  const pid = (raw as Record<string, unknown>)[PID_FIELD];
  const who = (raw as Record<string, unknown>)["Who"];
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0 || typeof who !== "string") return undefined;
  return who.slice(who.lastIndexOf("@") + 1) === hostname() ? pid : undefined;
}

/**
 * Removes the lock file at `p` if it is a stale lock of ours (its holder was on this host and
 * has exited). Moved aside first and checked again, so a fresh lock that replaced it in the
 * meantime is put back, not removed.
 */
export function removeStaleLocalLock(p: string, text: Buffer): boolean {
  const pid = localHolderPid(text);
  const stale = parseLockInfo(text);
  if (pid === undefined || !stale || processAlive(pid)) return false;
  const aside = `${p}.stale-${randomUUID()}`;
  try {
    renameSync(p, aside);
  } catch {
    return false;
  }
  let moved: Buffer | undefined;
  try {
    moved = readFileSync(aside);
  } catch {
    moved = undefined;
  }
  if (moved && parseLockInfo(moved)?.id === stale.id) {
    rmSync(aside, { force: true });
    return true;
  }
  // Someone else's fresh lock: back where it was, unless a newer one is there already.
  try {
    linkSync(aside, p);
  } catch {
    // The newer lock stands.
  }
  rmSync(aside, { force: true });
  return false;
}
