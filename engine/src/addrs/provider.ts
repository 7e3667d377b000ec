// Provider source addresses (OpenTofu's addrs.Provider, from registry-address): the fully
// qualified `hostname/namespace/type` that names which plugin a provider is, as written in
// `required_providers` and stored in state and the lock file.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { compareStrings, goQuote } from "../values/index.js";
import { mustParseProviderPart, parseProviderPart } from "./providerpart.js";
import type { AddrResult } from "./result.js";
import { hostnameForComparison } from "./svchost.js";

/** The registry that a source address without a hostname refers to. */
export const DefaultProviderRegistryHost = "registry.opentofu.org";
/** The registry of OpenTofu's predecessor; addresses on it are migrated to the default host. */
export const TransitionalDefaultProviderRegistryHost = "registry.terraform.io";
/** The host of the built-in providers inherited from OpenTofu's predecessor (`terraform.io/builtin/terraform`). */
export const BuiltInProviderHost = "terraform.io";
/** A host reserved for future OpenTofu-specific built-in providers; also counts as built-in. */
export const OpenTofuBuiltInProviderHost = "opentofu.org";
export const BuiltInProviderNamespace = "builtin";
/** The namespace of a bare type name (`aws`) before `hashicorp` is implied. */
export const UnknownProviderNamespace = "?";
/** The namespace of pre-0.13 addresses (`-/aws`), valid only on the default registry host. */
export const LegacyProviderNamespace = "-";
/** The namespace implied for a bare type name. */
export const DefaultProviderNamespace = "hashicorp";

export class Provider {
  /** The hostname in normal form (lowercase; a `:port` other than 443 kept). */
  readonly hostname: string;
  readonly namespace: string;
  readonly type: string;

  /** No validation: use parseProviderSourceString for user input, or the new* helpers. */
  constructor(hostname: string, namespace: string, type: string) {
    this.hostname = hostname;
    this.namespace = namespace;
    this.type = type;
  }

  /** The machine-readable fully qualified form, `registry.opentofu.org/hashicorp/aws`. */
  toString(): string {
    if (this.isZero()) throw new Error("called toString on zero-value Provider");
    return `${this.hostname}/${this.namespace}/${this.type}`;
  }

  /** The form for people: the default hostname is left out (`hashicorp/aws`). */
  forDisplay(): string {
    if (this.isZero()) throw new Error("called forDisplay on zero-value Provider");
    if (this.hostname === DefaultProviderRegistryHost) return `${this.namespace}/${this.type}`;
    return this.toString();
  }

  isZero(): boolean {
    return this.hostname === "" && this.namespace === "" && this.type === "";
  }

  hasKnownNamespace(): boolean {
    return this.namespace !== UnknownProviderNamespace;
  }

  /** Built into the executable, so never installed (`terraform.io/builtin/terraform`). */
  isBuiltIn(): boolean {
    return (
      (this.hostname === BuiltInProviderHost || this.hostname === OpenTofuBuiltInProviderHost) &&
      this.namespace === BuiltInProviderNamespace
    );
  }

  isLegacy(): boolean {
    return this.hostname === DefaultProviderRegistryHost && this.namespace === LegacyProviderNamespace;
  }

  /** A `registry.opentofu.org/hashicorp/...` provider (OpenTofu's IsDefaultProvider). */
  isDefault(): boolean {
    return this.hostname === DefaultProviderRegistryHost && this.namespace === DefaultProviderNamespace;
  }

  /** The bare type of a legacy or built-in address; any other address has no legacy form. */
  legacyString(): string {
    if (this.namespace !== LegacyProviderNamespace && this.namespace !== BuiltInProviderNamespace) {
      throw new Error(`${this.toString()} cannot be represented as a legacy string`);
    }
    return this.type;
  }

  equal(other: Provider): boolean {
    return this.hostname === other.hostname && this.namespace === other.namespace && this.type === other.type;
  }

