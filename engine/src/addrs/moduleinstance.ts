// ModuleInstance: a path through the dynamic module tree, where each step may carry the instance
// key that `count` or `for_each` on the module call gave it (`module.a["x"].module.b[0]`).
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { compareStrings } from "../values/index.js";
import { NoKey, compareInstanceKeys, instanceKeyEqual, instanceKeyFromLiteral, instanceKeyString, type InstanceKey } from "./instancekey.js";
import { Module, moduleStepName } from "./module.js";
import { ModuleCall, ModuleCallInstance, type AbsModuleCall } from "./modulecall.js";
import type { AddrResult } from "./result.js";
import { asRootTraversal, parseTraversalAbs, traversalRange, type Traversal } from "./traversal.js";

export interface ModuleInstanceStep {
  readonly name: string;
  readonly key: InstanceKey;
}

export function moduleInstanceStepString(s: ModuleInstanceStep): string {
  return s.name + instanceKeyString(s.key);
}

function stepsEqual(a: ModuleInstanceStep, b: ModuleInstanceStep): boolean {
  return a.name === b.name && instanceKeyEqual(a.key, b.key);
}

export class ModuleInstance {
  readonly kind = "ModuleInstance" as const;
  readonly steps: readonly ModuleInstanceStep[];

  constructor(steps: readonly ModuleInstanceStep[]) {
    this.steps = steps;
  }

  isRoot(): boolean {
    return this.steps.length === 0;
  }

  /** `module.a["x"].module.b[0]`; the root module instance is "". */
  toString(): string {
    return this.steps.map((s) => `module.${moduleInstanceStepString(s)}`).join(".");
  }

  equal(other: ModuleInstance): boolean {
    if (this.steps.length !== other.steps.length) return false;
    return this.steps.every((s, i) => stepsEqual(s, other.steps[i] as ModuleInstanceStep));
  }

  /** Shorter paths first, then by name and key at the first step that differs. */
  compare(other: ModuleInstance): number {
    if (this.steps.length !== other.steps.length) return this.steps.length - other.steps.length;
    for (let i = 0; i < this.steps.length; i++) {
      const a = this.steps[i] as ModuleInstanceStep;
      const b = other.steps[i] as ModuleInstanceStep;
      if (a.name !== b.name) return compareStrings(a.name, b.name);
      const k = compareInstanceKeys(a.key, b.key);
      if (k !== 0) return k;
    }
    return 0;
  }

  less(other: ModuleInstance): boolean {
    return this.compare(other) < 0;
  }

  child(name: string, key: InstanceKey = NoKey): ModuleInstance {
    return new ModuleInstance([...this.steps, { name, key }]);
  }

  /** The parent module instance; the root is its own parent. */
  parent(): ModuleInstance {
    return this.isRoot() ? this : new ModuleInstance(this.steps.slice(0, -1));
  }

  /** This instance and all its ancestors, root first. */
  ancestors(): ModuleInstance[] {
    const out: ModuleInstance[] = [];
    for (let i = 0; i <= this.steps.length; i++) out.push(new ModuleInstance(this.steps.slice(0, i)));
    return out;
  }

  /**
   * Whether this is a strict ancestor of `other`. A step without a key stands for every instance
   * of that call, so `module.a` is an ancestor of `module.a[0].module.b`.
   */
  isAncestor(other: ModuleInstance): boolean {
    if (this.steps.length >= other.steps.length) return false;
    return this.steps.every((s, i) => {
      const o = other.steps[i] as ModuleInstanceStep;
      return s.name === o.name && (s.key.kind === "NoKey" || instanceKeyEqual(s.key, o.key));
    });
  }

  /** The static module this is an instance of. */
  module(): Module {
    return new Module(this.steps.map((s) => s.name));
  }

