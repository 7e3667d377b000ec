// Graph transformers (OpenTofu's transform_*.go): each adds one kind of node or edge. Builders
// (builder.ts) run a list of them in order. Edges follow OpenTofu's convention: `connect(a, b)`
// means a depends on b, so b runs first.
import {
  ConfigResource,
  Module as ModuleAddr,
  Resource as ResourceAddr,
  type AbsProviderConfig,
  type Reference,
  type Targetable,
} from "../addrs/index.js";
import {
  allConfigs,
  configBodyJustAttributes,
  descendent,
  exprVariables,
  moduleResource,
  resourceAddrString,
  type Config,
  type Resource,
} from "../configs/index.js";
import { type Diagnostic, type Traverser } from "../hcl/index.js";
import type { AcyclicGraph } from "../graph/index.js";
import type { State } from "../states/index.js";
import { assertNever } from "../values/index.js";
import { referencesOf } from "./evaluate.js";
import { nodeName, type GraphNode } from "./nodes.js";
import type { ResourceInstanceChange } from "../plans/index.js";
import { resolveProviderConfig, resolveResourceProvider } from "./providerconfig.js";
import { providerConfigNotPresent } from "./provider_missing.js";
import { provisionerReferences } from "./provisioners.js";
import type { ProviderManager } from "./providers.js";
import { blockReferences } from "./schemabody.js";
import { checkReferences, hasConditions, refersBeyondVariables } from "./conditions.js";
import { pruneForTargeting } from "./targeting.js";
import { validateRemoveStatements } from "./removed.js";
import { importBlockReferences } from "./import.js";

export interface BuildContext {
  readonly config: Config;
  /** The state the walk starts from (plan: previous run state; apply: the plan's prior state). */
  readonly state: State;
  readonly providers: ProviderManager;
  readonly destroy: boolean;
  /** Apply: the plan's resource changes. */
  readonly changes: readonly ResourceInstanceChange[];
  /** `-target` / `-exclude` (plan options; during apply, the plan's). */
  readonly targets?: readonly Targetable[];
  readonly excludes?: readonly Targetable[];
}

export type Graph = AcyclicGraph<GraphNode>;
export type Transformer = (g: Graph, b: BuildContext) => Diagnostic[];

function pathKey(p: readonly string[]): string {
  return p.join(".");
}

function staticPathOf(module: { steps: readonly { name: string }[] }): string[] {
  return module.steps.map((s) => s.name);
}

// ---------------------------------------------------------------------------------------------
// Nodes from configuration

/** One node per variable, local and output of every module (OpenTofu's Root/ModuleVariable, Local, Output transformers). */
export const namedValuesTransformer =
  (rootOutputs: boolean, childOutputs = rootOutputs): Transformer =>
  (g, b) => {
    for (const c of allConfigs(b.config)) {
      for (const [name, v] of c.module.variables) {
        g.add({ kind: "variable", module: c.path, name });
        // A root variable is validated with the others before the walk (finalizeInputVariables),
        // except for rules that refer to more than variables.
        if (c.path.length > 0 ? v.validations.length > 0 : v.validations.some(refersBeyondVariables)) g.add({ kind: "variableValidation", module: c.path, name });
      }
      for (const name of c.module.locals.keys()) g.add({ kind: "local", module: c.path, name });
      if (c.path.length === 0 ? rootOutputs : childOutputs) for (const name of c.module.outputs.keys()) g.add({ kind: "output", module: c.path, name });
    }
    return [];
  };

/** One node per module call (ModuleExpansionTransformer's expand nodes). */
export const moduleCallTransformer: Transformer = (g, b) => {
  for (const c of allConfigs(b.config)) for (const name of c.module.moduleCalls.keys()) if (c.children.has(name)) g.add({ kind: "moduleCall", module: c.path, name });
  return [];
};

/** One node per `check` block of every module (the check half of ConfigTransformer). */
export const checkTransformer: Transformer = (g, b) => {
  for (const c of allConfigs(b.config)) for (const name of c.module.checks.keys()) g.add({ kind: "check", module: c.path, name });
  return [];
};

