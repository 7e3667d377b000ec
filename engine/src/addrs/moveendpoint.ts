// Move endpoints: the `from` and `to` of a `moved` block. Each is an address relative to the
// module that declares the block, either a module instance path or a resource instance below it;
// unifying a pair decides whether they mean whole objects (a module call, a resource) or single
// instances, and places them in the declaring module (MoveEndpointInModule).
import { errorDiag, hasErrors, type Diagnostic, type Range } from "../hcl/index.js";
import { Module, RootModule } from "./module.js";
import { AbsModuleCall } from "./modulecall.js";
import { parseModuleInstancePrefix, type ModuleInstance } from "./moduleinstance.js";
import { MoveEndpointInModule, absMoveableEndpointKind, type MoveEndpointKind } from "./moveendpointmodule.js";
import { parseResourceInstanceUnderModule } from "./parsetarget.js";
import { AbsResourceInstance, ConfigResource } from "./resource.js";
import type { AddrResult } from "./result.js";
import { traversalRange, type Traversal } from "./traversal.js";

/** What a static move endpoint can resolve to in the configuration. */
export type ConfigMoveable = Module | ConfigResource;

/** The address types unification can produce (OpenTofu borrows TargetableAddrType for these). */
type UnifiedType = "AbsResourceInstance" | "AbsResource" | "ModuleInstance" | "AbsModuleCall";

export class MoveEndpoint {
  constructor(
    /**
     * Relative to the declaring module, despite the absolute-looking types: always a
     * ModuleInstance or an AbsResourceInstance, as parsed.
     */
    readonly relSubject: ModuleInstance | AbsResourceInstance,
    readonly sourceRange: Range | undefined,
  ) {}

  objectKind(): MoveEndpointKind {
    return absMoveableEndpointKind(this.relSubject);
  }

  toString(): string {
    return this.relSubject.toString();
  }

  /** Same address written at the same place. */
  equal(other: MoveEndpoint): boolean {
    const a = this.sourceRange;
    const b = other.sourceRange;
    const sameRange = a === b || (a !== undefined && b !== undefined && a.filename === b.filename && a.start.byte === b.start.byte && a.end.byte === b.end.byte);
    return this.toString() === other.toString() && sameRange;
  }

  /** Whether unifyMoveEndpoints could succeed for this pair (only the relative parts matter). */
  mightUnifyWith(other: MoveEndpoint): boolean {
    return unifyMoveEndpoints(RootModule, this, other) !== undefined;
  }

  /** The configuration object this endpoint names, resolved from the declaring module. */
  configMoveable(baseModule: Module): ConfigMoveable {
    const rel = this.relSubject;
    if (rel.kind === "ModuleInstance") return new Module([...baseModule.steps, ...rel.module().steps]);
    return new ConfigResource(new Module([...baseModule.steps, ...rel.module.module().steps]), rel.resource.resource);
  }

  /** Ephemeral resources have nothing in state to move. */
  subjectAllowed(): boolean {
    return this.relSubject.kind !== "AbsResourceInstance" || this.relSubject.resource.resource.mode !== "ephemeral";
  }

  /** Which address type this endpoint alone suggests: whole objects when it has no final key. */
  internalAddrType(): UnifiedType {
    const rel = this.relSubject;
    if (rel.kind === "ModuleInstance") {
      const last = rel.steps[rel.steps.length - 1];
      return last && last.key.kind === "NoKey" ? "AbsModuleCall" : "ModuleInstance";
    }
    return rel.resource.key.kind === "NoKey" ? "AbsResource" : "AbsResourceInstance";
  }

  prepareMoveEndpointInModule(module: Module, want: UnifiedType): MoveEndpointInModule | undefined {
    const rel = this.relSubject;
    if (rel.kind === "ModuleInstance") {
      if (want === "ModuleInstance") return new MoveEndpointInModule(module, rel, this.sourceRange);
      if (want === "AbsModuleCall") {
        const { parent, call } = rel.call();
        return new MoveEndpointInModule(module, new AbsModuleCall(parent, call), this.sourceRange);
      }
      return undefined;
    }
    if (want === "AbsResourceInstance") return new MoveEndpointInModule(module, rel, this.sourceRange);
    if (want === "AbsResource") return new MoveEndpointInModule(module, rel.containingResource(), this.sourceRange);
    return undefined;
  }
}

/**
 * A `moved` endpoint: `[module.<name>[<key>]]*` optionally followed by a resource and key.
 */
export function parseMoveEndpoint(traversal: Traversal): AddrResult<MoveEndpoint> {
  const prefix = parseModuleInstancePrefix(traversal);
  if (hasErrors(prefix.diagnostics)) return { result: undefined, diagnostics: prefix.diagnostics };
  const rng = traversalRange(traversal);
  if (prefix.remain.length === 0) return { result: new MoveEndpoint(prefix.module, rng), diagnostics: prefix.diagnostics };
  const ri = parseResourceInstanceUnderModule(prefix.module, prefix.remain);
  const diagnostics = [...prefix.diagnostics, ...ri.diagnostics];
  if (!ri.result || hasErrors(diagnostics)) return { result: undefined, diagnostics };
  return { result: new MoveEndpoint(ri.result, rng), diagnostics };
}

/**
 * Resolves a `from`/`to` pair to endpoints of the same type in the declaring module: whole
 * objects when both sides are keyless, instances otherwise (so `a -> a[0]` moves into an
 * instance). Undefined when one side is a module and the other a resource.
 */
export function unifyMoveEndpoints(module: Module, from: MoveEndpoint, to: MoveEndpoint): { from: MoveEndpointInModule; to: MoveEndpointInModule } | undefined {
  const f = from.internalAddrType();
  const t = to.internalAddrType();
  let want: UnifiedType;
  if (f === "AbsResourceInstance" || t === "AbsResourceInstance") want = "AbsResourceInstance";
  else if (f === "AbsResource" || t === "AbsResource") want = "AbsResource";
  else if (f === "ModuleInstance" || t === "ModuleInstance") want = "ModuleInstance";
  else want = "AbsModuleCall";
  const modFrom = from.prepareMoveEndpointInModule(module, want);
  const modTo = to.prepareMoveEndpointInModule(module, want);
  if (!modFrom || !modTo) return undefined;
  return { from: modFrom, to: modTo };
}

/**
 * The checks OpenTofu makes on a decoded `moved` block's endpoints (configs' decodeMovedBlock).
 * An endpoint that failed to parse is passed as undefined; `earlierErrors` says whether decoding
 * the block has reported errors already (the type-compatibility check only runs when not).
 */
export function checkMovedBlockEndpoints(
  from: MoveEndpoint | undefined,
  to: MoveEndpoint | undefined,
  declRange: Range | undefined,
  earlierErrors: boolean,
): Diagnostic[] {
  const diags: Diagnostic[] = [];
  // As in OpenTofu, an endpoint that failed to parse also counts as not allowed.
  if (!from || !from.subjectAllowed()) {
    diags.push(errorDiag('Invalid "moved" address', 'The resource referenced by the "from" attribute is not allowed to be moved.', declRange));
  }
  if (!to || !to.subjectAllowed()) {
    diags.push(errorDiag('Invalid "moved" address', 'The resource referenced by the "to" attribute is not allowed to be moved.', declRange));
  }
  if (!earlierErrors && diags.length === 0 && from && to && !from.mightUnifyWith(to)) {
    diags.push(
      errorDiag('Invalid "moved" addresses', 'The "from" and "to" addresses must either both refer to resources or both refer to modules.', declRange),
    );
  }
  return diags;
}
