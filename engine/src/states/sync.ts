// SyncState (OpenTofu's states.SyncState): the state as the graph walk sees it. Many nodes run
// concurrently (interleaved at awaits); each method here is one synchronous step, so it is
// atomic, and objects are deep-copied on the way in and out so no node can change the state
// behind another's back. Every change is also reported to an optional observer: that is the hook
// for an append-only journal (see README.md).
import {
  NoKey,
  type AbsProviderConfig,
  type AbsResource,
  type AbsResourceInstance,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import type { Value } from "../values/index.js";
import { NotDeposed, deepCopyObjectSrc, type DeposedKey, type ResourceInstanceObjectSrc } from "./objects.js";
import type { CheckResults, Module, OutputValue, Resource, ResourceInstance, State } from "./state.js";

/** One change made through SyncState, in the order it was made. */
export type StateChange =
  | {
      kind: "setCurrent";
      addr: AbsResourceInstance;
      obj: ResourceInstanceObjectSrc | undefined;
      provider: AbsProviderConfig | undefined;
      providerKey: InstanceKey;
    }
  | {
      kind: "setDeposed";
      addr: AbsResourceInstance;
      deposedKey: DeposedKey;
      obj: ResourceInstanceObjectSrc | undefined;
      provider: AbsProviderConfig | undefined;
      providerKey: InstanceKey;
    }
  | { kind: "depose"; addr: AbsResourceInstance; deposedKey: DeposedKey }
  | { kind: "restoreDeposed"; addr: AbsResourceInstance; deposedKey: DeposedKey }
  | { kind: "forgetInstance"; addr: AbsResourceInstance }
  | { kind: "removeResource"; addr: AbsResource }
  | { kind: "setResourceProvider"; addr: AbsResource; provider: AbsProviderConfig }
  | { kind: "setOutput"; name: string; value: Value; sensitive: boolean }
  | { kind: "removeOutput"; name: string }
  | { kind: "removeModule"; addr: ModuleInstance }
  | { kind: "setCheckResults"; results: CheckResults | undefined };

export type StateObserver = (change: StateChange) => void;

export class SyncState {
  private state: State | undefined;

  constructor(
    state: State,
    private readonly observer?: StateObserver,
  ) {
    this.state = state;
  }

  private s(): State {
    if (!this.state) throw new Error("SyncState used after close");
    return this.state;
  }

  private emit(c: StateChange): void {
    this.observer?.(c);
  }

  /** Ends the walk and returns the state; the wrapper may not be used afterwards. */
  close(): State {
    const s = this.s();
    this.state = undefined;
    return s;
  }

  /** Runs `f` on the live state: for compound reads; `f` must not keep references. */
  withState<T>(f: (s: State) => T): T {
    return f(this.s());
  }

  module(addr: ModuleInstance): Module | undefined {
    return this.s().module(addr)?.deepCopy();
  }

  resource(addr: AbsResource): Resource | undefined {
    return this.s().resource(addr)?.deepCopy();
  }

  resourceInstance(addr: AbsResourceInstance): ResourceInstance | undefined {
    return this.s().resourceInstance(addr)?.deepCopy();
  }

  resourceInstanceObject(addr: AbsResourceInstance, key: DeposedKey = NotDeposed): ResourceInstanceObjectSrc | undefined {
    const o = this.s().resourceInstanceObject(addr, key);
    return o && deepCopyObjectSrc(o);
  }

  outputValue(name: string): OutputValue | undefined {
    const o = this.s().rootModule().outputValues.get(name);
    return o && { ...o };
  }

  setResourceProvider(addr: AbsResource, provider: AbsProviderConfig): void {
    this.s().ensureModule(addr.module).setResourceProvider(addr.resource, provider);
    this.emit({ kind: "setResourceProvider", addr, provider });
  }

  /** Sets the current object (undefined removes it); the object is copied. */
  setResourceInstanceCurrent(
    addr: AbsResourceInstance,
    obj: ResourceInstanceObjectSrc | undefined,
    provider: AbsProviderConfig | undefined,
    providerKey: InstanceKey = NoKey,
  ): void {
    const copy = obj && deepCopyObjectSrc(obj);
    const s = this.s();
    const ms = obj ? s.ensureModule(addr.module) : s.module(addr.module);
    ms?.setResourceInstanceCurrent(addr.resource, copy, provider, providerKey);
    if (this.observer) this.emit({ kind: "setCurrent", addr, obj: copy && deepCopyObjectSrc(copy), provider, providerKey });
  }

  setResourceInstanceDeposed(
    addr: AbsResourceInstance,
    deposedKey: DeposedKey,
    obj: ResourceInstanceObjectSrc | undefined,
    provider: AbsProviderConfig | undefined,
    providerKey: InstanceKey = NoKey,
  ): void {
    const copy = obj && deepCopyObjectSrc(obj);
    const s = this.s();
    const ms = obj ? s.ensureModule(addr.module) : s.module(addr.module);
    ms?.setResourceInstanceDeposed(addr.resource, deposedKey, copy, provider, providerKey);
    if (this.observer) this.emit({ kind: "setDeposed", addr, deposedKey, obj: copy && deepCopyObjectSrc(copy), provider, providerKey });
  }

  /** Moves the current object aside (create_before_destroy); NotDeposed when there was none. */
  deposeResourceInstanceObject(addr: AbsResourceInstance, forceKey?: DeposedKey): DeposedKey {
    const key = this.s().module(addr.module)?.deposeResourceInstanceObject(addr.resource, forceKey) ?? NotDeposed;
    if (key !== NotDeposed) this.emit({ kind: "depose", addr, deposedKey: key });
    return key;
  }

  maybeRestoreResourceInstanceDeposed(addr: AbsResourceInstance, key: DeposedKey): boolean {
    const done = this.s().module(addr.module)?.maybeRestoreResourceInstanceDeposed(addr.resource, key) ?? false;
    if (done) this.emit({ kind: "restoreDeposed", addr, deposedKey: key });
    return done;
  }

  forgetResourceInstanceAll(addr: AbsResourceInstance): void {
    this.s().module(addr.module)?.forgetResourceInstanceAll(addr.resource);
    this.emit({ kind: "forgetInstance", addr });
  }

  forgetResourceInstanceDeposed(addr: AbsResourceInstance, key: DeposedKey): void {
    this.setResourceInstanceDeposed(addr, key, undefined, undefined);
  }

  removeResource(addr: AbsResource): void {
    this.s().module(addr.module)?.removeResource(addr.resource);
    this.emit({ kind: "removeResource", addr });
  }

  /** Removes the resource only if it has no instances left (RemoveResourceIfEmpty). */
  removeResourceIfEmpty(addr: AbsResource): boolean {
    const rs = this.s().resource(addr);
    if (!rs) return true;
    for (const is of rs.instances.values()) if (is.hasObjects()) return false;
    this.removeResource(addr);
    return true;
  }

  setOutputValue(name: string, value: Value, sensitive: boolean): void {
    this.s().rootModule().setOutputValue(name, value, sensitive);
    this.emit({ kind: "setOutput", name, value, sensitive });
  }

  removeOutputValue(name: string): void {
    this.s().rootModule().removeOutputValue(name);
    this.emit({ kind: "removeOutput", name });
  }

  setLocalValue(module: ModuleInstance, name: string, value: Value): void {
    this.s().ensureModule(module).setLocalValue(name, value);
  }

  removeModule(addr: ModuleInstance): void {
    this.s().removeModule(addr);
    this.emit({ kind: "removeModule", addr });
  }

  setCheckResults(results: CheckResults | undefined): void {
    this.s().checkResults = results;
    this.emit({ kind: "setCheckResults", results });
  }

  /** A deep copy of the whole state (for a snapshot to persist mid-walk). */
  snapshot(): State {
    return this.s().deepCopy();
  }
}
