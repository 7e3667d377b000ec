// The Provider interface over a plugin's tfplugin5 or tfplugin6 service (OpenTofu's
// plugin.GRPCProvider and plugin6.GRPCProvider). Values are msgpack-encoded against the schema's
// implied type on the way out and decoded (msgpack, else JSON, else null) on the way back; gRPC
// failures become OpenTofu's diagnostics, with the plugin's last output when it crashed.

import * as grpc from "@grpc/grpc-js";
import { coreLog } from "../../logging/index.js";
import {
  DynamicPseudoType,
  StringType,
  attrStep,
  indexStep,
  nullVal,
  numberIntVal,
  objectOf,
  stringVal,
  typeFromJSON,
  type Path,
  type PathStep,
  type Type,
  type Value,
} from "../../values/index.js";
import {
  DEFAULT_CLIENT_CAPABILITIES,
  type ApplyResourceChangeRequest,
  type ApplyResourceChangeResponse,
  type CallFunctionRequest,
  type CallFunctionResponse,
  type CallFunctionSyncRequest,
  type CallOptions,
  type ClientCapabilities,
  type ConfigureProviderRequest,
  type Deferred,
  type DeferredReason,
  type DiagnosticsResponse,
  type GetFunctionsResponse,
  type GetProviderSchemaResponse,
  type ImportResourceStateRequest,
  type ImportResourceStateResponse,
  type ImportedResource,
  type MoveResourceStateRequest,
  type MoveResourceStateResponse,
  type PlanResourceChangeRequest,
  type PlanResourceChangeResponse,
  type Provider,
  type ProviderDiagnostic,
  type ReadDataSourceRequest,
  type ReadDataSourceResponse,
  type ReadResourceRequest,
  type ReadResourceResponse,
  type UpgradeResourceStateRequest,
  type UpgradeResourceStateResponse,
  type ValidateDataResourceConfigRequest,
  type CloseEphemeralResourceRequest,
  type OpenEphemeralResourceRequest,
  type OpenEphemeralResourceResponse,
  type RenewEphemeralResourceRequest,
  type RenewEphemeralResourceResponse,
  type ValidateEphemeralResourceConfigRequest,
  type ValidateProviderConfigRequest,
  type ValidateProviderConfigResponse,
  type ValidateResourceConfigRequest,
} from "../provider.js";
import { pluginServices } from "../proto/index.js";
import type {
  ProtoApplyResourceChangeResponse,
  ProtoGetResourceIdentitySchemasResponse,
  ProtoAttributePath,
  ProtoCallFunctionResponse,
  ProtoClientCapabilities,
  ProtoDeferred,
  ProtoDiagnostic,
  ProtoDiagnosticsResponse,
  ProtoDynamicValue,
  ProtoGetFunctionsResponse,
  ProtoGetProviderSchemaResponse,
  ProtoImportResourceStateResponse,
  ProtoMoveResourceStateResponse,
  ProtoOpenEphemeralResourceResponse,
  ProtoRenewEphemeralResourceResponse,
  ProtoTimestamp,
  ProtoPlanResourceChangeResponse,
  ProtoPrepareProviderConfigResponse,
  ProtoReadDataSourceResponse,
  ProtoReadResourceResponse,
  ProtoSchema,
  ProtoStopResponse,
  ProtoUpgradeResourceStateResponse,
} from "../proto/types.js";
import {
  SchemaDecodeError,
  decodeDynamicValue,
  encodeDynamicValue,
  functionFromProto,
  impliedType,
  schemaFromProto,
  type FunctionDecl,
  type Schema,
} from "../schema/index.js";
import type { PluginClient } from "./client.js";
import { callUnarySync, forgetEndpoint, warmEndpoint } from "./sync_calls.js";

/** The RPC names that differ between the protocols; the rest are shared. */
interface MethodNames {
  readonly getProviderSchema: string;
  readonly validateProviderConfig: string;
  readonly validateResourceConfig: string;
  readonly validateDataResourceConfig: string;
  readonly configureProvider: string;
  readonly stopProvider: string;
}

const V5: MethodNames = {
  getProviderSchema: "GetSchema",
  validateProviderConfig: "PrepareProviderConfig",
  validateResourceConfig: "ValidateResourceTypeConfig",
  validateDataResourceConfig: "ValidateDataSourceConfig",
  configureProvider: "Configure",
  stopProvider: "Stop",
};

const V6: MethodNames = {
  getProviderSchema: "GetProviderSchema",
  validateProviderConfig: "ValidateProviderConfig",
  validateResourceConfig: "ValidateResourceConfig",
  validateDataResourceConfig: "ValidateDataResourceConfig",
  configureProvider: "ConfigureProvider",
  stopProvider: "StopProvider",
};

