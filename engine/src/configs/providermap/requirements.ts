// Which providers each module of the tree needs (OpenTofu's Config.ProviderRequirementsByModule):
// required_providers entries with their version constraints, providers implied by resources and
// import blocks, and provider blocks (with any deprecated in-block version). The order is the
// order of discovery, which is how `terraform providers` lists them.
import type { Config } from "../config.js";
import { providerForLocalName } from "../module.js";
import type { ModuleSource } from "../module_source.js";

export interface ProviderRequirement {
  /** The provider source address, `registry.opentofu.org/hashicorp/aws`. */
  provider: string;
  /** Version constraint strings as written (each may hold several, comma-separated). */
  versionConstraints: string[];
}

export interface ModuleRequirements {
  /** The module call name; "" for the root. */
  name: string;
  sourceAddr: ModuleSource | undefined;
  sourceDir: string;
  requirements: ProviderRequirement[];
  /** By call name, in name order. */
  children: ModuleRequirements[];
}

/** The requirements of `cfg` and, separately, of each module beneath it. */
export function providerRequirementsByModule(cfg: Config): ModuleRequirements {
  const reqs = new Map<string, ProviderRequirement>();
  const add = (provider: string, constraint: string): void => {
    let r = reqs.get(provider);
    if (!r) {
      r = { provider, versionConstraints: [] };
      reqs.set(provider, r);
    }
    if (constraint !== "") r.versionConstraints.push(constraint);
  };
  const m = cfg.module;
  for (const rp of m.providerRequirements.requiredProviders.values()) if (rp.type) add(rp.type.toString(), rp.requirement.raw);
  for (const resources of [m.managedResources, m.dataResources, m.ephemeralResources]) {
    for (const r of resources.values()) if (r.provider) add(r.provider.toString(), "");
  }
  for (const i of m.imports) if (i.provider) add(i.provider.toString(), "");
  for (const pc of m.providerConfigs.values()) {
    const p = providerForLocalName(m, pc.name);
    if (p) add(p.toString(), pc.version.raw);
  }
  const children = [...cfg.children.keys()].sort().flatMap((name) => {
    const child = cfg.children.get(name);
    return child ? [{ ...providerRequirementsByModule(child), name }] : [];
  });
  return { name: "", sourceAddr: cfg.sourceAddr, sourceDir: m.sourceDir, requirements: [...reqs.values()], children };
}
