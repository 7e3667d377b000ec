// The browser's one way to call the Terrace API: same-origin JSON, the CSRF header on unsafe
// methods (read from the readable `terrace_csrf` cookie), and API error JSON turned into a message.

const CSRF_COOKIE = "terrace_csrf";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** An API error: the HTTP status plus the title/detail the server sent, as one readable message. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export function readCookie(name: string): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq >= 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

type ErrorJson = { errors?: { status?: string; title?: string; detail?: string }[] };

/** One readable sentence from an API error body (title, then detail when it adds something). */
export function errorMessage(status: number, body: unknown): string {
  const first = (body as ErrorJson | null)?.errors?.[0];
  if (first?.title) return first.detail && first.detail !== first.title ? `${first.title}: ${first.detail}` : first.title;
  if (status === 401) return "You are signed out. Sign in again.";
  if (status === 403) return "You do not have permission to do that.";
  if (status === 404) return "Not found.";
  if (status === 423) return "The state is locked.";
  return `Request failed (HTTP ${status}).`;
}

export type ApiOptions = { method?: string; body?: unknown; signal?: AbortSignal };

/** Calls `/api/v1<path>`; resolves with the parsed JSON (or undefined for 204), rejects with ApiRequestError. */
export async function api<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const method = (opts.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (!SAFE.has(method)) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers["x-csrf-token"] = csrf;
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "same-origin",
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiRequestError(0, "Cannot reach the Terrace server. Check your connection.", null);
  }
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) throw new ApiRequestError(res.status, errorMessage(res.status, data), data);
  return data as T;
}

/** Builds `?a=1&b=2`, leaving out empty values. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") s.set(k, String(v));
  const out = s.toString();
  return out ? `?${out}` : "";
}

export const enc = encodeURIComponent;

/** Path prefixes of the organization and workspace API resources. */
export const orgPath = (org: string) => `/orgs/${enc(org)}`;
export const wsPath = (org: string, ws: string) => `/orgs/${enc(org)}/workspaces/${enc(ws)}`;
