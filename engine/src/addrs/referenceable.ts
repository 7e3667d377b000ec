// The simple things an expression can refer to by name: `var.x`, `local.x`, `count.index`,
// `each.key`, `path.module`, `terraform.workspace` / `tofu.workspace`, `self`, and provider
// functions (`provider::aws::arn_parse`). Resources, module calls and outputs have files of
// their own.
import { goQuote } from "../values/index.js";
import type { ModuleCall, ModuleCallInstance, ModuleCallInstanceOutput, ModuleCallOutput } from "./modulecall.js";
import { ModuleInstance } from "./moduleinstance.js";
import type { OutputValue } from "./outputvalue.js";
import type { Resource, ResourceInstance } from "./resource.js";

export class InputVariable {
  readonly kind = "InputVariable" as const;
  constructor(readonly name: string) {}
  toString(): string {
    return `var.${this.name}`;
  }
  equal(other: InputVariable): boolean {
    return this.name === other.name;
  }
  absolute(module: ModuleInstance): AbsInputVariableInstance {
    return new AbsInputVariableInstance(module, this);
  }
}

/** A variable of one module instance: what a module call's argument sets. */
export class AbsInputVariableInstance {
  readonly kind = "AbsInputVariableInstance" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly variable: InputVariable,
  ) {}
  toString(): string {
    return this.module.isRoot() ? this.variable.toString() : `${this.module.toString()}.${this.variable.toString()}`;
  }
  equal(other: AbsInputVariableInstance): boolean {
    return this.module.equal(other.module) && this.variable.equal(other.variable);
  }
}

export class LocalValue {
  readonly kind = "LocalValue" as const;
  constructor(readonly name: string) {}
  toString(): string {
    return `local.${this.name}`;
  }
  equal(other: LocalValue): boolean {
    return this.name === other.name;
  }
  absolute(module: ModuleInstance): AbsLocalValue {
    return new AbsLocalValue(module, this);
  }
}

export class AbsLocalValue {
  readonly kind = "AbsLocalValue" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly localValue: LocalValue,
  ) {}
  toString(): string {
    return this.module.isRoot() ? this.localValue.toString() : `${this.module.toString()}.${this.localValue.toString()}`;
  }
  equal(other: AbsLocalValue): boolean {
    return this.module.equal(other.module) && this.localValue.equal(other.localValue);
  }
}

/** `count.<name>`; only `count.index` is meaningful, which the evaluator checks. */
export class CountAttr {
  readonly kind = "CountAttr" as const;
  constructor(readonly name: string) {}
  toString(): string {
    return `count.${this.name}`;
  }
  equal(other: CountAttr): boolean {
    return this.name === other.name;
  }
}

/** `each.<name>`: `each.key` or `each.value`. */
export class ForEachAttr {
  readonly kind = "ForEachAttr" as const;
  constructor(readonly name: string) {}
  toString(): string {
    return `each.${this.name}`;
  }
  equal(other: ForEachAttr): boolean {
    return this.name === other.name;
  }
}

/** `path.module`, `path.root`, `path.cwd`. */
export class PathAttr {
  readonly kind = "PathAttr" as const;
  constructor(readonly name: string) {}
  toString(): string {
    return `path.${this.name}`;
  }
  equal(other: PathAttr): boolean {
    return this.name === other.name;
  }
}

export const IdentTerraform = "terraform";
export const IdentTofu = "tofu";

/** `terraform.<name>` or its alias `tofu.<name>`; the alias is kept for printing. */
export class TerraformAttr {
  readonly kind = "TerraformAttr" as const;
  constructor(
    readonly name: string,
    readonly alias: typeof IdentTerraform | typeof IdentTofu = IdentTerraform,
  ) {}
  toString(): string {
    return `${this.alias}.${this.name}`;
  }
  equal(other: TerraformAttr): boolean {
    return this.name === other.name && this.alias === other.alias;
  }
}

/** `self`, inside provisioner and connection blocks and postconditions. */
export class SelfAddr {
  readonly kind = "Self" as const;
  toString(): string {
    return "self";
  }
  equal(other: SelfAddr): boolean {
    return other.kind === "Self";
  }
}

export const Self = new SelfAddr();

/** A function a provider offers: `provider::<name>[::<alias>]::<function>`. */
export class ProviderFunction {
  readonly kind = "ProviderFunction" as const;
  constructor(
    readonly providerName: string,
    readonly functionName: string,
    readonly providerAlias = "",
  ) {}
  toString(): string {
    return this.providerAlias !== ""
      ? `provider::${this.providerName}::${this.providerAlias}::${this.functionName}`
      : `provider::${this.providerName}::${this.functionName}`;
  }
  equal(other: ProviderFunction): boolean {
    return this.providerName === other.providerName && this.providerAlias === other.providerAlias && this.functionName === other.functionName;
  }
}

export const FunctionNamespaceProvider = "provider";
export const FunctionNamespaceCore = "core";

/** A function name split at `::` (OpenTofu's addrs.Function). */
export class FunctionName {
  constructor(
    readonly namespaces: readonly string[],
    readonly name: string,
  ) {}
  toString(): string {
    return [...this.namespaces, this.name].join("::");
  }
  isNamespace(ns: string): boolean {
    return this.namespaces[0] === ns;
  }
  /** The same name with the implied `core::` namespace filled in when it has none. */
  fullyQualified(): FunctionName {
    return this.namespaces.length > 0 ? this : new FunctionName([FunctionNamespaceCore], this.name);
  }
  /** `provider::name::fn` or `provider::name::alias::fn`; other shapes are an error. */
  asProviderFunction(): { fn: ProviderFunction; error?: undefined } | { fn?: undefined; error: string } {
    if (!this.isNamespace(FunctionNamespaceProvider)) throw new Error(`BUG: non-provider function ${this.toString()}`);
    const [, name, alias] = this.namespaces;
    if (this.namespaces.length === 2 && name !== undefined) return { fn: new ProviderFunction(name, this.name) };
    if (this.namespaces.length === 3 && name !== undefined && alias !== undefined) return { fn: new ProviderFunction(name, this.name, alias) };
    return {
      error: `invalid provider function ${goQuote(this.toString())}: expected provider::<name>::<function> or provider::<name>::<alias>::<function>`,
    };
  }
}

export function parseFunction(input: string): FunctionName {
  const parts = input.split("::");
  return new FunctionName(parts.slice(0, -1), parts[parts.length - 1] as string);
}

/** Everything a reference in an expression can resolve to (OpenTofu's Referenceable). */
export type Referenceable =
  | InputVariable
  | LocalValue
  | CountAttr
  | ForEachAttr
  | PathAttr
  | TerraformAttr
  | SelfAddr
  | ProviderFunction
  | Resource
  | ResourceInstance
  | ModuleCall
  | ModuleCallInstance
  | ModuleCallOutput
  | ModuleCallInstanceOutput
  | OutputValue;
