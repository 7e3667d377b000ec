// The `http` backend client (OpenTofu's backend/remote-state/http), as the CLI speaks it on the
// wire (see /work/shared/notes/PROTOCOLS.md): GET/POST(?ID=) of whole snapshots, LOCK/UNLOCK
// with lock-info JSON, Content-MD5 on every body, and go-retryablehttp's retries on 5xx. The
// Terrace server store is this client pointed at /api/v1/state/<org>/<workspace>.
import { createHash } from "node:crypto";
import { base64DecodeStrict } from "./base64.js";
import { marshalLockInfo, parseLockInfo, type LockInfo, type LockResult, type Locker, type UnlockResult } from "./lock.js";
import { RemoteState, type ClientResult, type Payload, type RemoteClient, type RemoteStateOptions } from "./store.js";
import { coreLog } from "../logging/logger.js";
import { goDurationString } from "../values/gostrings.js";

export interface HttpBackendConfig {
  address: string;
  /** Default POST. */
  updateMethod?: string;
  /** Without a lock address the backend does not lock. */
  lockAddress?: string;
  /** Default LOCK (GitLab's variant: POST). */
  lockMethod?: string;
  unlockAddress?: string;
  /** Default UNLOCK (GitLab's variant: DELETE). */
  unlockMethod?: string;
  /** Basic auth, sent only when a username is set. */
  username?: string;
  password?: string;
  /** Extra headers on every request (Terrace: Authorization: Bearer …). */
  headers?: Record<string, string>;
  /** Retries after the first attempt (go-retryablehttp's RetryMax; OpenTofu's retry_max, default 2). */
  retryMax?: number;
  /** Backoff: min × 2^attempt, capped at max (retry_wait_min 1 s, retry_wait_max 30 s). */
  retryWaitMinMs?: number;
  retryWaitMaxMs?: number;
  /** For tests and custom transports. */
  fetch?: typeof fetch;
}

interface HttpResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function md5Base64(data: Uint8Array): string {
  return createHash("md5").update(data).digest("base64");
}

/** go-retryablehttp's DefaultRetryPolicy: transport errors, 429 and 5xx other than 501. */
function shouldRetry(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501) || status === 0;
}

export class HttpClient implements RemoteClient, Locker {
  private lockID = "";
  private jsonLockInfo: Uint8Array = new Uint8Array(0);
  private readonly doFetch: typeof fetch;

  constructor(readonly config: HttpBackendConfig) {
    this.doFetch = config.fetch ?? fetch;
  }

  private async request(method: string, address: string, data: Uint8Array | undefined, what: string): Promise<ClientResult<HttpResponse>> {
    const headers: Record<string, string> = { ...(this.config.headers ?? {}) };
    // Credentials in the address (https://user:pass@host/…) are sent as Go's client sends them:
    // basic auth, unless `username` is configured. fetch refuses such URLs outright.
    const { url, user } = splitUserinfo(address);
    const basic = this.config.username ? { name: this.config.username, password: this.config.password ?? "" } : user;
    if (basic) headers["Authorization"] = "Basic " + Buffer.from(`${basic.name}:${basic.password}`).toString("base64");
    if (data !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-MD5"] = md5Base64(data);
    }
    const retryMax = this.config.retryMax ?? 2;
    const min = this.config.retryWaitMinMs ?? 1000;
    const max = this.config.retryWaitMaxMs ?? 30000;
    let lastError = "";
    // go-retryablehttp's log lines, which OpenTofu's http backend passes to its log.
    const log = coreLog();
    const desc = `${method} ${redactURL(address)}`;
    const wait = (retry: number) => Math.min(min * 2 ** (retry - 1), max);
    const retrying = (attempt: number, status?: number) =>
      log.debug(`${status === undefined ? desc : `${desc} (status: ${status})`}: retrying in ${goDurationString(wait(attempt + 1))} (${retryMax - attempt} left)`);
    for (let attempt = 0; attempt <= retryMax; attempt++) {
      if (attempt > 0) await sleep(wait(attempt));
      log.debug(desc);
      try {
        const res = await this.doFetch(url, { method, headers, body: data === undefined ? undefined : Buffer.from(data) });
        const body = new Uint8Array(await res.arrayBuffer());
        if (shouldRetry(res.status) && attempt < retryMax) {
          retrying(attempt, res.status);
          continue;
        }
        if (shouldRetry(res.status)) {
          lastError = `${desc} giving up after ${attempt + 1} attempt(s)`;
          break;
        }
        return { ok: true, value: { status: res.status, headers: res.headers, body } };
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        log.error(`${desc} request failed: ${message}`);
        if (attempt < retryMax) retrying(attempt);
        lastError = `${desc} giving up after ${attempt + 1} attempt(s): ${message}`;
      }
    }
    return { ok: false, error: `Failed to ${what}: ${lastError}` };
  }

  async get(): Promise<ClientResult<Payload | undefined>> {
    const r = await this.request("GET", this.config.address, undefined, "get state");
    if (!r.ok) return r;
    const res = r.value;
    switch (res.status) {
      case 200:
        break;
      case 204:
      case 404:
        return { ok: true, value: undefined };
      case 401:
        return { ok: false, error: "HTTP remote state endpoint requires auth" };
      case 403:
        return { ok: false, error: "HTTP remote state endpoint invalid auth" };
      case 500:
        return { ok: false, error: "HTTP remote state internal server error" };
      default:
        return { ok: false, error: `Unexpected HTTP response code ${res.status}` };
    }
    if (res.body.length === 0) return { ok: true, value: undefined };
    const raw = res.headers.get("Content-MD5");
    if (raw) {
      const md5 = base64DecodeStrict(raw);
      if (!md5.ok) return { ok: false, error: `Failed to decode Content-MD5 '${raw}': ${md5.error}` };
      return { ok: true, value: { data: res.body, md5: md5.bytes } };
    }
    return { ok: true, value: { data: res.body, md5: new Uint8Array(createHash("md5").update(res.body).digest()) } };
  }

