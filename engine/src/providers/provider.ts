// The provider interface the core talks to (OpenTofu's providers.Interface), in terms of our
// Values and diagnostics. Implemented by the protocol 5/6 plugin clients (providers/plugin) and by
// in-process providers such as the builtin `terraform` provider (providers/builtin). Requests and
// responses carry values typed by the relevant schema's implied type; implementations encode and
// decode at their own boundary. Calls never throw for provider misbehaviour: problems come back as
// error diagnostics, including a crashed or unreachable plugin.

import type { Diagnostic } from "../hcl/index.js";
import type { Path, Value } from "../values/index.js";
import type { FunctionDecl, Schema } from "./schema/index.js";

/**
 * A diagnostic from a provider. `attribute` is the path inside the configuration or object the
 * problem is about, when the provider named one; the caller maps it to a source range.
 */
export type ProviderDiagnostic = Diagnostic & { attribute?: Path };

/** What the provider says it supports beyond the protocol's baseline. */
export interface ServerCapabilities {
  /** Wants PlanResourceChange for destroys too (otherwise the caller plans null itself). */
  readonly planDestroy: boolean;
  /** A cached schema may be used instead of calling GetProviderSchema again. */
  readonly getProviderSchemaOptional: boolean;
  /** Implements MoveResourceState. */
  readonly moveResourceState: boolean;
}

/** What the engine tells the provider it supports (OpenTofu sends exactly these). */
export interface ClientCapabilities {
  readonly deferralAllowed: boolean;
  readonly writeOnlyAttributesAllowed: boolean;
}

export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = Object.freeze({
  deferralAllowed: false,
  writeOnlyAttributesAllowed: true,
});

export type DeferredReason = "unknown" | "resource_config_unknown" | "provider_config_unknown" | "absent_prereq";

export interface Deferred {
  readonly reason: DeferredReason;
}

