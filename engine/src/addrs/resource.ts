// Resources: a `resource`, `data` or `ephemeral` block (Resource, `aws_instance.web`), one of its
// instances (ResourceInstance, `aws_instance.web[0]`), and both placed in a module instance
// (AbsResource, AbsResourceInstance) or a static module (ConfigResource).
import { compareStrings } from "../values/index.js";
import { NoKey, compareInstanceKeys, instanceKeyEqual, instanceKeyString, type InstanceKey } from "./instancekey.js";
import { Module } from "./module.js";
import { ModuleInstance } from "./moduleinstance.js";
import { impliedProviderLocalName } from "./providerlocalname.js";

/** Which lifecycle a resource follows, from the block that declares it. */
export type ResourceMode = "managed" | "data" | "ephemeral";
export const ManagedResourceMode: ResourceMode = "managed";
export const DataResourceMode: ResourceMode = "data";
export const EphemeralResourceMode: ResourceMode = "ephemeral";

/** OpenTofu's order of modes: ephemeral, then data, then managed. */
const MODE_RANK: Record<ResourceMode, number> = { ephemeral: 0, data: 1, managed: 2 };

export function compareResourceModes(a: ResourceMode, b: ResourceMode): number {
  return MODE_RANK[a] - MODE_RANK[b];
}

export function resourceModeLess(a: ResourceMode, b: ResourceMode): boolean {
  return compareResourceModes(a, b) < 0;
}

/** The block type that declares resources of a mode. */
export function resourceModeBlockName(mode: ResourceMode): string {
  switch (mode) {
    case "managed":
      return "resource";
    case "data":
      return "data";
    case "ephemeral":
      return "ephemeral";
  }
}

/** The address prefix of a mode: nothing for managed resources, `data.`, `ephemeral.`. */
function modePrefix(mode: ResourceMode): string {
  return mode === "managed" ? "" : `${mode}.`;
}

export class Resource {
  readonly kind = "Resource" as const;
  constructor(
    readonly mode: ResourceMode,
    readonly type: string,
    readonly name: string,
  ) {}

  /** `aws_instance.web`, `data.aws_ami.ubuntu`, `ephemeral.random_password.db`. */
  toString(): string {
    return `${modePrefix(this.mode)}${this.type}.${this.name}`;
  }

  equal(other: Resource): boolean {
    return this.mode === other.mode && this.type === other.type && this.name === other.name;
  }

  /** By mode, then type, then name. */
  compare(other: Resource): number {
    return compareResourceModes(this.mode, other.mode) || compareStrings(this.type, other.type) || compareStrings(this.name, other.name);
  }

  less(other: Resource): boolean {
    return this.compare(other) < 0;
  }

  instance(key: InstanceKey): ResourceInstance {
    return new ResourceInstance(this, key);
  }

  absolute(module: ModuleInstance): AbsResource {
    return new AbsResource(module, this);
  }

  inModule(module: Module): ConfigResource {
    return new ConfigResource(module, this);
  }

  /** The provider local name the type implies: `aws` for `aws_instance`. */
  impliedProvider(): string {
    return impliedProviderLocalName(this.type);
  }
}

export class ResourceInstance {
  readonly kind = "ResourceInstance" as const;
  constructor(
    readonly resource: Resource,
    readonly key: InstanceKey = NoKey,
  ) {}

  toString(): string {
    return this.resource.toString() + instanceKeyString(this.key);
  }

  containingResource(): Resource {
    return this.resource;
  }

  equal(other: ResourceInstance): boolean {
    return instanceKeyEqual(this.key, other.key) && this.resource.equal(other.resource);
  }

  compare(other: ResourceInstance): number {
    return this.resource.compare(other.resource) || compareInstanceKeys(this.key, other.key);
  }

  less(other: ResourceInstance): boolean {
    return this.compare(other) < 0;
  }

  absolute(module: ModuleInstance): AbsResourceInstance {
    return new AbsResourceInstance(module, this);
  }
}

function withModule(module: { isRoot(): boolean; toString(): string }, rest: string): string {
  return module.isRoot() ? rest : `${module.toString()}.${rest}`;
}

/** A resource block within a module instance, standing for all its instances. */
export class AbsResource {
  readonly kind = "AbsResource" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly resource: Resource,
  ) {}

  toString(): string {
    return withModule(this.module, this.resource.toString());
  }

  instance(key: InstanceKey): AbsResourceInstance {
    return new AbsResourceInstance(this.module, this.resource.instance(key));
  }

  config(): ConfigResource {
    return new ConfigResource(this.module.module(), this.resource);
  }

  equal(other: AbsResource): boolean {
    return this.module.equal(other.module) && this.resource.equal(other.resource);
  }

  compare(other: AbsResource): number {
    return this.module.compare(other.module) || this.resource.compare(other.resource);
  }

  less(other: AbsResource): boolean {
    return this.compare(other) < 0;
  }
}

export class AbsResourceInstance {
  readonly kind = "AbsResourceInstance" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly resource: ResourceInstance,
  ) {}

  /** `module.a["k"].aws_instance.web[0]`. */
  toString(): string {
    return withModule(this.module, this.resource.toString());
  }

  containingResource(): AbsResource {
    return new AbsResource(this.module, this.resource.resource);
  }

  configResource(): ConfigResource {
    return new ConfigResource(this.module.module(), this.resource.resource);
  }

  equal(other: AbsResourceInstance): boolean {
    return this.module.equal(other.module) && this.resource.equal(other.resource);
  }

  /** By module instance, then resource, then key: the order plans and state list instances in. */
  compare(other: AbsResourceInstance): number {
    return this.module.compare(other.module) || this.resource.compare(other.resource);
  }

  less(other: AbsResourceInstance): boolean {
    return this.compare(other) < 0;
  }
}

/** A resource block in the static module tree (before expansion). */
export class ConfigResource {
  readonly kind = "ConfigResource" as const;
  constructor(
    readonly module: Module,
    readonly resource: Resource,
  ) {}

  toString(): string {
    return withModule(this.module, this.resource.toString());
  }

  absolute(module: ModuleInstance): AbsResource {
    return new AbsResource(module, this.resource);
  }

  equal(other: ConfigResource): boolean {
    return this.module.equal(other.module) && this.resource.equal(other.resource);
  }
}

/** A resource instance in a module instance, by parts. */
export function resourceInstanceIn(module: ModuleInstance, mode: ResourceMode, type: string, name: string, key: InstanceKey = NoKey): AbsResourceInstance {
  return new AbsResourceInstance(module, new ResourceInstance(new Resource(mode, type, name), key));
}