/** gRPC status codes as grpc-go names them (codes.Code's String), which OpenTofu's texts quote. */
const GO_CODE_NAMES: readonly string[] = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
];

type Rpc<T> = { ok: true; response: T } | { ok: false; diagnostics: ProviderDiagnostic[] };

const EMPTY = new Uint8Array(0);

function err(summary: string, detail = ""): ProviderDiagnostic {
  return { severity: "error", summary, detail };
}

export interface GRPCProviderOptions {
  /** A schema already obtained (e.g. cached for a provider with get_provider_schema_optional). */
  readonly schema?: GetProviderSchemaResponse;
}

export class GRPCProvider implements Provider {
  private readonly service: grpc.ServiceClientConstructor;
  private readonly names: MethodNames;
  /** `plugin` or `plugin6`: OpenTofu's Go package names, which its diagnostics quote. */
  private readonly pkg: string;
  private schemaPromise: Promise<GetProviderSchemaResponse> | undefined;
  /** Identity object types by resource type, once asked for (imports by identity only). */
  private identitySchemas: Map<string, Type> | undefined;
  private stopping: Promise<string | undefined> | undefined;

  constructor(
    readonly client: PluginClient,
    opts: GRPCProviderOptions = {},
  ) {
    const services = pluginServices();
    const v6 = client.protocolVersion === 6;
    this.service = v6 ? services.provider6 : services.provider5;
    this.names = v6 ? V6 : V5;
    this.pkg = v6 ? "plugin6" : "plugin";
    if (opts.schema) this.schemaPromise = Promise.resolve(opts.schema);
  }

  // -------------------------------------------------------------------------------------------
  // Plumbing