/** Errors for `removed` blocks naming what is still configured (GetEndpointsToRemove); no nodes. */
export const removedBlocksTransformer: Transformer = (_g, b) => validateRemoveStatements(b.config);

/** Prunes the graph to what -target / -exclude leave in (TargetingTransformer). */
export const targetingTransformer: Transformer = (g, b) => {
  pruneForTargeting(g, b, { targets: b.targets ?? [], excludes: b.excludes ?? [] });
  return [];
};

/** One node per managed resource, data source and ephemeral resource block (ConfigTransformer). */
export const configResourceTransformer: Transformer = (g, b) => {
  for (const c of allConfigs(b.config)) {
    for (const r of c.module.managedResources.values()) g.add({ kind: "resource", module: c.path, config: r });
    for (const r of c.module.dataResources.values()) g.add({ kind: "resource", module: c.path, config: r });
    // Ephemeral resources are opened anew in every walk, plan and apply (nothing of them is in a plan).
    for (const r of c.module.ephemeralResources.values()) g.add({ kind: "resource", module: c.path, config: r });
  }
  return [];
};

/**
 * A close node per ephemeral resource (CloseableResourceTransformer), after the resource, after
 * its provider (so it is still running) and after every node that depends on the resource, so
 * instances close as soon as nothing can read them any more.
 */
export const ephemeralCloseTransformer: Transformer = (g) => {
  for (const n of g.vertices()) {
    if (n.kind !== "resource" || n.config.mode !== "ephemeral") continue;
    const close: GraphNode = { kind: "ephemeralClose", module: n.module, config: n.config };
    const dependents = g.descendants(n);
    const providers = g.downEdges(n).filter((d) => d.kind === "provider");
    g.add(close);
    g.connect(close, n);
    for (const d of [...providers, ...dependents]) g.connect(close, d);
  }
  return [];
};

function configResourceFor(config: Config, addr: { module: { steps: readonly { name: string }[] }; resource: ResourceAddr }): Resource | undefined {
  const c = descendent(config, staticPathOf(addr.module));
  if (!c) return undefined;
  const key = addr.resource.toString();
  return moduleResource(c.module, addr.resource.mode, key);
}

/**
 * Resources in state with no block in configuration (OrphanResourceTransformer); in a destroy
 * plan, every resource in state.
 */
export const orphanResourceTransformer: Transformer = (g, b) => {
  const diagnostics: Diagnostic[] = [];
  for (const [, ms] of b.state.modules) {
    for (const rs of ms.resources.values()) {
      const addr = rs.addr;
      if (!b.destroy && configResourceFor(b.config, addr)) continue;
      // Orphaned data sources are planned too: they leave the state without a change.
      if (addr.resource.mode === "ephemeral") continue;
      if (!rs.providerConfig) {
        diagnostics.push({ severity: "error", summary: "Missing provider for resource in state", detail: `The state has no provider configuration for ${addr.toString()}.` });
        continue;
      }
      g.add({ kind: "orphanResource", addr, provider: rs.providerConfig });
    }
  }
  return diagnostics;
};

/** Apply: a node per change to carry out (DiffTransformer). */
export const diffTransformer: Transformer = (g, b) => {
  for (const ch of b.changes) {
    const a = ch.change.action;
    if (a === "NoOp") {
      // Conditions are checked again at apply, so an unchanged object with conditions has a node.
      const rc = ch.deposedKey === "" ? configResourceFor(b.config, ch.addr.containingResource()) : undefined;
      if (rc && hasConditions(rc)) g.add({ kind: "applyInstance", change: ch, config: rc, module: staticPathOf(ch.addr.module) });
      continue;
    }
    if (a === "Forget") {
      g.add({ kind: "forgetInstance", change: ch });
      continue;
    }
    // ForgetThenCreate's old object is dropped from state by its apply node: nothing to destroy.
    if (a === "Delete" || a === "DeleteThenCreate" || a === "CreateThenDelete") g.add({ kind: "destroyInstance", change: ch });
    if (a !== "Delete") {
      const rc = configResourceFor(b.config, ch.addr.containingResource());
      if (rc) g.add({ kind: "applyInstance", change: ch, config: rc, module: staticPathOf(ch.addr.module) });
    }
  }
  return [];
};

