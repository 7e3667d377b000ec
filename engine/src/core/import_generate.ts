// Configuration generation during a plan (`plan -generate-config-out`, OpenTofu's
// validateImportTargets with generation on, the ConfigTransformer's nodes for import targets
// without configuration, and the generate step of importState): an import block whose root
// module resource has no `resource` block gets an empty stand-in resource for the walk; once its
// object is imported, the stand-in's body becomes the configuration genconfig writes for that
// object, and the instance is planned against it, its change carrying the generated block.
import { impliedProviderLocalName, parseAbsResourceInstance, type AbsResourceInstance, type Traversal } from "../addrs/index.js";
import { defaultManagedResource, providerForLocalName, type Config, type Import, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, parseConfig, type Diagnostic, type Expression, type SyntaxBody } from "../hcl/index.js";
import { generateResourceContents, wrapResourceContents } from "./genconfig.js";
import type { Value } from "../values/index.js";
import type { InstanceProvider } from "./instance.js";

/** The stand-in resources of plans that generate configuration, and the file each writes to. */
const standIns = new WeakMap<Resource, string>();

function inModuleDiag(address: string, imp: Import): Diagnostic {
  return errorDiag(
    "Cannot generate configuration for resource inside sub-module",
    `The configuration for the given import ${address} does not exist. Configuration generation is only possible for resources in the root module, and not possible for resources in sub-modules.`,
    imp.declRange,
  );
}

function withIndexDiag(address: string, imp: Import): Diagnostic {
  return errorDiag(
    "Configuration generation for count and for_each resources not supported",
    `The configuration for the given import ${address} does not exist. Configuration generation is only possible for resources that do not use count or for_each`,
    imp.declRange,
  );
}

function configMissingDiag(address: string, imp: Import): Diagnostic {
  return errorDiag(
    "Configuration for import target does not exist",
    `The configuration for the given import ${address} does not exist. All target instances must have an associated configuration to be imported.`,
    imp.declRange,
  );
}

/** `to` as a resource instance address when it has no expression keys (the block's ResolvedTo). */
function resolvedTo(imp: Import): AbsResourceInstance | undefined {
  if (!imp.toIsStatic || !imp.to) return undefined;
  const e = imp.to as Expression;
  if (e.kind !== "ScopeTraversal") return undefined;
  const a = parseAbsResourceInstance(e.traversal as Traversal);
  return hasErrors(a.diagnostics) ? undefined : a.result;
}

function staticToString(imp: Import): string {
  const to = imp.staticTo;
  if (!to?.resource) return "";
  return [...to.module.map((m) => `module.${m}`), `${to.resource.type}.${to.resource.name}`].join(".");
}

export interface GenerationTargets {
  /** The configuration with a stand-in `resource` for every import target that gets generated configuration. */
  readonly config: Config;
  readonly diagnostics: Diagnostic[];
}

/**
 * validateImportTargets with configuration generation: targets without a `resource` block must
 * be in the root module and have no instance key (nor a dynamic one); each of those gets a
 * stand-in resource in a copy of the root module. Targets whose resource already has objects in
 * state are not generated for (`hasState`): they keep the usual "does not exist" error.
 */
export function generationTargets(config: Config, generateConfigPath: string, hasState: (resourceAddr: string) => boolean): GenerationTargets {
  const diagnostics: Diagnostic[] = [];
  const added = new Map<string, Resource>();
  for (const imp of config.module.imports) {
    const to = imp.staticTo;
    if (!to?.resource || to.resource.mode !== "managed") continue;
    let c: Config | undefined = config;
    for (const step of to.module) c = c?.children.get(step);
    if (!c) {
      diagnostics.push(inModuleDiag(staticToString(imp), imp));
      continue;
    }
    const key = `${to.resource.type}.${to.resource.name}`;
    if (c.module.managedResources.has(key)) continue;
    const resolved = resolvedTo(imp);
    if (!resolved) diagnostics.push(withIndexDiag(staticToString(imp), imp));
    else if (!resolved.module.isRoot()) diagnostics.push(inModuleDiag(resolved.toString(), imp));
    else if (resolved.resource.key.kind !== "NoKey") diagnostics.push(withIndexDiag(resolved.toString(), imp));
    else if (hasState(key)) diagnostics.push(configMissingDiag(key, imp));
    else if (!added.has(key)) added.set(key, standIn(config, imp, to.resource.type, to.resource.name, generateConfigPath));
  }
  if (added.size === 0) return { config, diagnostics };
  const managedResources = new Map(config.module.managedResources);
  for (const [k, r] of added) managedResources.set(k, r);
  const root: Config = { ...config, module: { ...config.module, managedResources } };
  root.root = root;
  return { config: root, diagnostics };
}

/** An empty `resource` block for an import target, using the provider the import block names (ProvidedBy). */
function standIn(config: Config, imp: Import, type: string, name: string, file: string): Resource {
  const empty = parseConfig("", basename(file)).result.body;
  const r: Resource = {
    mode: "managed",
    type,
    name,
    config: { syntax: "native", body: empty, hiddenAttrs: new Set(), hiddenBlocks: new Set() },
    count: undefined,
    forEach: undefined,
    providerConfigRef: imp.providerConfigRef,
    provider: imp.provider ?? providerForLocalName(config.module, imp.providerConfigRef?.name ?? impliedProviderLocalName(type)),
    preconditions: [],
    postconditions: [],
    dependsOn: [],
    triggersReplacement: [],
    enabled: undefined,
    managed: defaultManagedResource(),
    container: undefined,
    declRange: imp.declRange,
    typeRange: imp.declRange,
  };
  standIns.set(r, file);
  return r;
}

function basename(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] ?? p;
}

export interface GeneratedResource {
  /** The stand-in with the generated arguments as its body. */
  readonly resource: Resource;
  /** The whole `resource` block, for the plan's change. */
  readonly generatedConfig: string;
  readonly diagnostics: Diagnostic[];
}

/**
 * For a stand-in resource, the configuration generated from the object just imported: its
 * arguments parsed as the file they are written to (diagnostics about them name it, from line 1),
 * `provider` left to the resource itself. Undefined for a resource the configuration declares.
 */
export function generateImportedConfig(rc: Resource, ip: InstanceProvider, imported: Value): GeneratedResource | undefined {
  const file = standIns.get(rc);
  if (file === undefined) return undefined;
  const contents = generateResourceContents(rc.type, ip.schema.block, { localName: ip.addr.provider.type, alias: ip.addr.alias }, imported);
  const generatedConfig = wrapResourceContents(rc.type, rc.name, contents);
  const parsed = parseConfig(contents, basename(file));
  const diagnostics = [...parsed.diagnostics];
  const body: SyntaxBody = { syntax: "native", body: parsed.result.body, hiddenAttrs: new Set(["provider"]), hiddenBlocks: new Set() };
  return { resource: { ...rc, config: body }, generatedConfig, diagnostics };
}
