// The state model (OpenTofu's internal/states): State → modules → resources → instances →
// current and deposed objects, plus root output values and check results. Plain mutable data
// for one owner; during a graph walk wrap it in SyncState. Every map is keyed by the address's
// string form and insertion order carries no meaning (the writer sorts).
import {
  AbsResource,
  AbsResourceInstance,
  NoKey,
  RootModuleInstance,
  instanceKeyEqual,
  instanceKeyString,
  type AbsProviderConfig,
  type InstanceKey,
  type ModuleInstance,
  type Resource as ResourceAddr,
  type ResourceInstance as ResourceInstanceAddr,
} from "../addrs/index.js";
import { rawEquals, type Value } from "../values/index.js";
import {
  NotDeposed,
  deepCopyObjectSrc,
  newDeposedKey,
  type DeposedKey,
  type ResourceInstanceObjectSrc,
} from "./objects.js";

export interface OutputValue {
  name: string;
  value: Value;
  sensitive: boolean;
}

/** Check statuses as state stores them. */
export type CheckStatus = "pass" | "fail" | "error" | "unknown";
export type CheckableKind = "resource" | "output" | "check" | "var";

export interface CheckResultObject {
  /** The checkable object's address as written (`aws_instance.a[0]`, `output.x`, ...). */
  objectAddr: string;
  status: CheckStatus;
  failureMessages: string[];
}

export interface CheckResultAggregate {
  objectKind: CheckableKind;
  /** The checkable configuration object's address (no instance keys). */
  configAddr: string;
  status: CheckStatus;
  objects: CheckResultObject[];
}

/** The previous run's check results; undefined on State means "never recorded". */
export interface CheckResults {
  configResults: CheckResultAggregate[];
}

export class ResourceInstance {
  current: ResourceInstanceObjectSrc | undefined;
  readonly deposed = new Map<DeposedKey, ResourceInstanceObjectSrc>();
  /** Which instance of the resource's provider configuration manages this instance. */
  providerKey: InstanceKey = NoKey;

  constructor(readonly key: InstanceKey) {}

  hasCurrent(): boolean {
    return this.current !== undefined;
  }

  hasDeposed(key: DeposedKey): boolean {
    return this.deposed.has(key);
  }

  hasObjects(): boolean {
    return this.current !== undefined || this.deposed.size > 0;
  }

  /** The object for a deposed key, or the current object for NotDeposed. */
  object(key: DeposedKey): ResourceInstanceObjectSrc | undefined {
    return key === NotDeposed ? this.current : this.deposed.get(key);
  }

  /** A deposed key not already used by this instance. */
  findUnusedDeposedKey(random?: () => number): DeposedKey {
    for (;;) {
      const k = newDeposedKey(random);
      if (!this.deposed.has(k)) return k;
    }
  }

  /**
   * Moves the current object to a new deposed key and returns it (NotDeposed when there was no
   * current object). `forceKey` is for tests and for replaying a journal.
   */
  deposeCurrentObject(forceKey?: DeposedKey): DeposedKey {
    if (this.current === undefined) return NotDeposed;
    const key = forceKey ?? this.findUnusedDeposedKey();
    this.deposed.set(key, this.current);
    this.current = undefined;
    return key;
  }

  deepCopy(): ResourceInstance {
    const c = new ResourceInstance(this.key);
    c.providerKey = this.providerKey;
    if (this.current) c.current = deepCopyObjectSrc(this.current);
    for (const [k, o] of this.deposed) c.deposed.set(k, deepCopyObjectSrc(o));
    return c;
  }
}

export class Resource {
  readonly instances = new Map<string, ResourceInstance>();

  constructor(
    readonly addr: AbsResource,
    /** The provider configuration (without instance key) managing every instance. */
    public providerConfig: AbsProviderConfig | undefined,
  ) {}

  instance(key: InstanceKey): ResourceInstance | undefined {
    return this.instances.get(instanceKeyString(key));
  }

  ensureInstance(key: InstanceKey): ResourceInstance {
    const k = instanceKeyString(key);
    let is = this.instances.get(k);
    if (!is) {
      is = new ResourceInstance(key);
      this.instances.set(k, is);
    }
    return is;
  }

