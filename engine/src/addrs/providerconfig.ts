// Provider configurations: a `provider` block seen from its module (LocalProviderConfig,
// `aws.foo`) or placed in the module tree with its source address (AbsProviderConfig,
// `module.x.provider["registry.opentofu.org/hashicorp/aws"].foo`). With provider `for_each` a
// configuration has instances, named by an instance key after the alias (`...foo["us-west-2"]`).
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { goQuote } from "../values/index.js";
import { NoKey, instanceKeyFromLiteral, instanceKeyString, type InstanceKey } from "./instancekey.js";
import { Module } from "./module.js";
import { parseModuleInstancePrefix, type ModuleInstance } from "./moduleinstance.js";
import { newBuiltInProvider, newLegacyProvider, parseProviderSourceString, type Provider } from "./provider.js";
import type { AddrResult } from "./result.js";
import { parseTraversalAbs, traversalRange, traversalRootName, type Traversal } from "./traversal.js";

const INVALID = "Invalid provider configuration address";

/** A provider configuration as its module refers to it: local name and optional alias. */
export class LocalProviderConfig {
  readonly kind = "LocalProviderConfig" as const;
  constructor(
    readonly localName: string,
    /** Empty for the default (unaliased) configuration. */
    readonly alias = "",
  ) {}

  /** `provider.aws.foo`. */
  toString(): string {
    if (this.localName === "") return "provider.<invalid>"; // always a bug somewhere else
    return this.alias !== "" ? `provider.${this.localName}.${this.alias}` : `provider.${this.localName}`;
  }

  /** `aws.foo`: the form written in `provider = ...` and parsed by parseProviderConfigCompact. */
  stringCompact(): string {
    return this.alias !== "" ? `${this.localName}.${this.alias}` : this.localName;
  }

  equal(other: LocalProviderConfig): boolean {
    return this.localName === other.localName && this.alias === other.alias;
  }
}

/** A provider configuration in the static module tree, identified by its source address. */
export class AbsProviderConfig {
  readonly kind = "AbsProviderConfig" as const;
  constructor(
    readonly module: Module,
    readonly provider: Provider,
    readonly alias = "",
  ) {}

  /** `module.x.provider["registry.opentofu.org/hashicorp/aws"].foo`. */
  toString(): string {
    const parts: string[] = [];
    if (!this.module.isRoot()) parts.push(this.module.toString());
    parts.push(`provider[${goQuote(this.provider.toString())}]`);
    if (this.alias !== "") parts.push(this.alias);
    return parts.join(".");
  }

  /** One instance of this configuration: the string plus the key in HCL index form. */
  instanceString(key: InstanceKey): string {
    return this.toString() + instanceKeyString(key);
  }

  /** The pre-0.13 form (`module.x.provider.aws.foo`), for legacy state only. */
  legacyString(): string {
    const tail = this.alias !== "" ? `provider.${this.provider.legacyString()}.${this.alias}` : `provider.${this.provider.legacyString()}`;
    return this.module.isRoot() ? tail : `${this.module.toString()}.${tail}`;
  }

  equal(other: AbsProviderConfig): boolean {
    return this.module.equal(other.module) && this.provider.equal(other.provider) && this.alias === other.alias;
  }

  /**
   * The configuration in the parent module that this one might be inherited from: only a
   * default (unaliased) configuration outside the root can inherit.
   */
  inherited(): AbsProviderConfig | undefined {
    if (this.module.isRoot() || this.alias !== "") return undefined;
    return new AbsProviderConfig(this.module.parent(), this.provider);
  }
}

/** Either kind, where the caller knows which module a local one belongs to. */
export type ProviderConfig = LocalProviderConfig | AbsProviderConfig;

/** The default configuration of a provider inside a module instance's module. */
export function providerConfigDefault(m: ModuleInstance, provider: Provider): AbsProviderConfig {
  return new AbsProviderConfig(m.module(), provider);
}

export function providerConfigAliased(m: ModuleInstance, provider: Provider, alias: string): AbsProviderConfig {
  return new AbsProviderConfig(m.module(), provider, alias);
}

export interface AbsProviderConfigInstance {
  config: AbsProviderConfig;
  key: InstanceKey;
}

/**
 * `[module.<name>]* provider["<source>"] [.<alias> [<key>]]`: the form of instance-level
 * `provider` strings in state. Module steps must not have keys (provider configurations belong
 * to modules, not module instances).
 */
