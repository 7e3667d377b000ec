// Workspaces and the state store a command works on: OpenTofu's Meta.Workspace (TF_WORKSPACE, else
// `.terraform/environment`, else "default"), the configured backend from `.terraform/terraform.tfstate`
// (Backend.StateMgr(workspace): the local backend's `terraform.tfstate` or
// `terraform.tfstate.d/<name>/terraform.tfstate`, or the http backend, which has only "default"),
// and `terrace workspace list|show|new|select|delete` (command/workspace_*.go).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import {
  DEFAULT_STATE_FILENAME,
  HttpClient,
  LocalStore,
  NotDeposed,
  RemoteState,
  acquireLock,
  readStateFile,
  unlockErrorDiagnostic,
  type HttpBackendConfig,
  type Locker,
  type StateStore,
} from "../states/index.js";
import type { Value } from "../values/index.js";
import { parseFlags, type FlagSpec, type ParsedFlags } from "./args.js";
import { readBackendState } from "./backend.js";
import type { Command, CommandIO } from "./io.js";
import { TOFU_VERSION } from "./version.js";
import { View } from "./view.js";

export const DEFAULT_WORKSPACE = "default";
const ENVIRONMENT_FILE = path.join(".terraform", "environment");
const DEFAULT_WORKSPACE_DIR = "terraform.tfstate.d";

// ---------------------------------------------------------------------------------------------
// The selected workspace

/** Meta.WorkspaceOverridden: TF_WORKSPACE wins; otherwise the name saved by `workspace select`. */
export function currentWorkspace(io: CommandIO): { name: string; overridden: boolean } {
  const env = io.env["TF_WORKSPACE"];
  if (env !== undefined && env !== "") return { name: env, overridden: true };
  let text: string;
  try {
    text = readFileSync(path.join(io.cwd, ENVIRONMENT_FILE), "utf8");
  } catch {
    return { name: DEFAULT_WORKSPACE, overridden: false };
  }
  const name = text.trim();
  return { name: name === "" ? DEFAULT_WORKSPACE : name, overridden: false };
}

function setWorkspace(io: CommandIO, name: string): Diagnostic[] {
  const p = path.join(io.cwd, ENVIRONMENT_FILE);
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
  | { readonly kind: "http"; readonly config: HttpBackendConfig };

function str(config: ReadonlyMap<string, Value>, name: string): string | undefined {
  const v = config.get(name);
  return v && v.kind === "string" ? v.value : undefined;
}

function num(config: ReadonlyMap<string, Value>, name: string): number | undefined {
  const v = config.get(name);
  return v && v.kind === "number" ? Number(v.value.text("g", 17)) : undefined;
}

/** The backend `init` recorded; the implied local backend when there is none. */
export function selectedBackend(io: CommandIO): { backend: BackendSelection; diagnostics: Diagnostic[] } {
  const local: BackendSelection = { kind: "local", path: DEFAULT_STATE_FILENAME, workspaceDir: DEFAULT_WORKSPACE_DIR };
  const r = readBackendState(io.cwd);
  if (!r.state) return { backend: local, diagnostics: r.diagnostics };
  const c = r.state.config;
  switch (r.state.type) {
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
        backend: local,
        diagnostics: [errorDiag("Unsupported backend type", `There is no backend type named ${JSON.stringify(r.state.type)} in Terrace: the supported backends are "local" and "http".`)],
      };
  }
}

/** Local backend StatePaths: the default workspace at `path`, others under the workspace dir. */
export function localStatePath(backend: Extract<BackendSelection, { kind: "local" }>, workspace: string): string {
  return workspace === DEFAULT_WORKSPACE ? backend.path : path.join(backend.workspaceDir, workspace, DEFAULT_STATE_FILENAME);
}

/** Backend.Workspaces: "default" first, then the local backend's workspace directories, sorted. */
function workspaces(io: CommandIO, backend: BackendSelection): { names: string[]; error?: string } {
  if (backend.kind === "http") return { names: [], error: "workspaces not supported" };
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
  /** Backup file for a local state; "" for none; default `<state>.backup`. */
  readonly backupPath?: (statePath: string) => string;
  /** The workspace; default the selected one. */
  readonly workspace?: string;
}