// ---------------------------------------------------------------------------------------------
// Providers

function providerOfNode(n: GraphNode, b: BuildContext): AbsProviderConfig | undefined {
  switch (n.kind) {
    case "resource":
    case "applyInstance": {
      const mc = descendent(b.config, n.module);
      return mc ? resolveResourceProvider(mc, n.config)?.addr : undefined;
    }
    case "orphanResource":
      return n.provider;
    case "destroyInstance":
      return n.change.providerAddr;
    default:
      return undefined;
  }
}

/** Provider configuration nodes, and an edge from every node that uses one (ProviderTransformer). */
export const providerTransformer: Transformer = (g, b) => {
  const diagnostics: Diagnostic[] = [];
  const byAddr = new Map<string, GraphNode>();
  for (const v of g.vertices()) if (v.kind === "provider") byAddr.set(v.addr.toString(), v);
  for (const n of g.vertices()) {
    const addr = providerOfNode(n, b);
    if (!addr) continue;
    let p = byAddr.get(addr.toString());
    if (!p) {
      const mc = descendent(b.config, addr.module.steps);
      const localName = mc ? mc.module.providerLocalNames.get(addr.provider.toString()) ?? addr.provider.type : addr.provider.type;
      const resolved = mc ? resolveProviderConfig(mc, addr.provider, localName, addr.alias, undefined) : undefined;
      const config = resolved && resolved.addr.equal(addr) ? resolved.config : undefined;
      // Objects in state name their provider configuration exactly; only the root module's
      // default configuration may be implied (MissingProviderTransformer), any other must still
      // be declared.
      if (n.kind === "orphanResource" && !config && (addr.alias !== "" || !addr.module.isRoot())) {
        const rs = b.state.resource(n.addr);
        for (const is of rs?.instances.values() ?? []) {
          const inst = n.addr.instance(is.key).toString();
          diagnostics.push(providerConfigNotPresent(b.destroy ? inst : `${inst} (orphan)`, addr));
        }
        continue;
      }
      p = { kind: "provider", addr, config, module: addr.module.steps };
      g.add(p);
      byAddr.set(addr.toString(), p);
    }
    g.connect(n, p);
  }
  return diagnostics;
};

// ---------------------------------------------------------------------------------------------
// References

/** The traversals a node's expressions read, and the module they are resolved in. */
export function nodeReferences(n: GraphNode, b: BuildContext): { module: readonly string[]; traversals: Traverser[][] } | undefined {
  switch (n.kind) {
    case "variable": {
      if (n.module.length === 0) return undefined;
      const parentPath = n.module.slice(0, -1);
      const parent = descendent(b.config, parentPath);
      const call = parent?.module.moduleCalls.get(n.module[n.module.length - 1] ?? "");
      if (!call) return undefined;
      const attr = configBodyJustAttributes(call.config).attributes.get(n.name);
      return { module: parentPath, traversals: attr ? exprVariables(attr.expr) : [] };
    }
    case "local": {
      const l = descendent(b.config, n.module)?.module.locals.get(n.name);
      return l ? { module: n.module, traversals: exprVariables(l.expr) } : undefined;
    }
    case "variableValidation": {
      // Its own variable among them: the rules see its final value.
      const v = descendent(b.config, n.module)?.module.variables.get(n.name);
      return v ? { module: n.module, traversals: v.validations.flatMap(checkReferences) } : undefined;
    }
    case "output": {
      const o = descendent(b.config, n.module)?.module.outputs.get(n.name);
      if (!o) return undefined;
      return { module: n.module, traversals: [...(o.expr ? exprVariables(o.expr) : []), ...o.preconditions.flatMap(checkReferences)] };
    }
    case "check": {
      const c = descendent(b.config, n.module)?.module.checks.get(n.name);
      if (!c) return undefined;
      // The assertions wait for the block's own data source: a read that fails skips them.
      const d = c.dataResource;
      const nested: Traverser[][] = d
        ? [[{ kind: "Root", name: "data", range: d.declRange }, { kind: "Attr", name: d.type, range: d.declRange }, { kind: "Attr", name: d.name, range: d.declRange }]]
        : [];
      return { module: n.module, traversals: [...c.asserts.flatMap(checkReferences), ...nested] };
    }
    case "moduleCall": {
      const call = descendent(b.config, n.module)?.module.moduleCalls.get(n.name);
      if (!call) return undefined;
      const t: Traverser[][] = [];
      if (call.count) t.push(...exprVariables(call.count));
      if (call.forEach) t.push(...exprVariables(call.forEach));
      if (call.enabled) t.push(...exprVariables(call.enabled));
      // `providers = { x = y.z[key] }`: the key is evaluated in this module for each call instance.
      for (const p of call.providers) if (p.inParent.keyExpression) t.push(...exprVariables(p.inParent.keyExpression));
      return { module: n.module, traversals: t };
    }
    case "resource":
      // Import blocks naming the resource are resolved when it expands (import.ts).
      return { module: n.module, traversals: [...resourceReferences(n.config, b), ...importBlockReferences(b.config, n.module, n.config)] };
    case "applyInstance":
      return { module: n.module, traversals: resourceReferences(n.config, b) };
    case "provider": {
      if (!n.config) return undefined;
      const schema = b.providers.providerSchema(n.addr.provider);
      return { module: n.module, traversals: schema ? blockReferences(n.config.config, schema.provider.block) : [] };
    }
    case "orphanResource":
    case "planInstance":
    case "planOrphan":
    case "destroyInstance":
    case "forgetInstance":
    case "ephemeralClose":
      return undefined;
    default:
      return assertNever(n);
  }
}