  /** An arbitrary but stable order (hostname, namespace, type) for deterministic output. */
  lessThan(other: Provider): boolean {
    return compareProviders(this, other) < 0;
  }
}

export function compareProviders(a: Provider, b: Provider): number {
  return compareStrings(a.hostname, b.hostname) || compareStrings(a.namespace, b.namespace) || compareStrings(a.type, b.type);
}

/**
 * A provider from already-normalised parts; namespace and type are validated (an invalid one is a
 * programmer error). Legacy and unknown namespaces must be built with the constructor.
 */
export function newProvider(hostname: string, namespace: string, typeName: string): Provider {
  if (namespace === LegacyProviderNamespace) throw new Error("attempt to create legacy provider address using newProvider; use new Provider() instead");
  if (namespace === UnknownProviderNamespace) {
    throw new Error("attempt to create provider address with unknown namespace using newProvider; use new Provider() instead");
  }
  if (namespace === "") throw new Error("attempt to create provider address with empty namespace");
  return new Provider(hostname, mustParseProviderPart(namespace), mustParseProviderPart(typeName));
}

/** `registry.opentofu.org/hashicorp/<name>`. */
export function newDefaultProvider(name: string): Provider {
  return new Provider(DefaultProviderRegistryHost, DefaultProviderNamespace, mustParseProviderPart(name));
}

/** `terraform.io/builtin/<name>`. */
export function newBuiltInProvider(name: string): Provider {
  return new Provider(BuiltInProviderHost, BuiltInProviderNamespace, mustParseProviderPart(name));
}

/** `registry.opentofu.org/-/<name>`; the name passes through unvalidated, as old state expects. */
export function newLegacyProvider(name: string): Provider {
  return new Provider(DefaultProviderRegistryHost, LegacyProviderNamespace, name);
}

/**
 * What a bare type name means when no `required_providers` entry says otherwise: `terraform` is
 * the built-in provider (the registry's `hashicorp/terraform` is long unmaintained), anything else
 * is a default (`hashicorp`) provider.
 */
export function impliedProviderForUnqualifiedType(typeName: string): Provider {
  return typeName === "terraform" ? newBuiltInProvider(typeName) : newDefaultProvider(typeName);
}

const SOURCE_FORMAT = 'The "source" attribute must be in the format "[hostname/][namespace/]name"';

type SourceResult = { provider: Provider; summary?: undefined; detail?: undefined } | { provider?: undefined; summary: string; detail: string };

function sourceError(summary: string, detail: string): SourceResult {
  return { summary, detail };
}

/** The `/`-separated parts, with the type part already normalised. */
function parseSourceStringParts(str: string): { parts: string[] } | { summary: string; detail: string } {
  const parts = str.split("/");
  if (parts.length > 3) return { summary: "Invalid provider source string", detail: SOURCE_FORMAT };
  if (parts.some((p) => p === "")) return { summary: "Invalid provider source string", detail: SOURCE_FORMAT };
  const givenName = parts[parts.length - 1] as string;
  const name = parseProviderPart(givenName);
  if (name.error !== undefined) {
    // The stray quote before the end is in OpenTofu's message too.
    return { summary: "Invalid provider type", detail: `Invalid provider type ${goQuote(givenName)} in source ${goQuote(str)}: ${name.error}"` };
  }
  parts[parts.length - 1] = name.part;
  return { parts };
}

/**
 * A type starting with `terraform-` or `opentofu-` is redundant; with `...-provider-` it is most
 * likely a repository name pasted in, so the error suggests the address meant.
 */