/** Backend.StateMgr(workspace) for the working directory (or the -state file). */
export function openStateStore(io: CommandIO, opts: OpenOptions = {}): { opened: OpenedStore | undefined; diagnostics: Diagnostic[] } {
  const local = (p: string): OpenedStore => {
    const abs = path.resolve(io.cwd, p);
    const backup = opts.backupPath?.(abs);
    return { store: new LocalStore(abs, backup === undefined ? { terraformVersion: TOFU_VERSION } : { terraformVersion: TOFU_VERSION, backupPath: backup }), localPath: abs };
  };
  if (opts.statePath !== undefined && opts.statePath !== "") return { opened: local(opts.statePath), diagnostics: [] };
  const sel = selectedBackend(io);
  if (sel.diagnostics.some((d) => d.severity === "error")) return { opened: undefined, diagnostics: sel.diagnostics };
  const workspace = opts.workspace ?? currentWorkspace(io).name;
  if (sel.backend.kind === "http") {
    if (workspace !== DEFAULT_WORKSPACE) return { opened: undefined, diagnostics: [errorDiag("Failed to load state", "workspaces not supported")] };
    return { opened: { store: new RemoteState(new HttpClient(sel.backend.config), { terraformVersion: TOFU_VERSION }), localPath: undefined }, diagnostics: [] };
  }
  return { opened: local(localStatePath(sel.backend, workspace)), diagnostics: [] };
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

// ---------------------------------------------------------------------------------------------
// terrace workspace ...

const WORKSPACE_HELP = `Usage: terrace [global options] workspace

  new, list, show, select and delete OpenTofu workspaces.

Subcommands:
    delete    Delete a workspace
    list      List Workspaces
    new       Create a new workspace
    select    Select a workspace
    show      Show the name of the current workspace
`;

const NEW_HELP = `Usage: terrace [global options] workspace new [OPTIONS] NAME

  Create a new OpenTofu workspace.

Options:

    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.

    -lock-timeout=0s    Duration to retry a state lock.

    -state=path         Copy an existing state file into the new workspace.
`;

const SELECT_HELP = `Usage: terrace [global options] workspace select [options] NAME

  Select a different OpenTofu workspace.

Options:

    -or-create=false    Create the OpenTofu workspace if it doesn't exist.
`;

const DELETE_HELP = `Usage: terrace [global options] workspace delete [options] NAME

  Delete a OpenTofu workspace


Options:

  -force               Remove a workspace even if it is managing resources.
                       OpenTofu can no longer track or manage the workspace's
                       infrastructure.

  -lock=false          Don't hold a state lock during the operation. This is
                       dangerous if others might concurrently run commands
                       against the same workspace.

  -lock-timeout=0s     Duration to retry a state lock.
`;

const ENV_CREATED = `[reset][green][bold]Created and switched to workspace %s![reset][green]

You're now on a new, empty workspace. Workspaces isolate their state,
so if you run "terrace plan" OpenTofu will not see any existing state
for this configuration.`;

const ENV_DOES_NOT_EXIST = `
Workspace %s doesn't exist.

You can create this workspace with the "new" subcommand 
or include the "-or-create" flag with the "select" subcommand.`;

const ENV_DEL_CURRENT = `
Workspace %s is your active workspace.

You cannot delete the currently active workspace. Please switch
to another workspace and try again.
`;

const ENV_INVALID_NAME = `
The workspace name %s is not allowed. The name must contain only URL safe
characters, and no path separators.
`;

const ENV_OVERRIDDEN_NOTE = `

The active workspace is being overridden using the TF_WORKSPACE environment
variable.
`;

const ENV_OVERRIDDEN_SELECT = `
The selected workspace is currently overridden using the TF_WORKSPACE
environment variable.

To select a new workspace, either update this environment variable or unset
it and then run this command again.
`;

const ENV_OVERRIDDEN_NEW = `
The workspace is currently overridden using the TF_WORKSPACE environment
variable. You cannot create a new workspace when using this setting.

To create a new workspace, either unset this environment variable or update it
to match the workspace name you are trying to create, and then run this command
again.
`;

const ENV_WARN_NOT_EMPTY = `[reset][yellow]WARNING: %s was non-empty.
The resources managed by the deleted workspace may still exist,
but are no longer manageable by OpenTofu since the state has
been deleted.
`;

const q = (s: string): string => JSON.stringify(s);

/** c.Ui.Error: the message and a newline to stderr, in red on a terminal. */
function uiError(view: View, msg: string): void {
  view.eprintln(`[red]${msg}[reset]`);
}

function flagError(view: View, p: string): number {
  uiError(view, `Error parsing command-line flags: ${p}\n`);
  return 1;
}

/**
 * The start `workspace new|select|delete` share: flags read, -help answered, exactly one NAME;
 * a number is the exit code to return.
 */
function parseNameCommand(args: readonly string[], io: CommandIO, spec: FlagSpec, help: string): { view: View; p: ParsedFlags; name: string } | number {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseFlags(args, spec);
  if (typeof p === "string") return flagError(view, p);
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return 0;
  }
  if (p.positional.length !== 1) {
    uiError(view, "Expected a single argument: NAME.\n");
    io.stdout.write(help);
    return 1;
  }
  return { view, p, name: p.positional[0] as string };
}

