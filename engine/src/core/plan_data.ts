// Data sources (OpenTofu's planDataSource, readDataSource, dependenciesHavePendingChanges and
// applyDataSource in node_resource_abstract_instance.go, and attachResourceDependsOnTransformer).
//
// A data source is read while planning when its configuration is wholly known and no managed
// resource it depends on has a change pending. Otherwise the plan records a Read change, with
// reason "config unknown" (which wins) or "dependency pending", whose value is the configuration
// with every computed attribute it leaves unset unknown: that is what expressions referring to it
// see until apply reads it, after its dependencies are applied. Which resources count: those
// named in its `depends_on` and in the `depends_on` of every module call containing it (with
// whatever they depend on when they are not resources themselves), plus the managed resources
// its configuration refers to directly; with custom conditions, everything it depends on.
//
// A data source nested in a `check` block is read during plan and planned to be read again at
// apply (Read, "check nested"); a failed read there does not fail the run: its diagnostics become
// warnings and the check block's data rule fails, so the block's assertions are skipped.
import { AbsResourceInstance, ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, type Reference } from "../addrs/index.js";
import { descendent, modulePathString, resourceAddrString, type Resource } from "../configs/index.js";
import { copyDiagnostic, hasErrors, markFromCheckBlock, type Diagnostic } from "../hcl/index.js";
import { attributeImpliedType, impliedType, nestedBlockImpliedType, unknownAsNull, type Attribute, type Block, type NestedBlock, type NestedObject } from "../providers/index.js";
import { newResourceInstanceChange, type ActionReason } from "../plans/index.js";
import { isWhollyKnown, listVal, nullVal, objectVal, tupleVal, unknownVal, type PathValueMarks, type Value } from "../values/index.js";
import { instancePrefix, runChecks } from "./checks.js";
import { hasConditions, resourceConditions } from "./conditions.js";
import { providerDiagnosticsInBody } from "./diags.js";
import { referencesOf } from "./evaluate.js";
import type { RepetitionData } from "./expand.js";
import { evalInstanceConfig, remark, unmarkForProvider, writeObject, type InstanceProvider } from "./instance.js";
import { nodeName, type GraphNode } from "./nodes.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";
import { resourceReferences, type BuildContext, type Graph } from "./transform.js";

type ResourceNode = Extract<GraphNode, { kind: "resource" }>;

// ---------------------------------------------------------------------------------------------
// Planning

/**
 * What planning and applying a data source start with: its preconditions, its configuration
 * evaluated and unmarked for the provider, and the provider's validation of that configuration
 * (kept apart: apply reports it as part of the read).
 */
async function evaluateDataConfig(
  run: RunState,
  addr: AbsResourceInstance,
  rc: Resource,
  rep: RepetitionData,
  ip: InstanceProvider,
): Promise<{ diagnostics: Diagnostic[]; evaluated?: { config: Value; configMarks: PathValueMarks[]; validation: Diagnostic[] } }> {
  const diagnostics = resourceConditions(run, "pre", addr, rc, rep);
  if (hasErrors(diagnostics)) return { diagnostics };
  const cfg = evalInstanceConfig(run, addr, rc, rep, ip.schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics };
  const [config, configMarks] = unmarkForProvider(cfg.value);
  const v = await ip.provider.validateDataResourceConfig({ typeName: rc.type, config });
  return { diagnostics, evaluated: { config, configMarks, validation: providerDiagnosticsInBody(v.diagnostics, rc.config, addr.toString()) } };
}

