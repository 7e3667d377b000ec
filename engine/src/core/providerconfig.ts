// Which provider configuration a resource uses (OpenTofu's ProviderTransformer resolution): the
// module's own `provider` block for the local name and alias, else the configuration the parent
// passes in the module call's `providers` map, else (default configurations only) the parent's,
// up to the root, where an undeclared default configuration is implied with an empty body.
import { AbsProviderConfig, Module as ModuleAddr, type Provider as ProviderAddr } from "../addrs/index.js";
import { localNameForProvider, providerKey, resourceProviderConfigName, type Config, type Provider, type Resource } from "../configs/index.js";
import type { AnyExpression } from "../hcl/index.js";

export interface ResolvedProvider {
  readonly addr: AbsProviderConfig;
  /** The `provider` block, or undefined for an implied empty configuration. */
  readonly config: Provider | undefined;
  /** The static module path the configuration belongs to. */
  readonly module: readonly string[];
  /** `provider = name.alias[key]`: the key, evaluated per resource instance. */
  readonly keyExpression: AnyExpression | undefined;
  /**
   * When the key comes from a module call's `providers = { x = name.alias[key] }`: the static
   * path of that call, whose instance (each/count) and parent module's scope the key is
   * evaluated in. Undefined when the resource's own `provider` argument has the key.
   */
  readonly keyModule?: readonly string[];
}

export function resolveResourceProvider(moduleConfig: Config, r: Resource): ResolvedProvider | undefined {
  const provider = r.provider;
  if (!provider) return undefined;
  return resolveProviderConfig(moduleConfig, provider, resourceProviderConfigName(r), r.providerConfigRef?.alias ?? "", r.providerConfigRef?.keyExpression);
}

export function resolveProviderConfig(
  start: Config,
  provider: ProviderAddr,
  localName: string,
  alias: string,
  keyExpression: AnyExpression | undefined,
): ResolvedProvider {
  let cfg: Config = start;
  let name = localName;
  let al = alias;
  let keyExpr = keyExpression;
  let keyModule: readonly string[] | undefined;
  const withKey = (r: Omit<ResolvedProvider, "keyExpression" | "keyModule">): ResolvedProvider => ({ ...r, keyExpression: keyExpr, ...(keyModule ? { keyModule } : {}) });
  for (;;) {
    const pc = cfg.module.providerConfigs.get(providerKey(name, al));
    if (pc) return withKey({ addr: new AbsProviderConfig(new ModuleAddr(cfg.path), provider, al), config: pc, module: cfg.path });
    const parent = cfg.parent;
    if (!parent) break;
    const call = parent.module.moduleCalls.get(cfg.path[cfg.path.length - 1] ?? "");
    const passed = call?.providers.find((p) => p.inChild.name === name && p.inChild.alias === al);
    if (passed) {
      name = passed.inParent.name;
      al = passed.inParent.alias;
      if (passed.inParent.keyExpression) {
        keyExpr = passed.inParent.keyExpression;
        keyModule = cfg.path;
      }
    } else if (al === "") {
      name = localNameForProvider(parent.module, provider);
    } else {
      break;
    }
    cfg = parent;
  }
  return withKey({ addr: new AbsProviderConfig(new ModuleAddr(al === "" ? [] : cfg.path), provider, al), config: undefined, module: al === "" ? [] : cfg.path });
}
