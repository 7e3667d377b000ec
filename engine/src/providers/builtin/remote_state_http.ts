// The `http` backend and Terrace's server as terraform_remote_state backends. Both read the
// latest snapshot through states' HttpClient (the same GET, auth, Content-MD5 and retries as the
// state stores `init` configures), then take its root outputs.
//
//   data "terraform_remote_state" "net" {
//     backend = "http"
//     config  = { address = "https://example.com/state/net", username = "u", password = "p" }
//   }
//   data "terraform_remote_state" "net" {
//     backend   = "terrace"
//     config    = { address = "https://terrace.example.com", organization = "acme" }  # token: TERRACE_TOKEN
//     workspace = "network"
//   }

import { HttpClient, terraceHttpConfig, type HttpBackendConfig } from "../../states/index.js";
import { BoolType, NumberType, StringType, mapOf, type Value } from "../../values/index.js";
import type { ProviderDiagnostic } from "../provider.js";
import { attribute, block } from "../schema/index.js";
import {
  localRemoteStateBackend,
  outputsFromState,
  type RemoteStateBackend,
  type RemoteStateBackends,
  type RemoteStateOutputsResult,
  type StateDecrypter,
  type StateFileReader,
} from "./remote_state.js";

export interface HttpRemoteStateOptions {
  /** For tests and custom transports (default: global fetch). */
  readonly fetch?: typeof fetch;
}

export interface TerraceRemoteStateOptions extends HttpRemoteStateOptions {
  /** The API token used when the configuration gives none (the CLI passes TERRACE_TOKEN). */
  readonly token?: string;
}

function attrs(config: Value): ReadonlyMap<string, Value> {
  return config.kind === "object" ? config.attrs : new Map();
}

function str(config: Value, name: string): string | undefined {
  const v = attrs(config).get(name);
  return v?.kind === "string" ? v.value : undefined;
}

function num(config: Value, name: string): number | undefined {
  const v = attrs(config).get(name);
  return v?.kind === "number" ? Number(v.value.toString()) : undefined;
}

function invalid(detail: string): { ok: false; diagnostics: ProviderDiagnostic[] } {
  return { ok: false, diagnostics: [{ severity: "error", summary: "Invalid backend configuration", detail, attribute: [{ kind: "attr", name: "config" }] }] };
}

/** One GET of the snapshot; no state (204, 404, an empty body) is "no outputs at all". */
async function readThrough(cfg: HttpBackendConfig, decrypt?: StateDecrypter): Promise<RemoteStateOutputsResult> {
  const r = await new HttpClient(cfg).get();
  if (!r.ok) return r;
  if (!r.value || r.value.data.length === 0) return { ok: true, outputs: undefined };
  return outputsFromState(r.value.data, decrypt);
}

/** OpenTofu's retry settings (seconds in configuration) onto the client's. */
function retries(config: Value): Pick<HttpBackendConfig, "retryMax" | "retryWaitMinMs" | "retryWaitMaxMs"> {
  const out: { retryMax?: number; retryWaitMinMs?: number; retryWaitMaxMs?: number } = {};
  const max = num(config, "retry_max");
  const min = num(config, "retry_wait_min");
  const wmax = num(config, "retry_wait_max");
  if (max !== undefined) out.retryMax = max;
  if (min !== undefined) out.retryWaitMinMs = min * 1000;
  if (wmax !== undefined) out.retryWaitMaxMs = wmax * 1000;
  return out;
}

/**
 * OpenTofu's `http` backend (its full schema, so any `backend "http"` block's settings are valid
 * here). It has only the default workspace, as upstream's does. TLS client certificates and
 * skip_cert_verification are refused: the client is fetch, which takes neither.
 */
