// Provider configurations of a run (OpenTofu's Config.TransformForTest plus the provider-iteration
// rules of the seed RFC): the test file's `provider` and `mock_provider` blocks replace the root
// module's configurations of the same name (all of them, or those the run's `providers` lists),
// their `for_each` is evaluated with the run's variables, and each must agree with the module's
// own block: `for_each` exactly when the module's block of that name has it, none for a
// `configuration_aliases` entry or for a configuration the module does not declare.
import type { Config, Module, Provider } from "../configs/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { providerKey, type TestFile, type TestProvider, type TestRun } from "./file.js";

/** The module's `configuration_aliases` entries (`name.alias`), which only a caller can fill. */
function configurationAliases(m: Module): Set<string> {
  const out = new Set<string>();
  for (const rp of m.providerRequirements.requiredProviders.values()) {
    for (const a of rp.aliases) out.add(providerKey({ name: a.localName, alias: a.alias }));
  }
  return out;
}

/**
 * Checks a test provider block against the module under test. The texts name both blocks so the
 * fix is clear; the rules are the seed RFC's (issue #7, point 2).
 */
export function checkProviderIteration(p: TestProvider, module: Module): Diagnostic[] {
  const key = providerKey(p);
  const what = p.mock ? "mock_provider" : "provider";
  const own = module.providerConfigs.get(key);
  const aliases = configurationAliases(module);
  const at = p.forEach?.range ?? p.declRange;
  if (aliases.has(key) && !own) {
    if (p.forEach) {
      return [
        errorDiag(
          "Invalid for_each in test provider",
          `The ${what} block for ${key} uses for_each, but the module under test only declares ${key} in configuration_aliases. A provider configuration passed into a module for an alias is a single configuration, so remove for_each here.`,
          at,
        ),
      ];
    }
    return [];
  }
  if (!own) {
    if (p.forEach) {
      return [
        errorDiag(
          "Invalid for_each in test provider",
          `The ${what} block for ${key} uses for_each, but the module under test has no provider block for ${key}. Only a test provider that replaces a module provider block with for_each may use for_each.`,
          at,
        ),
      ];
    }
    return [];
  }
  if (own.forEach && !p.forEach) {
    return [
      errorDiag(
        "Missing for_each in test provider",
        `The module under test declares provider ${JSON.stringify(p.name)} with alias ${JSON.stringify(p.alias)} using for_each, so the ${what} block for ${key} in the test file must use for_each too, with the instances the module's resources refer to.`,
        p.declRange,
      ),
    ];
  }
  if (!own.forEach && p.forEach) {
    return [
      errorDiag(
        "Invalid for_each in test provider",
        `The ${what} block for ${key} uses for_each, but the module under test declares ${key} without for_each. Remove for_each from the test file's block.`,
        at,
      ),
    ];
  }
  return [];
}

/** The test providers a run uses: all of the file's, or those its `providers` argument passes. */
export function runProviders(file: TestFile, run: TestRun): { providers: Map<string, TestProvider>; diagnostics: Diagnostic[] } {
  if (!run.providers) return { providers: new Map(file.providers), diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const out = new Map<string, TestProvider>();
  for (const pass of run.providers) {
    const from = file.providers.get(providerKey(pass.inParent));
    if (!from) {
      diagnostics.push(
        errorDiag("Missing provider definition for run block", `The run block passes ${providerKey(pass.inParent)}, but the test file has no provider or mock_provider block for it.`, pass.inParent.range),
      );
      continue;
    }
    out.set(providerKey(pass.inChild), { ...from, name: pass.inChild.name, alias: pass.inChild.alias });
  }
  return { providers: out, diagnostics };
}

/**
 * Puts the run's test providers into the root module in place of its own blocks. The module is a
 * fresh load for this run, so changing it touches nothing else. `for_each` is evaluated with the
 * root module's static evaluator, that is with the run's variables.
 */
export function applyTestProviders(config: Config, providers: ReadonlyMap<string, TestProvider>, evalForEach: (p: Provider) => Diagnostic[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const module = config.module;
  for (const p of providers.values()) diagnostics.push(...checkProviderIteration(p, module));
  if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
  for (const [key, p] of providers) {
    const own = module.providerConfigs.get(key);
    const providerType = own?.providerType ?? providerTypeFor(module, p.name);
    const replaced: Provider = {
      name: p.name,
      nameRange: p.declRange,
      alias: p.alias,
      aliasRange: p.aliasRange,
      version: { required: [], raw: "", declRange: undefined },
      config: p.config,
      forEach: p.forEach,
      instances: undefined,
      declRange: p.declRange,
      providerType,
      ...(p.mock ? { isMocked: true } : {}),
    };
    diagnostics.push(...evalForEach(replaced));
    module.providerConfigs.set(key, replaced);
  }
  return diagnostics;
}

function providerTypeFor(m: Module, localName: string): Provider["providerType"] {
  for (const p of m.providerConfigs.values()) if (p.name === localName && p.providerType) return p.providerType;
  const req = m.providerRequirements.requiredProviders.get(localName);
  if (req) return req.type;
  for (const r of [...m.managedResources.values(), ...m.dataResources.values()]) {
    if (r.provider && (r.providerConfigRef?.name ?? r.type.split("_")[0]) === localName) return r.provider;
  }
  return undefined;
}
