// API tokens for a host as OpenTofu finds them (cliconfig.CredentialsSource.ForHost): a
// TF_TOKEN_<host> environment variable first (dots may be written as "_", hyphens as "__"), then
// a `credentials "<host>" { token = "…" }` block of the CLI configuration (the files
// loadCLIConfig reads, and credentials.tfrc.json, which `tofu login` writes).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseConfig, type Block } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import { configDir, loadCLIConfig, type CLIEnvironment } from "../providers/index.js";

/** svchost's comparison form, near enough for the hosts a token is kept for: lower case. */
function hostForComparison(host: string): string {
  return host.toLowerCase();
}

/** collectCredentialsFromEnv: the TF_TOKEN_ variables, by host; names are taken in sorted order. */
function tokenFromEnv(env: CLIEnvironment["env"], host: string): string | undefined {
  const want = hostForComparison(host);
  let found: string | undefined;
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith("TF_TOKEN_")) continue;
    const raw = name.slice("TF_TOKEN_".length).replaceAll("__", "-").replaceAll("_", ".");
    const value = env[name];
    if (value !== undefined && hostForComparison(raw) === want) found = value;
  }
  return found;
}

/** The `token` string of a credentials block (the CLI configuration has no variables). */
function blockToken(b: Block): string | undefined {
  const attr = b.body.attributes.find((a) => a.name === "token");
  if (!attr) return undefined;
  const v = evaluateAny(attr.expr, new EvalContext(undefined, undefined)).value;
  return v.kind === "string" ? v.value : undefined;
}

async function tokenFromCLIConfig(e: CLIEnvironment, host: string): Promise<string | undefined> {
  const want = hostForComparison(host);
  const loaded = await loadCLIConfig(e);
  let found: string | undefined;
  for (const file of loaded.files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      continue;
    }
    for (const b of parseConfig(text, file).result.body.blocks) {
      if (b.type !== "credentials" || b.labels.length !== 1 || hostForComparison(b.labels[0] as string) !== want) continue;
      found = blockToken(b) ?? found;
    }
  }
  if (found !== undefined) return found;
  try {
    const doc = JSON.parse(await readFile(path.join(await configDir(e), "credentials.tfrc.json"), "utf8")) as { credentials?: Record<string, { token?: unknown }> };
    for (const [h, c] of Object.entries(doc.credentials ?? {})) {
      if (hostForComparison(h) === want && typeof c.token === "string") return c.token;
    }
  } catch {
    // No credentials file (or not JSON): no token from it.
  }
  return undefined;
}

/** The token for `host` (host[:port]), or undefined when none is configured. */
export async function hostCredentialsToken(e: CLIEnvironment, host: string): Promise<string | undefined> {
  return tokenFromEnv(e.env, host) ?? (await tokenFromCLIConfig(e, host));
}
