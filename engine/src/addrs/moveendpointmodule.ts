// MoveEndpointInModule: a unified move endpoint together with the module that declared it. It is
// a pattern, not an address: a `moved` block in a module applies to every instance of that
// module, so the declaring module's steps match any key (printed as `[*]`). This file holds the
// matching rules the refactoring code uses: which objects a statement selects, whether
// statements chain or nest, and where a matched object moves to.
import type { Range } from "../hcl/index.js";
import { NoKey, instanceKeyEqual, type InstanceKey } from "./instancekey.js";
import { Module, RootModule } from "./module.js";
import { AbsModuleCall, ModuleCall } from "./modulecall.js";
import { ModuleInstance, type ModuleInstanceStep } from "./moduleinstance.js";
import { AbsResource, AbsResourceInstance } from "./resource.js";

/** The objects a move can apply to (OpenTofu's AbsMoveable). */
export type AbsMoveable = ModuleInstance | AbsModuleCall | AbsResource | AbsResourceInstance;

export type MoveEndpointKind = "module" | "resource";

export function absMoveableEndpointKind(addr: AbsMoveable): MoveEndpointKind {
  return addr.kind === "ModuleInstance" || addr.kind === "AbsModuleCall" ? "module" : "resource";
}

/** A module path step whose key may be the wildcard. */
interface PatternStep {
  name: string;
  key: InstanceKey | "*";
}

function stepMatches(a: PatternStep, b: PatternStep): boolean {
  if (a.name !== b.name) return false;
  if (a.key === "*" || b.key === "*") return true;
  return instanceKeyEqual(a.key, b.key);
}

function sameStep(a: ModuleInstanceStep, b: ModuleInstanceStep): boolean {
  return a.name === b.name && instanceKeyEqual(a.key, b.key);
}

/** Whether `a` (no longer than `b`) matches the start of `b`, wildcards matching either way. */
function moduleInstanceCanMatch(a: readonly PatternStep[], b: readonly PatternStep[]): boolean {
  return a.every((s, i) => {
    const o = b[i];
    return o !== undefined && stepMatches(s, o);
  });
}

export class MoveEndpointInModule {
  constructor(
    /** The module whose `moved` block this came from. */
    readonly module: Module,
    /** Relative to `module`, despite the absolute-looking types. */
    readonly relSubject: AbsMoveable,
    readonly sourceRange: Range | undefined,
  ) {}

  objectKind(): MoveEndpointKind {
    return absMoveableEndpointKind(this.relSubject);
  }

  /** The pattern in splat-like form: `module.a[*].test.x[*]` for a whole resource in module a. */
  toString(): string {
    let out = this.module.steps.map((name) => `module.${name}[*].`).join("");
    out += this.relSubject.toString();
    if (this.relSubject.kind === "AbsModuleCall" || this.relSubject.kind === "AbsResource") out += "[*]";
    return out;
  }

  /** Same pattern, ignoring where it was written. */
  equal(other: MoveEndpointInModule): boolean {
    return this.module.equal(other.module) && this.relSubject.kind === other.relSubject.kind && this.relSubject.toString() === other.relSubject.toString();
  }

  /** One concrete object this pattern selects within an instance of the declaring module. */
  inModuleInstance(modInst: ModuleInstance): AbsMoveable {
    if (modInst.steps.length !== this.module.steps.length) throw new Error("given instance address does not match module address");
    const rel = this.relSubject;
    const join = (m: ModuleInstance) => new ModuleInstance([...modInst.steps, ...m.steps]);
    switch (rel.kind) {
      case "ModuleInstance":
        return join(rel);
      case "AbsModuleCall":
        return new AbsModuleCall(join(rel.module), rel.call);
      case "AbsResourceInstance":
        return new AbsResourceInstance(join(rel.module), rel.resource);
      case "AbsResource":
        return new AbsResource(join(rel.module), rel.resource);
    }
  }

  /**
   * The declaring module and the calls the endpoint passes through below it (a move may only
   * reach down into child modules).
   */
  moduleCallTraversals(): { module: Module; calls: ModuleCall[] } {
    const rel = this.relSubject;
    const steps = rel.kind === "ModuleInstance" ? rel.steps.slice(0, -1) : rel.module.steps;
    return { module: this.module, calls: steps.map((s) => new ModuleCall(s.name)) };
  }

