// The sequence the commands that change stored state share (state mv|rm|push|replace-provider,
// taint, untaint, import): OpenTofu's Meta.Backend and State, then stateLocker.Lock, RefreshState, the
// command's change in memory, WriteState + PersistState. tofu's commands word the same failures
// differently, so every message stays the caller's; this module holds only the order of the steps.
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import type { State, StateStore } from "../states/index.js";
import type { Meta } from "./meta.js";
import type { View } from "./view.js";
import { withStateLock, type LockFlags, type OpenOptions } from "./workspace.js";

/** taint, untaint and import: -state names the state file to change, -backup its backup ("-": none). */
export function legacyStateOptions(statePath: string | undefined, backup: string | undefined): OpenOptions {
  return {
    ...(statePath ? { statePath } : {}),
    ...(backup !== undefined ? { backupPath: () => (backup === "-" ? "" : backup) } : {}),
  };
}

export interface RefreshedStateOptions {
  readonly open: OpenOptions;
  /** The lock's operation name (the `Operation` of its lock info). */
  readonly operation: string;
  readonly lock: LockFlags;
  /** Reports a store that could not be opened; the command then exits 1. */
  readonly openFailed: (diagnostics: Diagnostic[]) => void;
  /** Reports a refresh with errors; the command then exits 1 (still holding the lock, as tofu does). */
  readonly refreshFailed: (diagnostics: Diagnostic[]) => void;
}

/**
 * Opens the store, holds its lock for the whole of `body` and refreshes it first; `body` gets the
 * refreshed store and the refresh's warnings (a replayed journal says so there).
 */
export async function withRefreshedState(
  meta: Meta,
  view: View,
  opts: RefreshedStateOptions,
  body: (store: StateStore, warnings: Diagnostic[]) => Promise<number>,
): Promise<number> {
  // Backend errors are shown as diagnostics (with their source), as tofu's showDiagnostics does.
  const b = await meta.backend();
  if (!b.backend) {
    view.diagnostics(b.diagnostics);
    return 1;
  }
  const o = await meta.openStateStore(opts.open);
  if (!o.opened) {
    opts.openFailed(o.diagnostics);
    return 1;
  }
  const store = o.opened.store;
  return withStateLock(view, store, opts.operation, opts.lock, async () => {
    const refreshed = await store.refresh();
    if (hasErrors(refreshed)) {
      opts.refreshFailed(refreshed);
      return 1;
    }
    return body(store, refreshed);
  });
}

/** WriteState + PersistState: the one write of a state-changing command. */
export async function persistState(store: StateStore, state: State): Promise<Diagnostic[]> {
  store.write(state);
  return store.persist();
}
