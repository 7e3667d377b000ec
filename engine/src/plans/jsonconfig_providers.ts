// The `provider_config` map of the JSON configuration (OpenTofu's jsonconfig.marshalProviderConfigs,
// findSourceProviderKey and normalizeModuleProviderKeys). Every module gets an entry per provider
// block, per required_providers entry and per provider it needs; an entry in a child module that
// stands for its parent's configuration (same provider, passed down or inherited) links to the
// entry it comes from, walking up only through parents that have an entry of their own. Linked
// entries are left out of the map, and resources that use them name the entry they link to.
import { impliedProviderForUnqualifiedType, impliedProviderLocalName, type Provider as ProviderAddr } from "../addrs/index.js";
import type { Config, Module } from "../configs/index.js";
import type { Block } from "../providers/schema/index.js";
import { goMap, goObject, omitEmptyString } from "./gojson.js";
import type { ExpressionMarshaler } from "./jsonconfig.js";
import type { Schemas } from "./schemas.js";

interface ProviderConfigEntry {
  readonly fullName: string;
  readonly json: string;
  /** The entry this one stands for ("" when it is a configuration of its own). */
  readonly parentKey: string;
}

/** opaqueProviderKey: `name[.alias]`, prefixed with the module path outside the root. */
export function providerConfigKey(modulePath: readonly string[], compactName: string): string {
  return modulePath.length === 0 ? compactName : `${modulePath.map((p) => `module.${p}`).join(".")}:${compactName}`;
}

function moduleAddress(c: Config): string {
  return c.path.map((s) => `module.${s}`).join(".");
}

function providerForLocal(m: Module, localName: string): ProviderAddr {
  return m.providerRequirements.requiredProviders.get(localName)?.type ?? impliedProviderForUnqualifiedType(localName);
}

/** The version constraint required_providers gives the provider, as written. */
function versionConstraint(m: Module, provider: ProviderAddr): string {
  for (const req of m.providerRequirements.requiredProviders.values()) if (req.type?.toString() === provider.toString()) return req.requirement.raw;
  return "";
}

/** ProviderRequirementsShallow: the providers the module itself needs, in the order they are found. */
function providersOfModule(m: Module): ProviderAddr[] {
  const out = new Map<string, ProviderAddr>();
  const add = (p: ProviderAddr | undefined): void => {
    if (p && !out.has(p.toString())) out.set(p.toString(), p);
  };
  for (const req of m.providerRequirements.requiredProviders.values()) add(req.type);
  for (const r of [...m.managedResources.values(), ...m.dataResources.values(), ...m.ephemeralResources.values()]) {
    add(r.provider ?? providerForLocal(m, r.providerConfigRef?.name ?? impliedProviderLocalName(r.type)));
  }
  for (const p of m.providerConfigs.values()) add(p.providerType ?? providerForLocal(m, p.name));
  return [...out.values()];
}

/** findSourceProviderKey: the furthest entry up the chain from `start` that is for the same provider. */
function sourceKey(start: string, fullName: string, entries: ReadonlyMap<string, ProviderConfigEntry>): string {
  let found = "";
  for (let key = start; key !== ""; ) {
    const e = entries.get(key);
    if (!e || e.fullName !== fullName) break;
    found = key;
    key = e.parentKey;
  }
  return found;
}

function collect(c: Config, schemas: Schemas | undefined, ex: ExpressionMarshaler, entries: Map<string, ProviderConfigEntry>): void {
  const m = c.module;
  const address = moduleAddress(c);
  const parentKeyFor = (name: string, fullName: string): string => (c.parent ? sourceKey(providerConfigKey(c.parent.path, name), fullName, entries) : "");
  const implied = (name: string, provider: ProviderAddr, parentKey: string): ProviderConfigEntry => ({
    fullName: provider.toString(),
    parentKey,
    json: goObject([
      ["name", omitEmptyString(name)],
      ["full_name", omitEmptyString(provider.toString())],
      ["version_constraint", omitEmptyString(versionConstraint(m, provider))],
      ["module_address", omitEmptyString(address)],
    ]),
  });

  for (const p of m.providerConfigs.values()) {
    const provider = p.providerType ?? providerForLocal(m, p.name);
    const full = provider.toString();
    const schema: Block | undefined = schemas?.providerConfig?.(full);
    entries.set(providerConfigKey(c.path, p.alias ? `${p.name}.${p.alias}` : p.name), {
      fullName: full,
      parentKey: "",
      json: goObject([
        ["name", omitEmptyString(p.name)],
        ["full_name", omitEmptyString(full)],
        ["alias", omitEmptyString(p.alias)],
        ["version_constraint", omitEmptyString(versionConstraint(m, provider))],
        ["module_address", omitEmptyString(address)],
        ["expressions", ex.body(p.config, schema)],
      ]),
    });
  }
  for (const [name, req] of m.providerRequirements.requiredProviders) {
    const provider = req.type ?? impliedProviderForUnqualifiedType(name);
    // configuration_aliases stand for configurations the caller passes in; they link to nothing here.
    for (const a of req.aliases) {
      const key = providerConfigKey(c.path, a.alias ? `${a.localName}.${a.alias}` : a.localName);
      if (!entries.has(key)) entries.set(key, implied(name, provider, ""));
    }
    const key = providerConfigKey(c.path, name);
    if (!entries.has(key)) entries.set(key, implied(name, provider, parentKeyFor(name, provider.toString())));
  }
  // A default configuration can be implied (or inherited from the parent) with no block at all;
  // its name is the provider's type, as only a default provider can be implied.
  for (const provider of providersOfModule(m)) {
    const key = providerConfigKey(c.path, provider.type);
    if (!entries.has(key)) entries.set(key, implied(provider.type, provider, parentKeyFor(provider.type, provider.toString())));
  }

  for (const [name, call] of m.moduleCalls) {
    const child = c.children.get(name);
    if (!child) continue;
    // A configuration passed in `providers = {...}` is the parent's.
    for (const pp of call.providers) {
      const inChild = pp.inChild.alias ? `${pp.inChild.name}.${pp.inChild.alias}` : pp.inChild.name;
      const inParent = pp.inParent.alias ? `${pp.inParent.name}.${pp.inParent.alias}` : pp.inParent.name;
      const full = providerForLocal(child.module, pp.inChild.name).toString();
      entries.set(providerConfigKey(child.path, inChild), {
        fullName: full,
        parentKey: sourceKey(providerConfigKey(c.path, inParent), full, entries),
        json: goObject([
          ["name", omitEmptyString(inChild)],
          ["full_name", omitEmptyString(full)],
          ["module_address", omitEmptyString(moduleAddress(child))],
        ]),
      });
    }
    collect(child, schemas, ex, entries);
  }
}

export interface ProviderConfigs {
  /** The key a resource's `provider_config_key` gives, for the resource's own key in its module. */
  resourceKey(key: string): string;
  /** The `provider_config` map, undefined when empty. */
  json(): string | undefined;
}

/** The provider configurations of the whole configuration tree. */
export function marshalProviderConfigs(config: Config, schemas: Schemas | undefined, ex: ExpressionMarshaler): ProviderConfigs {
  const entries = new Map<string, ProviderConfigEntry>();
  collect(config, schemas, ex, entries);
  return {
    resourceKey: (key) => {
      const parent = entries.get(key)?.parentKey ?? "";
      return parent !== "" && entries.has(parent) ? parent : key;
    },
    json: () => {
      const own = [...entries].filter(([, e]) => e.parentKey === "");
      return own.length > 0 ? goMap(own.map(([k, e]) => [k, e.json] as const)) : undefined;
    },
  };
}