  /** Whether any instance is bound to a keyed provider instance (the provider for_each case). */
  hasProviderInstanceKeys(): boolean {
    for (const is of this.instances.values()) if (is.providerKey.kind !== "NoKey") return true;
    return false;
  }

  deepCopy(): Resource {
    const c = new Resource(this.addr, this.providerConfig);
    for (const [k, is] of this.instances) c.instances.set(k, is.deepCopy());
    return c;
  }
}

export class Module {
  readonly resources = new Map<string, Resource>();
  /** Only the root module's outputs are persisted; others are recomputed each run. */
  readonly outputValues = new Map<string, OutputValue>();
  readonly localValues = new Map<string, Value>();

  constructor(readonly addr: ModuleInstance) {}

  resource(addr: ResourceAddr): Resource | undefined {
    return this.resources.get(addr.toString());
  }

  resourceInstance(addr: ResourceInstanceAddr): ResourceInstance | undefined {
    return this.resource(addr.resource)?.instance(addr.key);
  }

  /** Creates the resource if needed and sets its provider configuration. */
  setResourceProvider(addr: ResourceAddr, provider: AbsProviderConfig | undefined): Resource {
    const k = addr.toString();
    let rs = this.resources.get(k);
    if (!rs) {
      rs = new Resource(new AbsResource(this.addr, addr), provider);
      this.resources.set(k, rs);
    } else {
      rs.providerConfig = provider;
    }
    return rs;
  }

  removeResource(addr: ResourceAddr): void {
    this.resources.delete(addr.toString());
  }

  /**
   * Sets (or, with undefined, removes) the current object of an instance. Removing the last
   * object removes the instance, and the last instance removes the resource (no husks).
   */
  setResourceInstanceCurrent(
    addr: ResourceInstanceAddr,
    obj: ResourceInstanceObjectSrc | undefined,
    provider: AbsProviderConfig | undefined,
    providerKey: InstanceKey = NoKey,
  ): void {
    if (obj === undefined) {
      const rs = this.resource(addr.resource);
      const is = rs?.instance(addr.key);
      if (!rs || !is) return;
      is.current = undefined;
      this.pruneInstance(rs, is);
      return;
    }
    const rs = this.setResourceProvider(addr.resource, provider);
    const is = rs.ensureInstance(addr.key);
    is.current = obj;
    is.providerKey = providerKey;
  }

  setResourceInstanceDeposed(
    addr: ResourceInstanceAddr,
    key: DeposedKey,
    obj: ResourceInstanceObjectSrc | undefined,
    provider: AbsProviderConfig | undefined,
    providerKey: InstanceKey = NoKey,
  ): void {
    if (obj === undefined) {
      this.forgetResourceInstanceDeposed(addr, key);
      return;
    }
    const rs = this.setResourceProvider(addr.resource, provider);
    const is = rs.ensureInstance(addr.key);
    is.deposed.set(key, obj);
    is.providerKey = providerKey;
  }

  forgetResourceInstanceAll(addr: ResourceInstanceAddr): void {
    const rs = this.resource(addr.resource);
    if (!rs) return;
    rs.instances.delete(instanceKeyString(addr.key));
    if (rs.instances.size === 0) this.resources.delete(addr.resource.toString());
  }

  forgetResourceInstanceDeposed(addr: ResourceInstanceAddr, key: DeposedKey): void {
    const rs = this.resource(addr.resource);
    const is = rs?.instance(addr.key);
    if (!rs || !is) return;
    is.deposed.delete(key);
    this.pruneInstance(rs, is);
  }

  /** Deposes the current object of an instance; NotDeposed when there was none. */
  deposeResourceInstanceObject(addr: ResourceInstanceAddr, forceKey?: DeposedKey): DeposedKey {
    const is = this.resourceInstance(addr);
    if (!is) return NotDeposed;
    return is.deposeCurrentObject(forceKey);
  }