  /** The full module path with wildcard keys for the declaring module and a module call. */
  private synthModuleInstance(): PatternStep[] {
    const out: PatternStep[] = this.module.steps.map((name) => ({ name, key: "*" }));
    const rel = this.relSubject;
    switch (rel.kind) {
      case "ModuleInstance":
        out.push(...rel.steps);
        break;
      case "AbsModuleCall":
        out.push(...rel.module.steps, { name: rel.call.name, key: "*" });
        break;
      case "AbsResource":
      case "AbsResourceInstance":
        out.push(...rel.module.steps);
        break;
    }
    return out;
  }

  /** Whether this selects the given module instance itself or resources directly inside it. */
  selectsModule(addr: ModuleInstance): boolean {
    const synth = this.synthModuleInstance();
    if (synth.length !== addr.steps.length) return false;
    return synth.every((s, i) => {
      const o = addr.steps[i] as ModuleInstanceStep;
      return s.key === "*" ? s.name === o.name : s.name === o.name && instanceKeyEqual(s.key, o.key);
    });
  }

  /** Whether this selects the given resource or any of its instances. */
  selectsResource(addr: AbsResource): boolean {
    const rel = this.relSubject;
    if (rel.kind !== "AbsResource" && rel.kind !== "AbsResourceInstance") return false;
    if (!this.selectsModule(addr.module)) return false;
    return rel.kind === "AbsResource" ? addr.resource.equal(rel.resource) : addr.resource.equal(rel.resource.resource);
  }

  /** Whether this ("to" of one statement) could select what `other` ("from" of another) selects. */
  canChainFrom(other: MoveEndpointInModule): boolean {
    const eMod = this.synthModuleInstance();
    const oMod = other.synthModuleInstance();
    if (eMod.length !== oMod.length || !moduleInstanceCanMatch(oMod, eMod)) return false;
    const e = this.relSubject;
    const o = other.relSubject;
    switch (o.kind) {
      case "AbsModuleCall":
      case "ModuleInstance":
        return e.kind === "AbsModuleCall" || e.kind === "ModuleInstance";
      case "AbsResource":
        return e.kind === "AbsResource" && e.resource.equal(o.resource);
      case "AbsResourceInstance":
        return e.kind === "AbsResourceInstance" && e.resource.equal(o.resource);
    }
  }

  /** Whether this endpoint lies inside one of the objects `other` could select. */
  nestedWithin(other: MoveEndpointInModule): boolean {
    const eMod = this.synthModuleInstance();
    const oMod = other.synthModuleInstance();
    if (oMod.length > eMod.length || !moduleInstanceCanMatch(oMod, eMod)) return false;
    const e = this.relSubject;
    const o = other.relSubject;
    switch (o.kind) {
      case "AbsModuleCall":
        return e.kind === "AbsModuleCall" ? eMod.length > oMod.length : true;
      case "ModuleInstance":
        return e.kind === "ModuleInstance" || e.kind === "AbsModuleCall" ? eMod.length > oMod.length : true;
      case "AbsResource":
        return eMod.length === oMod.length && e.kind === "AbsResourceInstance" && e.resource.resource.equal(o.resource);
      case "AbsResourceInstance":
        return false;
    }
  }

  /**
   * Whether `inst` is in the declaring module or below it; if so, the part that is the declaring
   * module's instance and the rest (relative to it).
   */
  matchModuleInstancePrefix(inst: ModuleInstance): { prefix: ModuleInstanceStep[]; rel: ModuleInstanceStep[] } | undefined {
    if (this.module.steps.length > inst.steps.length) return undefined;
    if (!this.module.steps.every((name, i) => inst.steps[i]?.name === name)) return undefined;
    const n = this.module.steps.length;
    return { prefix: inst.steps.slice(0, n), rel: inst.steps.slice(n) };
  }

  /**
   * Whether a `from`/`to` pair only changes module instance keys (`module.a` to `module.a[0]`),
   * keeping every name the same.
   */
  isModuleReIndex(to: MoveEndpointInModule): boolean {
    if (!this.module.equal(to.module)) throw new Error("cannot compare move expressions from different modules");
    const f = this.relSubject;
    const t = to.relSubject;
    if (f.kind === "AbsModuleCall" && t.kind === "ModuleInstance") return t.isForModule(f.instance(NoKey).module());
    if (f.kind === "ModuleInstance" && t.kind === "AbsModuleCall") return f.isForModule(t.instance(NoKey).module());
    if (f.kind === "ModuleInstance" && t.kind === "ModuleInstance") return t.hasSameModule(f);
    return false;
  }
}

/**
 * An endpoint for a move OpenTofu infers itself (count/for_each added or removed). It refers to
 * one resource instance in one module instance, so it belongs to the root module.
 */
