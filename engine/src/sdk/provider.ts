// What a provider author writes: a provider definition with its configuration schema and
// `configure`, plus resources, data sources, ephemeral resources and functions, each with a schema
// and handlers. Handlers receive values (`Value`) and their native views, and return native data
// or values; `ProviderServer` (server.ts) turns RPCs into handler calls.

import type { Path, Type, Value } from "../values/index.js";
import type { Diagnostic } from "./diagnostics.js";
import type { Native, NativeObject } from "./native.js";
import type { JSONValue, PrivateState } from "./private.js";
import type { Schema } from "./schema.js";

/** Handler results may be promises. */
export type MaybePromise<T> = T | Promise<T>;

/** A new state as a value, or as native data (attributes left out are taken from a base value). */
export type StateData = Value | NativeObject;

export interface ConfigureRequest {
  readonly config: Value;
  /** Native view of `config`. */
  readonly attrs: NativeObject;
  readonly terraformVersion: string;
}

export interface ConfigureResult<M> {
  /** Handed to every resource, data source and ephemeral resource handler as `meta`. */
  readonly meta?: M;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ValidateRequest {
  readonly config: Value;
  readonly attrs: NativeObject;
}

export interface ProviderDefinition<M = unknown> {
  /** The provider's type name ("sim"); resource type names start with it and an underscore. */
  readonly name: string;
  readonly schema: Schema;
  /** Schema of `provider_meta` blocks in modules, when the provider reads them. */
  readonly metaSchema?: Schema;
  readonly validate?: (req: ValidateRequest) => MaybePromise<readonly Diagnostic[] | void>;
  readonly configure?: (req: ConfigureRequest) => MaybePromise<ConfigureResult<M> | void>;
  /** StopProvider: Terraform was interrupted; cancel long operations. */
  readonly stop?: () => MaybePromise<void>;
  readonly resources?: Readonly<Record<string, ResourceDefinition<M>>>;
  readonly dataSources?: Readonly<Record<string, DataSourceDefinition<M>>>;
  readonly ephemeralResources?: Readonly<Record<string, EphemeralResourceDefinition<M>>>;
  readonly functions?: Readonly<Record<string, FunctionDefinition<M>>>;
  /**
   * Functions the provider offers once configured, made from what `configure` returned (a
   * provider whose functions its configuration defines). They are not in the schema: GetFunctions
   * lists them, and OpenTofu looks a function up there when the schema lacks it.
   */
  readonly configuredFunctions?: (meta: M) => Readonly<Record<string, FunctionDefinition<M>>>;
}

// ---------------------------------------------------------------------------------------------
// Managed resources

interface HandlerContext<M> {
  /** What `configure` returned; undefined before ConfigureProvider. */
  readonly meta: M | undefined;
  readonly typeName: string;
  /** Private state; changes made by the handler are sent back. */
  readonly private: PrivateState;
}

export interface CreateRequest<M> extends HandlerContext<M> {
  readonly planned: Value;
  readonly config: Value;
  /** Native view of `planned` (unknown attributes are `UNKNOWN`). */
  readonly attrs: NativeObject;
}

export interface UpdateRequest<M> extends CreateRequest<M> {
  readonly prior: Value;
  readonly priorAttrs: NativeObject;
}

export interface DeleteRequest<M> extends HandlerContext<M> {
  readonly prior: Value;
  readonly priorAttrs: NativeObject;
}

export interface ReadRequest<M> extends HandlerContext<M> {
  readonly state: Value;
  readonly attrs: NativeObject;
}

export interface ApplyResult {
  /** Native data is merged over the planned value (create/update) or current state (read). */
  readonly state?: StateData | null;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ReadResult {
  /** null: the object is gone (Terraform plans to create it again). */
  readonly state?: StateData | null;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface PlanRequest<M> extends HandlerContext<M> {
  /** Null when creating. */
  readonly prior: Value;
  readonly proposed: Value;
  readonly config: Value;
  /** The SDK's plan so far (defaults, unknown computed attributes, plan modifiers applied). */
  readonly planned: Value;
  readonly requiresReplace: readonly Path[];
}

export interface PlanResult {
  /** Replaces the planned value (native data is merged over the SDK's plan). */
  readonly planned?: StateData;
  /** Replaces the requires-replace paths when given. */
  readonly requiresReplace?: readonly Path[];
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ImportRequest<M> {
  /** "" when importing by resource identity. */
  readonly id: string;
  /** The resource identity to import by (an object of the type's identity schema), if given. */
  readonly identity?: Value;
  readonly meta: M | undefined;
  readonly typeName: string;
}

/** One attribute of a resource type's identity (tfplugin6 ResourceIdentitySchema). */
export interface IdentityAttribute {
  readonly type: Type;
  readonly requiredForImport?: boolean;
  readonly optionalForImport?: boolean;
  readonly description?: string;
}

/** How an object of a resource type is identified, for import blocks' `identity`. */
export interface IdentitySchema {
  readonly version?: number;
  readonly attributes: Readonly<Record<string, IdentityAttribute>>;
}

export interface ImportResult {
  /** The imported object; attributes left out are null. Terraform reads it next. */
  readonly state?: StateData;
  readonly private?: Readonly<Record<string, JSONValue>>;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface UpgradeRequest {
  /** The stored state decoded with `priorSchema` (when the upgrader declares one). */
  readonly state: Value | undefined;
  /** The stored state's JSON, parsed (undefined for flatmap states). */
  readonly rawState: unknown;
  readonly fromVersion: number;
}

export interface StateUpgrader {
  /** The schema the stored state was written with; given, `state` is decoded with it. */
  readonly priorSchema?: Schema;
  readonly upgrade: (req: UpgradeRequest) => MaybePromise<{ state: StateData; diagnostics?: readonly Diagnostic[] }>;
}

export interface MoveRequest {
  readonly sourceProviderAddress: string;
  readonly sourceTypeName: string;
  readonly sourceSchemaVersion: number;
  /** The source state's JSON, parsed. */
  readonly rawState: unknown;
  readonly rawStateJSON: string;
  readonly sourcePrivate: Uint8Array;
}

export interface ResourceDefinition<M = unknown> {
  readonly schema: Schema;
  readonly validate?: (req: ValidateRequest) => MaybePromise<readonly Diagnostic[] | void>;
  /**
   * Adjusts the SDK's plan (terraform-plugin-framework's ModifyPlan). Replace the SDK's plan
   * entirely with `plan` instead.
   */
  readonly modifyPlan?: (req: PlanRequest<M>) => MaybePromise<PlanResult | void>;
  /** Plans without the SDK's default steps (for mock providers that mimic other planners). */
  readonly plan?: (req: PlanRequest<M>) => MaybePromise<PlanResult>;
  readonly create: (req: CreateRequest<M>) => MaybePromise<ApplyResult | void>;
  /** Default: the state is unchanged. */
  readonly read?: (req: ReadRequest<M>) => MaybePromise<ReadResult | void>;
  /** Default: the planned value becomes the new state. */
  readonly update?: (req: UpdateRequest<M>) => MaybePromise<ApplyResult | void>;
  /** Default: nothing to do. */
  readonly delete?: (req: DeleteRequest<M>) => MaybePromise<{ diagnostics?: readonly Diagnostic[] } | void>;
  /** Without it, `terraform import` of this type fails with "Resource Import Not Implemented". */
  readonly importState?: (req: ImportRequest<M>) => MaybePromise<ImportResult>;
  /** Keyed by the stored schema version each one upgrades from (straight to the current one). */
  readonly stateUpgraders?: Readonly<Record<number, StateUpgrader>>;
  /** The resource identity schema (served by GetResourceIdentitySchemas). */
  readonly identity?: IdentitySchema;
  /** MoveResourceState (`moved` across resource types); return undefined when not applicable. */
  readonly moveState?: (req: MoveRequest) => MaybePromise<MoveResult | undefined>;
}

/**
 * What a moveState handler returns: normally `state`, encoded against the target type. `raw` is
 * an escape hatch for conformance mocks (OpenTofu's MockProvider answers with a value of the
 * *source* type, which the host must reject): the target state's JSON exactly as the handler
 * wrote it, sent as the DynamicValue's `json` without checking it against the schema. A real
 * provider has no use for it.
 */
export type MoveResult =
  | { readonly state: StateData; readonly diagnostics?: readonly Diagnostic[] }
  | { readonly raw: { readonly json: string }; readonly diagnostics?: readonly Diagnostic[] };

/** An import handler that sets one attribute (by default `id`) from the import ID. */
export function importPassthrough<M>(attribute = "id"): (req: ImportRequest<M>) => ImportResult {
  return (req) => ({ state: { [attribute]: req.id } });
}

// ---------------------------------------------------------------------------------------------
// Data sources, ephemeral resources, functions

export interface DataReadRequest<M> {
  readonly config: Value;
  readonly attrs: NativeObject;
  readonly meta: M | undefined;
  readonly typeName: string;
}

export interface DataSourceDefinition<M = unknown> {
  readonly schema: Schema;
  readonly validate?: (req: ValidateRequest) => MaybePromise<readonly Diagnostic[] | void>;
  /** Native data is merged over the configuration. */
  readonly read: (req: DataReadRequest<M>) => MaybePromise<{ state?: StateData; diagnostics?: readonly Diagnostic[] }>;
}

export interface EphemeralOpenResult {
  readonly result?: StateData;
  readonly private?: Readonly<Record<string, JSONValue>>;
  readonly renewAt?: Date;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface EphemeralResourceDefinition<M = unknown> {
  readonly schema: Schema;
  readonly validate?: (req: ValidateRequest) => MaybePromise<readonly Diagnostic[] | void>;
  readonly open: (req: DataReadRequest<M>) => MaybePromise<EphemeralOpenResult>;
  readonly renew?: (req: { private: PrivateState; meta: M | undefined }) => MaybePromise<{ renewAt?: Date; diagnostics?: readonly Diagnostic[] } | void>;
  readonly close?: (req: { private: PrivateState; meta: M | undefined }) => MaybePromise<{ diagnostics?: readonly Diagnostic[] } | void>;
}

export interface FunctionParameter {
  readonly name: string;
  readonly type: Type;
  readonly allowNull?: boolean;
  readonly allowUnknown?: boolean;
  readonly description?: string;
}

export interface FunctionDefinition<M = unknown> {
  readonly summary?: string;
  readonly description?: string;
  readonly deprecationMessage?: string;
  readonly parameters: readonly FunctionParameter[];
  readonly variadicParameter?: FunctionParameter;
  readonly returnType: Type;
  /**
   * Throw FunctionError to fail the call (optionally blaming one argument). `meta` is what
   * `configure` returned when the instance is configured (OpenTofu calls a module's own provider
   * configuration's functions on the configured instance), undefined otherwise.
   */
  readonly run: (args: readonly Value[], meta: M | undefined) => MaybePromise<Value | Native>;
}

/** A provider function's failure, optionally naming the argument (0-based) at fault. */
export class FunctionError extends Error {
  constructor(
    message: string,
    readonly argument?: number,
  ) {
    super(message);
  }
}

/** Identity helper that keeps the meta type flowing through nested definitions. */
export function defineProvider<M>(def: ProviderDefinition<M>): ProviderDefinition<M> {
  return def;
}
