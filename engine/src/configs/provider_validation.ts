// Provider configuration rules across the module tree (OpenTofu's provider_validation.go):
// required_providers against implied local names, configuration_aliases, what a module call may
// pass in its `providers` map (and what a child must receive), empty "proxy" blocks, and the
// provider `for_each` rules: instance keys only for configurations that use for_each, a key
// always for those that do, and a warning when a provider's for_each is the same expression as
// the for_each of a resource or module that selects its instances by key.
import { impliedProviderForUnqualifiedType, impliedProviderLocalName, parseProviderPart, newDefaultProvider, type Provider as ProviderAddr } from "../addrs/index.js";
import { errorDiag, formatRange, type AnyExpression, type Diagnostic, type Expression, type LiteralValue, type Range, type Traverser } from "../hcl/index.js";
import { goQuote, numbersEqual, parseNumberVal } from "../values/index.js";
import { configBodyContent, exprVariables, traversalRange } from "./body.js";
import type { Config } from "./config.js";
import { warningDiag } from "./diags.js";
import type { Module } from "./module.js";
import type { ModuleCall, PassedProviderConfig } from "./modulecall.js";
import { moduleSourceString } from "./module_source.js";
import { providerConfigRefString, providerKey, type Provider, type ProviderConfigRef } from "./provider.js";
import { resourceAddrString, type Resource } from "./resource.js";

/**
 * Validates every module of the tree under `root` (children before their parent, as OpenTofu
 * walks it). Called once by buildConfig; the result is the complete list of diagnostics.
 */
export function validateProviderConfigs(root: Config): Diagnostic[] {
  return validateModule(undefined, root, undefined);
}

/**
 * Whether a provider block is a real configuration rather than an empty "proxy" block: it has
 * provider-specific arguments (the body is not empty once meta-arguments are removed) or the
 * deprecated in-block version constraint. A block with `for_each` is never a proxy either: it
 * declares instances, which a proxy cannot.
 */
export function providerBlockIsConfigured(pc: Provider): boolean {
  if (pc.forEach !== undefined || pc.version.declRange !== undefined) return true;
  return configBodyContent(pc.config, {}).diagnostics.some((d) => d.severity === "error");
}

/** "module.a.module.b", or "the root module". */
function moduleText(path: readonly string[]): string {
  return path.length === 0 ? "the root module" : path.map((p) => `module.${p}`).join(".");
}

/** The provider a local name stands for in a module: required_providers, else the default one. */
function localNameType(m: Module, name: string): ProviderAddr {
  return m.providerRequirements.requiredProviders.get(name)?.type ?? newDefaultProvider(name);
}

