// Ephemeral resources (OpenTofu's planEphemeralResource, applyEphemeralResource and
// openEphemeralResource in node_resource_abstract_instance.go, shared.OpenEphemeralResourceInstance
// and nodeCloseableResource / CloseableResourceTransformer).
//
// An `ephemeral` block's node expands count/for_each and opens every instance, in plan and in
// apply alike: preconditions, the configuration, ValidateEphemeralResourceConfig,
// OpenEphemeralResource, the result checked and marked ephemeral as a whole, postconditions.
// The value lives only in this walk's registry (`EphemeralResources`): it is never a change of
// the plan nor an object of the state, so no plan or state file can hold it. Expressions see it
// through evaluate.ts. A plan whose configuration for an instance is not wholly known, or whose
// resource depends on managed resources with pending changes, does not open it: expressions see
// the configuration with unknown computed attributes (still ephemeral) and the hooks say
// "Deferred due to …"; at apply such a configuration is an error. While an instance is open it is
// renewed at the time the provider asked for (RenewAt); it is closed by its resource's close node
// (`ephemeral.x.y (close)`), which runs after everything that depends on the resource, and any
// instance still open when the walk ends is closed then.
import { AbsResourceInstance, ResourceInstance, Resource as ResourceAddr } from "../addrs/index.js";
import { modulePathString, resourceAddrString, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { impliedType, type Provider, type RenewEphemeralResourceResponse, type Schema } from "../providers/index.js";
import { DynamicVal, EPHEMERAL, isWhollyKnown, nullVal, unknownVal, withMarks, type Value } from "../values/index.js";
import { resourceConditions } from "./conditions.js";
import { providerDiagnosticsInBody } from "./diags.js";
import { expansionKeys, repetitionFor, type RepetitionData } from "./expand.js";
import type { Hooks } from "./hooks.js";
import { evalInstanceConfig, instanceProvider, remark, unmarkForProvider } from "./instance.js";
import type { GraphNode } from "./nodes.js";
import { dependenciesHavePendingChanges, plannedUnknownObject } from "./plan_data.js";
import { expandResource } from "./plan_instance.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";

type ResourceNode = Extract<GraphNode, { kind: "resource" }>;
type CloseNode = Extract<GraphNode, { kind: "ephemeralClose" }>;

/** The key close nodes and the registry share: static module path and resource address. */
export function ephemeralResourceKey(module: readonly string[], rc: Resource): string {
  return `${module.length === 0 ? "" : `${modulePathString(module)}.`}${resourceAddrString(rc)}`;
}

/** One open instance: what Renew and Close need. */
interface OpenInstance {
  readonly addr: AbsResourceInstance;
  readonly typeName: string;
  readonly provider: Provider;
  readonly rc: Resource;
  private: Uint8Array;
  timer: ReturnType<typeof setTimeout> | undefined;
  renewing: Promise<void> | undefined;
  /** Renewal problems, reported when the instance closes (as OpenTofu does). */
  readonly diagnostics: Diagnostic[];
}

/** The ephemeral values of one walk, and the instances still open (OpenTofu keeps these on the nodes). */
export class EphemeralResources {
  private readonly values = new Map<string, Value>();
  private readonly open = new Map<string, { key: string; inst: OpenInstance }>();

  constructor(private readonly hooks: Hooks) {}

  /** The value expressions see, once the instance was opened or deferred. */
  value(addr: AbsResourceInstance): Value | undefined {
    return this.values.get(addr.toString());
  }

  setValue(addr: AbsResourceInstance, v: Value): void {
    this.values.set(addr.toString(), v);
  }

  /** Keeps an opened instance until it is closed, renewing it at `renewAt`. */
  track(key: string, inst: OpenInstance, renewAt: Date | undefined): void {
    this.open.set(inst.addr.toString(), { key, inst });
    this.scheduleRenew(inst, renewAt);
  }

  private scheduleRenew(inst: OpenInstance, renewAt: Date | undefined): void {
    if (!renewAt) return;
    const wait = Math.max(0, renewAt.getTime() - Date.now());
    inst.timer = setTimeout(() => {
      inst.timer = undefined;
      inst.renewing = this.renew(inst);
    }, wait);
    // A pending renewal must not keep the process alive on its own.
    inst.timer.unref?.();
  }

  private async renew(inst: OpenInstance): Promise<void> {
    this.hooks.preRenew?.(inst.addr);
    const resp: RenewEphemeralResourceResponse = inst.provider.renewEphemeralResource
      ? await inst.provider.renewEphemeralResource({ typeName: inst.typeName, private: inst.private })
      : { private: inst.private, diagnostics: [unsupportedMethod("RenewEphemeralResource")] };
    const diags = providerDiagnosticsInBody(resp.diagnostics, inst.rc.config, inst.addr.toString());
    inst.diagnostics.push(...diags);
    this.hooks.postRenew?.(inst.addr, hasErrors(diags));
    inst.private = resp.private;
    inst.renewing = undefined;
    if (this.open.has(inst.addr.toString())) this.scheduleRenew(inst, resp.renewAt);
  }

  /** Closes every open instance of one resource (all its module instances): the close node. */
  async closeResource(key: string): Promise<Diagnostic[]> {
    const mine = [...this.open.values()].filter((o) => o.key === key).map((o) => o.inst);
    const all = await Promise.all(mine.map((i) => this.close(i)));
    return all.flat();
  }

  /** Closes whatever is still open (nodes skipped after a failure, or a walk that stopped). */
  async closeAll(): Promise<Diagnostic[]> {
    const all = await Promise.all([...this.open.values()].map((o) => this.close(o.inst)));
    return all.flat();
  }

  private async close(inst: OpenInstance): Promise<Diagnostic[]> {
    if (!this.open.delete(inst.addr.toString())) return [];
    if (inst.timer) clearTimeout(inst.timer);
    await inst.renewing;
    this.hooks.preClose?.(inst.addr);
    const resp = await closeInstance(inst.provider, inst.typeName, inst.private);
    const diags = providerDiagnosticsInBody(resp.diagnostics, inst.rc.config, inst.addr.toString());
    this.hooks.postClose?.(inst.addr, hasErrors(diags));
    return [...inst.diagnostics, ...diags];
  }
}

function unsupportedMethod(method: string): { severity: "error"; summary: string; detail: string } {
  return { severity: "error", summary: "Unsupported plugin method", detail: `The ${method} method is not supported by this provider.` };
}

function closeInstance(provider: Provider, typeName: string, priv: Uint8Array) {
  return provider.closeEphemeralResource
    ? provider.closeEphemeralResource({ typeName, private: priv })
    : Promise.resolve({ diagnostics: [unsupportedMethod("CloseEphemeralResource")] });
}

/** The resource node of an `ephemeral` block: expand, then open (or defer) every instance. */
export async function openEphemeralResource(run: RunState, n: ResourceNode): Promise<Diagnostic[]> {
  const rc = n.config;
  const { byModule, diagnostics } = expandResource(run, n);
  if (hasErrors(diagnostics)) return diagnostics;
  const resAddr = new ResourceAddr(rc.mode, rc.type, rc.name);
  const jobs: Promise<Diagnostic[]>[] = [];
  for (const { module, expansion } of byModule) {
    for (const key of expansionKeys(expansion)) {
      const addr = new AbsResourceInstance(module, new ResourceInstance(resAddr, key));
      jobs.push(openInstance(run, n.module, addr, rc, repetitionFor(expansion, key)));
    }
  }
  for (const d of await Promise.all(jobs)) diagnostics.push(...d);
  return diagnostics;
}

/** The close node: every open instance of the resource, once nothing needs it any more. */
export async function closeEphemeralResource(run: RunState, n: CloseNode): Promise<Diagnostic[]> {
  return run.ephemerals.closeResource(ephemeralResourceKey(n.module, n.config));
}

/** What expressions see for an instance not opened (yet): unknown, and ephemeral all the same. */
export function unopenedEphemeralValue(schema: Schema | undefined): Value {
  return withMarks(schema ? unknownVal(impliedType(schema.block)) : DynamicVal, EPHEMERAL);
}

async function openInstance(run: RunState, module: readonly string[], addr: AbsResourceInstance, rc: Resource, rep: RepetitionData): Promise<Diagnostic[]> {
  const ip = instanceProvider(run, addr, rc, module, rep);
  const diagnostics = [...ip.diagnostics];
  if (!ip.result) return diagnostics;
  const { provider, schema } = ip.result;
  const ty = impliedType(schema.block);
  // Whatever happens below, references see an ephemeral value of the right type.
  run.ephemerals.setValue(addr, withMarks(unknownVal(ty), EPHEMERAL));

  diagnostics.push(...resourceConditions(run, "pre", addr, rc, rep));
  if (hasErrors(diagnostics)) return diagnostics;
  const cfg = evalInstanceConfig(run, addr, rc, rep, schema);
  diagnostics.push(...cfg.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  const [config, configMarks] = unmarkForProvider(cfg.value);

  const known = isWhollyKnown(config);
  if (run.opts.operation === "apply" && !known) {
    diagnostics.push({
      ...errorDiag("Incomplete configuration for ephemeral resource", `Ephemeral resource ${JSON.stringify(addr.toString())} has incomplete configuration.`, rc.typeRange),
      context: rc.declRange,
    });
    return diagnostics;
  }
  if (run.opts.operation === "plan") {
    // A destroy plans nothing but deletions, and its graph has no edges from depends_on.
    const pending = known && !run.opts.destroy && dependenciesHavePendingChanges(run, addr, rc);
    if (!known || pending) {
      // Refresh-only plans plan nothing: the prior value, which for an ephemeral resource is null.
      const v = run.opts.refreshOnly ? nullVal(ty) : remark(plannedUnknownObject(schema.block, config), configMarks);
      run.ephemerals.setValue(addr, withMarks(v, EPHEMERAL));
      if (!run.opts.refreshOnly) run.opts.hooks.deferred?.(addr, known ? "pending dependencies" : "unknown configuration");
      return diagnostics;
    }
  }

  if (!provider.openEphemeralResource) {
    diagnostics.push(...providerDiagnosticsInBody([unsupportedMethod("OpenEphemeralResource")], rc.config, addr.toString()));
    return diagnostics;
  }
  const validated = provider.validateEphemeralResourceConfig ? await provider.validateEphemeralResourceConfig({ typeName: rc.type, config }) : { diagnostics: [] };
  diagnostics.push(...providerDiagnosticsInBody(validated.diagnostics, rc.config, addr.toString()));
  if (hasErrors(diagnostics)) return diagnostics;

  run.opts.hooks.preOpen?.(addr);
  const resp = await provider.openEphemeralResource({ typeName: rc.type, config });
  diagnostics.push(...providerDiagnosticsInBody(resp.diagnostics, rc.config, addr.toString()));
  if (hasErrors(diagnostics)) return diagnostics;

  const providerAddr = ip.result.addr.instanceString(ip.result.key);
  const invalid = invalidResult(resp.result, providerAddr, addr);
  if (invalid) {
    // Opened, but unusable: it must still be closed before giving up.
    diagnostics.push(invalid);
    const closed = await closeInstance(provider, rc.type, resp.private);
    diagnostics.push(...providerDiagnosticsInBody(closed.diagnostics, rc.config, addr.toString()));
    return diagnostics;
  }
  // The whole object is ephemeral: anything derived from any part of it is too.
  const value = withMarks(markSensitiveBySchema(schema.block, remark(resp.result, configMarks)), EPHEMERAL);
  run.ephemerals.setValue(addr, value);
  run.opts.hooks.postOpen?.(addr, false);
  run.ephemerals.track(ephemeralResourceKey(module, rc), { addr, typeName: rc.type, provider, rc, private: resp.private, timer: undefined, renewing: undefined, diagnostics: [] }, resp.renewAt);

  // Postconditions see only what Open returned; a failure blocks dependents, not the close.
  diagnostics.push(...resourceConditions(run, "post", addr, rc, rep, value));
  return diagnostics;
}

/** shared.OpenEphemeralResourceInstance's checks of the provider's answer. */
function invalidResult(v: Value, providerAddr: string, addr: AbsResourceInstance): Diagnostic | undefined {
  const bug = "\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.";
  if (v.kind === "null") return { severity: "error", summary: "Provider produced null object", detail: `Provider ${JSON.stringify(providerAddr)} produced a null value for ${addr.toString()}.${bug}` };
  if (!isWhollyKnown(v)) {
    return { severity: "error", summary: "Provider produced invalid object", detail: `Provider ${JSON.stringify(providerAddr)} produced a value for ${addr.toString()} that is not wholly known.${bug}` };
  }
  return undefined;
}

/** An instance's value for expressions: opened, deferred, or not reached (unknown). */
export function ephemeralInstanceValue(run: RunState, addr: AbsResourceInstance, schema: Schema | undefined): Value {
  return run.ephemerals.value(addr) ?? unopenedEphemeralValue(schema);
}