  /** Whether `module()` of both would be equal, without building them. */
  hasSameModule(other: ModuleInstance): boolean {
    return this.steps.length === other.steps.length && this.steps.every((s, i) => s.name === (other.steps[i] as ModuleInstanceStep).name);
  }

  isForModule(m: Module): boolean {
    return this.steps.length === m.steps.length && this.steps.every((s, i) => s.name === m.steps[i]);
  }

  /** Whether this is one of the instances the given module call declares. */
  isDeclaredByCall(call: AbsModuleCall): boolean {
    return call.declares(this);
  }

  /** The calling module instance and the (unkeyed) call that created this one. */
  call(): { parent: ModuleInstance; call: ModuleCall } {
    const last = this.steps[this.steps.length - 1];
    if (!last) throw new Error("cannot produce ModuleCall for root module");
    return { parent: this.parent(), call: new ModuleCall(last.name) };
  }

  /** The calling module instance and the call instance (with this step's key). */
  callInstance(): { parent: ModuleInstance; call: ModuleCallInstance } {
    const last = this.steps[this.steps.length - 1];
    if (!last) throw new Error("cannot produce ModuleCallInstance for root module");
    return { parent: this.parent(), call: new ModuleCallInstance(new ModuleCall(last.name), last.key) };
  }
}

export const RootModuleInstance = new ModuleInstance([]);

/**
 * A leading module instance path (`module.a[0].module.b`) and the rest of the traversal, whose
 * first step is made a Root. Keys may be strings or whole numbers.
 */
export function parseModuleInstancePrefix(traversal: Traversal): { module: ModuleInstance; remain: Traversal; diagnostics: Diagnostic[] } {
  let remain = traversal;
  const steps: ModuleInstanceStep[] = [];
  const diagnostics: Diagnostic[] = [];
  while (remain.length > 0) {
    const step = moduleStepName(remain);
    diagnostics.push(...step.diagnostics);
    if (!step.isModule || hasErrors(diagnostics)) break;
    remain = remain.slice(2);
    let key: InstanceKey = NoKey;
    const idx = remain[0];
    if (idx && idx.kind === "Index") {
      remain = remain.slice(1);
      if (idx.key.type === "string" || idx.key.type === "number") {
        const k = instanceKeyFromLiteral(idx.key);
        if (k.error === undefined) key = k.key;
        else diagnostics.push(errorDiag("Invalid address operator", `Invalid module index: ${k.error}.`, idx.range));
      } else {
        diagnostics.push(errorDiag("Invalid address operator", "Invalid module key: must be either a string or an integer.", idx.range));
      }
    }
    steps.push({ name: step.name, key });
  }
  return { module: new ModuleInstance(steps), remain: asRootTraversal(remain), diagnostics };
}

/** A traversal that must be only a module instance path. */
export function parseModuleInstance(traversal: Traversal): AddrResult<ModuleInstance> {
  const { module, remain, diagnostics } = parseModuleInstancePrefix(traversal);
  if (remain.length > 0) {
    const detail =
      remain.length === traversal.length
        ? 'A module instance address must begin with "module.".'
        : "The module instance address is followed by additional invalid content.";
    diagnostics.push(errorDiag("Invalid module instance address", detail, traversalRange(remain)));
  }
  return { result: module, diagnostics };
}

/** parseModuleInstance on a string such as a `-target` argument. */
export function parseModuleInstanceStr(str: string): AddrResult<ModuleInstance> {
  const parsed = parseTraversalAbs(str);
  if (hasErrors(parsed.diagnostics)) return { result: undefined, diagnostics: parsed.diagnostics };
  const r = parseModuleInstance(parsed.traversal);
  return { result: r.result, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}

/** parseModuleInstanceStr for addresses the program itself writes; an invalid one is a bug. */
export function mustParseModuleInstanceStr(str: string): ModuleInstance {
  const r = parseModuleInstanceStr(str);
  if (r.result === undefined || hasErrors(r.diagnostics)) throw new Error(r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("; "));
  return r.result;
}