function checkTypePrefix(ret: Provider, redundantPrefix: string, userErrorPrefix: string, product: string, productArticle: string): SourceResult | undefined {
  if (!ret.type.startsWith(redundantPrefix)) return undefined;
  if (ret.type.startsWith(userErrorPrefix)) {
    const suggestedType = ret.type.slice(userErrorPrefix.length);
    if (parseProviderPart(suggestedType).error === undefined) {
      const suggested = new Provider(ret.hostname, ret.namespace, suggestedType);
      const often = product === "Terraform" ? "often" : "sometimes";
      return sourceError(
        "Invalid provider type",
        `Provider source ${goQuote(ret.forDisplay())} has a type with the prefix ${goQuote(userErrorPrefix)}, which isn't valid. Although that prefix is ${often} used in the names of version control repositories for ${product} providers, provider source strings should not include it.\n\nDid you mean ${goQuote(suggested.forDisplay())}?`,
      );
    }
  }
  return sourceError(
    "Invalid provider type",
    `Provider source ${goQuote(ret.toString())} has a type with the prefix ${goQuote(redundantPrefix)}, which isn't allowed because it would be redundant to name ${productArticle} ${product} provider with that prefix. If you are the author of this provider, rename it to not include the prefix.`,
  );
}

/** registry-address's ParseProviderSource: a bare `name` keeps the unknown namespace `?`. */
function parseProviderSource(str: string): SourceResult {
  const split = parseSourceStringParts(str);
  if (!("parts" in split)) return split;
  const parts = split.parts;
  const name = parts[parts.length - 1] as string;
  if (parts.length === 1) return { provider: new Provider(DefaultProviderRegistryHost, UnknownProviderNamespace, name) };

  let namespace: string;
  const givenNamespace = parts[parts.length - 2] as string;
  if (givenNamespace === LegacyProviderNamespace) {
    // Tolerated so that old state and configuration round-trip; configs reports it separately.
    namespace = LegacyProviderNamespace;
  } else {
    const ns = parseProviderPart(givenNamespace);
    if (ns.error !== undefined) {
      // OpenTofu quotes the failed (empty) result rather than the input, and adds a stray quote.
      return sourceError("Invalid provider namespace", `Invalid provider namespace "" in source ${goQuote(str)}: ${ns.error}"`);
    }
    namespace = ns.part;
  }

  let hostname = DefaultProviderRegistryHost;
  if (parts.length === 3) {
    const hn = hostnameForComparison(parts[0] as string);
    if (hn.error !== undefined) {
      return sourceError("Invalid provider source hostname", `Invalid provider source hostname namespace "" in source ${goQuote(str)}: ${hn.error}"`);
    }
    hostname = hn.hostname;
  }

  // Only the default registry knows which real address a legacy name maps to.
  if (namespace === LegacyProviderNamespace && hostname !== DefaultProviderRegistryHost) {
    return sourceError(
      "Invalid provider namespace",
      `The legacy provider namespace "-" can be used only with hostname ${DefaultProviderRegistryHost}.`,
    );
  }

  const ret = new Provider(hostname, namespace, name);
  const prefixErr =
    checkTypePrefix(ret, "terraform-", "terraform-provider-", "Terraform", "a") ??
    checkTypePrefix(ret, "opentofu-", "opentofu-provider-", "OpenTofu", "an");
  return prefixErr ?? { provider: ret };
}

/**
 * Parses the `source` of a `required_providers` entry: `name`, `namespace/name` or
 * `hostname/namespace/name`, normalised to lowercase; a bare name is in the `hashicorp`
 * namespace on `registry.opentofu.org`.
 */
export function parseProviderSourceString(str: string): AddrResult<Provider> {
  const r = parseProviderSource(str);
  if (r.provider === undefined) {
    const diagnostics: Diagnostic[] = [errorDiag(r.summary, r.detail)];
    return { result: undefined, diagnostics };
  }
  const p = r.provider;
  const result = p.hasKnownNamespace() ? p : new Provider(p.hostname, DefaultProviderNamespace, p.type);
  return { result, diagnostics: [] };
}

/** parseProviderSourceString for addresses the program itself supplies; an invalid one is a bug. */
export function mustParseProviderSourceString(str: string): Provider {
  const r = parseProviderSourceString(str);
  if (r.result === undefined) throw new Error(r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("; "));
  return r.result;
}
