// Changes (OpenTofu's plans.Changes, ResourceInstanceChange, OutputChange). Values are decoded
// cty-like values carrying their marks; OpenTofu's "Src" forms (msgpack bytes plus mark paths)
// exist only inside the saved plan file (planfile.ts).
import {
  AbsProviderConfig,
  NoKey,
  instanceKeyEqual,
  type AbsOutputValue,
  type AbsResourceInstance,
  type InstanceKey,
} from "../addrs/index.js";
import { NotDeposed, type DeposedKey } from "../states/model.js";
import type { Path, Value } from "../values/index.js";
import type { Action, ActionReason } from "./action.js";

/** Import metadata: the change also imports an existing remote object. */
export interface Importing {
  /** The ID given in the `import` block ("" when imported by identity). */
  id: string;
  /** The resource identity given in the `import` block instead of an ID. */
  identity?: Value;
}

/** Before and after values of one object, with marks (sensitive values are marked). */
export interface Change {
  action: Action;
  /** The prior value; a null of the schema type when there was none (create). */
  before: Value;
  /** The planned value, possibly with unknowns; a null when the object goes away. */
  after: Value;
  importing?: Importing;
  /** HCL generated for an import without configuration (`-generate-config-out`). */
  generatedConfig: string;
}

export interface ResourceInstanceChange {
  addr: AbsResourceInstance;
  /** Where the object was in the previous run's state (differs when a `moved` block applies). */
  prevRunAddr: AbsResourceInstance;
  /** NotDeposed for the current object, else the deposed object's key. */
  deposedKey: DeposedKey;
  /** The provider configuration that plans this change … */
  providerAddr: AbsProviderConfig;
  /** … and which of its instances (provider `for_each`). */
  providerKey: InstanceKey;
  change: Change;
  actionReason: ActionReason;
  /** Paths into the value whose change forced a replacement. */
  requiredReplace: Path[];
  /** Opaque provider data carried to apply. */
  private?: Uint8Array;
}

export interface OutputChange {
  addr: AbsOutputValue;
  /** True when the output is, or was, sensitive. */
  sensitive: boolean;
  change: Change;
}

export interface Changes {
  resources: ResourceInstanceChange[];
  outputs: OutputChange[];
}

export function emptyChanges(): Changes {
  return { resources: [], outputs: [] };
}

/** A NoOp that neither moves nor imports: nothing any rendering of the plan shows for it. */
export function isQuietNoOp(r: ResourceInstanceChange): boolean {
  return r.change.action === "NoOp" && r.change.importing === undefined && r.addr.equal(r.prevRunAddr);
}

/** Changes.Empty: no resource or output change other than NoOp (Read of data sources counts). */
export function changesEmpty(c: Changes): boolean {
  for (const r of c.resources) if (!isQuietNoOp(r)) return false;
  for (const o of c.outputs) if (o.change.action !== "NoOp") return false;
  return true;
}

/** The change for an instance's current object (or a deposed one). */
export function resourceInstanceChange(c: Changes, addr: AbsResourceInstance, deposedKey: DeposedKey = NotDeposed): ResourceInstanceChange | undefined {
  return c.resources.find((r) => r.addr.equal(addr) && r.deposedKey === deposedKey);
}

export function outputChange(c: Changes, addr: AbsOutputValue): OutputChange | undefined {
  return c.outputs.find((o) => o.addr.equal(addr));
}

/** A ResourceInstanceChange with defaults for the fields most callers leave alone. */
export function newResourceInstanceChange(
  init: Pick<ResourceInstanceChange, "addr" | "providerAddr" | "change"> & Partial<ResourceInstanceChange>,
): ResourceInstanceChange {
  return {
    prevRunAddr: init.addr,
    deposedKey: NotDeposed,
    providerKey: NoKey,
    actionReason: "None",
    requiredReplace: [],
    ...init,
  };
}

/** The provider instance address as the state writer prints it (`provider["…"].alias["key"]`). */
export function providerInstanceString(rc: ResourceInstanceChange): string {
  return instanceKeyEqual(rc.providerKey, NoKey) ? rc.providerAddr.toString() : rc.providerAddr.instanceString(rc.providerKey);
}
