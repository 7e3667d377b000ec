// The static provider-instance map: every provider configuration of the module tree (declared,
// or implied as OpenTofu adds an empty default one in the root), and every resource and module
// call that refers to one, followed through `providers` maps and default-provider inheritance to
// the configuration it ends up using, with the instance key expression that selects an instance.
// Plain data, JSON-serialisable: this is what the browser's provider map draws.
import { AbsProviderConfig, RootModule, type Module as ModuleAddr, type Provider as ProviderAddr } from "../../addrs/index.js";
import type { AnyExpression, Range } from "../../hcl/index.js";
import { allConfigs, type Config } from "../config.js";
import { localNameForProvider, providerForLocalName } from "../module.js";
import { providerKey, type Provider, type ProviderConfigRef } from "../provider.js";
import { providerBlockIsConfigured } from "../provider_validation.js";
import { resourceAddrString, resourceProviderConfigName, type Resource, type ResourceMode } from "../resource.js";

export interface SourcePos {
  line: number;
  column: number;
  byte: number;
}

export interface SourceRange {
  filename: string;
  start: SourcePos;
  end: SourcePos;
}

/** An expression as written: its source text (when the source is at hand) and where it is. */
export interface SourceExpression {
  text: string | null;
  range: SourceRange;
}

/**
 * - `configured`: a block with arguments (or `for_each`, or a version constraint);
 * - `empty`: a block with nothing in it (in a child module normally a proxy, which is replaced
 *   by what the caller passes in and so appears here only when nothing is passed);
 * - `implied`: no block at all; OpenTofu configures an empty default configuration in the root.
 */
export type ProviderConfigurationKind = "configured" | "empty" | "implied";

export interface ProviderConfiguration {
  /** `module.x.provider["registry.opentofu.org/hashicorp/aws"].by_region` */
  address: string;
  /** Module call names from the root. */
  module: string[];
  localName: string;
  /** "" for the default configuration. */
  alias: string;
  /** The provider source address, `registry.opentofu.org/hashicorp/aws`. */
  provider: string;
  kind: ProviderConfigurationKind;
  forEach: SourceExpression | null;
  /** With for_each: the instance keys when static evaluation knows them; null otherwise. */
  instanceKeys: string[] | null;
  declRange: SourceRange | null;
}

export type ProviderReferenceKind = "resource" | "module";

/**
 * How a reference gets to its configuration:
 * - `explicit`: a `provider` argument or a `providers` map entry names it;
 * - `implied`: a resource without `provider` uses the default configuration of its type's provider.
 */
export type ProviderReferenceHow = "explicit" | "implied";

export interface ProviderReference {
  kind: ProviderReferenceKind;
  /** `module.x.aws_vpc.this`, `data.aws_ami.a`, or the module call `module.x.module.y`. */
  address: string;
  /** The module the reference is written in. */
  module: string[];
  /** For resources. */
  mode: ResourceMode | null;
  how: ProviderReferenceHow;
  /** The configuration as this module names it: `aws`, `aws.by_region`. */
  localConfig: string;
  /** For module calls: the name the child module receives it under. */
  inChild: string | null;
  /** The key written in this reference (`aws.by_region[each.key]`), if any. */
  keyExpression: SourceExpression | null;
  /**
   * The configuration used after following `providers` maps and inheritance up the tree; null
   * when there is none (an invalid configuration, already reported by validation).
   */
  configuration: string | null;
  /**
   * When the instance is chosen further up (a module call's `providers` map passes
   * `aws.by_region[each.key]`), that key and the module call it is written on.
   */
  inheritedKey: { expression: SourceExpression; moduleCall: string } | null;
  range: SourceRange;
}

export interface ProviderMap {
  configurations: ProviderConfiguration[];
  references: ProviderReference[];
}

