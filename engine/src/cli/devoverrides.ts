// The CLI configuration's provider development overrides (`dev_overrides` in
// provider_installation), for the commands that run providers: an overridden provider runs from
// its directory without `init` or a lock file entry, as OpenTofu's Meta.providerFactories does,
// and plan and apply warn that overrides are in effect (providerDevOverrideRuntimeWarnings).
import os from "node:os";
import type { Diagnostic } from "../hcl/index.js";
import { devOverrides, devOverridesWarning, loadCLIConfig, parseReattachProviders, REATTACH_ENV, type DevOverride, type ReattachConfig } from "../providers/index.js";
import type { CommandIO } from "./io.js";

/** Read once per command (its `env` object) and working directory: plan reads them for the warning and its providers. */
const loaded = new WeakMap<CommandIO["env"], Map<string, Promise<ReadonlyMap<string, DevOverride>>>>();

export function cliDevOverrides(env: CommandIO["env"], workingDir: string): Promise<ReadonlyMap<string, DevOverride>> {
  let byDir = loaded.get(env);
  if (!byDir) loaded.set(env, (byDir = new Map()));
  let o = byDir.get(workingDir);
  if (!o) {
    o = loadCLIConfig({ env, homeDir: env.HOME || os.homedir(), cwd: workingDir }).then((cli) => devOverrides(cli.config));
    byDir.set(workingDir, o);
  }
  return o;
}

/** OpenTofu's providerDevOverrideRuntimeWarnings: plan and apply say overrides are in effect. */
export async function devOverrideRuntimeWarnings(env: CommandIO["env"], workingDir: string): Promise<Diagnostic[]> {
  const overrides = await cliDevOverrides(env, workingDir);
  return overrides.size > 0 ? [devOverridesWarning(overrides)] : [];
}

/**
 * TF_REATTACH_PROVIDERS's providers by address: already running (in a debugger, usually), so they
 * are neither installed nor locked, and commands connect to them instead of starting their own.
 * A malformed value counts as none here: runCLI refuses it before any command runs.
 */
export function unmanagedProviders(env: CommandIO["env"]): ReadonlyMap<string, ReattachConfig> {
  const r = parseReattachProviders(env[REATTACH_ENV]);
  return r.ok ? r.providers : new Map();
}
