// What a configuration needs from providers (configs.Config.ProviderRequirements), and the check
// every operation makes before it runs: that the dependency lock file selects a version of each
// of them within its constraints (Config.VerifyDependencySelections), so a changed configuration
// or a directory never initialised is told to run init instead of planning with the wrong plugin.
import path from "node:path";
import { allConfigs, providerForLocalName, versionString as configVersionString, type Config, type ConstraintTerm } from "../configs/index.js";
import type { Provider } from "../addrs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import { DEPENDENCY_LOCKS_FILENAME } from "../plans/index.js";
import { LOCK_FILE_PATH, loadLocksFromBytes, loadLocksFromFile, providerIsLockable, type Locks, type ProviderLock, type ProviderRequirement } from "../providers/index.js";
import { meetsConstraints, parseVersionConstraints, versionConstraintsString, versionString, type VersionConstraints } from "../versions/index.js";
import { cliDevOverrides, unmanagedProviders } from "./devoverrides.js";
import type { CommandIO } from "./io.js";

/** go-version's Constraints.String() for a parsed `version` argument. */
function constraintTermsString(terms: readonly ConstraintTerm[]): string {
  return terms.map((t) => `${t.op} ${configVersionString(t.version)}`).join(", ");
}

/**
 * Every provider the configuration tree depends on, with the version constraints from
 * `required_providers` (and legacy provider `version` arguments), merged by provider address.
 */
export function configProviderRequirements(config: Config): { requirements: Map<string, ProviderRequirement>; diagnostics: Diagnostic[] } {
  const reqs = new Map<string, ProviderRequirement>();
  const diagnostics: Diagnostic[] = [];
  const add = (p: Provider | undefined, constraints: VersionConstraints = []) => {
    if (!p || p.isZero()) return;
    const key = p.toString();
    const prev = reqs.get(key);
    reqs.set(key, { provider: p, constraints: prev ? [...prev.constraints, ...constraints] : [...constraints] });
  };
  const parse = (terms: readonly ConstraintTerm[], declRange: Range | undefined): VersionConstraints => {
    if (terms.length === 0) return [];
    const r = parseVersionConstraints(constraintTermsString(terms));
    if (r.ok) return r.value;
    diagnostics.push(errorDiag("Invalid version constraint", `Incorrect version constraint syntax: ${r.error}.`, declRange));
    return [];
  };
  for (const c of allConfigs(config)) {
    const m = c.module;
    for (const rp of m.providerRequirements.requiredProviders.values()) {
      if (rp.type) add(rp.type, parse(rp.requirement.required, rp.requirement.declRange));
    }
    for (const p of m.providerConfigs.values()) {
      add(p.providerType ?? providerForLocalName(m, p.name), parse(p.version.required, p.version.declRange));
    }
    for (const rs of [m.managedResources, m.dataResources, m.ephemeralResources]) for (const r of rs.values()) add(r.provider);
    for (const ch of m.checks.values()) add(ch.dataResource?.provider);
    for (const call of m.moduleCalls.values()) for (const pp of call.providers) add(pp.inParent.providerType);
    for (const imp of m.imports) add(imp.provider);
  }
  return { requirements: reqs, diagnostics };
}

/** Config.ProviderTypes: every provider the configuration tree requires (required_providers too). */
export function configProviderTypes(config: Config): Provider[] {
  return [...configProviderRequirements(config).requirements.values()].map((r) => r.provider);
}

/**
 * Config.VerifyDependencySelections: one line per provider the lock file does not select a fitting
 * version of, sorted as tofu sorts its errors. Built-in providers, dev overrides and unmanaged
 * (reattached) providers need no lock.
 */