function validateModule(parentCall: ModuleCall | undefined, cfg: Config, noProviderConfigRange: Range | undefined): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const mod = cfg.module;

  for (const name of [...cfg.children.keys()].sort()) {
    const child = cfg.children.get(name);
    const mc = mod.moduleCalls.get(name);
    if (!child || !mc) continue;
    // count, for_each and depends_on on a call rule out provider configurations in the called
    // module and everything beneath it.
    let childRange = noProviderConfigRange;
    if (mc.count) childRange = mc.count.range;
    else if (mc.forEach) childRange = mc.forEach.range;
    else if (mc.dependsOn.length > 0) childRange = traversalRange(mc.dependsOn[0] ?? []) ?? mc.declRange;
    diags.push(...validateModule(mc, child, childRange));
  }

  // Provider configurations passed in by the parent's call, by `name` or `name.alias`.
  const passedIn = new Map<string, PassedProviderConfig>();
  // Empty blocks, which may be proxies for a configuration passed in.
  const emptyConfigs = new Map<string, Range>();
  // Blocks that configure something (see providerBlockIsConfigured).
  const configured = new Map<string, Provider>();
  // configuration_aliases entries, with their provider's address.
  const configAliases = new Map<string, ProviderAddr>();
  // required_providers local names and their providers.
  const localNames = new Map<string, ProviderAddr>();

  for (const pc of mod.providerConfigs.values()) {
    const name = providerKey(pc.name, pc.alias);
    if (providerBlockIsConfigured(pc)) configured.set(name, pc);
    else emptyConfigs.set(name, pc.declRange);
  }

  const localTypes = new Set<string>();
  for (const req of mod.providerRequirements.requiredProviders.values()) {
    if (!req.type) continue;
    const typeKey = req.type.toString();
    if (localTypes.has(typeKey)) {
      let prevDecl = "";
      for (const [localName, typ] of localNames) if (typ.equal(req.type)) prevDecl = localName;
      diags.push(
        warningDiag(
          "Duplicate required provider",
          `Provider ${req.type.forDisplay()} with the local name ${goQuote(req.name)} was previously required as ${goQuote(prevDecl)}. A provider can only be required once within required_providers.`,
          req.declRange,
        ),
      );
    } else if (req.type.isDefault()) {
      // A provider block named after a default provider's type implies that provider, which
      // required_providers gave another local name.
      const impliedLocalName = req.type.type;
      for (const pc of mod.providerConfigs.values()) {
        if (pc.name === impliedLocalName && req.name !== impliedLocalName) {
          diags.push(
            warningDiag(
              "Duplicate required provider",
              `Provider ${req.type.forDisplay()} with the local name ${goQuote(req.name)} was implicitly required via a configuration block as ${goQuote(req.type.type)}. The provider configuration block name must match the name used in required_providers.`,
              req.declRange,
            ),
          );
          break;
        }
      }
    }
    localTypes.add(typeKey);
    localNames.set(req.name, req.type);
    for (const alias of req.aliases) configAliases.set(providerKey(alias.localName, alias.alias), req.type);
  }

  // Resources without a `provider` argument use the local name implied by their type, which
  // must not name a provider that required_providers lists under another name.
  const checkImpliedProviderNames = (resources: Iterable<Resource>): void => {
    for (const r of resources) {
      if (r.providerConfigRef) continue;
      const localName = impliedProviderLocalName(r.type);
      const part = parseProviderPart(localName);
      if (part.error !== undefined) {
        diags.push(errorDiag("Invalid provider local name", `${goQuote(localName)} is an invalid implied provider local name: ${part.error}`, r.declRange));
        continue;
      }
      if (localNames.has(localName)) continue;
      const defAddr = impliedProviderForUnqualifiedType(localName);
      for (const [prevLocalName, addr] of localNames) {
        if (!addr.equal(defAddr)) continue;
        diags.push(
          warningDiag(
            "Duplicate required provider",
            `Provider ${goQuote(defAddr.toString())} was implicitly required via resource ${goQuote(resourceAddrString(r))}, but listed in required_providers as ${goQuote(prevLocalName)}. Either the local name in required_providers must match the resource name, or the ${goQuote(prevLocalName)} provider must be assigned within the resource block.`,
            r.declRange,
          ),
        );
      }
    }
  };
  checkImpliedProviderNames(sortedByDecl(mod.managedResources.values()));
  checkImpliedProviderNames(sortedByDecl(mod.dataResources.values()));

  // Provider references from resources: instance keys, and for_each that mirrors the provider's.
  for (const r of sortedByDecl([...mod.managedResources.values(), ...mod.dataResources.values(), ...mod.ephemeralResources.values()])) {
    const ref = r.providerConfigRef;
    if (!ref) continue;
    diags.push(...instanceValidation(ref, "resource", configured));
    if (r.mode !== "managed" || !ref.keyExpression || !r.forEach) continue;
    const pc = configured.get(providerConfigRefString(ref));
    if (pc?.forEach && providerIterationIdentical(pc.forEach, r.forEach)) {
      diags.push(providerIterationIdenticalWarning("resource", inModule(cfg.path, resourceAddrString(r)), r.forEach.range));
    }
  }

  if (parentCall) for (const passed of parentCall.providers) passedIn.set(providerConfigRefString(passed.inChild), passed);

  const thisModule = moduleText(cfg.path);
  const parentModule = moduleText(cfg.path.slice(0, -1));

  // Module calls may pass only configurations that exist here at runtime; naming them in this
  // module lets the diagnostics say where to add one.
  for (const modCall of mod.moduleCalls.values()) {
    for (const passed of modCall.providers) {
      if (passed.inChild.keyExpression) {
        diags.push(
          errorDiag(
            "Invalid module provider configuration",
            "Instance keys are not allowed on the left side of a provider configuration assignment.",
            passed.inChild.keyExpression.range,
          ),
        );
      }
      diags.push(...instanceValidation(passed.inParent, "module", configured));
      if (passed.inParent.keyExpression && modCall.forEach) {
        const pc = configured.get(providerConfigRefString(passed.inParent));
        if (pc?.forEach && providerIterationIdentical(pc.forEach, modCall.forEach)) {
          diags.push(providerIterationIdenticalWarning("module", inModule(cfg.path, `module.${modCall.name}`), modCall.forEach.range));
        }
      }

      // Aliased configurations are never inherited, so the child's own checks cover them.
      if (passed.inParent.alias !== "") continue;
      const name = passed.inParent.name;
      const confOK = configured.has(name);
      const localOK = localNames.has(name);
      const passedOK = passedIn.has(name);
      if (!(confOK || localOK)) {
        const defAddr = newDefaultProvider(name);
        diags.push(
          warningDiag(
            "Reference to undefined provider",
            `There is no explicit declaration for local provider name ${goQuote(name)} in ${thisModule}, so OpenTofu is assuming you mean to pass a configuration for provider ${goQuote(defAddr.forDisplay())}.\n\nTo clarify your intent and silence this warning, add to ${parentModule} a required_providers entry named ${goQuote(name)} with source = ${goQuote(defAddr.forDisplay())}, or a different source address if appropriate.`,
            passed.inParent.nameRange,
          ),
        );
        continue;
      }
      if (cfg.path.length > 0 && !(confOK || passedOK) && parentCall) {
        const defAddr = newDefaultProvider(name);
        diags.push(
          warningDiag(
            "Missing required provider configuration",
            `The configuration for ${thisModule} expects to inherit a configuration for provider ${defAddr.forDisplay()} with local name ${goQuote(name)}, but ${parentModule} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for ${goQuote(name)} to the "providers" argument in the module ${goQuote(parentCall.name)} block.`,
            parentCall.declRange,
          ),
        );
      }
    }
  }

  if (cfg.path.length === 0 || !parentCall || !cfg.parent) return diags;

  if (configured.size > 0 && noProviderConfigRange) {
    // Reported at the count/for_each/depends_on: the caller's author is the likelier reader.
    diags.push(
      errorDiag(
        "Module is incompatible with count, for_each, and depends_on",
        `The module at ${thisModule} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module ${goQuote(cfg.sourceAddr ? moduleSourceString(cfg.sourceAddr) : "")}, consider updating this module to instead expect provider configurations to be passed by its caller.`,
        noProviderConfigRange,
      ),
    );
  }

  // A module's own configuration cannot be replaced by one passed in.
  for (const name of [...configured.keys()].sort()) {
    const passed = passedIn.get(name);
    if (!passed) continue;
    diags.push(
      errorDiag(
        "Cannot override provider configuration",
        `The configuration of ${thisModule} has its own local configuration for ${name}, and so it cannot accept an overridden configuration provided by ${parentModule}.`,
        passed.inChild.nameRange,
      ),
    );
  }

  // A declared configuration alias must be configured here or passed in.
  for (const [name, providerAddr] of configAliases) {
    if (configured.has(name) || passedIn.has(name)) continue;
    diags.push(
      errorDiag(
        "Missing required provider configuration",
        `The child module requires an additional configuration for provider ${providerAddr.forDisplay()}, with the local name ${goQuote(name)}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for ${name} in the "providers" meta-argument in the module block to choose which provider configuration the module should use for that purpose.`,
        parentCall.declRange,
      ),
    );
  }

  // What is passed in must be something this module can use, and of the right provider.
  for (const [name, passed] of passedIn) {
    let providerAddr = localNameType(mod, passed.inChild.name);
    const localAddr = localNames.get(name);
    if (localAddr) providerAddr = localAddr;
    const aliasAddr = configAliases.get(name);
    if (aliasAddr) providerAddr = aliasAddr;
    if (!(localAddr || aliasAddr || emptyConfigs.has(name))) {
      if (providerAddr.isDefault()) {
        // Default providers may still be implied, so this is only a warning.
        diags.push(
          warningDiag(
            "Reference to undefined provider",
            `There is no explicit declaration for local provider name ${goQuote(name)} in ${thisModule}, so OpenTofu is assuming you mean to pass a configuration for ${goQuote(providerAddr.forDisplay())}.\n\nIf you also control the child module, add a required_providers entry named ${goQuote(name)} with the source address ${goQuote(providerAddr.forDisplay())}.`,
            passed.inChild.nameRange,
          ),
        );
      } else {
        diags.push(
          errorDiag(
            "Reference to undefined provider",
            `The child module does not declare any provider requirement with the local name ${goQuote(name)}.\n\nIf you also control the child module, you can add a required_providers entry named ${goQuote(name)} with the source address ${goQuote(providerAddr.forDisplay())} to accept this provider configuration.`,
            passed.inChild.nameRange,
          ),
        );
      }
    }

    // OpenTofu looks the parent's requirement up by the child-side name, so we do too.
    const parentMod = cfg.parent.module;
    const parentAddr = parentMod.providerRequirements.requiredProviders.get(name)?.type ?? localNameType(parentMod, passed.inParent.name);
    if (providerAddr.equal(parentAddr)) continue;
    // Prefer suggesting the local name this module already uses for the parent's provider.
    let otherLocalName = "";
    for (const [localName, sourceAddr] of localNames) {
      if (sourceAddr.equal(parentAddr)) {
        otherLocalName = localName;
        break;
      }
    }
    if (otherLocalName !== "") {
      diags.push(
        errorDiag(
          "Provider type mismatch",
          `The assigned configuration is for provider ${goQuote(providerAddr.forDisplay())}, but local name ${goQuote(passed.inChild.name)} in ${parentModule} represents ${goQuote(parentAddr.forDisplay())}.\n\nTo pass this configuration to the child module, use the local name ${goQuote(otherLocalName)} instead.`,
          passed.inChild.nameRange,
        ),
      );
    } else {
      const inChild = goQuote(providerConfigRefString(passed.inChild));
      diags.push(
        errorDiag(
          "Provider type mismatch",
          `The local name ${goQuote(passed.inParent.name)} in ${parentModule} represents provider ${goQuote(parentAddr.forDisplay())}, but ${inChild} in ${thisModule} represents ${goQuote(providerAddr.forDisplay())}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's ${inChild} can be assigned only a configuration for ${providerAddr.forDisplay()}, which is not required by ${thisModule}.`,
          passed.inParent.nameRange,
        ),
      );
    }
  }

  diags.push(...redundantEmptyProviderBlocks(emptyConfigs, localNames, thisModule));
  return diags;
}