/** Plans one data source instance: read it now, or record a Read for apply. */
export async function planDataInstance(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: RepetitionData, ip: InstanceProvider): Promise<Diagnostic[]> {
  const { diagnostics, evaluated } = await evaluateDataConfig(run, addr, rc, rep, ip);
  if (!evaluated) return diagnostics;
  const { config, configMarks } = evaluated;
  // What `validate` would report (the CLI plans without a separate validate walk).
  diagnostics.push(...evaluated.validation);
  if (hasErrors(diagnostics)) return diagnostics;

  const check = nestingCheck(addr, rc);
  const configKnown = isWhollyKnown(config);
  if (!configKnown || dependenciesHavePendingChanges(run, addr, rc)) {
    if (check) runChecks(run).reportCheckResult(check.configAddr, check.objectAddr, "CheckDataResource", 0, "pass");
    // Whatever was read last time is stale: the prior state has no object until apply reads it
    // (OpenTofu writes a planned placeholder and drops it from the prior state at the end).
    forgetObject(run, addr, ip);
    // A refresh-only plan cannot plan the read, so the data source is simply gone from state.
    if (run.opts.refreshOnly) return diagnostics;
    const after = plannedValue(ip, config, configMarks);
    appendRead(run, addr, ip, after, configKnown ? "ReadBecauseDependencyPending" : "ReadBecauseConfigUnknown");
    diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, after));
    return diagnostics;
  }

  const read = await readDataSource(run, addr, rc, ip, config, configMarks);
  let value = read.value;
  if (check) {
    const failed = hasErrors(read.diagnostics);
    // A failed nested read is planned as unknown, to be tried again at apply.
    if (failed) value = plannedValue(ip, config, configMarks);
    reportNestedRead(run, check, read.diagnostics);
    diagnostics.push(...asWarnings(read.diagnostics));
    if (!run.opts.refreshOnly && value) appendRead(run, addr, ip, value, "ReadBecauseCheckNested");
  } else {
    diagnostics.push(...read.diagnostics);
  }
  if (hasErrors(diagnostics) || !value) return diagnostics;
  // State cannot hold unknown values: a failed nested read is recorded with nulls, as OpenTofu's
  // state encoding does.
  diagnostics.push(...writeObject(run, addr, ip, unknownAsNull(value), { status: "ready", dependencies: [], createBeforeDestroy: false }));
  diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, value));
  return diagnostics;
}

function appendRead(run: RunState, addr: AbsResourceInstance, ip: InstanceProvider, after: Value, actionReason: ActionReason): void {
  run.changes.append(
    newResourceInstanceChange({
      addr,
      providerAddr: ip.addr,
      providerKey: ip.key,
      change: { action: "Read", before: nullVal(impliedType(ip.schema.block)), after, generatedConfig: "" },
      actionReason,
    }),
  );
}

function forgetObject(run: RunState, addr: AbsResourceInstance, ip: InstanceProvider): void {
  if (!run.state.resourceInstanceObject(addr)) return;
  run.state.setResourceInstanceCurrent(addr, undefined, ip.addr, ip.key);
  run.state.removeResourceIfEmpty(addr.containingResource());
}

/** The value of a read still to come: the configuration with unknown computed attributes, marked as the configuration was. */
function plannedValue(ip: InstanceProvider, config: Value, configMarks: readonly PathValueMarks[]): Value {
  return markSensitiveBySchema(ip.schema.block, remark(plannedUnknownObject(ip.schema.block, config), configMarks));
}

// ---------------------------------------------------------------------------------------------
// Apply

/**
 * Reads a data source whose Read was planned (applyDataSource): preconditions, the configuration
 * evaluated with what apply has learnt, the read, the new object in state, postconditions.
 */
export async function applyDataInstance(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: RepetitionData, ip: InstanceProvider): Promise<Diagnostic[]> {
  const { diagnostics, evaluated } = await evaluateDataConfig(run, addr, rc, rep, ip);
  if (!evaluated) return diagnostics;
  const { config, configMarks } = evaluated;
  // The configuration is validated again now that it is complete, as part of the read.
  const readDiags = [...evaluated.validation];
  let value: Value | undefined;
  if (!hasErrors(readDiags)) {
    const read = await readDataSource(run, addr, rc, ip, config, configMarks);
    readDiags.push(...read.diagnostics);
    value = read.value;
  }
  const check = nestingCheck(addr, rc);
  if (check) {
    reportNestedRead(run, check, readDiags);
    diagnostics.push(...asWarnings(readDiags));
  } else {
    diagnostics.push(...readDiags);
  }
  if (hasErrors(readDiags) || !value) return diagnostics;
  diagnostics.push(...writeObject(run, addr, ip, value, { status: "ready", dependencies: [], createBeforeDestroy: false }));
  diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, value));
  return diagnostics;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * ReadDataSource with the result held to the protocol (readDataSource): an object, wholly
 * known. The UI sees it as a Read being applied ("Reading...", "Read complete").
 */
