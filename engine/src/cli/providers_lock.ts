// `terrace providers lock [options] [providers...]`: OpenTofu's command/providers_lock.go — the
// configuration's providers (or those named) are installed for each -platform into a throwaway
// directory, and their checksums merged into .terraform.lock.hcl. tofu consults the origin
// registry; Terrace has no network, so the origin is Terrace's bundled providers, or the
// -fs-mirror directory when given (network mirrors are refused).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseProviderSourceString, type Provider } from "../addrs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import {
  BundledProviderSource,
  FilesystemMirrorSource,
  LOCK_FILE_PATH,
  Locks,
  ProviderCacheDir,
  currentPlatform,
  ensureProviderVersions,
  loadLocksFromFile,
  parsePlatform,
  platformString,
  providerIsLockable,
  saveLocksToFile,
  type Platform,
  type ProviderLock,
  type ProviderRequirement,
  type ProviderSource,
} from "../providers/index.js";
import { versionString } from "../versions/index.js";
import { parseCommandFlags } from "./args.js";
import { installableBundledProviders } from "./bundled.js";
import { configProviderRequirements } from "./provider_requirements.js";
import type { CommandIO } from "./io.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] providers lock [options] [providers...]

  Normally the dependency lock file (.terraform.lock.hcl) is updated
  automatically by "terrace init", but the information available to the
  normal provider installer can be constrained when you're installing providers
  from filesystem or network mirrors, and so the generated lock file can end
  up incomplete.

  The "providers lock" subcommand addresses that by updating the lock file
  based on the packages available at the providers' origin, ignoring the
  currently-configured installation strategy. Terrace has no network access:
  the origin of its bundled providers is Terrace itself, and other providers
  must come from a -fs-mirror directory.

  After this command succeeds, the lock file will contain suitable checksums
  to allow installation of the providers needed by the current configuration
  on all of the selected platforms.

  By default this command updates the lock file for every provider declared
  in the configuration. You can override that behavior by providing one or
  more provider source addresses on the command line.

Options:

  -fs-mirror=dir     Consult the given filesystem mirror directory instead
                     of the origin for each of the given providers.

  -net-mirror=url    Not supported by Terrace (it has no network access).

  -platform=os_arch  Choose a target platform to request package checksums
                     for. By default the platform where you run this command.
                     Use this option multiple times to include checksums for
                     multiple target systems.

