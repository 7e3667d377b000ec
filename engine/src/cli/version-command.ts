// `terrace version [-json]`: Terrace's own version, the platform, and the provider versions the
// working directory's dependency lock file selects, as `tofu version` prints them. The JSON form
// carries `terraform_version` (the OpenTofu version whose language and formats Terrace follows)
// because tools that drive tofu or terraform (tofu-exec, terraform-exec, language servers) gate
// features on it; Terrace's own version is beside it.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseCommandFlags } from "./args.js";
import type { Command } from "./io.js";
import { engineVersion, TOFU_VERSION } from "./version.js";
import { View } from "./view.js";

/** providers/install's LOCK_FILE_PATH, repeated so that `terrace version` loads no more than it needs. */
const LOCK_FILE_NAME = ".terraform.lock.hcl";

const VERSION_HELP = `Usage: terrace [global options] version [options]

  Displays the version of Terrace and all installed plugins

Options:

  -json       Output the version information as a JSON object.
`;

function platform(): string {
  return `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
}

/**
 * The lock file's selections, best effort as tofu's: a missing or broken lock file gives none.
 * Loaded on use so that `terrace version` alone does not pull in the lock file's HCL parser.
 */
async function providerSelections(workingDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const lockFile = path.join(workingDir, LOCK_FILE_NAME);
  if (!existsSync(lockFile)) return out;
  const { loadLocksFromFile } = await import("../providers/install/lockfile-fs.js");
  const { versionString } = await import("../versions/version.js");
  const file = await loadLocksFromFile(lockFile);
  if (file.missing || file.diagnostics.some((d) => d.severity === "error")) return out;
  for (const lock of file.locks.allProviders()) out.set(lock.provider.toString(), versionString(lock.version));
  return out;
}

export const versionCommand: Command = async (args, io) => {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["json"] });
  if (typeof p === "string") {
    view.eprintln(`[red]${VERSION_HELP.trimEnd()}[reset]`);
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(VERSION_HELP);
    return 0;
  }
  const selections = await providerSelections(io.cwd);
  const names = [...selections.keys()].sort();
  if (p.bools.get("json")) {
    const doc = {
      terraform_version: TOFU_VERSION,
      platform: platform(),
      provider_selections: Object.fromEntries(names.map((n) => [n, selections.get(n)])),
      terrace_version: engineVersion(),
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  let out = `Terrace v${engineVersion()}\non ${platform()}\n`;
  for (const name of names) {
    const v = selections.get(name) as string;
    out += v === "0.0.0" ? `+ provider ${name} (unversioned)\n` : `+ provider ${name} v${v}\n`;
  }
  io.stdout.write(out);
  return 0;
};