async function readDataSource(
  run: RunState,
  addr: AbsResourceInstance,
  rc: Resource,
  ip: InstanceProvider,
  config: Value,
  configMarks: readonly PathValueMarks[],
): Promise<{ value: Value | undefined; diagnostics: Diagnostic[] }> {
  const ty = impliedType(ip.schema.block);
  run.opts.hooks.preApply?.(addr, "", "Read", nullVal(config.type), config);
  const r = await ip.provider.readDataSource({ typeName: rc.type, config, address: addr.toString() });
  const diagnostics = providerDiagnosticsInBody(r.diagnostics, rc.config, addr.toString());
  // Like OpenTofu, a failed read reports no completion to the UI.
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
  const provider = ip.addr.instanceString(ip.key);
  let state = r.state;
  if (state.kind === "null") {
    diagnostics.push({
      severity: "error",
      summary: "Provider produced null object",
      detail: `Provider ${JSON.stringify(provider)} produced a null value for ${addr.toString()}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.`,
    });
  } else if (!isWhollyKnown(state)) {
    diagnostics.push({
      severity: "error",
      summary: "Provider produced invalid object",
      detail: `Provider ${JSON.stringify(provider)} produced a value for ${addr.toString()} that is not wholly known.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.`,
    });
    state = unknownAsNull(state);
  }
  const value = state.kind === "null" ? nullVal(ty) : markSensitiveBySchema(ip.schema.block, remark(state, configMarks));
  run.opts.hooks.postApply?.(addr, "", "Read", value, hasErrors(diagnostics));
  return { value: hasErrors(diagnostics) ? undefined : value, diagnostics };
}

// ---------------------------------------------------------------------------------------------
// Check blocks

interface NestingCheck {
  readonly configAddr: string;
  readonly objectAddr: string;
}

/** The check block instance a data source is nested in, if any. */
function nestingCheck(addr: AbsResourceInstance, rc: Resource): NestingCheck | undefined {
  const c = rc.container;
  if (c?.kind !== "check") return undefined;
  const path = addr.module.steps.map((s) => s.name);
  return { configAddr: `${path.length === 0 ? "" : `${modulePathString(path)}.`}check.${c.name}`, objectAddr: `${instancePrefix(addr.module)}check.${c.name}` };
}

/** The check block's data rule: failed (with the errors as its message) or passed. */
function reportNestedRead(run: RunState, check: NestingCheck, readDiags: readonly Diagnostic[]): void {
  const errors = readDiags.filter((d) => d.severity === "error");
  const checks = runChecks(run);
  if (errors.length === 0) checks.reportCheckResult(check.configAddr, check.objectAddr, "CheckDataResource", 0, "pass");
  else checks.reportCheckResult(check.configAddr, check.objectAddr, "CheckDataResource", 0, "fail", errorText(errors));
}

/** A nested read's diagnostics, all warnings and all the check block's (tofu's OverrideAll). */
function asWarnings(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.map((d) => markFromCheckBlock(copyDiagnostic(d, { severity: "warning" })));
}

/** Errors as one message, as tfdiags' Diagnostics.Err().Error() spells them. */
function errorText(errors: readonly Diagnostic[]): string {
  const one = (d: Diagnostic) => (d.detail ? `${d.summary}: ${d.detail}` : d.summary);
  const [first] = errors;
  if (errors.length === 1 && first) return one(first);
  return `${errors.length} problems:\n${errors.map((d) => `\n- ${one(d)}`).join("")}`;
}

// ---------------------------------------------------------------------------------------------
// Dependencies with pending changes

/** What each data resource node waits on, by node name, for each run (set once the plan graph is built). */
const dependsOnByRun = new WeakMap<RunState, Map<string, ConfigResource[]>>();
/** Answers of dependenciesHavePendingChanges by resource and module instance (the same for all its instances). */
const pendingByRun = new WeakMap<RunState, Map<string, boolean>>();

