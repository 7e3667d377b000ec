import type { StateLock } from "@prisma/client";
import { ApiError } from "../http/errors";
import { lockJson } from "./locks";

/** The state is locked by someone else: answered with 423 and the holder's lock JSON. */
export class StateLockedError extends ApiError {
  constructor(
    readonly lock: StateLock,
    detail: string,
  ) {
    super(423, "State is locked", detail);
  }
}

const HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

/**
 * 423 for a LOCK or UNLOCK that lost: the holder's lock JSON exactly as the holder sent it. The
 * CLI parses it to tell its user who holds the lock and which ID to pass to `force-unlock`.
 */
export function lockConflictResponse(lock: StateLock): Response {
  return new Response(lockJson(lock), { status: 423, headers: HEADERS });
}

/**
 * 423 for a write or rollback refused because of a lock: still the holder's lock JSON (so
 * clients that parse lock info keep working), with an `errors` member that says what to do.
 */
export function lockedResponse(err: StateLockedError): Response {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(lockJson(err.lock)) as Record<string, unknown>;
  } catch {
    fields = { ID: err.lock.lockId };
  }
  const body = { ...fields, errors: [{ status: "423", title: err.message, detail: err.detail }] };
  return new Response(JSON.stringify(body), { status: 423, headers: HEADERS });
}

export function describeLock(lock: StateLock): string {
  const op = lock.operation ? ` for ${lock.operation}` : "";
  const who = lock.who ? ` (${lock.who})` : "";
  return `locked by ${lock.actorLabel}${who}${op} since ${lock.createdAt.toISOString()}, lock ID ${lock.lockId}`;
}
