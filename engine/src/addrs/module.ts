// Module: the static path through the module call tree (`module.a.module.b`), without instance
// keys. Configuration is organised by Module; ModuleInstance is the dynamic counterpart.
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { NoKey } from "./instancekey.js";
import { ModuleCall } from "./modulecall.js";
import { ModuleInstance } from "./moduleinstance.js";
import type { AddrResult } from "./result.js";
import { asRootTraversal, type Traversal } from "./traversal.js";

export class Module {
  readonly kind = "Module" as const;
  /** The call names from the root, outermost first. */
  readonly steps: readonly string[];

  constructor(steps: readonly string[]) {
    this.steps = steps;
  }

  isRoot(): boolean {
    return this.steps.length === 0;
  }

  /** `module.a.module.b`; the root module is "". */
  toString(): string {
    return this.steps.map((s) => `module.${s}`).join(".");
  }

  equal(other: Module): boolean {
    if (this.steps.length !== other.steps.length) return false;
    return this.steps.every((s, i) => s === other.steps[i]);
  }

  child(name: string): Module {
    return new Module([...this.steps, name]);
  }

  /** The parent module; the root is its own parent. */
  parent(): Module {
    return this.isRoot() ? this : new Module(this.steps.slice(0, -1));
  }

  /** The module that holds the call to this one, and that call. The root has no call. */
  call(): { parent: Module; call: ModuleCall } {
    const last = this.steps[this.steps.length - 1];
    if (last === undefined) throw new Error("cannot produce ModuleCall for root module");
    return { parent: this.parent(), call: new ModuleCall(last) };
  }

  /** This module and all its ancestors, root first. */
  ancestors(): Module[] {
    const out: Module[] = [];
    for (let i = 0; i <= this.steps.length; i++) out.push(new Module(this.steps.slice(0, i)));
    return out;
  }

  /** The same path as a ModuleInstance whose steps have no keys. */
  unkeyedInstanceShim(): ModuleInstance {
    return new ModuleInstance(this.steps.map((name) => ({ name, key: NoKey })));
  }
}

export const RootModule = new Module([]);

/**
 * If the traversal starts with `module.<name>`, that name (OpenTofu's getModuleName). A `module`
 * keyword not followed by `.name` is an error; anything else is simply not a module step.
 */
export function moduleStepName(remain: Traversal): { name: string; isModule: boolean; diagnostics: Diagnostic[] } {
  const first = remain[0];
  if (!first) return { name: "", isModule: false, diagnostics: [] };
  if (first.kind === "Index") {
    return {
      name: "",
      isModule: false,
      diagnostics: [errorDiag("Invalid address operator", "Module address prefix must be followed by dot and then a name.", first.range)],
    };
  }
  if (first.name !== "module") return { name: "", isModule: false, diagnostics: [] };
  const next = remain[1];
  if (!next || next.kind !== "Attr") {
    return {
      name: "",
      isModule: false,
      diagnostics: [errorDiag("Invalid address operator", 'Prefix "module." must be followed by a module name.', (next ?? first).range)],
    };
  }
  return { name: next.name, isModule: true, diagnostics: [] };
}

/** A leading `module.a.module.b` path with no instance keys, and the rest of the traversal. */
export function parseModulePrefix(traversal: Traversal): { module: Module; remain: Traversal; diagnostics: Diagnostic[] } {
  let remain = traversal;
  const steps: string[] = [];
  const diagnostics: Diagnostic[] = [];
  while (remain.length > 0) {
    const step = moduleStepName(remain);
    diagnostics.push(...step.diagnostics);
    if (!step.isModule || hasErrors(diagnostics)) break;
    remain = remain.slice(2);
    const next = remain[0];
    if (next && next.kind === "Index") {
      diagnostics.push(
        errorDiag(
          "Module instance address with keys is not allowed",
          'Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").',
          next.range,
        ),
      );
      return { module: new Module(steps), remain, diagnostics };
    }
    steps.push(step.name);
  }
  return { module: new Module(steps), remain: asRootTraversal(remain), diagnostics };
}

/** A traversal that must be only a module path (`module.a.module.b`). */
export function parseModule(traversal: Traversal): AddrResult<Module> {
  const { module, remain, diagnostics } = parseModulePrefix(traversal);
  const first = remain[0];
  if (!hasErrors(diagnostics) && first) {
    diagnostics.push(errorDiag("Module address expected", "It's not allowed to reference anything other than module here.", first.range));
  }
  return { result: module, diagnostics };
}