/** count/for_each, the body (through the type's schema), the provider key, replace_triggered_by. */
export function resourceReferences(r: Resource, b: Pick<BuildContext, "providers">): Traverser[][] {
  const t: Traverser[][] = [];
  if (r.count) t.push(...exprVariables(r.count));
  if (r.forEach) t.push(...exprVariables(r.forEach));
  if (r.enabled) t.push(...exprVariables(r.enabled));
  if (r.providerConfigRef?.keyExpression) t.push(...exprVariables(r.providerConfigRef.keyExpression));
  for (const e of r.triggersReplacement) t.push(...exprVariables(e));
  // Conditions may refer to other objects (never to the resource itself: that is `self`).
  for (const rule of [...r.preconditions, ...r.postconditions]) t.push(...checkReferences(rule));
  const schema = r.provider ? b.providers.resourceTypeSchema(r.provider, r.mode, r.type) : undefined;
  if (schema) t.push(...blockReferences(r.config, schema.block));
  t.push(...provisionerReferences(r));
  return t;
}

/** Nodes by what references name (OpenTofu's ReferenceMap). */
class ReferenceMap {
  private readonly byKey = new Map<string, GraphNode[]>();
  constructor(readonly nodes: readonly GraphNode[]) {
    for (const n of nodes) for (const k of ReferenceMap.keysOf(n)) this.add(k, n);
  }

  private add(k: string, n: GraphNode): void {
    const list = this.byKey.get(k);
    if (list) list.push(n);
    else this.byKey.set(k, [n]);
  }

  static keysOf(n: GraphNode): string[] {
    switch (n.kind) {
      case "variable":
        return [`var|${pathKey(n.module)}|${n.name}`];
      case "local":
        return [`local|${pathKey(n.module)}|${n.name}`];
      case "output":
        return [`output|${pathKey(n.module)}|${n.name}`, `moduleOutputs|${pathKey(n.module)}`];
      case "moduleCall":
        return [`call|${pathKey(n.module)}|${n.name}`];
      case "resource":
      case "applyInstance":
        return [`res|${pathKey(n.module)}|${resourceAddrString(n.config)}`];
      default:
        return [];
    }
  }

  get(k: string): GraphNode[] {
    return this.byKey.get(k) ?? [];
  }