/**
 * Empty blocks in a child module were the old way to ask for a configuration; one warning per
 * provider local name shows the required_providers entry that replaces them.
 */
function redundantEmptyProviderBlocks(emptyConfigs: ReadonlyMap<string, Range>, localNames: ReadonlyMap<string, ProviderAddr>, thisModule: string): Diagnostic[] {
  interface Suggestion {
    sourceAddr: ProviderAddr;
    sourceRanges: Range[];
    requiredConfigs: string[];
    aliasCount: number;
  }
  const suggestions = new Map<string, Suggestion>();
  for (const [name, src] of emptyConfigs) {
    const dot = name.indexOf(".");
    const localName = dot >= 0 ? name.slice(0, dot) : name;
    // OpenTofu looks the address up by the full `name.alias` key, which only matches unaliased.
    const sourceAddr = localNames.get(name) ?? newDefaultProvider(localName);
    let s = suggestions.get(localName);
    if (!s) {
      s = { sourceAddr, sourceRanges: [], requiredConfigs: [], aliasCount: 0 };
      suggestions.set(localName, s);
    }
    if (localName !== name) s.aliasCount++;
    s.requiredConfigs.push(name);
    s.sourceRanges.push(src);
  }
  const diags: Diagnostic[] = [];
  for (const name of [...suggestions.keys()].sort()) {
    const s = suggestions.get(name) as Suggestion;
    let buf = `Earlier versions of OpenTofu used empty provider blocks ("proxy provider configurations") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider ${goQuote(name)} blocks and then adding or updating an entry like the following to the required_providers block of ${thisModule}:\n`;
    buf += `    ${name} = {\n`;
    buf += `      source = ${goQuote(s.sourceAddr.forDisplay())}\n`;
    if (s.aliasCount > 0) {
      buf += "      configuration_aliases = [\n";
      for (const addr of [...s.requiredConfigs].sort()) buf += `        ${addr},\n`;
      buf += "      ]\n";
    }
    buf += "    }";
    const first = [...s.sourceRanges].sort((a, b) => {
      const x = formatRange(a);
      const y = formatRange(b);
      return x < y ? -1 : x > y ? 1 : 0;
    })[0];
    diags.push(warningDiag("Redundant empty provider block", buf, first));
  }
  return diags;
}

