// Workspaces and the state store a command works on: OpenTofu's Meta.Workspace (TF_WORKSPACE, else
// `.terraform/environment`, else "default"), the backend `init` recorded (Meta.savedBackend), and
// Backend.StateMgr(workspace): the local backend's `terraform.tfstate` or
// `terraform.tfstate.d/<name>/terraform.tfstate`, or the http backend, which has only "default".
// The `terrace workspace` command itself is in workspace_command.ts.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "../configs/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import {
  DEFAULT_STATE_FILENAME,
  HttpClient,
  LocalStore,
  RemoteState,
  acquireLock,
  unlockErrorDiagnostic,
  type HttpBackendConfig,
  type Locker,
  type StateEncryption,
  type StateStore,
} from "../states/index.js";
import type { Value } from "../values/index.js";
import type { ParsedFlags } from "./args.js";
import type { CommandIO } from "./io.js";
import { TOFU_VERSION } from "./version.js";
import { listTerraceWorkspaces, terraceBackend, terraceStore, terraceWorkspaceName, type TerraceBackend } from "./terrace_backend.js";
import type { View } from "./view.js";

export const DEFAULT_WORKSPACE = "default";
/** `<data dir>/environment`: the selected workspace. */
function environmentFile(): string {
  return path.join(dataDir(), "environment");
}
const DEFAULT_WORKSPACE_DIR = "terraform.tfstate.d";

// ---------------------------------------------------------------------------------------------
// The selected workspace

/** Meta.WorkspaceOverridden: TF_WORKSPACE wins; otherwise the name saved by `workspace select`. */
export function currentWorkspace(io: CommandIO): { name: string; overridden: boolean } {
  const env = io.env["TF_WORKSPACE"];
  if (env !== undefined && env !== "") return { name: env, overridden: true };
  let text: string;
  try {
    text = readFileSync(path.resolve(io.cwd, environmentFile()), "utf8");
  } catch {
    return { name: DEFAULT_WORKSPACE, overridden: false };
  }
  const name = text.trim();
  return { name: name === "" ? DEFAULT_WORKSPACE : name, overridden: false };
}

export function setWorkspace(io: CommandIO, name: string): Diagnostic[] {
  const p = path.resolve(io.cwd, environmentFile());
  try {
    mkdirSync(path.dirname(p), { recursive: true });
    // tofu writes the bare name, without a newline.
    writeFileSync(p, name);
    return [];
  } catch (e) {
    return [errorDiag("Failed to select workspace", `Error saving the selected workspace: ${e instanceof Error ? e.message : String(e)}`)];
  }
}

/** validWorkspaceName: the name must survive URL path escaping unchanged. */
export function validWorkspaceName(name: string): boolean {
  return name !== "" && /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/.test(name);
}

// ---------------------------------------------------------------------------------------------
// The configured backend

export type BackendSelection =
  | { readonly kind: "local"; readonly path: string; readonly workspaceDir: string }
  | { readonly kind: "http"; readonly config: HttpBackendConfig }
  | TerraceBackend;

function str(config: ReadonlyMap<string, Value>, name: string): string | undefined {
  const v = config.get(name);
  return v && v.kind === "string" ? v.value : undefined;
}

function num(config: ReadonlyMap<string, Value>, name: string): number | undefined {
  const v = config.get(name);
  return v && v.kind === "number" ? Number(v.value.text("g", 17)) : undefined;
}

/** The implied local backend: `terraform.tfstate`, workspaces under `terraform.tfstate.d`. */
export const LOCAL_BACKEND: BackendSelection = { kind: "local", path: DEFAULT_STATE_FILENAME, workspaceDir: DEFAULT_WORKSPACE_DIR };

