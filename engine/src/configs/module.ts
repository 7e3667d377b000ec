// A module: the files of one directory combined into one namespace (OpenTofu's NewModule),
// with duplicate declarations reported and override files merged in.
import { impliedProviderForUnqualifiedType, impliedProviderLocalName, parseProviderPart, type Provider as ProviderAddr } from "../addrs/index.js";
import { errorDiag, formatRange, type Diagnostic } from "../hcl/index.js";
import type { Backend, CloudConfig, EncryptionConfig, ProviderMeta } from "./backend.js";
import type { Check } from "./check.js";
import type { File } from "./file.js";
import type { Import } from "./import.js";
import type { Local } from "./local.js";
import { mergeLocal, mergeModuleCall, mergeOutput, mergeProvider, mergeResource, mergeVariable } from "./merge.js";
import type { ModuleCall } from "./modulecall.js";
import type { Moved } from "./moved.js";
import type { Output } from "./output.js";
import type { ProviderFunctionCall } from "./provider_functions.js";
import { providerKey, type Provider } from "./provider.js";
import type { Removed } from "./removed.js";
import type { StaticEvaluator } from "./static/evaluator.js";
import type { RequiredProviders } from "./required_providers.js";
import { resourceAddrString, type Resource } from "./resource.js";
import type { Variable } from "./variable.js";
import type { VersionConstraint } from "./version_constraint.js";

export interface Module {
  /** The directory the module was loaded from (in the loader's filesystem). */
  sourceDir: string;
  coreVersionConstraints: VersionConstraint[];
  activeExperiments: string[];
  backend: Backend | undefined;
  cloudConfig: CloudConfig | undefined;
  /** By `name` or `name.alias`. */
  providerConfigs: Map<string, Provider>;
  providerRequirements: RequiredProviders;
  /** Provider address string → the local name the module uses for it. */
  providerLocalNames: Map<string, string>;
  /** Provider address string → its provider_meta block. */
  providerMetas: Map<string, ProviderMeta>;
  encryption: EncryptionConfig | undefined;
  variables: Map<string, Variable>;
  locals: Map<string, Local>;
  outputs: Map<string, Output>;
  moduleCalls: Map<string, ModuleCall>;
  /** By relative address (`aws_instance.a`, `data.x.y`, `ephemeral.x.y`). */
  managedResources: Map<string, Resource>;
  dataResources: Map<string, Resource>;
  ephemeralResources: Map<string, Resource>;
  moved: Moved[];
  imports: Import[];
  removed: Removed[];
  checks: Map<string, Check>;
  /** Calls of provider-defined functions, from every file (override files included). */
  providerFunctionCalls: ProviderFunctionCall[];
  /**
   * Set when the module was loaded with a static call (static/module.ts): evaluates variables,
   * locals, path.* and terraform.workspace at load time (backend configuration, for example).
   */
  staticEvaluator?: StaticEvaluator;
}

function emptyModule(sourceDir: string): Module {
  return {
    sourceDir,
    coreVersionConstraints: [],
    activeExperiments: [],
    backend: undefined,
    cloudConfig: undefined,
    providerConfigs: new Map(),
    providerRequirements: { requiredProviders: new Map(), declRange: undefined },
    providerLocalNames: new Map(),
    providerMetas: new Map(),
    encryption: undefined,
    variables: new Map(),
    locals: new Map(),
    outputs: new Map(),
    moduleCalls: new Map(),
    managedResources: new Map(),
    dataResources: new Map(),
    ephemeralResources: new Map(),
    moved: [],
    imports: [],
    removed: [],
    checks: new Map(),
    providerFunctionCalls: [],
  };
}

/** The provider a local name stands for: from required_providers, else the implied default. */
export function providerForLocalName(m: Module, localName: string): ProviderAddr | undefined {
  const req = m.providerRequirements.requiredProviders.get(localName);
  if (req?.type) return req.type;
  const part = parseProviderPart(localName);
  return part.part !== undefined ? impliedProviderForUnqualifiedType(part.part) : undefined;
}

