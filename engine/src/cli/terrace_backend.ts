// The `terrace` backend: state kept in a workspace of a Terrace server, through the same HTTP state
// API the `http` backend uses (states' terraceHttpConfig: …/api/v1/state/<org>/<workspace>, with
// its /lock), authenticated with an API token as a bearer token.
//
//   terraform {
//     backend "terrace" {
//       address      = "https://terrace.example.com"
//       organization = "acme"
//       workspace    = "prod"        # or workspace_prefix = "app-" (below), or neither
//     }
//   }
//
// The token: the `token` argument (or -backend-config="token=…"), else TERRACE_TOKEN, else the
// host's TF_TOKEN_<host> variable or `credentials "<host>"` block of the CLI configuration.
//
// Workspaces: with `workspace`, the configuration uses that one Terrace workspace and the CLI has
// only its "default" workspace (as a backend without workspaces). Without it, CLI workspace NAME is
// Terrace workspace PREFIX+NAME (`workspace_prefix`, default none): `terrace workspace list` lists
// the organization's workspaces with that prefix (GET /api/v1/orgs/<org>/workspaces), `new`
// creates one (POST), `delete` deletes it (DELETE …/<workspace>?force=).
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { RemoteState, HttpClient, terraceHttpConfig, type StateEncryption, type TerraceServerConfig } from "../states/index.js";
import type { Value } from "../values/index.js";
import { hostCredentialsToken } from "./credentials.js";
import type { CommandIO } from "./io.js";
import { TOFU_VERSION } from "./version.js";

export interface TerraceBackend {
  readonly kind: "terrace";
  /** Server, organization, token and retries: terraceHttpConfig's input but the workspace. */
  readonly server: Omit<TerraceServerConfig, "workspace">;
  /** A fixed Terrace workspace; the CLI then has only "default". */
  readonly workspace: string | undefined;
  /** Without a fixed workspace: CLI workspace NAME is Terrace workspace PREFIX+NAME. */
  readonly prefix: string;
}

/** Organization and workspace names on a Terrace server. */
const NAME = /^[A-Za-z0-9_-]{1,90}$/;

function str(config: ReadonlyMap<string, Value>, name: string): string | undefined {
  const v = config.get(name);
  return v && v.kind === "string" ? v.value : undefined;
}

function num(config: ReadonlyMap<string, Value>, name: string): number | undefined {
  const v = config.get(name);
  return v && v.kind === "number" ? Number(v.value.text("g", 17)) : undefined;
}

/** PrepareConfig: what init checks once the -backend-config overrides are merged in. */
export function validateTerraceConfig(config: ReadonlyMap<string, Value>): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const address = str(config, "address") ?? "";
  let url: URL | undefined;
  try {
    url = new URL(address);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    diags.push(errorDiag("Invalid address", `The address ${JSON.stringify(address)} is not a valid http or https URL of a Terrace server.`));
  }
  for (const name of ["organization", "workspace"]) {
    const v = str(config, name);
    if (v !== undefined && !NAME.test(v)) diags.push(errorDiag(`Invalid ${name} name`, `${JSON.stringify(v)} is not a valid ${name} name: use 1 to 90 letters, digits, "-" and "_".`));
  }
  const prefix = str(config, "workspace_prefix");
  if (prefix !== undefined && !/^[A-Za-z0-9_-]{0,89}$/.test(prefix)) {
    diags.push(errorDiag("Invalid workspace_prefix", `${JSON.stringify(prefix)} is not a valid workspace name prefix: use letters, digits, "-" and "_".`));
  }
  if (str(config, "workspace") !== undefined && prefix !== undefined) {
    diags.push(errorDiag("Conflicting arguments", 'Only one of "workspace" and "workspace_prefix" can be set: "workspace" names the one Terrace workspace this configuration uses, "workspace_prefix" maps every CLI workspace to a Terrace workspace.'));
  }
  return diags;
}

/** The backend from its recorded configuration, with the token resolved (Configure). */
export async function terraceBackend(config: ReadonlyMap<string, Value>, io: Pick<CommandIO, "env" | "cwd">): Promise<{ backend: TerraceBackend | undefined; diagnostics: Diagnostic[] }> {
  const baseUrl = str(config, "address") ?? "";
  let host = "";
  try {
    host = new URL(baseUrl).host;
  } catch {
    return { backend: undefined, diagnostics: validateTerraceConfig(config) };
  }
  const env = io.env;
  const token =
    str(config, "token") || env["TERRACE_TOKEN"] || (await hostCredentialsToken({ env, homeDir: env["HOME"] ?? "", cwd: io.cwd }, host));
  if (!token) {
    return {
      backend: undefined,
      diagnostics: [
        errorDiag(
          "Required token could not be found",
          `The "terrace" backend needs an API token for ${host}: set TERRACE_TOKEN or TF_TOKEN_${host.replaceAll("-", "__").replaceAll(".", "_")} in the environment, add a credentials "${host}" block with the token to the CLI configuration, or give the backend's token argument (for example with -backend-config="token=…"; it is then stored in .terraform/terraform.tfstate).`,
        ),
      ],
    };
  }
  const server: Omit<TerraceServerConfig, "workspace"> = { baseUrl, organization: str(config, "organization") ?? "", token };
  const retryMax = num(config, "retry_max");
  const min = num(config, "retry_wait_min");
  const max = num(config, "retry_wait_max");
  const withRetries = {
    ...server,
    ...(retryMax !== undefined ? { retryMax } : {}),
    ...(min !== undefined ? { retryWaitMinMs: min * 1000 } : {}),
    ...(max !== undefined ? { retryWaitMaxMs: max * 1000 } : {}),
  };
  return { backend: { kind: "terrace", server: withRetries, workspace: str(config, "workspace"), prefix: str(config, "workspace_prefix") ?? "" }, diagnostics: [] };
}