  async put(data: Uint8Array): Promise<ClientResult<void>> {
    const url = new URL(this.config.address);
    if (this.lockID !== "") url.searchParams.set("ID", this.lockID);
    const r = await this.request(this.config.updateMethod || "POST", url.toString(), data, "upload state");
    if (!r.ok) return r;
    const s = r.value.status;
    if (s === 200 || s === 201 || s === 204) return { ok: true, value: undefined };
    return { ok: false, error: `HTTP error: ${s}` };
  }

  async lock(info: LockInfo): Promise<LockResult> {
    if (!this.config.lockAddress) return { ok: true, id: "" };
    this.lockID = "";
    const body = new TextEncoder().encode(marshalLockInfo(info));
    const r = await this.request(this.config.lockMethod || "LOCK", this.config.lockAddress, body, "lock");
    if (!r.ok) return { ok: false, error: { kind: "StoreError", message: r.error } };
    switch (r.value.status) {
      case 200:
        this.lockID = info.id;
        this.jsonLockInfo = body;
        return { ok: true, id: info.id };
      case 401:
        return { ok: false, error: { kind: "StoreError", message: "HTTP remote state endpoint requires auth" } };
      case 403:
        return { ok: false, error: { kind: "StoreError", message: "HTTP remote state endpoint invalid auth" } };
      case 409:
      case 423: {
        const holder = parseLockInfo(r.value.body);
        if (!holder) return { ok: false, error: { kind: "LockError", message: "HTTP remote state already locked, failed to unmarshal body", info } };
        return { ok: false, error: { kind: "LockError", message: `HTTP remote state already locked: ID=${holder.id}`, info, holder } };
      }
      default:
        return { ok: false, error: { kind: "StoreError", message: `Unexpected HTTP response code ${r.value.status}` } };
    }
  }

  /**
   * Sends the lock info this client locked with. A client that never locked sends an empty body:
   * that is the CLI's force-unlock.
   */
  async unlock(_id: string): Promise<UnlockResult> {
    if (!this.config.unlockAddress) return { ok: true };
    const r = await this.request(this.config.unlockMethod || "UNLOCK", this.config.unlockAddress, this.jsonLockInfo, "unlock");
    if (!r.ok) return { ok: false, error: { kind: "StoreError", message: r.error } };
    if (r.value.status === 200) {
      this.lockID = "";
      this.jsonLockInfo = new Uint8Array(0);
      return { ok: true };
    }
    return { ok: false, error: { kind: "StoreError", message: `Unexpected HTTP response code ${r.value.status}` } };
  }
}

/** A state store on an `http` backend. */
export function newHttpStore(config: HttpBackendConfig, opts: RemoteStateOptions = {}): RemoteState {
  return new RemoteState(new HttpClient(config), opts);
}

export interface TerraceServerConfig {
  /** e.g. https://terrace.example.com */
  baseUrl: string;
  organization: string;
  workspace: string;
  /** An API token, sent as a bearer token. */
  token: string;
  retryMax?: number;
  retryWaitMinMs?: number;
  retryWaitMaxMs?: number;
  fetch?: typeof fetch;
}

/** The `http` backend settings for a Terrace workspace: state at …/<ws>, lock at …/<ws>/lock. */
export function terraceHttpConfig(c: TerraceServerConfig): HttpBackendConfig {
  const base = c.baseUrl.replace(/\/+$/, "");
  const address = `${base}/api/v1/state/${encodeURIComponent(c.organization)}/${encodeURIComponent(c.workspace)}`;
  const cfg: HttpBackendConfig = {
    address,
    lockAddress: `${address}/lock`,
    unlockAddress: `${address}/lock`,
    headers: { Authorization: `Bearer ${c.token}` },
  };
  if (c.retryMax !== undefined) cfg.retryMax = c.retryMax;
  if (c.retryWaitMinMs !== undefined) cfg.retryWaitMinMs = c.retryWaitMinMs;
  if (c.retryWaitMaxMs !== undefined) cfg.retryWaitMaxMs = c.retryWaitMaxMs;
  if (c.fetch !== undefined) cfg.fetch = c.fetch;
  return cfg;
}

/** A state store on a Terrace server workspace. */
export function newTerraceStore(c: TerraceServerConfig, opts: RemoteStateOptions = {}): RemoteState {
  return newHttpStore(terraceHttpConfig(c), opts);
}

/** The address without its userinfo, and the credentials it held (percent-decoded, as Go's url.User). */
function splitUserinfo(address: string): { url: string; user?: { name: string; password: string } } {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return { url: address };
  }
  if (u.username === "" && u.password === "") return { url: address };
  const user = { name: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
  u.username = "";
  u.password = "";
  return { url: u.toString(), user };
}

/** The URL with its password, if any, hidden, as go-retryablehttp logs URLs and reports failures. */
function redactURL(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === "") return url;
    u.password = "xxxxx";
    return u.toString();
  } catch {
    return url;
  }
}