/** A resource block by mode and its address as written ("type.name", "data.type.name", "ephemeral.type.name"). */
export function moduleResource(m: Module, mode: Resource["mode"], key: string): Resource | undefined {
  switch (mode) {
    case "managed":
      return m.managedResources.get(key);
    case "data":
      return m.dataResources.get(key);
    case "ephemeral":
      return m.ephemeralResources.get(key);
  }
}

/** The local name the module uses for a provider (its type name when required_providers has none). */
export function localNameForProvider(m: Module, p: ProviderAddr): string {
  return m.providerLocalNames.get(p.toString()) ?? p.type;
}

/** Combines primary files and then merges override files, in the order given. */
export function newModule(primaryFiles: readonly File[], overrideFiles: readonly File[], sourceDir: string): { module: Module; diagnostics: Diagnostic[] } {
  const m = emptyModule(sourceDir);
  const diagnostics: Diagnostic[] = [];

  // required_providers first, so that every resource finds its provider's address.
  let required: RequiredProviders | undefined;
  for (const f of primaryFiles) {
    for (const r of f.requiredProviders) {
      if (required) {
        diagnostics.push(
          errorDiag(
            "Duplicate required providers configuration",
            `A module may have only one required providers configuration. The required providers were previously configured at ${required.declRange ? formatRange(required.declRange) : ""}.`,
            r.declRange,
          ),
        );
        continue;
      }
      required = r;
    }
  }
  if (required) m.providerRequirements = { requiredProviders: new Map(required.requiredProviders), declRange: required.declRange };
  // Override files replace whole entries.
  for (const f of overrideFiles) {
    for (const r of f.requiredProviders) for (const [name, rp] of r.requiredProviders) m.providerRequirements.requiredProviders.set(name, rp);
  }

  for (const f of primaryFiles) diagnostics.push(...appendFile(m, f));
  for (const f of overrideFiles) diagnostics.push(...mergeFile(m, f));
  for (const f of [...primaryFiles, ...overrideFiles]) m.providerFunctionCalls.push(...f.providerFunctionCalls);

  for (const [name, rp] of m.providerRequirements.requiredProviders) if (rp.type) m.providerLocalNames.set(rp.type.toString(), name);
  for (const pc of m.providerConfigs.values()) pc.providerType = providerForLocalName(m, pc.name);
  return { module: m, diagnostics };
}

function setResourceProvider(m: Module, r: Resource): void {
  if (r.providerConfigRef) {
    r.provider = providerForLocalName(m, r.providerConfigRef.name);
    r.providerConfigRef.providerType = r.provider;
    return;
  }
  // An invalid type (e.g. "null resource") implies no provider; its error was already reported.
  const part = parseProviderPart(impliedProviderLocalName(r.type));
  if (part.part !== undefined) r.provider = providerForLocalName(m, part.part);
}