/** The Terrace workspace behind a CLI workspace; an error string for a fixed workspace's others. */
export function terraceWorkspaceName(b: TerraceBackend, cliWorkspace: string): { name: string } | { error: string } {
  if (b.workspace !== undefined) return cliWorkspace === "default" ? { name: b.workspace } : { error: "workspaces not supported" };
  return { name: b.prefix + cliWorkspace };
}

/** Backend.StateMgr for a Terrace workspace: the http backend's client on the state API. */
export function terraceStore(b: TerraceBackend, workspace: string, encryption?: StateEncryption): RemoteState {
  return new RemoteState(new HttpClient(terraceHttpConfig({ ...b.server, workspace })), { terraformVersion: TOFU_VERSION, encryption });
}

// ---- Workspace management (the server's organization API) ----

type ApiResult<T> = { ok: true; value: T } | { ok: false; status: number; error: string };

async function api<T>(b: TerraceBackend, method: string, pathname: string, body?: unknown): Promise<ApiResult<T>> {
  const url = `${b.server.baseUrl.replace(/\/+$/, "")}/api/v1/orgs/${encodeURIComponent(b.server.organization)}/${pathname}`;
  let res: Response;
  try {
    res = await (b.server.fetch ?? fetch)(url, {
      method,
      headers: { Authorization: `Bearer ${b.server.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (e) {
    return { ok: false, status: 0, error: `${method} ${url}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const text = await res.text();
  if (res.ok) {
    try {
      return { ok: true, value: (text === "" ? undefined : JSON.parse(text)) as T };
    } catch {
      return { ok: false, status: res.status, error: `${method} ${url}: the server's answer is not JSON` };
    }
  }
  // {"errors":[{"status","title","detail"}]}, as the server answers every error.
  let why = `HTTP ${res.status}`;
  try {
    const e = (JSON.parse(text) as { errors?: Array<{ title?: string; detail?: string }> }).errors?.[0];
    if (e) why = [e.title, e.detail].filter((x) => x !== undefined && x !== "").join(": ");
  } catch {
    // Not the server's error document: the status says enough.
  }
  return { ok: false, status: res.status, error: why };
}

/** Backend.Workspaces: "default", then the CLI names of the organization's workspaces with the prefix. */
export async function listTerraceWorkspaces(b: TerraceBackend): Promise<{ names: string[] } | { error: string }> {
  if (b.workspace !== undefined) return { error: "workspaces not supported" };
  const found = new Set<string>();
  for (let page = 1; ; page++) {
    const r = await api<{ data: Array<{ name: string }>; pagination: { total: number } }>(b, "GET", `workspaces?page=${page}&pageSize=200`);
    if (!r.ok) return { error: r.error };
    for (const w of r.value.data) if (w.name.startsWith(b.prefix) && w.name.length > b.prefix.length) found.add(w.name.slice(b.prefix.length));
    if (r.value.data.length === 0 || page * 200 >= r.value.pagination.total) break;
  }
  found.delete("default");
  return { names: ["default", ...[...found].sort()] };
}

/** Creates the Terrace workspace behind CLI workspace `name`. */
export async function createTerraceWorkspace(b: TerraceBackend, name: string): Promise<{ ok: true } | { ok: false; exists: boolean; error: string }> {
  const r = await api<unknown>(b, "POST", "workspaces", { name: b.prefix + name, description: "" });
  return r.ok ? { ok: true } : { ok: false, exists: r.status === 409, error: r.error };
}

/** DeleteWorkspace: the server refuses one that still tracks resources (or is locked) unless `force`. */
export async function deleteTerraceWorkspace(b: TerraceBackend, name: string, force: boolean): Promise<{ ok: true } | { ok: false; error: string }> {
  const r = await api<unknown>(b, "DELETE", `workspaces/${encodeURIComponent(b.prefix + name)}?force=${force ? "true" : "false"}`);
  return r.ok ? { ok: true } : { ok: false, error: r.error };
}