  /** The nodes a reference made in module `path` depends on. */
  targets(ref: Reference, path: readonly string[]): GraphNode[] {
    const s = ref.subject;
    const p = pathKey(path);
    switch (s.kind) {
      case "InputVariable":
        return this.get(`var|${p}|${s.name}`);
      case "LocalValue":
        return this.get(`local|${p}|${s.name}`);
      case "Resource":
        return this.get(`res|${p}|${s.toString()}`);
      case "ResourceInstance":
        return this.get(`res|${p}|${s.resource.toString()}`);
      case "ModuleCall":
        return [...this.get(`call|${p}|${s.name}`), ...this.get(`moduleOutputs|${pathKey([...path, s.name])}`)];
      case "ModuleCallInstance":
        return [...this.get(`call|${p}|${s.call.name}`), ...this.get(`moduleOutputs|${pathKey([...path, s.call.name])}`)];
      case "ModuleCallInstanceOutput":
        return [...this.get(`call|${p}|${s.call.call.name}`), ...this.get(`output|${pathKey([...path, s.call.call.name])}|${s.name}`)];
      default:
        return [];
    }
  }
}

/** An edge from each node to every node its expressions refer to (ReferenceTransformer). */
export const referenceTransformer: Transformer = (g, b) => {
  const refMap = new ReferenceMap(g.vertices());
  for (const n of g.vertices()) {
    const r = nodeReferences(n, b);
    if (!r) continue;
    // Parse errors are reported when the node evaluates its expressions.
    const { refs } = referencesOf(r.traversals);
    for (const ref of refs) {
      for (const t of refMap.targets(ref, r.module)) {
        if (t !== n && nodeName(t) !== nodeName(n)) g.connect(n, t);
      }
    }
  }
  return [];
};

/** `depends_on` of resources, outputs and module calls (the depends_on half of ReferenceTransformer). */
export const dependsOnTransformer: Transformer = (g, b) => {
  const refMap = new ReferenceMap(g.vertices());
  const all = g.vertices();
  for (const n of all) {
    let deps: Traverser[][] = [];
    let path: readonly string[] = [];
    if (n.kind === "resource" || n.kind === "applyInstance") {
      deps = n.config.dependsOn;
      path = n.module;
    } else if (n.kind === "output") {
      deps = descendent(b.config, n.module)?.module.outputs.get(n.name)?.dependsOn ?? [];
      path = n.module;
    } else if (n.kind === "moduleCall") {
      deps = descendent(b.config, n.module)?.module.moduleCalls.get(n.name)?.dependsOn ?? [];
      path = n.module;
    }
    if (deps.length === 0) continue;
    const { refs } = referencesOf(deps);
    for (const ref of refs) {
      const s = ref.subject;
      let targets = refMap.targets(ref, path);
      if (s.kind === "ModuleCall" || s.kind === "ModuleCallInstance") {
        // Everything in the called module (and below).
        const prefix = [...path, s.kind === "ModuleCall" ? s.name : s.call.name];
        targets = [
          ...targets,
          ...all.filter((x) => {
            const m = x.kind === "resource" || x.kind === "applyInstance" || x.kind === "output" ? x.module : undefined;
            return m !== undefined && m.length >= prefix.length && prefix.every((p, i) => m[i] === p);
          }),
        ];
      }
      for (const t of targets) if (t !== n) g.connect(n, t);
    }
  }
  return [];
};

/** Everything inside a module instance waits for the module call's expansion (ModuleExpansionTransformer). */
export const moduleExpansionTransformer: Transformer = (g) => {
  const calls = new Map<string, GraphNode>();
  for (const v of g.vertices()) if (v.kind === "moduleCall") calls.set(pathKey([...v.module, v.name]), v);
  for (const n of g.vertices()) {
    let m: readonly string[] | undefined;
    switch (n.kind) {
      case "variable":
      case "variableValidation":
      case "local":
      case "output":
      case "resource":
      case "applyInstance":
      case "provider":
      case "check":
        m = n.module;
        break;
      case "moduleCall":
        m = n.module;
        break;
      default:
        m = undefined;
    }
    if (!m || m.length === 0) continue;
    const call = calls.get(pathKey(m));
    if (call && call !== n) g.connect(n, call);
  }
  return [];
};