export function parseAbsProviderConfigInstance(traversal: Traversal): AddrResult<AbsProviderConfigInstance> {
  const prefix = parseModuleInstancePrefix(traversal);
  const { remain } = prefix;
  const diagnostics: Diagnostic[] = prefix.diagnostics;
  const fail = (detail: string, subject = traversalRange(remain)): AddrResult<AbsProviderConfigInstance> => {
    diagnostics.push(errorDiag(INVALID, detail, subject));
    return { result: undefined, diagnostics };
  };

  if (prefix.module.steps.some((s) => s.key.kind !== "NoKey")) {
    return fail("A provider configuration must not appear in a module instance that uses count or for_each.");
  }
  const module = prefix.module.module();

  if (remain.length < 2 || traversalRootName(remain) !== "provider") {
    return fail('Provider address must begin with "provider.", followed by a provider type name.');
  }
  if (remain.length > 4) return fail("Extraneous operators after provider configuration reference.", traversalRange(remain.slice(4)));

  const typeStep = remain[1];
  if (!typeStep || typeStep.kind !== "Index" || typeStep.key.type !== "string") {
    return fail('The prefix "provider." must be followed by a provider type name.', typeStep?.range);
  }
  const source = parseProviderSourceString(typeStep.key.value);
  diagnostics.push(...source.diagnostics);
  if (source.result === undefined) return { result: undefined, diagnostics };
  const provider = source.result;

  let alias = "";
  const aliasStep = remain[2];
  if (aliasStep) {
    if (aliasStep.kind !== "Attr") return fail("Provider type name must be followed by a configuration alias name.", aliasStep.range);
    alias = aliasStep.name;
  }

  let key: InstanceKey = NoKey;
  const keyStep = remain[3];
  if (keyStep) {
    if (keyStep.kind !== "Index") return fail("A provider configuration alias can be followed only by an instance key in brackets.", keyStep.range);
    const k = instanceKeyFromLiteral(keyStep.key);
    if (k.error !== undefined) diagnostics.push(errorDiag(INVALID, `Invalid provider instance key: ${k.error}.`, keyStep.range));
    else key = k.key;
  }
  const config = new AbsProviderConfig(module, provider, alias);
  return { result: hasErrors(diagnostics) ? undefined : { config, key }, diagnostics };
}

/** As parseAbsProviderConfigInstance, for places where an instance key is not allowed. */
export function parseAbsProviderConfig(traversal: Traversal): AddrResult<AbsProviderConfig> {
  const r = parseAbsProviderConfigInstance(traversal);
  if (r.result && r.result.key.kind !== "NoKey") {
    r.diagnostics.push(errorDiag(INVALID, "A provider address must not include an instance key.", traversalRange(traversal)));
    return { result: undefined, diagnostics: r.diagnostics };
  }
  return { result: r.result?.config, diagnostics: r.diagnostics };
}

function fromString<T>(str: string, parse: (t: Traversal) => AddrResult<T>): AddrResult<T> {
  const parsed = parseTraversalAbs(str);
  if (hasErrors(parsed.diagnostics)) return { result: undefined, diagnostics: parsed.diagnostics };
  const r = parse(parsed.traversal);
  return { result: r.result, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}

export function parseAbsProviderConfigStr(str: string): AddrResult<AbsProviderConfig> {
  return fromString(str, parseAbsProviderConfig);
}

export function parseAbsProviderConfigInstanceStr(str: string): AddrResult<AbsProviderConfigInstance> {
  return fromString(str, parseAbsProviderConfigInstance);
}

/**
 * The pre-0.13 state form `[module.<name>]* provider.<type>[.<alias>]`. The type is a legacy
 * provider, except `terraform`, which is the built-in provider.
 */
export function parseLegacyAbsProviderConfig(traversal: Traversal): AddrResult<AbsProviderConfig> {
  const prefix = parseModuleInstancePrefix(traversal);
  const { remain } = prefix;
  const diagnostics: Diagnostic[] = prefix.diagnostics;
  const fail = (detail: string, subject = traversalRange(remain)): AddrResult<AbsProviderConfig> => {
    diagnostics.push(errorDiag(INVALID, detail, subject));
    return { result: undefined, diagnostics };
  };
  if (prefix.module.steps.some((s) => s.key.kind !== "NoKey")) return fail("Provider address cannot contain module indexes");
  if (remain.length < 2 || traversalRootName(remain) !== "provider") {
    return fail('Provider address must begin with "provider.", followed by a provider type name.');
  }
  if (remain.length > 3) return fail("Extraneous operators after provider configuration alias.", traversalRange(remain.slice(3)));
  const typeStep = remain[1];
  if (!typeStep || typeStep.kind !== "Attr") return fail('The prefix "provider." must be followed by a provider type name.', typeStep?.range);
  const provider = typeStep.name === "terraform" ? newBuiltInProvider(typeStep.name) : newLegacyProvider(typeStep.name);
  let alias = "";
  const aliasStep = remain[2];
  if (aliasStep) {
    if (aliasStep.kind !== "Attr") return fail("Provider type name must be followed by a configuration alias name.", aliasStep.range);
    alias = aliasStep.name;
  }
  return { result: hasErrors(diagnostics) ? undefined : new AbsProviderConfig(prefix.module.module(), provider, alias), diagnostics };
}

export function parseLegacyAbsProviderConfigStr(str: string): AddrResult<AbsProviderConfig> {
  return fromString(str, parseLegacyAbsProviderConfig);
}

/** The compact form `aws` or `aws.foo` written in `provider = ...` and `providers = {...}`. */
export function parseProviderConfigCompact(traversal: Traversal): AddrResult<LocalProviderConfig> {
  const diagnostics: Diagnostic[] = [];
  const localName = traversalRootName(traversal);
  const aliasStep = traversal[1];
  if (!aliasStep) return { result: new LocalProviderConfig(localName), diagnostics };
  // As in OpenTofu, anything after an alias is not looked at.
  if (aliasStep.kind === "Attr") return { result: new LocalProviderConfig(localName, aliasStep.name), diagnostics };
  diagnostics.push(
    errorDiag(INVALID, "The provider type name must either stand alone or be followed by an alias name separated with a dot.", aliasStep.range),
  );
  if (traversal.length > 2) {
    diagnostics.push(errorDiag(INVALID, "Extraneous extra operators after provider configuration address.", traversalRange(traversal.slice(2))));
  }
  return { result: undefined, diagnostics };
}

export function parseProviderConfigCompactStr(str: string): AddrResult<LocalProviderConfig> {
  return fromString(str, parseProviderConfigCompact);
}