/** The backend as `init` recorded it, configured (Meta.savedBackend). */
export async function backendSelection(
  type: string,
  c: ReadonlyMap<string, Value>,
  io: Pick<CommandIO, "env" | "cwd">,
): Promise<{ backend: BackendSelection | undefined; diagnostics: Diagnostic[] }> {
  switch (type) {
    case "terrace":
      return terraceBackend(c, io);
    case "local":
      return { backend: { kind: "local", path: str(c, "path") || DEFAULT_STATE_FILENAME, workspaceDir: str(c, "workspace_dir") || DEFAULT_WORKSPACE_DIR }, diagnostics: [] };
    case "http": {
      const cfg: HttpBackendConfig = { address: str(c, "address") ?? "" };
      const set = <K extends keyof HttpBackendConfig>(k: K, v: HttpBackendConfig[K] | undefined) => {
        if (v !== undefined && v !== "") cfg[k] = v;
      };
      set("updateMethod", str(c, "update_method"));
      set("lockAddress", str(c, "lock_address"));
      set("unlockAddress", str(c, "unlock_address"));
      set("lockMethod", str(c, "lock_method"));
      set("unlockMethod", str(c, "unlock_method"));
      set("username", str(c, "username"));
      set("password", str(c, "password"));
      set("retryMax", num(c, "retry_max"));
      const min = num(c, "retry_wait_min");
      const max = num(c, "retry_wait_max");
      if (min !== undefined) cfg.retryWaitMinMs = min * 1000;
      if (max !== undefined) cfg.retryWaitMaxMs = max * 1000;
      const headers = c.get("headers");
      if (headers && headers.kind === "map") {
        const h: Record<string, string> = {};
        for (const [k, v] of headers.attrs) if (v.kind === "string") h[k] = v.value;
        cfg.headers = h;
      }
      return { backend: { kind: "http", config: cfg }, diagnostics: [] };
    }
    default:
      return {
        backend: undefined,
        diagnostics: [errorDiag("Unsupported backend type", `There is no backend type named ${JSON.stringify(type)} in Terrace: the supported backends are "local", "http" and "terrace".`)],
      };
  }
}

/** Local backend StatePaths: the default workspace at `path`, others under the workspace dir. */
export function localStatePath(backend: Extract<BackendSelection, { kind: "local" }>, workspace: string): string {
  return workspace === DEFAULT_WORKSPACE ? backend.path : path.join(backend.workspaceDir, workspace, DEFAULT_STATE_FILENAME);
}

/**
 * Backend.Workspaces: "default" first, then the local backend's workspace directories (or the
 * Terrace server's workspaces), sorted; the http backend has none.
 */