function appendFile(m: Module, file: File): Diagnostic[] {
  const diags: Diagnostic[] = [];
  m.coreVersionConstraints.push(...file.coreVersionConstraints);
  m.activeExperiments.push(...file.activeExperiments);

  for (const b of file.backends) {
    if (m.backend) {
      diags.push(
        errorDiag(
          "Duplicate backend configuration",
          `A module may have only one backend configuration. The backend was previously configured at ${formatRange(m.backend.declRange)}.`,
          b.declRange,
        ),
      );
      continue;
    }
    m.backend = b;
  }
  for (const c of file.cloudConfigs) {
    if (m.cloudConfig) {
      diags.push(
        errorDiag(
          "Duplicate cloud configurations",
          `A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at ${formatRange(m.cloudConfig.declRange)}.`,
          c.declRange,
        ),
      );
      continue;
    }
    m.cloudConfig = c;
  }
  if (m.backend && m.cloudConfig) {
    diags.push(
      errorDiag(
        "Both a backend and a cloud configuration are present",
        `A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at ${formatRange(m.cloudConfig.declRange)}; a backend is configured at ${formatRange(m.backend.declRange)}. Remove the backend block to configure a cloud backend.`,
        m.backend.declRange,
      ),
    );
  }

  for (const pc of file.providerConfigs) {
    const key = providerKey(pc.name, pc.alias);
    const existing = m.providerConfigs.get(key);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate provider configuration",
          existing.alias === ""
            ? `A default (non-aliased) provider configuration for ${JSON.stringify(existing.name)} was already given at ${formatRange(existing.declRange)}. If multiple configurations are required, set the "alias" argument for alternative configurations.`
            : `A provider configuration for ${JSON.stringify(existing.name)} with alias ${JSON.stringify(existing.alias)} was already given at ${formatRange(existing.declRange)}. Each configuration for the same provider must have a distinct alias.`,
          pc.declRange,
        ),
      );
      continue;
    }
    m.providerConfigs.set(key, pc);
  }

  for (const pm of file.providerMetas) {
    const provider = providerForLocalName(m, pm.provider);
    const key = provider ? provider.toString() : pm.provider;
    const existing = m.providerMetas.get(key);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate provider_meta block",
          `A provider_meta block for provider ${JSON.stringify(existing.provider)} was already declared at ${formatRange(existing.declRange)}. Providers may only have one provider_meta block per module.`,
          pm.declRange,
        ),
      );
    }
    m.providerMetas.set(key, pm);
  }

  for (const e of file.encryptions) {
    if (m.encryption) {
      diags.push(
        errorDiag(
          "Duplicate encryption configuration",
          `A module may have only one encryption configuration. Encryption was previously configured at ${formatRange(m.encryption.declRange)}.`,
          e.declRange,
        ),
      );
      continue;
    }
    m.encryption = e;
  }

  for (const v of file.variables) {
    const existing = m.variables.get(v.name);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate variable declaration",
          `A variable named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Variable names must be unique within a module.`,
          v.declRange,
        ),
      );
    }
    m.variables.set(v.name, v);
  }
  for (const l of file.locals) {
    const existing = m.locals.get(l.name);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate local value definition",
          `A local value named ${JSON.stringify(existing.name)} was already defined at ${formatRange(existing.declRange)}. Local value names must be unique within a module.`,
          l.declRange,
        ),
      );
    }
    m.locals.set(l.name, l);
  }
  for (const o of file.outputs) {
    const existing = m.outputs.get(o.name);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate output definition",
          `An output named ${JSON.stringify(existing.name)} was already defined at ${formatRange(existing.declRange)}. Output names must be unique within a module.`,
          o.declRange,
        ),
      );
    }
    m.outputs.set(o.name, o);
  }
  for (const mc of file.moduleCalls) {
    const existing = m.moduleCalls.get(mc.name);
    if (existing) {
      diags.push(
        errorDiag(
          "Duplicate module call",
          `A module call named ${JSON.stringify(existing.name)} was already defined at ${formatRange(existing.declRange)}. Module calls must have unique names within a module.`,
          mc.declRange,
        ),
      );
    }
    m.moduleCalls.set(mc.name, mc);
  }

  for (const r of file.managedResources) {
    const key = resourceAddrString(r);
    const existing = m.managedResources.get(key);
    if (existing) {
      diags.push(
        errorDiag(
          `Duplicate resource ${JSON.stringify(existing.type)} configuration`,
          `A ${existing.type} resource named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Resource names must be unique per type in each module.`,
          r.declRange,
        ),
      );
      continue;
    }
    m.managedResources.set(key, r);
    setResourceProvider(m, r);
  }
  // Data resources may also come from check blocks; both share one namespace.
  for (const r of file.dataResources) {
    const key = resourceAddrString(r);
    const existing = m.dataResources.get(key);
    if (existing) {
      diags.push(
        errorDiag(
          `Duplicate data ${JSON.stringify(existing.type)} configuration`,
          `A ${existing.type} data resource named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Resource names must be unique per type in each module.`,
          r.declRange,
        ),
      );
      continue;
    }
    m.dataResources.set(key, r);
  }
  for (const r of file.ephemeralResources) {
    const key = resourceAddrString(r);
    const existing = m.ephemeralResources.get(key);
    if (existing) {
      diags.push(
        errorDiag(
          `Duplicate ephemeral resource ${JSON.stringify(existing.type)} configuration`,
          `A ${existing.type} ephemeral resource named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Resource names must be unique per type in each module.`,
          r.declRange,
        ),
      );
      continue;
    }
    m.ephemeralResources.set(key, r);
    setResourceProvider(m, r);
  }
  for (const c of file.checks) {
    if (c.dataResource) {
      const key = resourceAddrString(c.dataResource);
      const existing = m.dataResources.get(key);
      if (existing) {
        diags.push(
          errorDiag(
            `Duplicate data ${JSON.stringify(existing.type)} configuration`,
            `A ${existing.type} data resource named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Resource names must be unique per type in each module, including within check blocks.`,
            c.dataResource.declRange,
          ),
        );
        continue;
      }
      m.dataResources.set(key, c.dataResource);
    }
    const existing = m.checks.get(c.name);
    if (existing) {
      diags.push(
        errorDiag(
          `Duplicate check ${JSON.stringify(existing.name)} configuration`,
          `A check block named ${JSON.stringify(existing.name)} was already declared at ${formatRange(existing.declRange)}. Check blocks must be unique within each module.`,
          c.declRange,
        ),
      );
      continue;
    }
    m.checks.set(c.name, c);
  }
  for (const r of m.dataResources.values()) setResourceProvider(m, r);

  // Moved blocks are independent of one another here; conflicts are found at runtime.
  m.moved.push(...file.moved);

  for (const i of file.imports) {
    const target = importTargetKey(i);
    const dup = target !== undefined ? m.imports.find((mi) => importTargetKey(mi) === target) : undefined;
    if (dup) {
      diags.push(
        errorDiag(
          `Duplicate import configuration for ${JSON.stringify(target)}`,
          `An import block for the resource ${JSON.stringify(target)} was already declared at ${formatRange(dup.declRange)}. A resource can have only one import block.`,
          i.to?.range ?? i.declRange,
        ),
      );
      continue;
    }
    if (i.providerConfigRef) i.provider = providerForLocalName(m, i.providerConfigRef.name);
    else if (i.staticTo?.resource) {
      const part = parseProviderPart(impliedProviderLocalName(i.staticTo.resource.type));
      if (part.part !== undefined) i.provider = providerForLocalName(m, part.part);
    }
    m.imports.push(i);
  }
  m.removed.push(...file.removed);
  return diags;
}