// ---------------------------------------------------------------------------------------------
// Apply ordering

/** Apply nodes wait for their resource's expansion node (count/for_each are evaluated there). */
export const applyExpansionTransformer: Transformer = (g) => {
  const res = new Map<string, GraphNode>();
  for (const v of g.vertices()) if (v.kind === "resource") res.set(`${pathKey(v.module)}|${resourceAddrString(v.config)}`, v);
  for (const n of g.vertices()) {
    if (n.kind !== "applyInstance") continue;
    const r = res.get(`${pathKey(n.module)}|${resourceAddrString(n.config)}`);
    if (r) g.connect(n, r);
  }
  return [];
};

/**
 * Destroy ordering (DestroyEdgeTransformer): an object is destroyed before the objects it
 * depended on (as recorded in state), and a DeleteThenCreate replacement destroys before it
 * creates.
 */
export const destroyEdgeTransformer: Transformer = (g, b) => {
  const destroyers = new Map<string, GraphNode[]>();
  const applyByInstance = new Map<string, GraphNode>();
  for (const v of g.vertices()) {
    if (v.kind === "destroyInstance") {
      const k = v.change.addr.configResource().toString();
      const list = destroyers.get(k);
      if (list) list.push(v);
      else destroyers.set(k, [v]);
    } else if (v.kind === "applyInstance") {
      applyByInstance.set(v.change.addr.toString(), v);
    }
  }
  for (const v of g.vertices()) {
    if (v.kind !== "destroyInstance") continue;
    const obj = b.state.resourceInstanceObject(v.change.addr, v.change.deposedKey);
    for (const dep of obj?.dependencies ?? []) {
      for (const d of destroyers.get(dep.toString()) ?? []) if (d !== v) g.connect(d, v);
    }
    if (v.change.change.action === "DeleteThenCreate") {
      const creator = applyByInstance.get(v.change.addr.toString());
      if (creator) g.connect(creator, v);
    }
  }
  return [];
};

/**
 * create_before_destroy (CBDEdgeTransformer): the old object of a CreateThenDelete replacement
 * is destroyed after its replacement exists and after everything that refers to the resource has
 * been updated to use the new object.
 */
export const cbdEdgeTransformer: Transformer = (g) => {
  const applies = g.vertices().filter((v): v is Extract<GraphNode, { kind: "applyInstance" }> => v.kind === "applyInstance");
  for (const v of g.vertices()) {
    if (v.kind !== "destroyInstance" || v.change.change.action !== "CreateThenDelete") continue;
    const resKey = `${pathKey(staticPathOf(v.change.addr.module))}|${v.change.addr.resource.resource.toString()}`;
    for (const a of applies) {
      if (a.change.addr.equal(v.change.addr)) {
        g.connect(v, a);
        continue;
      }
      // Dependents (anything whose apply node reaches this resource's apply nodes).
      const dependsOnIt = g
        .ancestors(a)
        .some((d) => d.kind === "applyInstance" && `${pathKey(d.module)}|${resourceAddrString(d.config)}` === resKey);
      if (dependsOnIt && !g.ancestors(a).includes(v)) g.connect(v, a);
    }
  }
  return [];
};

/** The resources a node depends on, directly or through other objects (recorded in state). */
export function resourceDependencies(g: Graph, n: Extract<GraphNode, { kind: "resource" | "applyInstance" }>): ConfigResource[] {
  const own = configResourceOf(n);
  const out = new Map<string, ConfigResource>();
  for (const d of g.ancestors(n)) {
    if (d.kind === "resource" || d.kind === "applyInstance") {
      const cr = configResourceOf(d);
      if (!cr.equal(own)) out.set(cr.toString(), cr);
    }
  }
  return [...out.values()].sort((a, b) => (a.toString() < b.toString() ? -1 : a.toString() > b.toString() ? 1 : 0));
}

function configResourceOf(n: Extract<GraphNode, { kind: "resource" | "applyInstance" }>): ConfigResource {
  return new ConfigResource(new ModuleAddr(n.module), new ResourceAddr(n.config.mode, n.config.type, n.config.name));
}