/** Creates a local workspace's directory (the local backend's StateMgr does this for new names). */
function createLocalWorkspace(io: CommandIO, backend: Extract<BackendSelection, { kind: "local" }>, name: string): Diagnostic[] {
  if (name === DEFAULT_WORKSPACE) return [];
  try {
    mkdirSync(path.resolve(io.cwd, backend.workspaceDir, name), { recursive: true });
    return [];
  } catch (e) {
    return [errorDiag("Error getting the state manager", `Failed getting state manager for workspace ${name}: ${e instanceof Error ? e.message : String(e)}`)];
  }
}

async function workspaceList(args: readonly string[], io: CommandIO): Promise<number> {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseFlags(args, { bool: ["no-color"], multi: ["var", "var-file"] });
  if (typeof p === "string") return flagError(view, p);
  const sel = selectedBackend(io);
  if (sel.diagnostics.length > 0) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const ws = workspaces(io, sel.backend);
  if (ws.error !== undefined) {
    uiError(view, ws.error);
    return 1;
  }
  const cur = currentWorkspace(io);
  let out = "";
  for (const n of ws.names) out += `${n === cur.name ? "* " : "  "}${n}\n`;
  view.println(out);
  if (cur.overridden) view.println(ENV_OVERRIDDEN_NOTE);
  return 0;
}

async function workspaceShow(args: readonly string[], io: CommandIO): Promise<number> {
  const view = new View(io, true);
  const p = parseFlags(args, {});
  if (typeof p === "string") return flagError(view, p);
  io.stdout.write(`${currentWorkspace(io).name}\n`);
  return 0;
}

async function workspaceNew(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["lock", "no-color"], string: ["lock-timeout", "state"], multi: ["var", "var-file"] }, NEW_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  if (!validWorkspaceName(name)) {
    uiError(view, ENV_INVALID_NAME.replace("%s", q(name)));
    return 1;
  }
  const cur = currentWorkspace(io);
  if (cur.overridden && cur.name !== name) {
    uiError(view, ENV_OVERRIDDEN_NEW);
    return 1;
  }
  const sel = selectedBackend(io);
  if (sel.diagnostics.length > 0) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  if (sel.backend.kind === "http") {
    view.diagnostics([errorDiag("Error getting existing workspaces", "Failed listing workspaces: workspaces not supported")]);
    return 1;
  }
  if (workspaces(io, sel.backend).names.includes(name)) {
    uiError(view, `Workspace ${q(name)} already exists`);
    return 1;
  }
  const created = [...createLocalWorkspace(io, sel.backend, name), ...setWorkspace(io, name)];
  if (created.length > 0) {
    view.diagnostics(created);
    return 1;
  }
  view.println(ENV_CREATED.replace("%s", q(name)));
  const statePath = p.strings.get("state");
  if (statePath === undefined || statePath === "") return 0;
  return copyStateInto(io, view, name, statePath, p);
}

/** `workspace new -state=PATH`: the given state file becomes the new workspace's state. */
async function copyStateInto(io: CommandIO, view: View, workspace: string, statePath: string, p: ParsedFlags): Promise<number> {
  const lock = lockFlags(p);
  if (typeof lock === "string") return flagError(view, lock);
  const o = openStateStore(io, { workspace });
  if (!o.opened) {
    view.diagnostics(o.diagnostics);
    return 1;
  }
  const store = o.opened.store;
  return withStateLock(view, store, "workspace-new", lock, async () => {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path.resolve(io.cwd, statePath)));
    } catch (e) {
      view.diagnostics([errorDiag("Error opening the given state", `Failed opening the given state ${q(statePath)}: ${e instanceof Error ? e.message : String(e)}`)]);
      return 1;
    }
    const r = readStateFile(bytes, { tofuVersion: TOFU_VERSION });
    if (r.kind === "error") {
      const why = r.diagnostics.map((d) => (d.detail ? `${d.summary}: ${d.detail}` : d.summary)).join("; ");
      view.diagnostics([errorDiag("Error reading the given state", `Failed reading the given state ${q(statePath)}: ${why}`)]);
      return 1;
    }
    if (r.kind === "no-state") return 0;
    const refreshed = await store.refresh();
    if (refreshed.length > 0) {
      view.diagnostics(refreshed);
      return 1;
    }
    store.write(r.file.state);
    const d = await store.persist();
    if (d.length > 0) {
      view.diagnostics([errorDiag("Error persisting the new state", `Failed persisting the new state: ${d.map((x) => x.detail ?? x.summary).join("; ")}`)]);
      return 1;
    }
    return 0;
  });
}