export async function workspaces(io: CommandIO, backend: BackendSelection): Promise<{ names: string[]; error?: string }> {
  if (backend.kind === "http") return { names: [], error: "workspaces not supported" };
  if (backend.kind === "terrace") {
    const r = await listTerraceWorkspaces(backend);
    return "error" in r ? { names: [], error: r.error } : { names: r.names };
  }
  const names = [DEFAULT_WORKSPACE];
  let entries: string[] = [];
  try {
    entries = readdirSync(path.resolve(io.cwd, backend.workspaceDir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    entries = [];
  }
  names.push(...entries.filter((n) => n !== DEFAULT_WORKSPACE).sort());
  return { names };
}

export interface OpenedStore {
  readonly store: StateStore;
  /** The local state file, when the store is one (for backups and messages). */
  readonly localPath: string | undefined;
}

export interface OpenOptions {
  /** The legacy -state flag: this file, whatever the backend. */
  readonly statePath?: string;
  /** The legacy -state-out flag: a local state is read as usual but written here. */
  readonly stateOutPath?: string;
  /** Backup file for a local state, given the file written; "" for none; default `<written>.backup`. */
  readonly backupPath?: (statePath: string) => string;
  /** The workspace; default the selected one. */
  readonly workspace?: string;
  /** How snapshots are encrypted (the configuration's state target). */
  readonly encryption?: StateEncryption;
}

/** Backend.StateMgr(workspace) for the working directory (or the -state file). */
export function openStateStore(io: CommandIO, backend: BackendSelection, opts: OpenOptions = {}): { opened: OpenedStore | undefined; diagnostics: Diagnostic[] } {
  const local = (p: string): OpenedStore => {
    const read = path.resolve(io.cwd, p);
    // statemgr.NewFilesystemBetweenPaths: read one file, write (and lock, and back up beside) another.
    const written = opts.stateOutPath ? path.resolve(io.cwd, opts.stateOutPath) : read;
    // A backup path given on the command line is relative to the working directory, as the state's.
    const given = opts.backupPath?.(written);
    const backup = given === undefined || given === "" ? given : path.resolve(io.cwd, given);
    const base = { terraformVersion: TOFU_VERSION, encryption: opts.encryption, ...(written !== read ? { readPath: read } : {}) };
    return { store: new LocalStore(written, backup === undefined ? base : { ...base, backupPath: backup }), localPath: written };
  };
  if (opts.statePath !== undefined && opts.statePath !== "") return { opened: local(opts.statePath), diagnostics: [] };
  const workspace = opts.workspace ?? currentWorkspace(io).name;
  if (backend.kind === "terrace") {
    const ws = terraceWorkspaceName(backend, workspace);
    if ("error" in ws) return { opened: undefined, diagnostics: [errorDiag("Failed to load state", ws.error)] };
    return { opened: { store: terraceStore(backend, ws.name, opts.encryption), localPath: undefined }, diagnostics: [] };
  }
  if (backend.kind === "http") {
    if (workspace !== DEFAULT_WORKSPACE) return { opened: undefined, diagnostics: [errorDiag("Failed to load state", "workspaces not supported")] };
    return { opened: { store: new RemoteState(new HttpClient(backend.config), { terraformVersion: TOFU_VERSION, encryption: opts.encryption }), localPath: undefined }, diagnostics: [] };
  }
  return { opened: local(localStatePath(backend, workspace)), diagnostics: [] };
}

/** The http client behind a store, for what only the client can do (force-unlock, push). */
export function httpClientOf(store: StateStore): HttpClient | undefined {
  return store instanceof RemoteState && store.client instanceof HttpClient ? store.client : undefined;
}

// ---------------------------------------------------------------------------------------------
// Locking as the state commands do it

/** A Go duration as -lock-timeout takes it ("0s", "30s", "1m30s", "500ms"); undefined if invalid. */
export function parseLockTimeout(s: string): number | undefined {
  if (s === "0") return 0;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let i = 0;
  if (s === "") return undefined;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * (unit[m[2] as string] as number);
    i = re.lastIndex;
  }
  return total;
}

export interface LockFlags {
  readonly lock: boolean;
  readonly timeoutMs: number;
}

/** -lock and -lock-timeout; a string is the text of Go's flag error for a bad duration. */
export function lockFlags(p: ParsedFlags): LockFlags | string {
  const lt = p.strings.get("lock-timeout") ?? "0s";
  const timeoutMs = parseLockTimeout(lt);
  if (timeoutMs === undefined) return `invalid value ${JSON.stringify(lt)} for flag -lock-timeout: parse error`;
  return { lock: p.bools.get("lock") ?? true, timeoutMs };
}

/**
 * Runs `body` holding the store's lock (unless `lock` is false), releasing it afterwards and
 * reporting a failed release as tofu does.
 */
export async function withStateLock(
  view: View,
  locker: Locker,
  operation: string,
  opts: LockFlags,
  body: () => Promise<number>,
): Promise<number> {
  if (!opts.lock) return body();
  const l = await acquireLock(locker, operation, opts.timeoutMs, { version: TOFU_VERSION });
  if (l.diagnostics.length > 0) {
    view.diagnostics(l.diagnostics);
    return 1;
  }
  try {
    return await body();
  } finally {
    const u = await locker.unlock(l.id);
    if (!u.ok) view.diagnostics([unlockErrorDiagnostic(u.error)]);
  }
}

