// API tokens for a host as OpenTofu finds them (cliconfig.CredentialsSource.ForHost): a
// TF_TOKEN_<host> environment variable first (dots may be written as "_", hyphens as "__"), then
// the `credentials "<host>"` blocks of the CLI configuration files loadCLIConfig reads, which
// include credentials.tfrc.json, where `login` keeps tokens.
import { loadCLIConfig, type CLIEnvironment } from "../providers/index.js";

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

async function tokenFromCLIConfig(e: CLIEnvironment, host: string): Promise<string | undefined> {
  const want = hostForComparison(host);
  let found: string | undefined;
  for (const [h, c] of (await loadCLIConfig(e)).config.credentials) if (hostForComparison(h) === want) found = c.token;
  return found;
}

/**
 * Whether the CLI configuration has credentials for `host` in a file other than
 * credentials.tfrc.json (whose entries `inCredentialsFile` tells): `login` and `logout` may only
 * change that file, so such a host is refused (OpenTofu's CredentialsInOtherFile).
 */
export async function credentialsInOtherFile(e: CLIEnvironment, host: string, inCredentialsFile: Iterable<string>): Promise<boolean> {
  const want = hostForComparison(host);
  for (const h of inCredentialsFile) if (hostForComparison(h) === want) return false;
  for (const h of (await loadCLIConfig(e)).config.credentials.keys()) if (hostForComparison(h) === want) return true;
  return false;
}

/** The token for `host` (host[:port]), or undefined when none is configured. */
export async function hostCredentialsToken(e: CLIEnvironment, host: string): Promise<string | undefined> {
  return tokenFromEnv(e.env, host) ?? (await tokenFromCLIConfig(e, host));
}
