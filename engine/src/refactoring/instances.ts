// What the configuration declares once expanded (OpenTofu's instances.Set): which module
// calls, module instances, resources and resource instances exist after the plan walk has
// evaluated every count and for_each. validateMoves needs it to tell whether a statement's
// `from` is still declared. The core fills an InstanceSet from its expander; tests fill one
// from literal count/for_each values.
import {
  AbsModuleCall,
  RootModuleInstance,
  uniqueKey,
  type AbsResource,
  type AbsResourceInstance,
  type Module,
  type ModuleInstance,
} from "../addrs/index.js";

export interface DeclaredInstances {
  /** Every instance of a static module path (all combinations of the keys along it). */
  instancesForModule(module: Module): readonly ModuleInstance[];
  hasModuleInstance(addr: ModuleInstance): boolean;
  /** True for a declared call even when it has no instances (count = 0). */
  hasModuleCall(addr: AbsModuleCall): boolean;
  /** True for a declared resource even when it has no instances. */
  hasResource(addr: AbsResource): boolean;
  hasResourceInstance(addr: AbsResourceInstance): boolean;
}

/** A DeclaredInstances built by adding what an expansion produced. */
export class InstanceSet implements DeclaredInstances {
  private readonly moduleInstances = new Map<string, ModuleInstance>([[uniqueKey(RootModuleInstance), RootModuleInstance]]);
  private readonly moduleCalls = new Set<string>();
  private readonly resources = new Set<string>();
  private readonly resourceInstances = new Set<string>();

  /** A call whose count/for_each was evaluated, in one instance of its parent module. */
  addModuleCall(addr: AbsModuleCall): this {
    this.moduleCalls.add(uniqueKey(addr));
    return this;
  }

  /** A module instance (its call is added too). */
  addModuleInstance(addr: ModuleInstance): this {
    if (addr.isRoot()) return this;
    this.moduleInstances.set(uniqueKey(addr), addr);
    const { parent, call } = addr.call();
    return this.addModuleCall(new AbsModuleCall(parent, call));
  }

  /** A resource whose count/for_each was evaluated, in one module instance. */
  addResource(addr: AbsResource): this {
    this.resources.add(uniqueKey(addr));
    return this;
  }

  /** A resource instance (its resource is added too). */
  addResourceInstance(addr: AbsResourceInstance): this {
    this.resourceInstances.add(uniqueKey(addr));
    return this.addResource(addr.containingResource());
  }

  instancesForModule(module: Module): ModuleInstance[] {
    const out: ModuleInstance[] = [];
    for (const inst of this.moduleInstances.values()) if (inst.isForModule(module)) out.push(inst);
    return out.sort((a, b) => a.compare(b));
  }

  hasModuleInstance(addr: ModuleInstance): boolean {
    return this.moduleInstances.has(uniqueKey(addr));
  }

  hasModuleCall(addr: AbsModuleCall): boolean {
    return this.moduleCalls.has(uniqueKey(addr));
  }

  hasResource(addr: AbsResource): boolean {
    return this.resources.has(uniqueKey(addr));
  }

  hasResourceInstance(addr: AbsResourceInstance): boolean {
    return this.resourceInstances.has(uniqueKey(addr));
  }
}
