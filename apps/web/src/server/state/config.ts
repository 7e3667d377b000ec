// Limits of the state endpoints. Read at call time so tests and operators can change them.

const DEFAULT_MAX_STATE_BYTES = 64 * 1024 * 1024;

/** The largest state body accepted (TERRACE_MAX_STATE_BYTES, default 64 MiB); bigger is a 413. */
export function maxStateBytes(): number {
  const v = Number(process.env.TERRACE_MAX_STATE_BYTES);
  return Number.isSafeInteger(v) && v > 0 ? v : DEFAULT_MAX_STATE_BYTES;
}

/** Lock bodies are a few hundred bytes; anything near this is not a lock. */
export const MAX_LOCK_BYTES = 64 * 1024;
