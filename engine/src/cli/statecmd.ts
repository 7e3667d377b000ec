// The sequence the commands that change stored state share (state mv|rm|push|replace-provider,
// taint, untaint, import): OpenTofu's Meta.Backend and State, then stateLocker.Lock, RefreshState, the
// command's change in memory, WriteState + PersistState. tofu's commands word the same failures
// differently, so every message stays the caller's; this module holds only the order of the steps.
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import type { State, StateStore } from "../states/index.js";
import type { ParsedFlags } from "./args.js";
import type { Meta } from "./meta.js";
import type { View } from "./view.js";
import { withStateLock, type BackendSelection, type LockFlags, type OpenOptions } from "./workspace.js";

/** The legacy -state, -state-out and -backup flags as given; "" when absent (tofu's Meta fields). */
export interface LegacyStatePaths {
  readonly state: string;
  readonly stateOut: string;
  readonly backup: string;
}

export const NO_LEGACY_STATE_PATHS: LegacyStatePaths = { state: "", stateOut: "", backup: "" };

/** The legacy flags a command's spec defines; one it does not define stays "". */
export function legacyStatePaths(p: ParsedFlags): LegacyStatePaths {
  return { state: p.strings.get("state") ?? "", stateOut: p.strings.get("state-out") ?? "", backup: p.strings.get("backup") ?? "" };
}

/**
 * The local backend's overrides (Local.StatePaths): read from -state, write to -state-out (else
 * to -state), back up to -backup (else beside the written file; "-" for none). An empty flag is
 * no override, as in tofu. taint, untaint and import apply them to whatever state they open.
 */
export function legacyStateOptions(paths: LegacyStatePaths): OpenOptions {
  const { state, stateOut, backup } = paths;
  return {
    ...(state !== "" ? { statePath: state } : {}),
    ...(stateOut !== "" ? { stateOutPath: stateOut } : {}),
    ...(backup !== "" ? { backupPath: () => (backup === "-" ? "" : backup) } : {}),
  };
}

/**
 * The overrides as plan, apply, destroy and refresh take them (Local.CLIInit): only the local
 * backend has state paths to override; any other backend's state stays where it is.
 */
export function localBackendOptions(backend: BackendSelection, paths: LegacyStatePaths): OpenOptions {
  return backend.kind === "local" ? legacyStateOptions(paths) : {};
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
