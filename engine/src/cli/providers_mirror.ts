// `terrace providers mirror [options] <target-dir>`: OpenTofu's command/providers_mirror.go —
// copies the packages of the configuration's providers into a mirror directory and writes the
// JSON indexes a network mirror serves. tofu downloads from the origin registry; Terrace has no
// network, so every provider that is not built in is reported as unavailable, and the command
// then (as tofu does) rewrites the indexes for the packages already in the directory.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { LOCK_FILE_PATH, hashPackageArchiveContents, loadLocksFromFile, parsePlatform, platformString, searchLocalDirectory, type PackageMeta } from "../providers/index.js";
import { versionString } from "../versions/index.js";
import { parseCommandFlags } from "./args.js";
import { goJSONEscape } from "./backend.js";
import { configProviderRequirements } from "./provider_requirements.js";
import type { CommandIO } from "./io.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] providers mirror [options] <target-dir>

  Populates a local directory with copies of the provider plugins needed for
  the current configuration, so that the directory can be used either directly
  as a filesystem mirror or as the basis for a network mirror and thus obtain
  those providers without access to their origin registries in future.

  The mirror directory will contain JSON index files that can be published
  along with the mirrored packages on a static HTTP file server to produce
  a network mirror. Those index files will be ignored if the directory is
  used instead as a local filesystem mirror.

  Terrace has no network access: it cannot download packages, and only
  rewrites the JSON indexes of the packages already in the directory.

Options:

  -platform=os_arch  Choose which target platform to build a mirror for.
                     By default OpenTofu will obtain plugin packages
                     suitable for the platform where you run this command.
                     Use this flag multiple times to include packages for
                     multiple target systems.

${VAR_FLAGS_HELP}`;

/** json.MarshalIndent with two spaces, as the index files are written. */
function indented(v: unknown): string {
  return goJSONEscape(JSON.stringify(v, null, 2));
}

/** The index.json and <version>.json files of one provider's directory in the mirror. */
async function writeIndexes(dir: string, provider: string, metas: readonly PackageMeta[]): Promise<Diagnostic[]> {
  const diags: Diagnostic[] = [];
  const versions: Record<string, Record<string, never>> = {};
  // Go marshals these maps with their keys sorted: "hashes" before "url".
  const archives = new Map<string, Record<string, { hashes: string[]; url: string }>>();
  for (const meta of metas) {
    // Only archives can be served by a network mirror.
    if (meta.location.kind !== "localArchive") continue;
    const version = versionString(meta.version);
    const plat = platformString(meta.targetPlatform);
    const hash = await hashPackageArchiveContents(meta.location.path);
    if (!hash.ok) {
      diags.push(errorDiag("Failed to update indexes", `Failed to determine a hash value for ${provider} v${version} on ${plat}: ${hash.error}.`));
      continue;
    }
    versions[version] = {};
    const byPlatform = archives.get(version) ?? {};
    byPlatform[plat] = { hashes: [hash.hash], url: path.basename(meta.location.path) };
    archives.set(version, byPlatform);
  }
  const sorted = <T>(r: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  try {
    writeFileSync(path.join(dir, "index.json"), indented({ versions: sorted(versions) }), { mode: 0o644 });
  } catch (e) {
    diags.push(errorDiag("Failed to update indexes", `Failed to write an updated JSON index for ${provider}: ${e instanceof Error ? e.message : String(e)}.`));
  }
  for (const [version, byPlatform] of archives) {
    try {
      writeFileSync(path.join(dir, `${version}.json`), indented({ archives: sorted(byPlatform) }), { mode: 0o644 });
    } catch (e) {
      diags.push(errorDiag("Failed to update indexes", `Failed to write an updated JSON index for ${provider} v${version}: ${e instanceof Error ? e.message : String(e)}.`));
    }
  }
  return diags;
}

export async function providersMirrorCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["no-color"], multi: [...VAR_FLAGS, "platform"] });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(HELP);
    return 0;
  }
  const diags: Diagnostic[] = [];
  if (p.positional.length !== 1) {
    view.diagnostics([errorDiag("No output directory specified", "The providers mirror command requires an output directory as a command-line argument.")]);
    return 1;
  }
  for (const raw of p.multi.filter((m) => m.name === "platform").map((m) => m.value)) {
    const r = parsePlatform(raw);
    if (!r.ok) diags.push(errorDiag("Invalid target platform", `The string ${JSON.stringify(raw)} given in the -platform option is not a valid target platform: ${r.error}.`));
  }
  const meta = Meta.fromFlags(io, view, p);
  const outputDir = path.resolve(meta.workingDir, p.positional[0] as string);
  const loaded = await meta.loadConfig();
  diags.push(...loaded.diagnostics);
  const reqs = loaded.config ? configProviderRequirements(loaded.config) : undefined;
  diags.push(...(reqs?.diagnostics ?? []));
  const locks = await loadLocksFromFile(path.join(meta.workingDir, LOCK_FILE_PATH));
  if (!locks.missing) diags.push(...locks.diagnostics);
  if (hasErrors(diags) || !reqs) {
    view.diagnostics(diags);
    return 1;
  }

  for (const r of reqs.requirements.values()) {
    const name = r.provider.forDisplay();
    if (r.provider.isBuiltIn()) {
      view.println(`- Skipping ${name} because it is built in to OpenTofu CLI`);
      continue;
    }
    view.println(`- Mirroring ${name}...`);
    diags.push(
      errorDiag(
        "Provider not available",
        `Failed to download ${r.provider.toString()} from its origin registry: Terrace has no network access; copy the provider's packages into the mirror directory yourself.`,
      ),
    );
  }

  // The indexes describe whatever is in the directory, not only what this run added.
  const found = await searchLocalDirectory(outputDir);
  if (!found.ok) {
    diags.push(errorDiag("Failed to update indexes", `Could not scan the output directory to get package metadata for the JSON indexes: ${found.error}.`));
  } else {
    for (const [provider, metas] of found.packages) {
      const first = metas.find((m) => m.location.kind === "localArchive");
      if (!first || first.location.kind !== "localArchive") continue;
      diags.push(...(await writeIndexes(path.dirname(first.location.path), provider, metas)));
    }
  }
  view.diagnostics(diags);
  return hasErrors(diags) ? 1 : 0;
}