${VAR_FLAGS_HELP}`;

type ChangeType = "noChange" | "newProvider" | "newHashes";

/** providersLockCalculateChangeType: what one platform's lock adds to the old one. */
function changeType(oldLock: ProviderLock | undefined, platformLock: ProviderLock): ChangeType {
  if (!oldLock) return "newProvider";
  const old = new Set(oldLock.hashes);
  return platformLock.hashes.every((h) => old.has(h)) ? "noChange" : "newHashes";
}

export async function providersLockCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["no-color"], string: ["fs-mirror", "net-mirror"], multi: [...VAR_FLAGS, "platform"] });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(HELP);
    return 0;
  }
  const fsMirror = p.strings.get("fs-mirror") ?? "";
  const netMirror = p.strings.get("net-mirror") ?? "";
  const diags: Diagnostic[] = [];
  if (fsMirror !== "" && netMirror !== "") {
    view.diagnostics([errorDiag("Invalid installation method options", "The -fs-mirror and -net-mirror command line options are mutually-exclusive.")]);
    return 1;
  }
  if (netMirror !== "") {
    view.diagnostics([errorDiag("Network mirrors not supported", "Terrace has no network access, so it cannot consult a network mirror. Copy the mirror's packages into a directory and use -fs-mirror=DIR instead.")]);
    return 1;
  }
  const platforms: Platform[] = [];
  for (const raw of p.multi.filter((m) => m.name === "platform").map((m) => m.value)) {
    const r = parsePlatform(raw);
    if (r.ok) platforms.push(r.platform);
    else diags.push(errorDiag("Invalid target platform", `The string ${JSON.stringify(raw)} given in the -platform option is not a valid target platform: ${r.error}.`));
  }
  if (platforms.length === 0 && !hasErrors(diags)) platforms.push(currentPlatform());

  const meta = Meta.fromFlags(io, view, p);
  const loaded = await meta.loadConfig();
  diags.push(...loaded.diagnostics);
  const reqs = new Map<string, ProviderRequirement>();
  if (loaded.config) {
    const r = configProviderRequirements(loaded.config);
    diags.push(...r.diagnostics);
    for (const [k, v] of r.requirements) reqs.set(k, v);
  }
  if (p.positional.length > 0) {
    const wanted = new Set<string>();
    for (const raw of p.positional) {
      const a = parseProviderSourceString(raw);
      diags.push(...a.diagnostics);
      if (!a.result) continue;
      wanted.add(a.result.toString());
      if (!reqs.has(a.result.toString())) {
        diags.push(errorDiag("Invalid provider argument", `The provider ${a.result.toString()} is not required by the current configuration.`));
      }
    }
    for (const k of [...reqs.keys()]) if (!wanted.has(k)) reqs.delete(k);
  }
  for (const [k, r] of reqs) if (!providerIsLockable(r.provider)) reqs.delete(k);
  const lockFile = path.join(meta.workingDir, LOCK_FILE_PATH);
  const prior = await loadLocksFromFile(lockFile);
  if (!prior.missing) diags.push(...prior.diagnostics);
  const oldLocks = prior.missing ? new Locks() : prior.locks;
  if (hasErrors(diags)) {
    view.diagnostics(diags);
    return 1;
  }

  const source: ProviderSource = fsMirror !== "" ? new FilesystemMirrorSource(path.resolve(meta.workingDir, fsMirror)) : new BundledProviderSource(installableBundledProviders());
  // tofu's InstallNewProvidersForce: the locked versions are kept, but the packages are not
  // checked against the recorded checksums; their own are computed and merged in below.
  const unverified = new Locks();
  for (const l of oldLocks.allProviders()) unverified.setProvider(l.provider, l.version, l.constraints, []);
  const updated = new Map<string, Locks>();
  const selected = new Map<string, string>();
  for (const platform of platforms) {
    const plat = platformString(platform);
    // Packages go to a directory of their own, so nothing installed here is ever run.
    const tempDir = mkdtempSync(path.join(tmpdir(), "terraform-providers-lock"));
    try {
      const r = await ensureProviderVersions({
        requirements: [...reqs.values()],
        locks: unverified,
        mode: "normal",
        source,
        targetDir: new ProviderCacheDir(tempDir, platform),
        command: "terrace",
        events: {
          fetchPackageBegin: (provider: Provider, version) => {
            const v = versionString(version);
            io.stdout.write(`- Fetching ${provider.forDisplay()} ${v} for ${plat}...\n`);
            const prev = selected.get(provider.toString());
            if (prev !== undefined && prev !== v) {
              diags.push(
                errorDiag(
                  "Inconsistent provider versions",
                  `The version constraint for ${provider.toString()} selected inconsistent versions for different platforms, which is unexpected.\n\nThe upstream registry may have changed its available versions during OpenTofu's work. If so, re-running this command may produce a successful result.`,
                ),
              );
            }
            selected.set(provider.toString(), v);
          },
          fetchPackageSuccess: (provider: Provider, version) => io.stdout.write(`- Retrieved ${provider.forDisplay()} ${versionString(version)} for ${plat} (unauthenticated)\n`),
        },
      });
      if (hasErrors(r.diagnostics)) {
        diags.push(
          errorDiag(
            "Could not retrieve providers for locking",
            `OpenTofu failed to fetch the requested providers for ${plat} in order to calculate their checksums: ${r.diagnostics
              .filter((d) => d.severity === "error")
              .map((d) => d.detail ?? d.summary)
              .join("; ")}.`,
          ),
        );
        break;
      }
      updated.set(plat, r.locks);
    } finally {
      rmSync(tempDir, { recursive: true, force: true });
    }
  }
  if (hasErrors(diags)) {
    view.diagnostics(diags);
    return 1;
  }

  let changed = false;
  const newLocks = oldLocks.deepCopy();
  for (const r of reqs.values()) {
    const oldLock = oldLocks.provider(r.provider);
    let version = oldLock?.version;
    let constraints = oldLock?.constraints ?? [];
    const hashes = [...(oldLock?.hashes ?? [])];
    for (const [plat, locks] of updated) {
      const platformLock = locks.provider(r.provider);
      if (!platformLock) continue;
      version = platformLock.version;
      constraints = platformLock.constraints;
      hashes.push(...platformLock.hashes);
      const name = r.provider.forDisplay();
      switch (changeType(oldLock, platformLock)) {
        case "newProvider":
          changed = true;
          io.stdout.write(`- Obtained ${name} checksums for ${plat}; This was a new provider and the checksums for this platform are now tracked in the lock file\n`);
          break;
        case "newHashes":
          changed = true;
          io.stdout.write(`- Obtained ${name} checksums for ${plat}; Additional checksums for this platform are now tracked in the lock file\n`);
          break;
        case "noChange":
          io.stdout.write(`- Obtained ${name} checksums for ${plat}; All checksums for this platform were already tracked in the lock file\n`);
          break;
      }
    }
    if (version !== undefined) newLocks.setProvider(r.provider, version, constraints, hashes);
  }
  const saved = await saveLocksToFile(newLocks, lockFile);
  view.diagnostics(saved);
  if (hasErrors(saved)) return 1;
  if (changed) {
    view.println("\n[bold][green]Success![reset] [bold]OpenTofu has updated the lock file.[reset]");
    view.println("\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n");
  } else {
    view.println("\n[bold][green]Success![reset] [bold]OpenTofu has validated the lock file and found no need for changes.[reset]");
  }
  return 0;
}