export function httpRemoteStateBackend(opts: HttpRemoteStateOptions = {}): RemoteStateBackend {
  return {
    configSchema: block({
      address: attribute({ type: StringType, required: true }),
      update_method: attribute({ type: StringType, optional: true }),
      lock_address: attribute({ type: StringType, optional: true }),
      unlock_address: attribute({ type: StringType, optional: true }),
      lock_method: attribute({ type: StringType, optional: true }),
      unlock_method: attribute({ type: StringType, optional: true }),
      username: attribute({ type: StringType, optional: true }),
      password: attribute({ type: StringType, optional: true, sensitive: true }),
      skip_cert_verification: attribute({ type: BoolType, optional: true }),
      retry_max: attribute({ type: NumberType, optional: true }),
      retry_wait_min: attribute({ type: NumberType, optional: true }),
      retry_wait_max: attribute({ type: NumberType, optional: true }),
      client_ca_certificate_pem: attribute({ type: StringType, optional: true }),
      client_certificate_pem: attribute({ type: StringType, optional: true }),
      client_private_key_pem: attribute({ type: StringType, optional: true }),
      headers: attribute({ type: mapOf(StringType), optional: true }),
    }),
    configure(config) {
      const address = str(config, "address") ?? "";
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        return invalid(`failed to parse address URL: parse ${JSON.stringify(address)}: invalid URL`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") return invalid("address must be HTTP or HTTPS");
      const skip = attrs(config).get("skip_cert_verification");
      if (skip?.kind === "bool" && skip.value) return invalid("skip_cert_verification is not supported by Terrace's http client.");
      for (const pem of ["client_ca_certificate_pem", "client_certificate_pem", "client_private_key_pem"]) {
        if (str(config, pem) !== undefined) return invalid(`${pem} is not supported by Terrace's http client.`);
      }
      const headers: Record<string, string> = {};
      const h = attrs(config).get("headers");
      if (h?.kind === "map") for (const [k, v] of h.attrs) if (v.kind === "string") headers[k] = v.value;
      const cfg: HttpBackendConfig = { address, headers, ...retries(config) };
      const username = str(config, "username");
      const password = str(config, "password");
      if (username !== undefined) cfg.username = username;
      if (password !== undefined) cfg.password = password;
      if (opts.fetch) cfg.fetch = opts.fetch;
      return {
        ok: true,
        store: {
          readOutputs: (workspace, decrypt) => (workspace === "default" ? readThrough(cfg, decrypt) : Promise.resolve({ ok: false, error: "workspaces not supported" })),
        },
      };
    },
  };
}

/**
 * A Terrace server workspace: `address` (the server's base URL), `organization`, and optionally
 * `workspace` (else the data source's own `workspace`) and `token` (else the one given here).
 */
export function terraceRemoteStateBackend(opts: TerraceRemoteStateOptions = {}): RemoteStateBackend {
  return {
    configSchema: block({
      address: attribute({ type: StringType, required: true }),
      organization: attribute({ type: StringType, required: true }),
      workspace: attribute({ type: StringType, optional: true }),
      token: attribute({ type: StringType, optional: true, sensitive: true }),
      retry_max: attribute({ type: NumberType, optional: true }),
      retry_wait_min: attribute({ type: NumberType, optional: true }),
      retry_wait_max: attribute({ type: NumberType, optional: true }),
    }),
    configure(config) {
      const baseUrl = str(config, "address") ?? "";
      try {
        new URL(baseUrl);
      } catch {
        return invalid(`failed to parse address URL: parse ${JSON.stringify(baseUrl)}: invalid URL`);
      }
      const token = str(config, "token") ?? opts.token;
      if (!token) return invalid("A Terrace API token is required: set token in the configuration or TERRACE_TOKEN in the environment.");
      const organization = str(config, "organization") ?? "";
      const fixed = str(config, "workspace");
      return {
        ok: true,
        store: {
          readOutputs: (workspace, decrypt) =>
            readThrough(terraceHttpConfig({ baseUrl, organization, workspace: fixed ?? workspace, token, ...retries(config), ...(opts.fetch ? { fetch: opts.fetch } : {}) }), decrypt),
        },
      };
    },
  };
}

/** The backends the CLI offers terraform_remote_state: `local` (files under baseDir), `http`, `terrace`. */
export function standardRemoteStateBackends(opts: { readFile: StateFileReader; baseDir: string; terraceToken?: string | undefined; fetch?: typeof fetch }): RemoteStateBackends {
  const transport = opts.fetch ? { fetch: opts.fetch } : {};
  return new Map([
    ["local", localRemoteStateBackend(opts.readFile, opts.baseDir)],
    ["http", httpRemoteStateBackend(transport)],
    ["terrace", terraceRemoteStateBackend({ ...transport, ...(opts.terraceToken ? { token: opts.terraceToken } : {}) })],
  ]);
}
