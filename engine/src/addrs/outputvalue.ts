// Output values: `output "name"` blocks. OutputValue is the name inside its own module,
// AbsOutputValue places it in a module instance (`module.a[0].output.name`), ConfigOutputValue in
// a static module.
import { errorDiag, hasErrors } from "../hcl/index.js";
import { Module } from "./module.js";
import { ModuleCallInstanceOutput } from "./modulecall.js";
import { ModuleInstance, parseModuleInstancePrefix } from "./moduleinstance.js";
import type { AddrResult } from "./result.js";
import { parseTraversalAbs, traversalRange, traversalRootName, type Traversal } from "./traversal.js";

export class OutputValue {
  readonly kind = "OutputValue" as const;
  constructor(readonly name: string) {}

  toString(): string {
    return `output.${this.name}`;
  }

  equal(other: OutputValue): boolean {
    return this.name === other.name;
  }

  absolute(module: ModuleInstance): AbsOutputValue {
    return new AbsOutputValue(module, this);
  }

  inModule(module: Module): ConfigOutputValue {
    return new ConfigOutputValue(module, this);
  }
}

export class AbsOutputValue {
  readonly kind = "AbsOutputValue" as const;
  constructor(
    readonly module: ModuleInstance,
    readonly outputValue: OutputValue,
  ) {}

  toString(): string {
    return this.module.isRoot() ? this.outputValue.toString() : `${this.module.toString()}.${this.outputValue.toString()}`;
  }

  equal(other: AbsOutputValue): boolean {
    return this.outputValue.equal(other.outputValue) && this.module.equal(other.module);
  }

  configOutputValue(): ConfigOutputValue {
    return new ConfigOutputValue(this.module.module(), this.outputValue);
  }

  /** The same output seen from the calling module (`module.a[0].name`); not for root outputs. */
  moduleCallOutput(): { caller: ModuleInstance; output: ModuleCallInstanceOutput } {
    if (this.module.isRoot()) throw new Error("moduleCallOutput used with root module output");
    const { parent, call } = this.module.callInstance();
    return { caller: parent, output: new ModuleCallInstanceOutput(call, this.outputValue.name) };
  }
}

export class ConfigOutputValue {
  readonly kind = "ConfigOutputValue" as const;
  constructor(
    readonly module: Module,
    readonly outputValue: OutputValue,
  ) {}

  toString(): string {
    return this.module.isRoot() ? this.outputValue.toString() : `${this.module.toString()}.${this.outputValue.toString()}`;
  }

  equal(other: ConfigOutputValue): boolean {
    return this.outputValue.equal(other.outputValue) && this.module.equal(other.module);
  }
}

/** `[module path.]output.<name>`. */
export function parseAbsOutputValue(traversal: Traversal): AddrResult<AbsOutputValue> {
  const { module, remain, diagnostics } = parseModuleInstancePrefix(traversal);
  if (hasErrors(diagnostics)) return { result: undefined, diagnostics };
  if (remain.length !== 2) {
    diagnostics.push(errorDiag("Invalid address", "An output name is required.", traversalRange(traversal)));
    return { result: undefined, diagnostics };
  }
  if (traversalRootName(remain) !== "output") {
    diagnostics.push(errorDiag("Invalid address", 'Output address must start with "output.".', remain[0]?.range));
    return { result: undefined, diagnostics };
  }
  const nameStep = remain[1];
  if (!nameStep || nameStep.kind !== "Attr") {
    diagnostics.push(errorDiag("Invalid address", "An output name is required.", nameStep?.range));
    return { result: undefined, diagnostics };
  }
  return { result: new AbsOutputValue(module, new OutputValue(nameStep.name)), diagnostics };
}

export function parseAbsOutputValueStr(str: string): AddrResult<AbsOutputValue> {
  const parsed = parseTraversalAbs(str);
  if (hasErrors(parsed.diagnostics)) return { result: undefined, diagnostics: parsed.diagnostics };
  const r = parseAbsOutputValue(parsed.traversal);
  return { result: r.result, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}
