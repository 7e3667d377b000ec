// The seam between the `terraform_remote_state` data source and the places state lives. A
// backend type (`local`, `http`, Terrace's own) is a RemoteStateBackend: it declares its
// configuration schema and, given a configuration that fits it, returns a store the data source
// reads the outputs of one workspace from. The `local` backend is here, reading state files
// through an injected reader, so this module stays free of network code; `http` and the Terrace
// store are in remote_state_http.ts, over states' HTTP client.

import {
  DynamicPseudoType,
  StringType,
  convert,
  nullVal,
  objectVal,
  type Value,
} from "../../values/index.js";
import { readStateFile } from "../../states/model.js";
import type { ProviderDiagnostic } from "../provider.js";
import { attribute, block, type Block } from "../schema/index.js";

/** Root-module outputs of a workspace's latest state; `undefined` when there is no state at all. */
export type RemoteStateOutputsResult = { ok: true; outputs: ReadonlyMap<string, Value> | undefined } | { ok: false; error: string };

/**
 * Decrypts a stored snapshot as the configuration's `remote_state_data_sources` says (OpenTofu's
 * state encryption); identity when it names no method for the data source.
 */
export type StateDecrypter = (stored: Uint8Array) => { ok: true; data: Uint8Array } | { ok: false; error: string };

export interface RemoteStateStore {
  readOutputs(workspace: string, decrypt?: StateDecrypter): Promise<RemoteStateOutputsResult>;
}

export interface RemoteStateBackend {
  /** The backend block's schema, as in `terraform { backend "<type>" { … } }`. */
  readonly configSchema: Block;
  /** A store for a configuration already coerced to `configSchema`. */
  configure(config: Value): { ok: true; store: RemoteStateStore } | { ok: false; diagnostics: ProviderDiagnostic[] };
}

/** Backend types by name (aliases are simply registered twice). */
export type RemoteStateBackends = ReadonlyMap<string, RemoteStateBackend>;

/** Reads a file; `undefined` when it does not exist. */
export type StateFileReader = (path: string) => Promise<Uint8Array | undefined>;

/**
 * The `local` backend: `path` (default terraform.tfstate) for the default workspace,
 * `<workspace_dir>/<name>/terraform.tfstate` (default terraform.tfstate.d) for others, relative
 * paths against `baseDir`.
 */
export function localRemoteStateBackend(readFile: StateFileReader, baseDir: string): RemoteStateBackend {
  return {
    configSchema: block({
      path: attribute({ type: StringType, optional: true }),
      workspace_dir: attribute({ type: StringType, optional: true }),
    }),
    configure(config) {
      const str = (name: string): string | undefined => {
        const v = config.kind === "object" ? config.attrs.get(name) : undefined;
        return v?.kind === "string" ? v.value : undefined;
      };
      const statePath = str("path") ?? "terraform.tfstate";
      const workspaceDir = str("workspace_dir") ?? "terraform.tfstate.d";
      const resolve = (p: string): string => (p.startsWith("/") ? p : `${baseDir.replace(/\/$/, "")}/${p}`);
      return {
        ok: true,
        store: {
          async readOutputs(workspace, decrypt) {
            const file = workspace === "default" ? resolve(statePath) : resolve(`${workspaceDir}/${workspace}/terraform.tfstate`);
            let bytes: Uint8Array | undefined;
            try {
              bytes = await readFile(file);
            } catch (e) {
              return { ok: false, error: e instanceof Error ? e.message : String(e) };
            }
            if (!bytes || bytes.length === 0) return { ok: true, outputs: undefined };
            return outputsFromState(bytes, decrypt);
          },
        },
      };
    },
  };
}

/** outputsFromStateJSON of a stored snapshot, decrypted first when a decrypter is given. */
export function outputsFromState(stored: Uint8Array, decrypt?: StateDecrypter): RemoteStateOutputsResult {
  let bytes = stored;
  if (decrypt) {
    const d = decrypt(stored);
    if (!d.ok) return { ok: false, error: `Error loading state: ${d.error}` };
    bytes = d.data;
  }
  return outputsFromStateJSON(new TextDecoder().decode(bytes));
}

/**
 * The root-module outputs of a state snapshot, read as every other state is (any format the
 * states module reads, older ones upgraded), typed by their recorded types.
 */
export function outputsFromStateJSON(text: string): RemoteStateOutputsResult {
  const r = readStateFile(text);
  if (r.kind === "no-state") return { ok: true, outputs: undefined };
  if (r.kind === "error") {
    const details = r.diagnostics.filter((d) => d.severity === "error").map((d) => d.detail || d.summary);
    return { ok: false, error: `Error loading state: ${details.join("\n")}` };
  }
  const outputs = new Map<string, Value>();
  for (const [name, os] of r.file.state.rootModule().outputValues) outputs.set(name, os.value);
  return { ok: true, outputs };
}

/** configschema CoerceValue for a flat block of primitive attributes (what backend schemas are). */
export function coerceBackendConfig(schema: Block, config: Value): { ok: true; value: Value } | { ok: false; error: string } {
  const given = config.kind === "object" || config.kind === "map" ? config.attrs : new Map<string, Value>();
  for (const name of given.keys()) if (!schema.attributes.has(name)) return { ok: false, error: `unsupported attribute "${name}"` };
  const attrs = new Map<string, Value>();
  for (const [name, a] of schema.attributes) {
    const v = given.get(name);
    const t = a.type ?? DynamicPseudoType;
    if (!v || v.kind === "null") {
      if (a.required) return { ok: false, error: `attribute "${name}" is required` };
      attrs.set(name, nullVal(t));
      continue;
    }
    const c = convert(v, t);
    if (!c.ok) return { ok: false, error: `.${name}: ${c.error.message}` };
    attrs.set(name, c.value);
  }
  return { ok: true, value: objectVal(attrs) };
}