  private async call<T>(rpc: string, goMethod: string, request: object, opts?: CallOptions): Promise<Rpc<T>> {
    const requestName = `${this.pkg}.(*GRPCProvider).${goMethod}`;
    const log = coreLog();
    // Checked first: this is every call's path, and the message would be built for nothing.
    if (log.enabled("trace")) log.trace(`${this.pkg === "plugin6" ? "GRPCProvider.v6" : "GRPCProvider"}: ${goMethod}`);
    const signal = opts?.signal;
    if (this.client.exited) return { ok: false, diagnostics: [this.crashDiagnostic(requestName)] };
    const onAbort = (): void => void this.stopProvider();
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const r = await this.client.unary(this.service, rpc, request);
      if (r.ok) return { ok: true, response: r.response as T };
      return { ok: false, diagnostics: [await this.grpcErr(r.error, requestName)] };
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** plugin6/grpc_error.go grpcErr, with the plugin's output added when it crashed. */
  private async grpcErr(e: grpc.ServiceError, requestName: string): Promise<ProviderDiagnostic> {
    switch (e.code) {
      case grpc.status.UNAVAILABLE:
        // Usually a crash: give the exit a moment to be noticed so the diagnostic can say so.
        await this.settleExit();
        return this.crashDiagnostic(requestName);
      case grpc.status.CANCELLED:
        // The client cancels in-flight calls when the process dies under them.
        await this.settleExit();
        if (this.client.exited) return this.crashDiagnostic(requestName);
        return err("Request cancelled", `The ${requestName} request was cancelled.`);
      case grpc.status.UNIMPLEMENTED:
        return err("Unsupported plugin method", `The ${requestName} method is not supported by this plugin.`);
      default:
        return err("Plugin error", `The plugin returned an unexpected error from ${requestName}: rpc error: code = ${GO_CODE_NAMES[e.code] ?? `Code(${e.code})`} desc = ${e.details}`);
    }
  }

  private async settleExit(): Promise<void> {
    await Promise.race([this.client.whenExited(), new Promise((r) => setTimeout(r, 500).unref())]);
  }

  private crashDiagnostic(requestName: string): ProviderDiagnostic {
    let detail = `The plugin encountered an error, and failed to respond to the ${requestName} call. The plugin logs may contain more details.`;
    const exit = this.client.exited;
    const last = this.client.lastOutput();
    if (exit || last) {
      const how = exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code ?? "unknown"}`) : "stopped responding";
      detail += `\n\nThe plugin ${this.client.name} ${how}.`;
      if (last) detail += ` Its last output was:\n\n${last}`;
    }
    return err("Plugin did not respond", detail);
  }

  /** The object type of a resource type's identity (GetResourceIdentitySchemas, asked once). */
  private async identityType(typeName: string, opts?: CallOptions): Promise<{ ok: true; type: Type } | { ok: false; diagnostics: ProviderDiagnostic[] }> {
    if (!this.identitySchemas) {
      const r = await this.call<ProtoGetResourceIdentitySchemasResponse>("GetResourceIdentitySchemas", "GetResourceIdentitySchemas", {}, opts);
      if (!r.ok) return { ok: false, diagnostics: r.diagnostics };
      const diagnostics = diagnosticsFromProto(r.response.diagnostics);
      if (diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics };
      const types = new Map<string, Type>();
      for (const [name, schema] of Object.entries(r.response.identity_schemas ?? {})) {
        const attrs = new Map<string, Type>();
        for (const a of schema.identity_attributes ?? []) {
          const t = typeFromJSON(JSON.parse(new TextDecoder().decode(a.type ?? new Uint8Array())));
          if (!t.ok) return { ok: false, diagnostics: [err(`invalid identity schema for ${name}: ${t.error}`)] };
          attrs.set(a.name ?? "", t.type);
        }
        types.set(name, objectOf(attrs));
      }
      this.identitySchemas = types;
    }
    const t = this.identitySchemas.get(typeName);
    return t ? { ok: true, type: t } : { ok: false, diagnostics: [err(`resource type "${typeName}" has no identity schema`)] };
  }

  private encode(v: Value, type: Type): { ok: true; value: ProtoDynamicValue } | { ok: false; diagnostics: ProviderDiagnostic[] } {
    const r = encodeDynamicValue(v, type);
    return r.ok ? r : { ok: false, diagnostics: [err(r.error)] };
  }

  private decode(dv: ProtoDynamicValue | null | undefined, type: Type, diags: ProviderDiagnostic[]): Value {
    const r = decodeDynamicValue(dv, type);
    if (r.ok) return r.value;
    diags.push(err(r.error));
    return nullVal(type);
  }

  private async resourceSchema(kind: "resource" | "data" | "ephemeral", typeName: string, opts?: CallOptions): Promise<{ ok: true; schema: Schema; meta: Schema } | { ok: false; diagnostics: ProviderDiagnostic[] }> {
    const s = await this.getProviderSchema(opts);
    if (s.diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics: [...s.diagnostics] };
    const schema = (kind === "resource" ? s.resourceTypes : kind === "data" ? s.dataSources : s.ephemeralResources).get(typeName);
    if (!schema) {
      const what = kind === "resource" ? "resource type" : kind === "data" ? "data source" : "ephemeral resource";
      return { ok: false, diagnostics: [err(`unknown ${what} "${typeName}"`)] };
    }
    return { ok: true, schema, meta: s.providerMeta };
  }

  private metaValue(meta: Schema, v: Value | undefined): { ok: true; value: ProtoDynamicValue } | { ok: false; diagnostics: ProviderDiagnostic[] } {
    const t = impliedType(meta.block);
    return this.encode(v ?? nullVal(t), t);
  }

  // -------------------------------------------------------------------------------------------
  // The interface

  getProviderSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse> {
    this.schemaPromise ??= this.fetchSchema(opts);
    return this.schemaPromise;
  }

  private async fetchSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse> {
    const r = await this.call<ProtoGetProviderSchemaResponse>(this.names.getProviderSchema, "GetProviderSchema", {}, opts);
    const empty = emptySchemaResponse();
    if (!r.ok) {
      // A failed fetch is not cached: a later call may try again.
      this.schemaPromise = undefined;
      return { ...empty, diagnostics: r.diagnostics };
    }
    const p = r.response;
    const diagnostics = diagnosticsFromProto(p.diagnostics);
    try {
      const mapOf = (m: Record<string, ProtoSchema> | undefined, what: string): Map<string, Schema> =>
        new Map(Object.entries(m ?? {}).map(([k, v]) => [k, schemaFromProto(v, `${what} ${k}`)]));
      const functions = new Map<string, FunctionDecl>(Object.entries(p.functions ?? {}).map(([k, f]) => [k, functionFromProto(f, k)]));
      return {
        provider: schemaFromProto(p.provider, "provider"),
        providerMeta: schemaFromProto(p.provider_meta, "provider_meta"),
        resourceTypes: mapOf(p.resource_schemas, "resource"),
        dataSources: mapOf(p.data_source_schemas, "data source"),
        ephemeralResources: mapOf(p.ephemeral_resource_schemas, "ephemeral resource"),
        functions,
        serverCapabilities: {
          planDestroy: p.server_capabilities?.plan_destroy === true,
          getProviderSchemaOptional: p.server_capabilities?.get_provider_schema_optional === true,
          moveResourceState: p.server_capabilities?.move_resource_state === true,
        },
        diagnostics,
      };
    } catch (e) {
      if (!(e instanceof SchemaDecodeError)) throw e;
      return { ...empty, diagnostics: [...diagnostics, err("Invalid provider schema", `The provider returned a schema that cannot be used: ${e.message}.`)] };
    }
  }

  async validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse> {
    const s = await this.getProviderSchema(req);
    if (s.diagnostics.some((d) => d.severity === "error")) return { preparedConfig: req.config, diagnostics: [...s.diagnostics] };
    const ty = impliedType(s.provider.block);
    const config = this.encode(req.config, ty);
    if (!config.ok) return { preparedConfig: req.config, diagnostics: config.diagnostics };
    const r = await this.call<ProtoPrepareProviderConfigResponse>(this.names.validateProviderConfig, "ValidateProviderConfig", { config: config.value }, req);
    if (!r.ok) return { preparedConfig: req.config, diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    // Protocol 5 may hand back a prepared config; OpenTofu ignores it in favour of the original.
    return { preparedConfig: req.config, diagnostics };
  }

  async validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse> {
    const rs = await this.resourceSchema("resource", req.typeName, req);
    if (!rs.ok) return { diagnostics: rs.diagnostics };
    const config = this.encode(req.config, impliedType(rs.schema.block));
    if (!config.ok) return config;
    const r = await this.call<ProtoDiagnosticsResponse>(
      this.names.validateResourceConfig,
      "ValidateResourceConfig",
      { type_name: req.typeName, config: config.value, client_capabilities: capabilities(req.clientCapabilities) },
      req,
    );
    return { diagnostics: r.ok ? diagnosticsFromProto(r.response.diagnostics) : r.diagnostics };
  }

  async validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse> {
    const rs = await this.resourceSchema("data", req.typeName, req);
    if (!rs.ok) return { diagnostics: rs.diagnostics };
    const config = this.encode(req.config, impliedType(rs.schema.block));
    if (!config.ok) return config;
    const r = await this.call<ProtoDiagnosticsResponse>(
      this.names.validateDataResourceConfig,
      "ValidateDataResourceConfig",
      { type_name: req.typeName, config: config.value },
      req,
    );
    return { diagnostics: r.ok ? diagnosticsFromProto(r.response.diagnostics) : r.diagnostics };
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    const rs = await this.resourceSchema("resource", req.typeName, req);
    if (!rs.ok) return { upgradedState: nullVal(DynamicPseudoType), diagnostics: rs.diagnostics };
    const ty = impliedType(rs.schema.block);
    const raw: { json?: Uint8Array; flatmap?: Record<string, string> } = {};
    if (req.rawStateJSON) raw.json = req.rawStateJSON;
    if (req.rawStateFlatmap) raw.flatmap = { ...req.rawStateFlatmap };
    const r = await this.call<ProtoUpgradeResourceStateResponse>(
      "UpgradeResourceState",
      "UpgradeResourceState",
      { type_name: req.typeName, version: req.version, raw_state: raw },
      req,
    );
    if (!r.ok) return { upgradedState: nullVal(ty), diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    return { upgradedState: this.decode(r.response.upgraded_state, ty, diagnostics), diagnostics };
  }

  async configureProvider(req: ConfigureProviderRequest): Promise<DiagnosticsResponse> {
    const s = await this.getProviderSchema(req);
    if (s.diagnostics.some((d) => d.severity === "error")) return { diagnostics: [...s.diagnostics] };
    const config = this.encode(req.config, impliedType(s.provider.block));
    if (!config.ok) return config;
    const r = await this.call<ProtoDiagnosticsResponse>(
      this.names.configureProvider,
      "ConfigureProvider",
      { terraform_version: req.terraformVersion, config: config.value, client_capabilities: capabilities(req.clientCapabilities) },
      req,
    );
    return { diagnostics: r.ok ? diagnosticsFromProto(r.response.diagnostics) : r.diagnostics };
  }

  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    const rs = await this.resourceSchema("resource", req.typeName, req);
    if (!rs.ok) return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: rs.diagnostics };
    const ty = impliedType(rs.schema.block);
    const prior = this.encode(req.priorState, ty);
    if (!prior.ok) return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: prior.diagnostics };
    const meta = this.metaValue(rs.meta, req.providerMeta);
    if (!meta.ok) return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: meta.diagnostics };
    const r = await this.call<ProtoReadResourceResponse>(
      "ReadResource",
      "ReadResource",
      {
        type_name: req.typeName,
        current_state: prior.value,
        private: req.private ?? EMPTY,
        provider_meta: meta.value,
        client_capabilities: capabilities(req.clientCapabilities),
      },
      req,
    );
    if (!r.ok) return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    const newState = this.decode(r.response.new_state, ty, diagnostics);
    return withDeferred({ newState, private: bytes(r.response.private), diagnostics }, r.response.deferred);
  }

  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    const failed = (diagnostics: ProviderDiagnostic[]): PlanResourceChangeResponse => ({
      plannedState: req.proposedNewState,
      requiresReplace: [],
      plannedPrivate: req.priorPrivate ?? EMPTY,
      legacyTypeSystem: false,
      diagnostics,
    });
    const s = await this.getProviderSchema(req);
    const rs = await this.resourceSchema("resource", req.typeName, req);
    if (!rs.ok) return failed(rs.diagnostics);
    // Without the plan_destroy capability a destroy is planned here, not by the provider.
    if (req.proposedNewState.kind === "null" && !s.serverCapabilities.planDestroy) {
      return { plannedState: req.proposedNewState, requiresReplace: [], plannedPrivate: req.priorPrivate ?? EMPTY, legacyTypeSystem: false, diagnostics: [] };
    }
    const ty = impliedType(rs.schema.block);
    const prior = this.encode(req.priorState, ty);
    if (!prior.ok) return failed(prior.diagnostics);
    const proposed = this.encode(req.proposedNewState, ty);
    if (!proposed.ok) return failed(proposed.diagnostics);
    const config = this.encode(req.config, ty);
    if (!config.ok) return failed(config.diagnostics);
    const meta = this.metaValue(rs.meta, req.providerMeta);
    if (!meta.ok) return failed(meta.diagnostics);
    const r = await this.call<ProtoPlanResourceChangeResponse>(
      "PlanResourceChange",
      "PlanResourceChange",
      {
        type_name: req.typeName,
        prior_state: prior.value,
        proposed_new_state: proposed.value,
        config: config.value,
        prior_private: req.priorPrivate ?? EMPTY,
        provider_meta: meta.value,
        client_capabilities: capabilities(req.clientCapabilities),
      },
      req,
    );
    if (!r.ok) return failed(r.diagnostics);
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    const plannedState = this.decode(r.response.planned_state, ty, diagnostics);
    return withDeferred(
      {
        plannedState,
        requiresReplace: (r.response.requires_replace ?? []).map(pathFromProto),
        plannedPrivate: bytes(r.response.planned_private),
        legacyTypeSystem: r.response.legacy_type_system === true,
        diagnostics,
      },
      r.response.deferred,
    );
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    const failed = (diagnostics: ProviderDiagnostic[]): ApplyResourceChangeResponse => ({
      newState: req.priorState,
      private: req.plannedPrivate ?? EMPTY,
      legacyTypeSystem: false,
      diagnostics,
    });
    const rs = await this.resourceSchema("resource", req.typeName, req);
    if (!rs.ok) return failed(rs.diagnostics);
    const ty = impliedType(rs.schema.block);
    const prior = this.encode(req.priorState, ty);
    if (!prior.ok) return failed(prior.diagnostics);
    const planned = this.encode(req.plannedState, ty);
    if (!planned.ok) return failed(planned.diagnostics);
    const config = this.encode(req.config, ty);
    if (!config.ok) return failed(config.diagnostics);
    const meta = this.metaValue(rs.meta, req.providerMeta);
    if (!meta.ok) return failed(meta.diagnostics);
    const r = await this.call<ProtoApplyResourceChangeResponse>(
      "ApplyResourceChange",
      "ApplyResourceChange",
      {
        type_name: req.typeName,
        prior_state: prior.value,
        planned_state: planned.value,
        config: config.value,
        planned_private: req.plannedPrivate ?? EMPTY,
        provider_meta: meta.value,
      },
      req,
    );
    if (!r.ok) return failed(r.diagnostics);
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    return {
      newState: this.decode(r.response.new_state, ty, diagnostics),
      private: bytes(r.response.private),
      legacyTypeSystem: r.response.legacy_type_system === true,
      diagnostics,
    };
  }

  async importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    const s = await this.getProviderSchema(req);
    if (s.diagnostics.some((d) => d.severity === "error")) return { importedResources: [], diagnostics: [...s.diagnostics] };
    let identity: { identity_data: ProtoDynamicValue } | undefined;
    if (req.identity) {
      const t = await this.identityType(req.typeName, req);
      if (!t.ok) return { importedResources: [], diagnostics: t.diagnostics };
      const e = this.encode(req.identity, t.type);
      if (!e.ok) return { importedResources: [], diagnostics: e.diagnostics };
      identity = { identity_data: e.value };
    }
    const r = await this.call<ProtoImportResourceStateResponse>(
      "ImportResourceState",
      "ImportResourceState",
      { type_name: req.typeName, id: req.id, client_capabilities: capabilities(req.clientCapabilities), ...(identity ? { identity } : {}) },
      req,
    );
    if (!r.ok) return { importedResources: [], diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    const importedResources: ImportedResource[] = [];
    for (const imp of r.response.imported_resources ?? []) {
      const typeName = imp.type_name ?? "";
      const schema = s.resourceTypes.get(typeName);
      if (!schema) {
        diagnostics.push(err(`unknown resource type "${typeName}"`));
        continue;
      }
      importedResources.push({ typeName, state: this.decode(imp.state, impliedType(schema.block), diagnostics), private: bytes(imp.private) });
    }
    return withDeferred({ importedResources, diagnostics }, r.response.deferred);
  }

  async moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    const rs = await this.resourceSchema("resource", req.targetTypeName, req);
    if (!rs.ok) return { targetState: nullVal(DynamicPseudoType), targetPrivate: EMPTY, diagnostics: rs.diagnostics };
    const ty = impliedType(rs.schema.block);
    const r = await this.call<ProtoMoveResourceStateResponse>(
      "MoveResourceState",
      "MoveResourceState",
      {
        source_provider_address: req.sourceProviderAddress,
        source_type_name: req.sourceTypeName,
        source_schema_version: req.sourceSchemaVersion,
        source_state: { json: req.sourceStateJSON },
        target_type_name: req.targetTypeName,
        source_private: req.sourcePrivate ?? EMPTY,
      },
      req,
    );
    if (!r.ok) return { targetState: nullVal(ty), targetPrivate: EMPTY, diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    return { targetState: this.decode(r.response.target_state, ty, diagnostics), targetPrivate: bytes(r.response.target_private), diagnostics };
  }

  async readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    const rs = await this.resourceSchema("data", req.typeName, req);
    if (!rs.ok) return { state: req.config, diagnostics: rs.diagnostics };
    const ty = impliedType(rs.schema.block);
    const config = this.encode(req.config, ty);
    if (!config.ok) return { state: nullVal(ty), diagnostics: config.diagnostics };
    const meta = this.metaValue(rs.meta, req.providerMeta);
    if (!meta.ok) return { state: nullVal(ty), diagnostics: meta.diagnostics };
    const r = await this.call<ProtoReadDataSourceResponse>(
      "ReadDataSource",
      "ReadDataSource",
      { type_name: req.typeName, config: config.value, provider_meta: meta.value, client_capabilities: capabilities(req.clientCapabilities) },
      req,
    );
    if (!r.ok) return { state: nullVal(ty), diagnostics: r.diagnostics };
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    return withDeferred({ state: this.decode(r.response.state, ty, diagnostics), diagnostics }, r.response.deferred);
  }

  async validateEphemeralResourceConfig(req: ValidateEphemeralResourceConfigRequest): Promise<DiagnosticsResponse> {
    const rs = await this.resourceSchema("ephemeral", req.typeName, req);
    if (!rs.ok) return { diagnostics: rs.diagnostics };
    const config = this.encode(req.config, impliedType(rs.schema.block));
    if (!config.ok) return config;
    const r = await this.call<ProtoDiagnosticsResponse>("ValidateEphemeralResourceConfig", "ValidateEphemeralResourceConfig", { type_name: req.typeName, config: config.value }, req);
    return { diagnostics: r.ok ? diagnosticsFromProto(r.response.diagnostics) : r.diagnostics };
  }

  async openEphemeralResource(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse> {
    const failed = (diagnostics: ProviderDiagnostic[], ty: Type = DynamicPseudoType): OpenEphemeralResourceResponse => ({ result: nullVal(ty), private: EMPTY, diagnostics });
    const rs = await this.resourceSchema("ephemeral", req.typeName, req);
    if (!rs.ok) return failed(rs.diagnostics);
    const ty = impliedType(rs.schema.block);
    const config = this.encode(req.config, ty);
    if (!config.ok) return failed(config.diagnostics, ty);
    const r = await this.call<ProtoOpenEphemeralResourceResponse>(
      "OpenEphemeralResource",
      "OpenEphemeralResource",
      { type_name: req.typeName, config: config.value, client_capabilities: capabilities(req.clientCapabilities) },
      req,
    );
    if (!r.ok) return failed(r.diagnostics, ty);
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    const out = { result: this.decode(r.response.result, ty, diagnostics), private: bytes(r.response.private), diagnostics };
    const renewAt = dateFromTimestamp(r.response.renew_at);
    return withDeferred(renewAt ? { ...out, renewAt } : out, r.response.deferred);
  }

  async renewEphemeralResource(req: RenewEphemeralResourceRequest): Promise<RenewEphemeralResourceResponse> {
    const r = await this.call<ProtoRenewEphemeralResourceResponse>("RenewEphemeralResource", "RenewEphemeralResource", { type_name: req.typeName, private: req.private }, req);
    if (!r.ok) return { private: req.private, diagnostics: r.diagnostics };
    const renewAt = dateFromTimestamp(r.response.renew_at);
    const out = { private: bytes(r.response.private), diagnostics: diagnosticsFromProto(r.response.diagnostics) };
    return renewAt ? { ...out, renewAt } : out;
  }

  async closeEphemeralResource(req: CloseEphemeralResourceRequest): Promise<DiagnosticsResponse> {
    const r = await this.call<ProtoDiagnosticsResponse>("CloseEphemeralResource", "CloseEphemeralResource", { type_name: req.typeName, private: req.private }, req);
    return { diagnostics: r.ok ? diagnosticsFromProto(r.response.diagnostics) : r.diagnostics };
  }

  async getFunctions(opts?: CallOptions): Promise<GetFunctionsResponse> {
    const r = await this.call<ProtoGetFunctionsResponse>("GetFunctions", "GetFunctions", {}, opts);
    if (!r.ok) {
      // Older providers only list functions in their schema.
      const s = await this.getProviderSchema(opts);
      return { functions: s.functions, diagnostics: s.diagnostics.filter((d) => d.severity === "error") };
    }
    const diagnostics = diagnosticsFromProto(r.response.diagnostics);
    try {
      return { functions: new Map(Object.entries(r.response.functions ?? {}).map(([k, f]) => [k, functionFromProto(f, k)])), diagnostics };
    } catch (e) {
      if (!(e instanceof SchemaDecodeError)) throw e;
      return { functions: new Map(), diagnostics: [...diagnostics, err("Invalid provider function", e.message)] };
    }
  }

  async callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    const s = await this.getProviderSchema(req);
    let decl = s.functions.get(req.name);
    if (!decl) decl = (await this.getFunctions(req)).functions.get(req.name);
    if (!decl) return { result: nullVal(StringType), error: { text: `Function "${req.name}" not found in provider` } };
    const built = functionRequest(req.name, decl, req.arguments);
    if (!built.ok) return built.response;
    const r = await this.call<ProtoCallFunctionResponse>("CallFunction", "CallFunction", built.request, req);
    if (!r.ok) return { result: nullVal(decl.returnType), error: { text: r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n") } };
    return functionResponse(decl, r.response);
  }

  /** Gets callFunctionSync's worker thread and connection ready in the background. */
  prepareFunctionCalls(): void {
    if (!this.client.exited) warmEndpoint(this.client.endpoint);
  }

  /**
   * CallFunction while the caller waits (the evaluator: sync_calls.ts), for a function whose
   * declaration the caller already has (from the schema or GetFunctions).
   */
  callFunctionSync(req: CallFunctionSyncRequest): CallFunctionResponse {
    const { decl } = req;
    const built = functionRequest(req.name, decl, req.arguments);
    if (!built.ok) return built.response;
    if (this.client.exited) {
      const d = this.crashDiagnostic(`${this.pkg}.(*GRPCProvider).CallFunction`);
      return { result: nullVal(decl.returnType), error: { text: `${d.summary}: ${d.detail}` } };
    }
    const def = this.service.service["CallFunction"];
    if (!def) return { result: nullVal(decl.returnType), error: { text: "the plugin protocol has no CallFunction" } };
    const r = callUnarySync(this.client.endpoint, def.path, def.requestSerialize(built.request));
    if (!r.ok) return { result: nullVal(decl.returnType), error: { text: `${GO_CODE_NAMES[r.code] ?? r.code}: ${r.details}` } };
    return functionResponse(decl, def.responseDeserialize(Buffer.from(r.message)) as ProtoCallFunctionResponse);
  }

  stopProvider(): Promise<string | undefined> {
    this.stopping ??= (async () => {
      const r = await this.client.unary(this.service, this.names.stopProvider, {});
      this.stopping = undefined;
      if (!r.ok) return r.error.details || r.error.message;
      const e = (r.response as ProtoStopResponse).Error;
      return e ? e : undefined;
    })();
    return this.stopping;
  }

  close(): Promise<void> {
    return this.client.close().finally(() => forgetEndpoint(this.client.endpoint));
  }
}

// ---------------------------------------------------------------------------------------------
// Conversions

/** CallFunction's request: each argument encoded against its parameter's type. */
function functionRequest(
  name: string,
  decl: FunctionDecl,
  args: readonly Value[],
): { ok: true; request: { name: string; arguments: ProtoDynamicValue[] } } | { ok: false; response: CallFunctionResponse } {
  const encoded: ProtoDynamicValue[] = [];
  for (let i = 0; i < args.length; i++) {
    const param = i < decl.parameters.length ? decl.parameters[i] : decl.variadicParameter;
    if (!param) return { ok: false, response: { result: nullVal(decl.returnType), error: { text: "too many arguments" } } };
    const enc = encodeDynamicValue(args[i] as Value, param.type);
    if (!enc.ok) return { ok: false, response: { result: nullVal(decl.returnType), error: { text: enc.error, argument: i } } };
    encoded.push(enc.value);
  }
  return { ok: true, request: { name, arguments: encoded } };
}

/** CallFunction's answer: the function's error, or its result decoded against the return type. */
function functionResponse(decl: FunctionDecl, r: ProtoCallFunctionResponse): CallFunctionResponse {
  const fe = r.error;
  if (fe && (fe.text || (fe.function_argument !== undefined && fe.function_argument !== null))) {
    const error: { text: string; argument?: number } = { text: fe.text ?? "" };
    if (fe.function_argument !== undefined && fe.function_argument !== null) error.argument = Number(fe.function_argument);
    return { result: nullVal(decl.returnType), error };
  }
  const dec = decodeDynamicValue(r.result, decl.returnType);
  if (!dec.ok) return { result: nullVal(decl.returnType), error: { text: dec.error } };
  return { result: dec.value };
}

function emptySchemaResponse(): GetProviderSchemaResponse {
  const empty: Schema = schemaFromProto(undefined);
  return {
    provider: empty,
    providerMeta: empty,
    resourceTypes: new Map(),
    dataSources: new Map(),
    ephemeralResources: new Map(),
    functions: new Map(),
    serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false },
    diagnostics: [],
  };
}

function capabilities(c: ClientCapabilities | undefined): ProtoClientCapabilities {
  const caps = c ?? DEFAULT_CLIENT_CAPABILITIES;
  return { deferral_allowed: caps.deferralAllowed, write_only_attributes_allowed: caps.writeOnlyAttributesAllowed };
}

/** A protobuf Timestamp as a Date; absent (or the zero time) is no time at all. */
function dateFromTimestamp(t: ProtoTimestamp | null | undefined): Date | undefined {
  if (!t) return undefined;
  const ms = Number(t.seconds ?? 0) * 1000 + Math.floor(Number(t.nanos ?? 0) / 1e6);
  return ms > 0 ? new Date(ms) : undefined;
}

function bytes(b: Uint8Array | null | undefined): Uint8Array {
  return b ? new Uint8Array(b) : EMPTY;
}

const DEFERRED_REASONS: Record<string, DeferredReason> = {
  UNKNOWN: "unknown",
  RESOURCE_CONFIG_UNKNOWN: "resource_config_unknown",
  PROVIDER_CONFIG_UNKNOWN: "provider_config_unknown",
  ABSENT_PREREQ: "absent_prereq",
};
const DEFERRED_REASONS_NUM: readonly DeferredReason[] = ["unknown", "resource_config_unknown", "provider_config_unknown", "absent_prereq"];

function withDeferred<T extends object>(resp: T, d: ProtoDeferred | null | undefined): T & { deferred?: Deferred } {
  if (!d) return resp;
  const reason = typeof d.reason === "number" ? (DEFERRED_REASONS_NUM[d.reason] ?? "unknown") : (DEFERRED_REASONS[d.reason ?? "UNKNOWN"] ?? "unknown");
  return { ...resp, deferred: { reason } };
}

/** An AttributePath from the protocol as a value path (plugin6/convert.AttributePathToPath). */
export function pathFromProto(p: ProtoAttributePath | null | undefined): Path {
  const out: PathStep[] = [];
  for (const step of p?.steps ?? []) {
    const which = step.selector ?? (step.attribute_name ? "attribute_name" : step.element_key_string !== undefined && step.element_key_string !== null && step.element_key_string !== "" ? "element_key_string" : "element_key_int");
    switch (which) {
      case "attribute_name":
        out.push(attrStep(step.attribute_name ?? ""));
        break;
      case "element_key_string":
        out.push(indexStep(stringVal(step.element_key_string ?? "")));
        break;
      case "element_key_int":
        out.push(indexStep(numberIntVal(BigInt(step.element_key_int ?? 0))));
        break;
    }
  }
  return out;
}

/** A value path as a protocol AttributePath (for servers and tests). */
export function pathToProto(p: Path): ProtoAttributePath {
  return {
    steps: p.map((s) => {
      if (s.kind === "attr") return { attribute_name: s.name };
      if (s.key.kind === "string") return { element_key_string: s.key.value };
      if (s.key.kind === "number") return { element_key_int: Number(s.key.value.toBigInt() ?? 0n) };
      return { element_key_string: "" };
    }),
  };
}

/** plugin6/convert.ProtoToDiagnostics. */
export function diagnosticsFromProto(ds: readonly ProtoDiagnostic[] | undefined): ProviderDiagnostic[] {
  const out: ProviderDiagnostic[] = [];
  for (const d of ds ?? []) {
    const severity = d.severity === "WARNING" || d.severity === 2 ? "warning" : "error";
    const diag: ProviderDiagnostic = { severity, summary: d.summary ?? "", detail: d.detail ?? "" };
    if (d.attribute && (d.attribute.steps ?? []).length > 0) diag.attribute = pathFromProto(d.attribute);
    out.push(diag);
  }
  return out;
}