export function dependenciesHavePendingChanges(run: RunState, addr: AbsResourceInstance, rc: Resource): boolean {
  const module = addr.module.steps.map((s) => s.name);
  const name = nodeName({ kind: "resource", module, config: rc });
  let cache = pendingByRun.get(run);
  if (!cache) pendingByRun.set(run, (cache = new Map()));
  const key = `${addr.module.toString()}|${name}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  // With custom conditions an upstream change anywhere may be what makes a condition pass.
  const deps = (hasConditions(rc) ? run.dependencies.get(name) : dependsOnByRun.get(run)?.get(name)) ?? [];
  const managed = new Set(deps.filter((d) => d.resource.mode === "managed").map(String));
  const here = module.join(".");
  const pending = run.changes.all().some((c) => {
    if (c.change.action === "NoOp") return false;
    const steps = c.addr.module.steps.map((s) => s.name);
    if (!managed.has(new ConfigResource(new ModuleAddr(steps), c.addr.resource.resource).toString())) return false;
    // Dependencies are by configuration address: another instance of the same module does not count.
    return steps.join(".") !== here || c.addr.module.toString() === addr.module.toString();
  });
  cache.set(key, pending);
  return pending;
}

/**
 * Records, for every data resource of a plan graph, the resources whose pending changes defer
 * its read (attachResourceDependsOnTransformer): targets of its `depends_on` and of the managed
 * resources its configuration refers to, and of every containing module call's `depends_on`.
 */
export function recordDataDependsOn(run: RunState, g: Graph, b: BuildContext): void {
  const byRun = new Map<string, ConfigResource[]>();
  const index = new NodeIndex(g);
  for (const n of g.vertices()) {
    // Ephemeral resources defer their opening for the same reasons (OpenTofu shares the check).
    if (n.kind !== "resource" || n.config.mode === "managed") continue;
    const out = new Map<string, ConfigResource>();
    const add = (v: GraphNode) => {
      if (v.kind !== "resource") return;
      const cr = configResourceOf(v);
      out.set(cr.toString(), cr);
    };
    const refs = [...referencesOf(n.config.dependsOn).refs, ...referencesOf(resourceReferences(n.config, b)).refs.filter(refersToManagedResource)];
    for (const ref of refs) {
      for (const t of index.targets(ref, n.module)) {
        add(t);
        // Something that is not a resource (a module, a variable, a local) stands for the
        // resources upstream of it.
        if (t.kind !== "resource" || isModuleRef(ref)) for (const a of g.ancestors(t)) add(a);
      }
    }
    for (let depth = n.module.length; depth > 0; depth--) {
      const parent = n.module.slice(0, depth - 1);
      const call = descendent(b.config, parent)?.module.moduleCalls.get(n.module[depth - 1] ?? "");
      for (const ref of referencesOf(call?.dependsOn ?? []).refs) {
        for (const t of index.targets(ref, parent)) {
          add(t);
          for (const a of g.ancestors(t)) add(a);
        }
      }
    }
    const self = configResourceOf(n).toString();
    byRun.set(
      nodeName(n),
      [...out.values()].filter((c) => c.toString() !== self),
    );
  }
  dependsOnByRun.set(run, byRun);
}

function refersToManagedResource(ref: Reference): boolean {
  const s = ref.subject;
  if (s.kind === "Resource") return s.mode === "managed";
  if (s.kind === "ResourceInstance") return s.resource.mode === "managed";
  return false;
}

function isModuleRef(ref: Reference): boolean {
  const k = ref.subject.kind;
  return k === "ModuleCall" || k === "ModuleCallInstance" || k === "ModuleCallOutput" || k === "ModuleCallInstanceOutput";
}

function configResourceOf(n: ResourceNode): ConfigResource {
  return new ConfigResource(new ModuleAddr(n.module), new ResourceAddr(n.config.mode, n.config.type, n.config.name));
}

/** Graph nodes by what a reference names (a module call names everything inside it, as its close node does in OpenTofu). */
class NodeIndex {
  private readonly byKey = new Map<string, GraphNode[]>();
  constructor(private readonly g: Graph) {
    for (const n of g.vertices()) {
      const k = NodeIndex.keyOf(n);
      if (k === undefined) continue;
      const list = this.byKey.get(k);
      if (list) list.push(n);
      else this.byKey.set(k, [n]);
    }
  }

  private static keyOf(n: GraphNode): string | undefined {
    switch (n.kind) {
      case "resource":
        return `res|${n.module.join(".")}|${resourceAddrString(n.config)}`;
      case "variable":
        return `var|${n.module.join(".")}|${n.name}`;
      case "local":
        return `local|${n.module.join(".")}|${n.name}`;
      default:
        return undefined;
    }
  }

  targets(ref: Reference, path: readonly string[]): GraphNode[] {
    const s = ref.subject;
    const p = path.join(".");
    switch (s.kind) {
      case "Resource":
        return this.byKey.get(`res|${p}|${s.toString()}`) ?? [];
      case "ResourceInstance":
        return this.byKey.get(`res|${p}|${s.resource.toString()}`) ?? [];
      case "InputVariable":
        return this.byKey.get(`var|${p}|${s.name}`) ?? [];
      case "LocalValue":
        return this.byKey.get(`local|${p}|${s.name}`) ?? [];
      case "ModuleCall":
      case "ModuleCallInstance":
      case "ModuleCallOutput":
      case "ModuleCallInstanceOutput":
        return this.inModule([...path, moduleCallName(s)]);
      default:
        return [];
    }
  }

  /** Every node declared in the module (or below it). */
  private inModule(prefix: readonly string[]): GraphNode[] {
    return this.g.vertices().filter((x) => {
      const m = x.kind === "resource" || x.kind === "variable" || x.kind === "local" || x.kind === "output" || x.kind === "moduleCall" || x.kind === "check" ? x.module : undefined;
      return m !== undefined && m.length >= prefix.length && prefix.every((step, i) => m[i] === step);
    });
  }
}

function moduleCallName(s: Extract<Reference["subject"], { kind: "ModuleCall" | "ModuleCallInstance" | "ModuleCallOutput" | "ModuleCallInstanceOutput" }>): string {
  switch (s.kind) {
    case "ModuleCall":
      return s.name;
    case "ModuleCallInstance":
      return s.call.name;
    case "ModuleCallOutput":
      return s.call.name;
    case "ModuleCallInstanceOutput":
      return s.call.call.name;
  }
}

// ---------------------------------------------------------------------------------------------
// The planned value of a read still to come

/**
 * objchange.PlannedUnknownObject: ProposedNew against an unknown prior object, so every computed
 * attribute the configuration leaves null is unknown. Set and map blocks (and nested attribute
 * types) keep their configured elements as they are, as cty gives no prior element to merge.
 */
export function plannedUnknownObject(schema: Block, config: Value): Value {
  return plannedBlock(schema.attributes, schema.blockTypes, config);
}

function plannedBlock(attributes: ReadonlyMap<string, Attribute>, blockTypes: ReadonlyMap<string, NestedBlock>, config: Value): Value {
  if (config.kind !== "object") return config;
  const out = new Map<string, Value>();
  for (const [name, a] of attributes) out.set(name, plannedAttribute(a, config.attrs.get(name) ?? nullVal(attributeImpliedType(a))));
  for (const [name, nb] of blockTypes) out.set(name, plannedNestedBlock(nb, config.attrs.get(name) ?? nullVal(nestedBlockImpliedType(nb))));
  return objectVal(out);
}

function plannedAttribute(a: Attribute, config: Value): Value {
  if (a.computed && config.kind === "null") return unknownVal(attributeImpliedType(a));
  if (a.nestedType && config.kind !== "null" && config.kind !== "unknown") return plannedNestedObject(a.nestedType, config);
  return config;
}

function plannedNestedObject(o: NestedObject, config: Value): Value {
  switch (o.nesting) {
    case "single":
      return plannedBlock(o.attributes, new Map(), config);
    case "list":
      return plannedElements(config, (el) => plannedBlock(o.attributes, new Map(), el));
    case "map":
    case "set":
      return config;
  }
}

function plannedNestedBlock(nb: NestedBlock, config: Value): Value {
  switch (nb.nesting) {
    case "single":
    case "group":
      return plannedBlock(nb.block.attributes, nb.block.blockTypes, config);
    case "list":
      return plannedElements(config, (el) => plannedBlock(nb.block.attributes, nb.block.blockTypes, el));
    case "map":
    case "set":
      return config;
  }
}

function plannedElements(config: Value, f: (el: Value) => Value): Value {
  if ((config.kind !== "list" && config.kind !== "tuple") || config.elements.length === 0) return config;
  const els = config.elements.map(f);
  return config.kind === "tuple" ? tupleVal(els) : listVal(els);
}