export interface GetProviderSchemaResponse {
  readonly provider: Schema;
  readonly providerMeta: Schema;
  readonly resourceTypes: ReadonlyMap<string, Schema>;
  readonly dataSources: ReadonlyMap<string, Schema>;
  readonly ephemeralResources: ReadonlyMap<string, Schema>;
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly serverCapabilities: ServerCapabilities;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

/** Options every call accepts: aborting the signal asks the provider to stop (StopProvider). */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface ValidateProviderConfigRequest extends CallOptions {
  readonly config: Value;
}
export interface ValidateProviderConfigResponse {
  /** Protocol 5 providers may return a prepared config; otherwise the config given. */
  readonly preparedConfig: Value;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ValidateResourceConfigRequest extends CallOptions {
  readonly typeName: string;
  readonly config: Value;
  readonly clientCapabilities?: ClientCapabilities;
}

export interface ValidateDataResourceConfigRequest extends CallOptions {
  readonly typeName: string;
  readonly config: Value;
}

export interface DiagnosticsResponse {
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface UpgradeResourceStateRequest extends CallOptions {
  readonly typeName: string;
  /** The schema_version recorded with the stored object. */
  readonly version: number;
  /** The stored attributes as JSON (state v4 `attributes`). */
  readonly rawStateJSON?: Uint8Array;
  /** The legacy flatmap form (state v3 `attributes_flat`). */
  readonly rawStateFlatmap?: Readonly<Record<string, string>>;
}
export interface UpgradeResourceStateResponse {
  readonly upgradedState: Value;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ConfigureProviderRequest extends CallOptions {
  readonly terraformVersion: string;
  readonly config: Value;
  readonly clientCapabilities?: ClientCapabilities;
}

export interface ReadResourceRequest extends CallOptions {
  readonly typeName: string;
  readonly priorState: Value;
  readonly private?: Uint8Array;
  readonly providerMeta?: Value;
  readonly clientCapabilities?: ClientCapabilities;
}
export interface ReadResourceResponse {
  readonly newState: Value;
  readonly private: Uint8Array;
  readonly deferred?: Deferred;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface PlanResourceChangeRequest extends CallOptions {
  readonly typeName: string;
  readonly priorState: Value;
  readonly proposedNewState: Value;
  readonly config: Value;
  readonly priorPrivate?: Uint8Array;
  readonly providerMeta?: Value;
  readonly clientCapabilities?: ClientCapabilities;
}
export interface PlanResourceChangeResponse {
  readonly plannedState: Value;
  /** Attribute paths whose change forces replacement. */
  readonly requiresReplace: readonly Path[];
  readonly plannedPrivate: Uint8Array;
  readonly legacyTypeSystem: boolean;
  readonly deferred?: Deferred;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ApplyResourceChangeRequest extends CallOptions {
  readonly typeName: string;
  readonly priorState: Value;
  readonly plannedState: Value;
  readonly config: Value;
  readonly plannedPrivate?: Uint8Array;
  readonly providerMeta?: Value;
}
export interface ApplyResourceChangeResponse {
  readonly newState: Value;
  readonly private: Uint8Array;
  readonly legacyTypeSystem: boolean;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ImportResourceStateRequest extends CallOptions {
  readonly typeName: string;
  readonly id: string;
  /** Import by resource identity (an import block's `identity`): an object of the type's identity schema. */
  readonly identity?: Value;
  readonly clientCapabilities?: ClientCapabilities;
}
export interface ImportedResource {
  readonly typeName: string;
  readonly state: Value;
  readonly private: Uint8Array;
}
export interface ImportResourceStateResponse {
  readonly importedResources: readonly ImportedResource[];
  readonly deferred?: Deferred;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface MoveResourceStateRequest extends CallOptions {
  readonly sourceProviderAddress: string;
  readonly sourceTypeName: string;
  readonly sourceSchemaVersion: number;
  readonly sourceStateJSON: Uint8Array;
  readonly sourcePrivate?: Uint8Array;
  readonly targetTypeName: string;
}
export interface MoveResourceStateResponse {
  readonly targetState: Value;
  readonly targetPrivate: Uint8Array;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ReadDataSourceRequest extends CallOptions {
  readonly typeName: string;
  readonly config: Value;
  /**
   * The data resource instance read (`module.a.data.x.y[0]`). Not part of the protocol: only the
   * in-process builtin provider reads it, to pick the remote state's decryption (OpenTofu's
   * ReadDataSourceEncrypted).
   */
  readonly address?: string;
  readonly providerMeta?: Value;
  readonly clientCapabilities?: ClientCapabilities;
}
export interface ReadDataSourceResponse {
  readonly state: Value;
  readonly deferred?: Deferred;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface ValidateEphemeralResourceConfigRequest extends CallOptions {
  readonly typeName: string;
  readonly config: Value;
}

export interface OpenEphemeralResourceRequest extends CallOptions {
  readonly typeName: string;
  readonly config: Value;
  readonly clientCapabilities?: ClientCapabilities;
}
export interface OpenEphemeralResourceResponse {
  /** The ephemeral object (the schema's implied type); never written to plan or state. */
  readonly result: Value;
  /** Opaque to the engine: handed back to Renew and Close. */
  readonly private: Uint8Array;
  /** When the provider wants RenewEphemeralResource called, if at all. */
  readonly renewAt?: Date;
  readonly deferred?: Deferred;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface RenewEphemeralResourceRequest extends CallOptions {
  readonly typeName: string;
  readonly private: Uint8Array;
}
export interface RenewEphemeralResourceResponse {
  readonly private: Uint8Array;
  readonly renewAt?: Date;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface CloseEphemeralResourceRequest extends CallOptions {
  readonly typeName: string;
  readonly private: Uint8Array;
}

export interface GetFunctionsResponse {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly diagnostics: readonly ProviderDiagnostic[];
}

export interface CallFunctionRequest extends CallOptions {
  readonly name: string;
  readonly arguments: readonly Value[];
}
/** A call made while the caller waits: the caller has the function's declaration already. */
export interface CallFunctionSyncRequest {
  readonly name: string;
  readonly decl: FunctionDecl;
  readonly arguments: readonly Value[];
}
export interface CallFunctionResponse {
  readonly result: Value;
  /** The function's error; `argument` is the index of the argument at fault, if any. */
  readonly error?: { readonly text: string; readonly argument?: number };
}

export interface Provider {
  /** The provider's schemas; fetched once per client and cached. */
  getProviderSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse>;
  validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse>;
  validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse>;
  validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse>;
  upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse>;
  configureProvider(req: ConfigureProviderRequest): Promise<DiagnosticsResponse>;
  readResource(req: ReadResourceRequest): Promise<ReadResourceResponse>;
  planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse>;
  applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse>;
  importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse>;
  moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse>;
  readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse>;
  /**
   * Ephemeral resources (protocol 5.7 / 6.7). Optional: an implementation whose schema lists no
   * ephemeral resource types may leave them out, and the core reports them unsupported.
   */
  validateEphemeralResourceConfig?(req: ValidateEphemeralResourceConfigRequest): Promise<DiagnosticsResponse>;
  openEphemeralResource?(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse>;
  renewEphemeralResource?(req: RenewEphemeralResourceRequest): Promise<RenewEphemeralResourceResponse>;
  closeEphemeralResource?(req: CloseEphemeralResourceRequest): Promise<DiagnosticsResponse>;
  getFunctions(opts?: CallOptions): Promise<GetFunctionsResponse>;
  callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse>;
  /**
   * CallFunction without a promise, for the expression evaluator, which calls functions in the
   * middle of an expression (provider-defined functions). Providers that cannot answer that way
   * leave it out, and their functions are not callable from expressions.
   */
  callFunctionSync?(req: CallFunctionSyncRequest): CallFunctionResponse;
  /** Readies callFunctionSync in the background when it has set-up costs (a thread, a connection). */
  prepareFunctionCalls?(): void;
  /** Asks the provider to abandon in-flight work (graceful interruption). Resolves to its error text, if any. */
  stopProvider(): Promise<string | undefined>;
  /** Ends the provider: plugin processes are shut down; in-process ones release resources. */
  close(): Promise<void>;
}

/** An error diagnostic without a source (tfdiags.Sourceless). */
export function sourcelessError(summary: string, detail: string): ProviderDiagnostic {
  return { severity: "error", summary, detail };
}

export function hasErrorDiagnostics(diags: readonly ProviderDiagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}