export function dependencySelectionErrors(
  requirements: ReadonlyMap<string, ProviderRequirement>,
  locked: (p: Provider) => Pick<ProviderLock, "version" | "constraints"> | undefined,
  overridden: (p: Provider) => boolean,
): string[] {
  const errs: string[] = [];
  for (const { provider, constraints } of requirements.values()) {
    if (!providerIsLockable(provider) || overridden(provider)) continue;
    const lock = locked(provider);
    if (!lock) {
      errs.push(`provider ${provider.toString()}: required by this configuration but no version is selected`);
      continue;
    }
    // No constraint at all allows any version, prereleases included (versions.All).
    if (constraints.length === 0 || meetsConstraints(lock.version, constraints)) continue;
    const current = versionConstraintsString(constraints);
    const selected = versionString(lock.version);
    errs.push(
      current !== versionConstraintsString(lock.constraints)
        ? `provider ${provider.toString()}: locked version selection ${selected} doesn't match the updated version constraints ${JSON.stringify(current)}`
        : `provider ${provider.toString()}: version constraints ${JSON.stringify(current)} don't match the locked version selection ${selected}`,
    );
  }
  return errs.sort();
}

/** The working directory's lock file and what it gets wrong about `config`. */
async function checkLockFile(
  config: Config,
  io: Pick<CommandIO, "env">,
  workingDir: string,
): Promise<{ locks: Locks; errors: string[]; diagnostics: Diagnostic[] }> {
  const file = await loadLocksFromFile(path.join(workingDir, LOCK_FILE_PATH));
  if (!file.missing && file.diagnostics.some((d) => d.severity === "error")) return { locks: file.locks, errors: [], diagnostics: file.diagnostics };
  // Bad version constraints are the configuration's own errors, reported where it is loaded.
  const reqs = configProviderRequirements(config);
  const overrides = await cliDevOverrides(io.env, workingDir);
  const unmanaged = unmanagedProviders(io.env);
  const errors = dependencySelectionErrors(reqs.requirements, (p) => file.locks.provider(p), (p) => overrides.has(p.toString()) || unmanaged.has(p.toString()));
  return { locks: file.locks, errors, diagnostics: [] };
}

const listed = (errs: readonly string[]) => errs.map((e) => `\n  - ${e}`).join("");

/**
 * The local backend's check before an operation (localRunDirect): the working directory's lock
 * file against the configuration. An unreadable lock file is its own error.
 */
export async function verifyDependencyLocks(config: Config, io: Pick<CommandIO, "env">, workingDir: string): Promise<Diagnostic[]> {
  const c = await checkLockFile(config, io, workingDir);
  if (c.errors.length === 0) return c.diagnostics;
  const suggestion = c.locks.empty()
    ? "To make the initial dependency selections that will initialize the dependency lock file, run:\n  terrace init"
    : "To update the locked dependency selections to match a changed configuration, run:\n  terrace init -upgrade";
  return [
    errorDiag(
      "Inconsistent dependency lock file",
      `The following dependency selections recorded in the lock file are inconsistent with the current configuration:${listed(c.errors)}\n\n${suggestion}`,
    ),
  ];
}

/**
 * Before a saved plan is applied (localRunForPlanFile): the working directory's lock file must fit
 * the configuration the plan saved, and be the lock file the plan was made with, so a plan is not
 * applied with other provider versions than it was planned with.
 */
export async function verifySavedPlanLocks(
  config: Config,
  planLocks: Uint8Array | undefined,
  io: Pick<CommandIO, "env">,
  workingDir: string,
): Promise<Diagnostic[]> {
  const c = await checkLockFile(config, io, workingDir);
  const diags = [...c.diagnostics];
  if (c.errors.length > 0) {
    diags.push(
      errorDiag(
        "Inconsistent dependency lock file",
        `The following dependency selections recorded in the lock file are inconsistent with the configuration in the saved plan:${listed(c.errors)}\n\nA saved plan can be applied only to the same configuration it was created from. Create a new plan from the updated configuration.`,
      ),
    );
  }
  if (planLocks !== undefined && c.diagnostics.length === 0) {
    const fromPlan = loadLocksFromBytes(planLocks, DEPENDENCY_LOCKS_FILENAME);
    diags.push(...fromPlan.diagnostics);
    if (!fromPlan.diagnostics.some((d) => d.severity === "error") && !c.locks.equal(fromPlan.locks)) {
      diags.push(
        errorDiag(
          "Inconsistent dependency lock file",
          "The given plan file was created with a different set of external dependency selections than the current configuration. A saved plan can be applied only to the same configuration it was created from.\n\nCreate a new plan from the updated configuration.",
        ),
      );
    }
  }
  return diags;
}