/**
 * The rules for instance keys in a reference (`provider = x.y[key]` or a `providers` value):
 * a key needs an aliased configuration here that uses for_each; a configuration that uses
 * for_each needs a key. `blockType` is "resource" or "module".
 */
export function instanceValidation(ref: ProviderConfigRef, blockType: "resource" | "module", configured: ReadonlyMap<string, Provider>): Diagnostic[] {
  const summary = `Invalid ${blockType} provider configuration`;
  const pc = configured.get(providerConfigRefString(ref));
  if (ref.keyExpression) {
    if (ref.alias === "") {
      return [errorDiag(summary, "An instance key can be specified only for a provider configuration which has an alias and uses for_each.", ref.keyExpression.range)];
    }
    if (!pc) {
      return [
        errorDiag(
          summary,
          `This module doesn't declare a provider ${goQuote(ref.name)} block with alias = ${goQuote(ref.alias)}, which is required for use with for_each.`,
          ref.nameRange,
        ),
      ];
    }
    if (!pc.forEach) return [errorDiag(summary, "An instance key can be specified only for a provider configuration that uses for_each.", ref.keyExpression.range)];
    return [];
  }
  if (pc?.forEach) {
    return [
      errorDiag(
        summary,
        "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
        ref.nameRange,
      ),
    ];
  }
  return [];
}