/** The import target as a string when it is fully static (no dynamic keys, no for_each). */
function importTargetKey(i: Import): string | undefined {
  if (!i.toIsStatic || i.forEach || !i.staticTo) return undefined;
  // Two static addresses are the same target when their traversals print the same.
  const to = i.to;
  if (!to || to.kind !== "ScopeTraversal") return undefined;
  return to.traversal
    .map((t) => (t.kind === "Root" ? t.name : t.kind === "Attr" ? `.${t.name}` : `[${t.key.type === "string" ? JSON.stringify(t.key.value) : t.key.type === "number" ? t.key.text : ""}]`))
    .join("");
}

function mergeFile(m: Module, file: File): Diagnostic[] {
  const diags: Diagnostic[] = [];
  if (file.backends.length > 0) {
    if (file.backends.length === 1) {
      // A backend replaces any cloud block, and the reverse.
      m.cloudConfig = undefined;
      m.backend = file.backends[0];
    } else {
      diags.push(
        errorDiag(
          "Duplicate backend configuration",
          `Each override file may have only one backend configuration. A backend was previously configured at ${formatRange((file.backends[0] as Backend).declRange)}.`,
          (file.backends[1] as Backend).declRange,
        ),
      );
    }
  }
  if (file.cloudConfigs.length > 0) {
    if (file.cloudConfigs.length === 1) {
      m.backend = undefined;
      m.cloudConfig = file.cloudConfigs[0];
    } else {
      diags.push(
        errorDiag(
          "Duplicate cloud configurations",
          `A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at ${formatRange((file.cloudConfigs[0] as CloudConfig).declRange)}.`,
          (file.cloudConfigs[1] as CloudConfig).declRange,
        ),
      );
    }
  }
  for (const pc of file.providerConfigs) {
    const key = providerKey(pc.name, pc.alias);
    const existing = m.providerConfigs.get(key);
    if (pc.alias === "") {
      // An absent default configuration is an implied empty one, which may be overridden.
      if (existing) diags.push(...mergeProvider(existing, pc));
      else m.providerConfigs.set(key, pc);
      continue;
    }
    // An aliased one must exist, so that a typo in the alias is noticed.
    if (!existing) {
      diags.push(
        errorDiag(
          "Missing base provider configuration for override",
          `There is no ${pc.name} provider configuration with the alias ${JSON.stringify(pc.alias)}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.`,
          pc.declRange,
        ),
      );
      continue;
    }
    diags.push(...mergeProvider(existing, pc));
  }
  if (file.encryptions.length > 0) {
    if (file.encryptions.length === 1) m.encryption = file.encryptions[0];
    else {
      diags.push(
        errorDiag(
          "Duplicate encryption configuration",
          `Each override file may have only one encryption configuration. Encryption was previously configured at ${formatRange((file.encryptions[0] as EncryptionConfig).declRange)}.`,
          (file.encryptions[1] as EncryptionConfig).declRange,
        ),
      );
    }
  }
  for (const v of file.variables) {
    const existing = m.variables.get(v.name);
    if (!existing) {
      diags.push(
        errorDiag(
          "Missing base variable declaration to override",
          `There is no variable named ${JSON.stringify(v.name)}. An override file can only override a variable that was already declared in a primary configuration file.`,
          v.declRange,
        ),
      );
      continue;
    }
    diags.push(...mergeVariable(existing, v));
  }
  for (const l of file.locals) {
    const existing = m.locals.get(l.name);
    if (!existing) {
      diags.push(
        errorDiag(
          "Missing base local value definition to override",
          `There is no local value named ${JSON.stringify(l.name)}. An override file can only override a local value that was already defined in a primary configuration file.`,
          l.declRange,
        ),
      );
      continue;
    }
    diags.push(...mergeLocal(existing, l));
  }
  for (const o of file.outputs) {
    const existing = m.outputs.get(o.name);
    if (!existing) {
      diags.push(
        errorDiag(
          "Missing base output definition to override",
          `There is no output named ${JSON.stringify(o.name)}. An override file can only override an output that was already defined in a primary configuration file.`,
          o.declRange,
        ),
      );
      continue;
    }
    diags.push(...mergeOutput(existing, o));
  }
  for (const mc of file.moduleCalls) {
    const existing = m.moduleCalls.get(mc.name);
    if (!existing) {
      diags.push(
        errorDiag(
          "Missing module call to override",
          `There is no module call named ${JSON.stringify(mc.name)}. An override file can only override a module call that was defined in a primary configuration file.`,
          mc.declRange,
        ),
      );
      continue;
    }
    diags.push(...mergeModuleCall(existing, mc));
  }
  const resourceKinds = [
    { list: file.managedResources, map: m.managedResources, summary: "Missing resource to override", what: "resource", block: "a resource" },
    { list: file.dataResources, map: m.dataResources, summary: "Missing data resource to override", what: "data resource", block: "a data" },
    { list: file.ephemeralResources, map: m.ephemeralResources, summary: "Missing ephemeral resource to override", what: "ephemeral resource", block: "an ephemeral" },
  ];
  for (const kind of resourceKinds) {
    for (const r of kind.list) {
      const existing = kind.map.get(resourceAddrString(r));
      if (!existing) {
        diags.push(
          errorDiag(
            kind.summary,
            `There is no ${r.type} ${kind.what} named ${JSON.stringify(r.name)}. An override file can only override ${kind.block} block defined in a primary configuration file.`,
            r.declRange,
          ),
        );
        continue;
      }
      diags.push(...mergeResource(existing, r, m.providerRequirements.requiredProviders));
    }
  }
  for (const mv of file.moved) {
    diags.push(errorDiag("Cannot override 'moved' blocks", "Records of moved objects can appear only in normal files, not in override files.", mv.declRange));
  }
  for (const i of file.imports) {
    diags.push(errorDiag("Cannot override 'import' blocks", "Import blocks can appear only in normal files, not in override files.", i.declRange));
  }
  for (const r of file.removed) {
    diags.push(errorDiag("Cannot override 'Removed' blocks", "Removed blocks can appear only in normal files, not in override files.", r.declRange));
  }
  return diags;
}
