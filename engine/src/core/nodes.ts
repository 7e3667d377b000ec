// The vertices of core's graphs (OpenTofu's graph node types), as one discriminated union. Each
// has a unique name, which is also its identity in the graph and what cycle errors print, in
// OpenTofu's spelling: `var.x`, `module.a.local.y`, `aws_instance.web (expand)`,
// `provider["registry.opentofu.org/hashicorp/aws"]`, `aws_instance.web[0] (destroy)`.
import type { AbsProviderConfig, AbsResource, AbsResourceInstance } from "../addrs/index.js";
import { modulePathString, resourceAddrString, type Provider, type Resource } from "../configs/index.js";
import type { ActionReason, ResourceInstanceChange } from "../plans/index.js";
import { assertNever } from "../values/index.js";

export type GraphNode =
  /** An input variable of a module (root variables come from the caller; others from the call). */
  | { readonly kind: "variable"; readonly module: readonly string[]; readonly name: string }
  /**
   * A variable's validation rules (OpenTofu's nodeVariableValidation; for a root variable, those
   * that refer to more than variables): after the variable and everything else its rules refer to
   * in the module, so a rule may compare it with another variable of the module without ordering
   * the variables themselves.
   */
  | { readonly kind: "variableValidation"; readonly module: readonly string[]; readonly name: string }
  | { readonly kind: "local"; readonly module: readonly string[]; readonly name: string }
  | { readonly kind: "output"; readonly module: readonly string[]; readonly name: string }
  /** A `module` block in `module`: evaluates its count/for_each into child module instances. */
  | { readonly kind: "moduleCall"; readonly module: readonly string[]; readonly name: string }
  /** A resource block: expands count/for_each, then (plan) plans each instance in a subgraph. */
  | { readonly kind: "resource"; readonly module: readonly string[]; readonly config: Resource }
  /** A resource in state whose block is gone: each of its instances is planned for deletion. */
  | { readonly kind: "orphanResource"; readonly addr: AbsResource; readonly provider: AbsProviderConfig }
  /** A provider configuration (every instance of it, for `for_each`). */
  | { readonly kind: "provider"; readonly addr: AbsProviderConfig; readonly config: Provider | undefined; readonly module: readonly string[] }
  /** Subgraph vertex of a resource node during plan. */
  | { readonly kind: "planInstance"; readonly addr: AbsResourceInstance; readonly config: Resource; readonly module: readonly string[] }
  /** Subgraph vertex: an instance in state that configuration no longer declares. */
  | { readonly kind: "planOrphan"; readonly addr: AbsResourceInstance; readonly reason: ActionReason; readonly provider: AbsProviderConfig }
  /** Apply: create, update or the create half of a replacement. */
  | { readonly kind: "applyInstance"; readonly change: ResourceInstanceChange; readonly config: Resource; readonly module: readonly string[] }
  /** Apply: delete, or the delete half of a replacement (of the current or a deposed object). */
  | { readonly kind: "destroyInstance"; readonly change: ResourceInstanceChange }
  /** Apply: drop an object from state without touching the remote object (a `removed` block). */
  | { readonly kind: "forgetInstance"; readonly change: ResourceInstanceChange }
  /** An `ephemeral` block's instances closed, after everything that uses them (nodeCloseableResource). */
  | { readonly kind: "ephemeralClose"; readonly module: readonly string[]; readonly config: Resource }
  /** A `check` block: its assertions, in every instance of its module. */
  | { readonly kind: "check"; readonly module: readonly string[]; readonly name: string };

function prefix(module: readonly string[]): string {
  return module.length === 0 ? "" : `${modulePathString(module)}.`;
}

/** The node's name: unique within a graph. */
export function nodeName(n: GraphNode): string {
  switch (n.kind) {
    case "variable":
      return `${prefix(n.module)}var.${n.name}`;
    case "variableValidation":
      return `${prefix(n.module)}var.${n.name} (validation)`;
    case "local":
      return `${prefix(n.module)}local.${n.name}`;
    case "output":
      return `${prefix(n.module)}output.${n.name}`;
    case "moduleCall":
      return `${prefix(n.module)}module.${n.name} (expand)`;
    case "resource":
      return `${prefix(n.module)}${resourceAddrString(n.config)} (expand)`;
    case "orphanResource":
      return `${n.addr.toString()} (orphan)`;
    case "provider":
      return n.addr.toString();
    case "planInstance":
      return n.addr.toString();
    case "planOrphan":
      return `${n.addr.toString()} (orphan)`;
    case "applyInstance":
      return n.change.addr.toString();
    case "destroyInstance":
      return n.change.deposedKey === ""
        ? `${n.change.addr.toString()} (destroy)`
        : `${n.change.addr.toString()} (destroy deposed ${n.change.deposedKey})`;
    case "forgetInstance":
      return n.change.deposedKey === ""
        ? `${n.change.addr.toString()} (forget)`
        : `${n.change.addr.toString()} (forget deposed ${n.change.deposedKey})`;
    case "check":
      return `${prefix(n.module)}check.${n.name}`;
    case "ephemeralClose":
      return `${prefix(n.module)}${resourceAddrString(n.config)} (close)`;
    default:
      return assertNever(n);
  }
}

/** The static module path the node's expressions are evaluated in, when it has one. */
export function nodeModule(n: GraphNode): readonly string[] | undefined {
  switch (n.kind) {
    case "variable":
    case "variableValidation":
    case "local":
    case "output":
    case "moduleCall":
    case "resource":
    case "provider":
    case "planInstance":
    case "applyInstance":
    case "check":
    case "ephemeralClose":
      return n.module;
    case "orphanResource":
    case "planOrphan":
    case "destroyInstance":
    case "forgetInstance":
      return undefined;
    default:
      return assertNever(n);
  }
}