/** The warning for a provider for_each that is the same expression as its user's for_each. */
function providerIterationIdenticalWarning(blockType: "resource" | "module", addr: string, subject: Range): Diagnostic {
  return warningDiag(
    `Provider configuration for_each matches ${blockType}`,
    `This provider configuration uses the same for_each expression as a ${blockType}, which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy -target=${addr}`,
    subject,
  );
}

function inModule(path: readonly string[], addr: string): string {
  return path.length === 0 ? addr : `${moduleText(path)}.${addr}`;
}

function sortedByDecl(resources: Iterable<Resource>): Resource[] {
  return [...resources].sort((a, b) => {
    const fa = a.declRange.filename;
    const fb = b.declRange.filename;
    if (fa !== fb) return fa < fb ? -1 : 1;
    return a.declRange.start.byte - b.declRange.start.byte;
  });
}

/**
 * Whether two for_each expressions are "too similar": structurally the same once parentheses are
 * stripped. Expressions without any references are constant, so removing elements from them is a
 * deliberate edit rather than a surprise, and never count. Best effort: expression kinds not
 * compared here count as different.
 */
export function providerIterationIdentical(a: AnyExpression, b: AnyExpression): boolean {
  if (exprVariables(a).length === 0 || exprVariables(b).length === 0) return false;
  if (a.kind === "JSONExpr" || b.kind === "JSONExpr") return false;
  return exprIdentical(a, b);
}

function unwrap(e: Expression): Expression {
  let cur = e;
  for (;;) {
    if (cur.kind === "Parentheses") cur = cur.expression;
    else if (cur.kind === "ObjectKey") cur = cur.wrapped;
    else return cur;
  }
}

