// The `from` of a `removed` block: a module or a resource relative to the declaring module, with
// no instance keys (a removed block forgets or destroys every instance). Data sources and
// ephemeral resources have nothing to remove from state, so they are rejected here.
import { errorDiag, hasErrors, type Range } from "../hcl/index.js";
import { Module, parseModulePrefix } from "./module.js";
import { parseResourceUnderModule } from "./parsetarget.js";
import type { ConfigResource } from "./resource.js";
import type { AddrResult } from "./result.js";
import { traversalRange, type Traversal } from "./traversal.js";

/** What a removed block can name (OpenTofu's ConfigRemovable). */
export type ConfigRemovable = Module | ConfigResource;

export class RemoveEndpoint {
  constructor(
    /** Relative to the module that declares the removed block. */
    readonly relSubject: ConfigRemovable,
    readonly sourceRange: Range | undefined,
  ) {}

  toString(): string {
    return this.relSubject.toString();
  }

  equal(other: RemoveEndpoint): boolean {
    const a = this.sourceRange;
    const b = other.sourceRange;
    const sameRange = a === b || (a !== undefined && b !== undefined && a.filename === b.filename && a.start.byte === b.start.byte && a.end.byte === b.end.byte);
    return this.toString() === other.toString() && sameRange;
  }
}

export function parseRemoveEndpoint(traversal: Traversal): AddrResult<RemoveEndpoint> {
  const prefix = parseModulePrefix(traversal);
  if (hasErrors(prefix.diagnostics)) return { result: undefined, diagnostics: prefix.diagnostics };
  const rng = traversalRange(traversal);
  if (prefix.remain.length === 0) return { result: new RemoveEndpoint(prefix.module, rng), diagnostics: prefix.diagnostics };
  const r = parseResourceUnderModule(prefix.module, prefix.remain);
  const diagnostics = [...prefix.diagnostics, ...r.diagnostics];
  if (!r.result || hasErrors(diagnostics)) return { result: undefined, diagnostics };
  switch (r.result.resource.mode) {
    case "data":
      diagnostics.push(
        errorDiag(
          "Data source address is not allowed",
          "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
          rng,
        ),
      );
      return { result: undefined, diagnostics };
    case "ephemeral":
      diagnostics.push(
        errorDiag(
          "Ephemeral resource address is not allowed",
          "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.",
          rng,
        ),
      );
      return { result: undefined, diagnostics };
    case "managed":
      return { result: new RemoveEndpoint(r.result, rng), diagnostics };
  }
}