  /** Restores a deposed object as current if there is no current object; true if it did. */
  maybeRestoreResourceInstanceDeposed(addr: ResourceInstanceAddr, key: DeposedKey): boolean {
    const is = this.resourceInstance(addr);
    const obj = is?.deposed.get(key);
    if (!is || !obj || is.current !== undefined) return false;
    is.deposed.delete(key);
    is.current = obj;
    return true;
  }

  private pruneInstance(rs: Resource, is: ResourceInstance): void {
    if (is.hasObjects()) return;
    rs.instances.delete(instanceKeyString(is.key));
    if (rs.instances.size === 0) this.resources.delete(rs.addr.resource.toString());
  }

  setOutputValue(name: string, value: Value, sensitive: boolean): void {
    this.outputValues.set(name, { name, value, sensitive });
  }

  removeOutputValue(name: string): void {
    this.outputValues.delete(name);
  }

  setLocalValue(name: string, value: Value): void {
    this.localValues.set(name, value);
  }

  empty(): boolean {
    return this.resources.size === 0 && this.outputValues.size === 0 && this.localValues.size === 0;
  }

  deepCopy(): Module {
    const c = new Module(this.addr);
    for (const [k, rs] of this.resources) c.resources.set(k, rs.deepCopy());
    for (const [k, o] of this.outputValues) c.outputValues.set(k, { ...o });
    for (const [k, v] of this.localValues) c.localValues.set(k, v);
    return c;
  }
}

export class State {
  readonly modules = new Map<string, Module>();
  checkResults: CheckResults | undefined;

  constructor() {
    this.modules.set("", new Module(RootModuleInstance));
  }

  rootModule(): Module {
    return this.modules.get("") as Module;
  }

  module(addr: ModuleInstance): Module | undefined {
    return this.modules.get(addr.toString());
  }

  ensureModule(addr: ModuleInstance): Module {
    const k = addr.toString();
    let m = this.modules.get(k);
    if (!m) {
      m = new Module(addr);
      this.modules.set(k, m);
    }
    return m;
  }

  removeModule(addr: ModuleInstance): void {
    if (addr.isRoot()) throw new Error("cannot remove the root module");
    this.modules.delete(addr.toString());
  }

  resource(addr: AbsResource): Resource | undefined {
    return this.module(addr.module)?.resource(addr.resource);
  }

  resourceInstance(addr: AbsResourceInstance): ResourceInstance | undefined {
    return this.module(addr.module)?.resourceInstance(addr.resource);
  }

  resourceInstanceObject(addr: AbsResourceInstance, key: DeposedKey): ResourceInstanceObjectSrc | undefined {
    return this.resourceInstance(addr)?.object(key);
  }

  /** All resources, in no particular order. */
  *allResources(): Generator<Resource> {
    for (const m of this.modules.values()) yield* m.resources.values();
  }

  /** Every object in state, as (instance address, deposed key). */
  allResourceInstanceObjectAddrs(): Array<{ instance: AbsResourceInstance; deposedKey: DeposedKey }> {
    const out: Array<{ instance: AbsResourceInstance; deposedKey: DeposedKey }> = [];
    for (const rs of this.allResources()) {
      for (const is of rs.instances.values()) {
        const instance = rs.addr.instance(is.key);
        if (is.current) out.push({ instance, deposedKey: NotDeposed });
        for (const dk of is.deposed.keys()) out.push({ instance, deposedKey: dk });
      }
    }
    return out;
  }

  /** No resources and no root outputs (OpenTofu's State.Empty). */
  empty(): boolean {
    for (const m of this.modules.values()) {
      if (m.resources.size > 0) return false;
      if (m.addr.isRoot() && m.outputValues.size > 0) return false;
    }
    return true;
  }

  hasManagedResourceInstanceObjects(): boolean {
    for (const rs of this.allResources()) {
      if (rs.addr.resource.mode !== "managed") continue;
      for (const is of rs.instances.values()) if (is.hasObjects()) return true;
    }
    return false;
  }

  /** Removes non-root modules left with nothing in them. */
  pruneModules(): void {
    for (const [k, m] of this.modules) if (!m.addr.isRoot() && m.empty()) this.modules.delete(k);
  }