function optionalIdentical(a: Expression | undefined, b: Expression | undefined): boolean {
  if (!a || !b) return a === b;
  return exprIdentical(a, b);
}

function listIdentical(a: readonly Expression[], b: readonly Expression[]): boolean {
  return a.length === b.length && a.every((x, i) => exprIdentical(x, b[i] as Expression));
}

function exprIdentical(x: Expression, y: Expression): boolean {
  const a = unwrap(x);
  const b = unwrap(y);
  switch (a.kind) {
    case "ScopeTraversal":
      return b.kind === "ScopeTraversal" && traversalsEquivalent(a.traversal, b.traversal);
    case "RelativeTraversal":
      return b.kind === "RelativeTraversal" && exprIdentical(a.source, b.source) && traversalsEquivalent(a.traversal, b.traversal);
    case "Literal":
      return b.kind === "Literal" && literalsEqual(a.value, b.value);
    case "FunctionCall":
      return b.kind === "FunctionCall" && a.name === b.name && a.expandFinal === b.expandFinal && listIdentical(a.args, b.args);
    case "Conditional":
      return b.kind === "Conditional" && exprIdentical(a.condition, b.condition) && exprIdentical(a.trueResult, b.trueResult) && exprIdentical(a.falseResult, b.falseResult);
    case "Index":
      return b.kind === "Index" && exprIdentical(a.collection, b.collection) && exprIdentical(a.key, b.key);
    case "Tuple":
      return b.kind === "Tuple" && listIdentical(a.exprs, b.exprs);
    case "Object":
      return (
        b.kind === "Object" &&
        a.items.length === b.items.length &&
        a.items.every((item, i) => {
          const other = b.items[i];
          return other !== undefined && exprIdentical(item.key, other.key) && exprIdentical(item.value, other.value);
        })
      );
    case "For":
      return (
        b.kind === "For" &&
        a.keyVar === b.keyVar &&
        a.valVar === b.valVar &&
        a.group === b.group &&
        exprIdentical(a.collExpr, b.collExpr) &&
        optionalIdentical(a.keyExpr, b.keyExpr) &&
        exprIdentical(a.valExpr, b.valExpr) &&
        optionalIdentical(a.condExpr, b.condExpr)
      );
    case "BinaryOp":
      return b.kind === "BinaryOp" && a.op === b.op && exprIdentical(a.lhs, b.lhs) && exprIdentical(a.rhs, b.rhs);
    case "UnaryOp":
      return b.kind === "UnaryOp" && a.op === b.op && exprIdentical(a.operand, b.operand);
    case "Template":
      return b.kind === "Template" && listIdentical(a.parts, b.parts);
    case "TemplateWrap":
      return b.kind === "TemplateWrap" && exprIdentical(a.wrapped, b.wrapped);
    case "TemplateJoin":
    case "Splat":
    case "AnonSymbol":
    case "SyntaxError":
    case "Parentheses":
    case "ObjectKey":
      return false;
    default: {
      const never: never = a;
      return never;
    }
  }
}

function literalsEqual(a: LiteralValue, b: LiteralValue): boolean {
  switch (a.type) {
    case "number": {
      if (b.type !== "number") return false;
      const x = parseNumberVal(a.text);
      const y = parseNumberVal(b.text);
      return x !== undefined && y !== undefined ? numbersEqual(x.value, y.value) : a.text === b.text;
    }
    case "string":
      return b.type === "string" && a.value === b.value;
    case "bool":
      return b.type === "bool" && a.value === b.value;
    case "null":
      return b.type === "null";
    case "invalid":
      return false;
  }
}

/** Same steps: root and attribute names, and index keys of equal value. */
function traversalsEquivalent(a: readonly Traverser[], b: readonly Traverser[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const t = b[i] as Traverser;
    if (s.kind !== t.kind) return false;
    if (s.kind === "Index" && t.kind === "Index") return literalsEqual(s.key, t.key);
    if (s.kind !== "Index" && t.kind !== "Index") return s.name === t.name;
    return false;
  });
}