export interface ProviderMapOptions {
  /**
   * The static instance keys of a provider configuration that uses for_each (from the static
   * evaluator); undefined when they are not known.
   */
  instanceKeys?: (config: Config, provider: Provider) => readonly string[] | undefined;
  /** Source texts by file name, for the text of expressions. */
  sources?: ReadonlyMap<string, string>;
}

interface Resolved {
  config: Config;
  provider: ProviderAddr;
  alias: string;
  /** The block, or undefined for the implied root default. */
  block: Provider | undefined;
  key: { expr: AnyExpression; moduleCall: string } | undefined;
}

function moduleAddr(path: readonly string[]): ModuleAddr {
  let m = RootModule;
  for (const name of path) m = m.child(name);
  return m;
}

function modulePrefix(path: readonly string[]): string {
  return path.map((p) => `module.${p}.`).join("");
}

function toSourceRange(r: Range): SourceRange {
  return {
    filename: r.filename,
    start: { line: r.start.line, column: r.start.column, byte: r.start.byte },
    end: { line: r.end.line, column: r.end.column, byte: r.end.byte },
  };
}

/** Builds the map for the tree under `root`. */
export function buildProviderMap(root: Config, opts: ProviderMapOptions = {}): ProviderMap {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const encoded = new Map<string, Uint8Array>();
  const sourceExpr = (e: AnyExpression): SourceExpression => {
    const range = toSourceRange(e.range);
    // A constant key written in a traversal (`aws.x["eu"]`) is kept as a literal whose range is
    // the whole traversal: its text is the literal itself.
    if (e.kind === "Literal" && e.value.type === "string") return { text: JSON.stringify(e.value.value), range };
    if (e.kind === "Literal" && e.value.type === "number") return { text: e.value.text, range };
    const src = opts.sources?.get(range.filename);
    if (src === undefined) return { text: null, range };
    let bytes = encoded.get(range.filename);
    if (!bytes) {
      bytes = encoder.encode(src);
      encoded.set(range.filename, bytes);
    }
    return { text: decoder.decode(bytes.subarray(range.start.byte, range.end.byte)), range };
  };

  const configurations = new Map<string, ProviderConfiguration>();
  const addConfiguration = (cfg: Config, pc: Provider | undefined, provider: ProviderAddr, alias: string, localName: string): string => {
    const address = new AbsProviderConfig(moduleAddr(cfg.path), provider, alias).toString();
    if (configurations.has(address)) return address;
    let instanceKeys: string[] | null = null;
    if (pc?.forEach) {
      // Static evaluation records each for_each configuration's instances; a caller may override.
      const keys = opts.instanceKeys?.(cfg, pc) ?? (pc.instances ? [...pc.instances.keys()] : undefined);
      if (keys) instanceKeys = [...keys];
    }
    configurations.set(address, {
      address,
      module: [...cfg.path],
      localName,
      alias,
      provider: provider.toString(),
      kind: !pc ? "implied" : providerBlockIsConfigured(pc) ? "configured" : "empty",
      forEach: pc?.forEach ? sourceExpr(pc.forEach) : null,
      instanceKeys,
      declRange: pc ? toSourceRange(pc.declRange) : null,
    });
    return address;
  };

  /**
   * The configuration a module's local `name.alias` ends up as: its own configured block; else
   * what the caller passes under that name; else its own empty block; else, for a default
   * configuration, the parent's default configuration of the same provider; in the root, the
   * implied empty default.
   */
  const resolve = (cfg: Config, localName: string, alias: string, depth = 0): Resolved | undefined => {
    if (depth > 100) return undefined; // a broken tree; the walk itself guards against cycles
    const provider = providerForLocalName(cfg.module, localName);
    if (!provider) return undefined;
    const pc = cfg.module.providerConfigs.get(providerKey(localName, alias));
    if (pc && providerBlockIsConfigured(pc)) return { config: cfg, provider, alias, block: pc, key: undefined };
    const parent = cfg.parent;
    const call = parent?.module.moduleCalls.get(cfg.path[cfg.path.length - 1] ?? "");
    const passed = call?.providers.find((p) => p.inChild.name === localName && p.inChild.alias === alias);
    if (parent && call && passed) {
      const up = resolve(parent, passed.inParent.name, passed.inParent.alias, depth + 1);
      if (!up) return undefined;
      const key = passed.inParent.keyExpression;
      return key && !up.key ? { ...up, key: { expr: key, moduleCall: `${modulePrefix(parent.path)}module.${call.name}` } } : up;
    }
    if (pc) return { config: cfg, provider, alias, block: pc, key: undefined };
    if (alias !== "") return undefined;
    if (!parent) return { config: cfg, provider, alias, block: undefined, key: undefined };
    return resolve(parent, localNameForProvider(parent.module, provider), "", depth + 1);
  };

  const resolvedAddress = (r: Resolved | undefined): string | null => {
    if (!r) return null;
    return addConfiguration(r.config, r.block, r.provider, r.alias, r.block?.name ?? localNameForProvider(r.config.module, r.provider));
  };

  const references: ProviderReference[] = [];
  const configs = allConfigs(root);
  for (const cfg of configs) {
    const call = cfg.parent?.module.moduleCalls.get(cfg.path[cfg.path.length - 1] ?? "");
    for (const pc of cfg.module.providerConfigs.values()) {
      // An empty block that the caller passes a configuration to is only a proxy for it.
      const proxied = call?.providers.some((p) => p.inChild.name === pc.name && p.inChild.alias === pc.alias);
      if (proxied && !providerBlockIsConfigured(pc)) continue;
      const provider = providerForLocalName(cfg.module, pc.name);
      if (provider) addConfiguration(cfg, pc, provider, pc.alias, pc.name);
    }
  }
  for (const cfg of configs) {
    const resources: Resource[] = [...cfg.module.managedResources.values(), ...cfg.module.dataResources.values(), ...cfg.module.ephemeralResources.values()];
    resources.sort((a, b) => (a.declRange.filename === b.declRange.filename ? a.declRange.start.byte - b.declRange.start.byte : a.declRange.filename < b.declRange.filename ? -1 : 1));
    for (const r of resources) {
      const ref: ProviderConfigRef | undefined = r.providerConfigRef;
      const localName = resourceProviderConfigName(r);
      const alias = ref?.alias ?? "";
      const resolved = resolve(cfg, localName, alias);
      references.push({
        kind: "resource",
        address: modulePrefix(cfg.path) + resourceAddrString(r),
        module: [...cfg.path],
        mode: r.mode,
        how: ref ? "explicit" : "implied",
        localConfig: providerKey(localName, alias),
        inChild: null,
        keyExpression: ref?.keyExpression ? sourceExpr(ref.keyExpression) : null,
        configuration: resolvedAddress(resolved),
        inheritedKey: resolved?.key ? { expression: sourceExpr(resolved.key.expr), moduleCall: resolved.key.moduleCall } : null,
        range: toSourceRange(ref ? ref.range : r.declRange),
      });
    }
    for (const call of cfg.module.moduleCalls.values()) {
      for (const passed of call.providers) {
        const resolved = resolve(cfg, passed.inParent.name, passed.inParent.alias);
        references.push({
          kind: "module",
          address: `${modulePrefix(cfg.path)}module.${call.name}`,
          module: [...cfg.path],
          mode: null,
          how: "explicit",
          localConfig: providerKey(passed.inParent.name, passed.inParent.alias),
          inChild: providerKey(passed.inChild.name, passed.inChild.alias),
          keyExpression: passed.inParent.keyExpression ? sourceExpr(passed.inParent.keyExpression) : null,
          configuration: resolvedAddress(resolved),
          inheritedKey: resolved?.key ? { expression: sourceExpr(resolved.key.expr), moduleCall: resolved.key.moduleCall } : null,
          range: toSourceRange(passed.inParent.range),
        });
      }
    }
  }
  const ordered = [...configurations.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { configurations: ordered, references };
}
