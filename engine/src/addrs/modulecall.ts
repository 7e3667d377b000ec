// Module calls: a `module "name"` block seen from the module that contains it. References like
// `module.a` and `module.a[0].out` are to calls and their outputs; AbsModuleCall places a call
// in a particular module instance.
import { instanceKeyEqual, instanceKeyString, NoKey, type InstanceKey } from "./instancekey.js";
import { ModuleInstance } from "./moduleinstance.js";
import { AbsOutputValue, OutputValue } from "./outputvalue.js";

export class ModuleCall {
  readonly kind = "ModuleCall" as const;
  constructor(readonly name: string) {}

  toString(): string {
    return `module.${this.name}`;
  }

  equal(other: ModuleCall): boolean {
    return this.name === other.name;
  }

  instance(key: InstanceKey): ModuleCallInstance {
    return new ModuleCallInstance(this, key);
  }

  absolute(module: ModuleInstance): AbsModuleCall {
    return new AbsModuleCall(module, this);
  }
}

/** One instance of a call (`module.a["x"]`); its absolute form is a ModuleInstance. */
export class ModuleCallInstance {
  readonly kind = "ModuleCallInstance" as const;
  constructor(
    readonly call: ModuleCall,
    readonly key: InstanceKey = NoKey,
  ) {}

  toString(): string {
    return `module.${this.call.name}${instanceKeyString(this.key)}`;
  }

  equal(other: ModuleCallInstance): boolean {
    return this.call.equal(other.call) && instanceKeyEqual(this.key, other.key);
  }

  /** The module instance this call instance creates when called from `caller`. */
  moduleInstance(caller: ModuleInstance): ModuleInstance {
    return caller.child(this.call.name, this.key);
  }

  output(name: string): ModuleCallInstanceOutput {
    return new ModuleCallInstanceOutput(this, name);
  }
}

/** An output of a call that may have many instances (`module.a.out` when `a` uses for_each). */
export class ModuleCallOutput {
  readonly kind = "ModuleCallOutput" as const;
  constructor(
    readonly call: ModuleCall,
    readonly name: string,
  ) {}

  toString(): string {
    return `${this.call.toString()}.${this.name}`;
  }

  equal(other: ModuleCallOutput): boolean {
    return this.call.equal(other.call) && this.name === other.name;
  }
}

/** An output of one call instance (`module.a["x"].out`). */
export class ModuleCallInstanceOutput {
  readonly kind = "ModuleCallInstanceOutput" as const;
  constructor(
    readonly call: ModuleCallInstance,
    readonly name: string,
  ) {}

  toString(): string {
    return `${this.call.toString()}.${this.name}`;
  }

  equal(other: ModuleCallInstanceOutput): boolean {
    return this.call.equal(other.call) && this.name === other.name;
  }

  moduleCallOutput(): ModuleCallOutput {
    return new ModuleCallOutput(this.call.call, this.name);
  }

  /** The output value this refers to, resolved from the calling module instance. */
  absOutputValue(caller: ModuleInstance): AbsOutputValue {
    return new AbsOutputValue(this.call.moduleInstance(caller), new OutputValue(this.name));
  }
}

/** A `module` block within a particular module instance, standing for all its instances. */
export class AbsModuleCall {
  readonly kind = "AbsModuleCall" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly call: ModuleCall,
  ) {}

  toString(): string {
    return this.module.isRoot() ? `module.${this.call.name}` : `${this.module.toString()}.module.${this.call.name}`;
  }

  equal(other: AbsModuleCall): boolean {
    return this.module.equal(other.module) && this.call.equal(other.call);
  }

  instance(key: InstanceKey): ModuleInstance {
    return this.module.child(this.call.name, key);
  }

  /** Whether `inst` is one of the module instances this call declares. */
  declares(inst: ModuleInstance): boolean {
    const last = inst.steps[inst.steps.length - 1];
    if (!last || inst.steps.length !== this.module.steps.length + 1) return false;
    return inst.parent().equal(this.module) && last.name === this.call.name;
  }
}