export function impliedMoveStatementEndpoint(addr: AbsResourceInstance, rng: Range | undefined): MoveEndpointInModule {
  return new MoveEndpointInModule(RootModule, addr, rng);
}

/** Where a module instance moves under a module-kind statement, or undefined if it doesn't match. */
export function moduleInstanceMoveDestination(m: ModuleInstance, from: MoveEndpointInModule, to: MoveEndpointInModule): ModuleInstance | undefined {
  if (m.isRoot() || from.objectKind() !== "module") return undefined;
  const match = from.matchModuleInstancePrefix(m);
  if (!match) return undefined;
  const { prefix, rel } = match;
  const fromRel = from.relSubject;
  let newMatch: readonly ModuleInstanceStep[];
  let suffix: ModuleInstanceStep[];
  if (fromRel.kind === "ModuleInstance") {
    if (fromRel.steps.length > rel.length) return undefined;
    if (!fromRel.steps.every((s, i) => sameStep(s, rel[i] as ModuleInstanceStep))) return undefined;
    newMatch = (to.relSubject as ModuleInstance).steps;
    suffix = rel.slice(fromRel.steps.length);
  } else if (fromRel.kind === "AbsModuleCall") {
    const n = fromRel.module.steps.length;
    if (n > rel.length - 1) return undefined;
    if (!fromRel.module.steps.every((s, i) => sameStep(s, rel[i] as ModuleInstanceStep))) return undefined;
    const callStep = rel[n] as ModuleInstanceStep;
    if (callStep.name !== fromRel.call.name) return undefined;
    newMatch = (to.relSubject as AbsModuleCall).instance(callStep.key).steps;
    suffix = rel.slice(n + 1);
  } else {
    throw new Error("invalid address type for module-kind move endpoint");
  }
  return new ModuleInstance([...prefix, ...newMatch, ...suffix]);
}

/** The module path after the declaring module must equal the endpoint's relative module path. */
function resourceModuleMatch(module: ModuleInstance, from: MoveEndpointInModule, relModule: ModuleInstance): ModuleInstanceStep[] | undefined {
  const match = from.matchModuleInstancePrefix(module);
  if (!match) return undefined;
  if (match.rel.length !== relModule.steps.length) return undefined;
  if (!match.rel.every((s, i) => sameStep(s, relModule.steps[i] as ModuleInstanceStep))) return undefined;
  return match.prefix;
}

/** Where a resource moves under a statement, or undefined if the statement does not apply. */
export function absResourceMoveDestination(r: AbsResource, from: MoveEndpointInModule, to: MoveEndpointInModule): AbsResource | undefined {
  if (from.objectKind() === "module") {
    const toMod = moduleInstanceMoveDestination(r.module, from, to);
    return toMod ? new AbsResource(toMod, r.resource) : undefined;
  }
  const fromRel = from.relSubject;
  // An instance endpoint never matches a whole resource.
  if (fromRel.kind !== "AbsResource" || !fromRel.resource.equal(r.resource)) return undefined;
  const prefix = resourceModuleMatch(r.module, from, fromRel.module);
  if (!prefix) return undefined;
  const toRel = to.relSubject as AbsResource;
  return new AbsResource(new ModuleInstance([...prefix, ...toRel.module.steps]), toRel.resource);
}

/** Where a resource instance moves under a statement, or undefined if the statement does not apply. */
export function absResourceInstanceMoveDestination(
  r: AbsResourceInstance,
  from: MoveEndpointInModule,
  to: MoveEndpointInModule,
): AbsResourceInstance | undefined {
  if (from.objectKind() === "module") {
    const toMod = moduleInstanceMoveDestination(r.module, from, to);
    return toMod ? new AbsResourceInstance(toMod, r.resource) : undefined;
  }
  const fromRel = from.relSubject;
  if (fromRel.kind === "AbsResource") {
    const moved = absResourceMoveDestination(r.containingResource(), from, to);
    return moved ? moved.instance(r.resource.key) : undefined;
  }
  if (fromRel.kind !== "AbsResourceInstance") throw new Error("invalid address type for resource-kind move endpoint");
  if (!fromRel.resource.equal(r.resource)) return undefined;
  const prefix = resourceModuleMatch(r.module, from, fromRel.module);
  if (!prefix) return undefined;
  const toRel = to.relSubject as AbsResourceInstance;
  return new AbsResourceInstance(new ModuleInstance([...prefix, ...toRel.module.steps]), toRel.resource);
}