async function workspaceSelect(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["or-create", "no-color"], multi: ["var", "var-file"] }, SELECT_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  const cur = currentWorkspace(io);
  if (cur.overridden) {
    uiError(view, ENV_OVERRIDDEN_SELECT);
    return 1;
  }
  const sel = selectedBackend(io);
  if (sel.diagnostics.length > 0) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  if (!validWorkspaceName(name)) {
    uiError(view, ENV_INVALID_NAME.replace("%s", q(name)));
    return 1;
  }
  const ws = workspaces(io, sel.backend);
  if (ws.error !== undefined) {
    uiError(view, ws.error);
    return 1;
  }
  if (name === cur.name) return 0;
  let created = false;
  if (!ws.names.includes(name)) {
    if (!(p.bools.get("or-create") ?? false) || sel.backend.kind !== "local") {
      uiError(view, ENV_DOES_NOT_EXIST.replace("%s", q(name)));
      return 1;
    }
    const d = createLocalWorkspace(io, sel.backend, name);
    if (d.length > 0) {
      view.diagnostics(d);
      return 1;
    }
    created = true;
  }
  const d = setWorkspace(io, name);
  if (d.length > 0) {
    view.diagnostics(d);
    return 1;
  }
  view.println(created ? ENV_CREATED.replace("%s", q(name)) : `[reset][green]Switched to workspace ${q(name)}.`);
  return 0;
}

async function workspaceDelete(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["force", "lock", "no-color"], string: ["lock-timeout"], multi: ["var", "var-file"] }, DELETE_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  const lock = lockFlags(p);
  if (typeof lock === "string") return flagError(view, lock);
  const sel = selectedBackend(io);
  if (sel.diagnostics.length > 0) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const ws = workspaces(io, sel.backend);
  if (ws.error !== undefined) {
    view.diagnostics([errorDiag("Error loading workspaces", `Listing workspaces failed: ${ws.error}`)]);
    return 1;
  }
  if (!ws.names.includes(name)) {
    uiError(view, ENV_DOES_NOT_EXIST.replace("%s", q(name)));
    return 1;
  }
  if (name === currentWorkspace(io).name) {
    uiError(view, ENV_DEL_CURRENT.replace("%s", q(name)));
    return 1;
  }
  const backend = sel.backend;
  if (backend.kind !== "local") return 1;
  const o = openStateStore(io, { workspace: name });
  if (!o.opened) {
    view.diagnostics(o.diagnostics);
    return 1;
  }
  const store = o.opened.store;
  const force = p.bools.get("force") ?? false;
  let hasResources = false;
  const checked = await withStateLock(view, store, "workspace-delete", lock, async () => {
    const d = await store.refresh();
    if (d.length > 0) {
      view.diagnostics([errorDiag("Failed to refresh state", `State refresh failed: ${d.map((x) => x.detail ?? x.summary).join("; ")}`)]);
      return 1;
    }
    const state = store.state();
    hasResources = state?.hasManagedResourceInstanceObjects() ?? false;
    if (!state || !hasResources || force) return 0;
    const list = state
      .allResourceInstanceObjectAddrs()
      .map((o) => `\n  - ${o.instance.toString()}${o.deposedKey === NotDeposed ? "" : ` (deposed object ${o.deposedKey})`}`)
      .join("");
    view.diagnostics([
      errorDiag(
        "Workspace is not empty",
        `Workspace ${q(name)} is currently tracking the following resource instances:${list}\n\nDeleting this workspace would cause OpenTofu to lose track of any associated remote objects, which would then require you to delete them manually outside of OpenTofu. You should destroy these objects with OpenTofu before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have OpenTofu forget about these managed objects, use the -force option to disable this safety check.`,
      ),
    ]);
    return 1;
  });
  if (checked !== 0) return checked;
  // The lock is released before the files go, as tofu does (Windows cannot remove a held file).
  if (name === DEFAULT_WORKSPACE) {
    view.diagnostics([errorDiag("Workspace deletion failed", "Failed to delete the given workspace: cannot delete default state")]);
    return 1;
  }
  try {
    rmSync(path.resolve(io.cwd, backend.workspaceDir, name), { recursive: true, force: true });
  } catch (e) {
    view.diagnostics([errorDiag("Workspace deletion failed", `Failed to delete the given workspace: ${e instanceof Error ? e.message : String(e)}`)]);
    return 1;
  }
  view.println(`[reset][green]Deleted workspace ${q(name)}!`);
  if (hasResources) view.println(ENV_WARN_NOT_EMPTY.replace("%s", q(name)));
  return 0;
}

export const workspaceCommand: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list":
      return workspaceList(rest, io);
    case "show":
      return workspaceShow(rest, io);
    case "new":
      return workspaceNew(rest, io);
    case "select":
      return workspaceSelect(rest, io);
    case "delete":
      return workspaceDelete(rest, io);
    default:
      io.stdout.write(WORKSPACE_HELP);
      return sub === "-help" || sub === "-h" || sub === "--help" ? 0 : 1;
  }
};