  deepCopy(): State {
    const c = new State();
    c.modules.clear();
    for (const [k, m] of this.modules) c.modules.set(k, m.deepCopy());
    if (this.checkResults) {
      c.checkResults = {
        configResults: this.checkResults.configResults.map((a) => ({
          ...a,
          objects: a.objects.map((o) => ({ ...o, failureMessages: [...o.failureMessages] })),
        })),
      };
    }
    return c;
  }
}

export function newState(): State {
  return new State();
}

// ---------------------------------------------------------------------------------------------
// Equality (semantic, used for "did this change?" and by tests)

function bytesEqual(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return (a?.length ?? 0) === (b?.length ?? 0);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function mapsEqual<V>(a: Map<string, V> | undefined, b: Map<string, V> | undefined, eq: (x: V, y: V) => boolean): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || !eq(v, w)) return false;
  }
  return true;
}

function pathsString(paths: ResourceInstanceObjectSrc["attrSensitivePaths"]): string {
  return paths
    .map((p) => p.map((s) => (s.kind === "attr" ? `.${s.name}` : `[${s.key.kind}:${JSON.stringify(s.key.kind === "string" ? s.key.value : s.key.kind === "number" ? s.key.value.text("g") : s.key.kind)}]`)).join(""))
    .join("|");
}

export function objectSrcEqual(a: ResourceInstanceObjectSrc, b: ResourceInstanceObjectSrc): boolean {
  return (
    a.schemaVersion === b.schemaVersion &&
    a.attrsJSON === b.attrsJSON &&
    mapsEqual(a.attrsFlat, b.attrsFlat, (x, y) => x === y) &&
    pathsString(a.attrSensitivePaths) === pathsString(b.attrSensitivePaths) &&
    bytesEqual(a.private, b.private) &&
    a.status === b.status &&
    a.dependencies.length === b.dependencies.length &&
    a.dependencies.every((d, i) => d.equal(b.dependencies[i] as typeof d)) &&
    a.createBeforeDestroy === b.createBeforeDestroy &&
    a.skipDestroy === b.skipDestroy &&
    a.identityJSON === b.identityJSON &&
    a.identitySchemaVersion === b.identitySchemaVersion
  );
}

function instanceEqual(a: ResourceInstance, b: ResourceInstance): boolean {
  if (!instanceKeyEqual(a.providerKey, b.providerKey)) return false;
  if ((a.current === undefined) !== (b.current === undefined)) return false;
  if (a.current && b.current && !objectSrcEqual(a.current, b.current)) return false;
  return mapsEqual(a.deposed, b.deposed, objectSrcEqual);
}

function resourceEqual(a: Resource, b: Resource): boolean {
  if (!a.addr.equal(b.addr)) return false;
  if ((a.providerConfig === undefined) !== (b.providerConfig === undefined)) return false;
  if (a.providerConfig && b.providerConfig && !a.providerConfig.equal(b.providerConfig)) return false;
  return mapsEqual(a.instances, b.instances, instanceEqual);
}

function outputEqual(a: OutputValue, b: OutputValue): boolean {
  return a.name === b.name && a.sensitive === b.sensitive && rawEquals(a.value, b.value);
}

/**
 * Whether two states hold the same resources, objects and root outputs, ignoring empty
 * non-root modules and local values (which are never persisted). Check results are compared
 * when both have them.
 */
export function statesEqual(a: State, b: State): boolean {
  const nonEmpty = (s: State): Map<string, Module> => {
    const m = new Map<string, Module>();
    for (const [k, mod] of s.modules) if (mod.addr.isRoot() || mod.resources.size > 0) m.set(k, mod);
    return m;
  };
  const ma = nonEmpty(a);
  const mb = nonEmpty(b);
  const modEq = (x: Module, y: Module): boolean =>
    mapsEqual(x.resources, y.resources, resourceEqual) && (!x.addr.isRoot() || mapsEqual(x.outputValues, y.outputValues, outputEqual));
  if (!mapsEqual(ma, mb, modEq)) return false;
  return JSON.stringify(a.checkResults ?? null) === JSON.stringify(b.checkResults ?? null);
}
