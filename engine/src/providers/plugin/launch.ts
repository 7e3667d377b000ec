// One call for the core: start a provider plugin and wrap it in the Provider interface.

import type { ProviderDiagnostic } from "../provider.js";
import { attachPlugin, startPlugin, type StartPluginOptions } from "./client.js";
import type { ReattachConfig } from "./reattach.js";
import { GRPCProvider, type GRPCProviderOptions } from "./grpc_provider.js";

export type LaunchProviderResult = { ok: true; provider: GRPCProvider } | { ok: false; diagnostics: ProviderDiagnostic[] };

/**
 * Starts the plugin and returns a Provider speaking whichever protocol (5 or 6) it chose. A
 * failure to start is one error diagnostic in OpenTofu's words ("Failed to load plugin schemas"
 * is the caller's to add when that is what it was doing).
 */
export async function launchProvider(opts: StartPluginOptions & GRPCProviderOptions & { readonly providerAddr?: string }): Promise<LaunchProviderResult> {
  const r = await startPlugin(opts);
  if (!r.ok) {
    const who = opts.providerAddr ? `provider ${JSON.stringify(opts.providerAddr)}` : `plugin ${opts.command}`;
    return { ok: false, diagnostics: [{ severity: "error", summary: "Failed to instantiate provider", detail: `Could not start ${who}: ${r.error}` }] };
  }
  return { ok: true, provider: new GRPCProvider(r.client, opts.schema ? { schema: opts.schema } : {}) };
}

/** The Provider for a plugin named in TF_REATTACH_PROVIDERS (an "unmanaged provider"). */
export async function attachProvider(providerAddr: string, cfg: ReattachConfig): Promise<LaunchProviderResult> {
  const r = await attachPlugin(providerAddr, cfg);
  if (!r.ok) {
    return { ok: false, diagnostics: [{ severity: "error", summary: "Failed to instantiate provider", detail: `Unable to reattach to unmanaged provider ${JSON.stringify(providerAddr)}: ${r.error}` }] };
  }
  return { ok: true, provider: new GRPCProvider(r.client) };
}
