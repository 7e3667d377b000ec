// tfplugin6.Provider implemented over a ProviderDefinition: every RPC decodes its DynamicValues
// against the schema's implied type, calls the author's handler (or the SDK's default behaviour),
// and encodes the answer exactly as Terraform expects. Independent of gRPC, so tests can call it
// directly; serve.ts binds it to a gRPC server.

import type {
  ProtoApplyResourceChangeResponse,
  ProtoCallFunctionResponse,
  ProtoClientCapabilities,
  ProtoDiagnosticsResponse,
  ProtoDynamicValue,
  ProtoFunction,
  ProtoGetFunctionsResponse,
  ProtoGetProviderSchemaResponse,
  ProtoImportResourceStateResponse,
  ProtoMoveResourceStateResponse,
  ProtoPlanResourceChangeResponse,
  ProtoRawState,
  ProtoReadDataSourceResponse,
  ProtoReadResourceResponse,
  ProtoServerCapabilities,
  ProtoStopResponse,
  ProtoUpgradeResourceStateResponse,
} from "../providers/proto/index.js";
import { functionToProto, schemaToProto } from "../providers/schema/index.js";
import {
  DynamicPseudoType,
  formatPath,
  marshalType,
  nullVal,
  objectOf,
  objectVal,
  unmarkDeep,
  type Path,
  type Type,
  type Value,
} from "../values/index.js";
import { decodeDynamic, decodeRawState, decodeStateJSON, encodeDynamic } from "./codec.js";
import { diagnosticToProto, diagnosticsFromError, errorDiagnostic, hasErrors, pathToProto, type Diagnostic } from "./diagnostics.js";
import { fromNative, isValue, toNativeObject, type NativeObject } from "./native.js";
import { nullWriteOnly, planResourceChange, unknownPaths, validateAttributes } from "./planning.js";
import { PrivateState } from "./private.js";
import { FunctionError, type FunctionDefinition, type FunctionParameter, type IdentitySchema, type ProviderDefinition, type StateData } from "./provider.js";
import { configSchema, functionDecl, impliedType, validateSchema, type Schema } from "./schema.js";

// Request shapes (providers/proto's codec: snake_case fields); every field may be absent.
export interface ConfigRequest {
  type_name?: string;
  config?: ProtoDynamicValue | null;
  client_capabilities?: ProtoClientCapabilities | null;
}
export interface ConfigureProviderRequest extends ConfigRequest {
  terraform_version?: string;
}
export interface UpgradeResourceStateRequest {
  type_name?: string;
  version?: number | string;
  raw_state?: ProtoRawState | null;
}
export interface ReadResourceRequest {
  type_name?: string;
  current_state?: ProtoDynamicValue | null;
  private?: Uint8Array | null;
}
export interface PlanResourceChangeRequest {
  type_name?: string;
  prior_state?: ProtoDynamicValue | null;
  proposed_new_state?: ProtoDynamicValue | null;
  config?: ProtoDynamicValue | null;
  prior_private?: Uint8Array | null;
}
export interface ApplyResourceChangeRequest {
  type_name?: string;
  prior_state?: ProtoDynamicValue | null;
  planned_state?: ProtoDynamicValue | null;
  config?: ProtoDynamicValue | null;
  planned_private?: Uint8Array | null;
}
export interface ImportResourceStateRequest {
  type_name?: string;
  id?: string;
  identity?: { identity_data?: ProtoDynamicValue | null } | null;
}
export interface MoveResourceStateRequest {
  source_provider_address?: string;
  source_type_name?: string;
  source_schema_version?: number | string;
  source_state?: ProtoRawState | null;
  target_type_name?: string;
  source_private?: Uint8Array | null;
}
export interface EphemeralPrivateRequest {
  type_name?: string;
  private?: Uint8Array | null;
}
export interface CallFunctionRequest {
  name?: string;
  arguments?: ProtoDynamicValue[];
}
export interface ProtoTimestamp {
  seconds: number;
  nanos: number;
}
export interface OpenEphemeralResourceResponse {
  diagnostics: ReturnType<typeof diagnosticToProto>[];
  result?: ProtoDynamicValue;
  private?: Uint8Array;
  renew_at?: ProtoTimestamp;
}
export interface RenewEphemeralResourceResponse {
  diagnostics: ReturnType<typeof diagnosticToProto>[];
  private?: Uint8Array;
  renew_at?: ProtoTimestamp;
}

/** tfplugin6 ResourceIdentitySchema. */
interface ProtoResourceIdentitySchema {
  version: number;
  identity_attributes: Array<{ name: string; type: Uint8Array; required_for_import: boolean; optional_for_import: boolean; description: string }>;
}

/** The object type an identity schema's values have. */
function identityType(s: IdentitySchema): Type {
  return objectOf(new Map(Object.entries(s.attributes).map(([n, a]) => [n, a.type])));
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/**
 * The state described by handler output: a value as is (marks removed), native data merged over
 * `base` attribute by attribute (attributes the data leaves out keep `base`'s value).
 */
export function stateFrom(data: StateData | null | undefined, base: Value, type: Type): Value {
  if (data === undefined) return base;
  if (data === null) return nullVal(type);
  if (isValue(data)) return unmarkDeep(data)[0];
  if (type.kind !== "object") return fromNative(data, type);
  const attrs = new Map<string, Value>();
  for (const [k, at] of type.attributes) {
    const given = (data as NativeObject)[k];
    if (given !== undefined) attrs.set(k, fromNative(given, at, k));
    else if (base.kind === "object") attrs.set(k, base.attrs.get(k) ?? nullVal(at));
    else attrs.set(k, nullVal(at));
  }
  for (const k of Object.keys(data)) {
    if (!type.attributes.has(k) && (data as NativeObject)[k] !== undefined) throw new Error(`unexpected attribute ${JSON.stringify(k)}`);
  }
  return objectVal(attrs);
}

function diags(list: readonly Diagnostic[]): ReturnType<typeof diagnosticToProto>[] {
  return list.map(diagnosticToProto);
}

function toTimestamp(d: Date): ProtoTimestamp {
  const ms = d.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

interface Typed<D> {
  readonly def: D;
  readonly schema: Schema;
  readonly type: Type;
}

export class ProviderServer<M = unknown> {
  private meta: M | undefined;
  private readonly providerType: Type;
  private readonly resources = new Map<string, Typed<NonNullable<ProviderDefinition<M>["resources"]>[string]>>();
  private readonly dataSources = new Map<string, Typed<NonNullable<ProviderDefinition<M>["dataSources"]>[string]>>();
  private readonly ephemerals = new Map<string, Typed<NonNullable<ProviderDefinition<M>["ephemeralResources"]>[string]>>();
  private schemaResponse: ProtoGetProviderSchemaResponse | undefined;
  /** Set by StopProvider; long-running handlers may poll it. */
  stopped = false;

  constructor(readonly def: ProviderDefinition<M>) {
    const problems = validateSchema(def.schema.block, "provider");
    this.providerType = impliedType(def.schema.block);
    for (const [name, r] of Object.entries(def.resources ?? {})) {
      problems.push(...validateSchema(r.schema.block, name));
      this.resources.set(name, { def: r, schema: r.schema, type: impliedType(r.schema.block) });
    }
    for (const [name, d] of Object.entries(def.dataSources ?? {})) {
      problems.push(...validateSchema(d.schema.block, name));
      this.dataSources.set(name, { def: d, schema: d.schema, type: impliedType(d.schema.block) });
    }
    for (const [name, e] of Object.entries(def.ephemeralResources ?? {})) {
      problems.push(...validateSchema(e.schema.block, name));
      this.ephemerals.set(name, { def: e, schema: e.schema, type: impliedType(e.schema.block) });
    }
    if (problems.length > 0) throw new Error(`invalid provider schema:\n${problems.join("\n")}`);
  }

  private capabilities(): ProtoServerCapabilities {
    const move = [...this.resources.values()].some((r) => !!r.def.moveState);
    return { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: move };
  }

  private unknownType(kind: string, name: string | undefined): Diagnostic[] {
    return [errorDiagnostic(`Unknown ${kind} type`, `The ${kind} type ${JSON.stringify(name ?? "")} is not supported by this provider.`)];
  }

  // -------------------------------------------------------------------------------------------
  // Schema

  getMetadata(): {
    server_capabilities: ProtoServerCapabilities;
    diagnostics: [];
    resources: { type_name: string }[];
    data_sources: { type_name: string }[];
    ephemeral_resources: { type_name: string }[];
    functions: { name: string }[];
  } {
    return {
      server_capabilities: this.capabilities(),
      diagnostics: [],
      resources: [...this.resources.keys()].map((type_name) => ({ type_name })),
      data_sources: [...this.dataSources.keys()].map((type_name) => ({ type_name })),
      ephemeral_resources: [...this.ephemerals.keys()].map((type_name) => ({ type_name })),
      functions: Object.keys(this.def.functions ?? {}).map((name) => ({ name })),
    };
  }

  getProviderSchema(): ProtoGetProviderSchemaResponse {
    if (this.schemaResponse) return this.schemaResponse;
    const proto = (s: Schema) => schemaToProto(configSchema(s));
    const map = <D>(m: Map<string, Typed<D>>) => Object.fromEntries([...m].map(([n, r]) => [n, proto(r.schema)]));
    this.schemaResponse = {
      provider: proto(this.def.schema),
      resource_schemas: map(this.resources),
      data_source_schemas: map(this.dataSources),
      ephemeral_resource_schemas: map(this.ephemerals),
      functions: this.functionsProto(),
      diagnostics: [],
      server_capabilities: this.capabilities(),
      ...(this.def.metaSchema ? { provider_meta: proto(this.def.metaSchema) } : {}),
    };
    return this.schemaResponse;
  }

  private functionsProto(): Record<string, ProtoFunction> {
    const out: Record<string, ProtoFunction> = {};
    for (const [name, f] of Object.entries(this.def.functions ?? {})) out[name] = functionToProto(functionDecl(f));
    return out;
  }

  getFunctions(): ProtoGetFunctionsResponse {
    const more = this.configuredFunctions();
    if (!more.ok) return { functions: this.functionsProto(), diagnostics: diags(more.diagnostics) };
    const functions = this.functionsProto();
    for (const [name, f] of Object.entries(more.functions)) functions[name] ??= functionToProto(functionDecl(f));
    return { functions, diagnostics: [] };
  }

  /** The functions the configured instance adds (none before ConfigureProvider). */
  private configuredFunctions(): { ok: true; functions: Readonly<Record<string, FunctionDefinition<M>>> } | { ok: false; diagnostics: Diagnostic[] } {
    if (this.meta === undefined || !this.def.configuredFunctions) return { ok: true, functions: {} };
    try {
      return { ok: true, functions: this.def.configuredFunctions(this.meta) };
    } catch (e) {
      return { ok: false, diagnostics: diagnosticsFromError(e, "GetFunctions") };
    }
  }

  getResourceIdentitySchemas(): { identity_schemas: Record<string, ProtoResourceIdentitySchema>; diagnostics: [] } {
    const identity_schemas: Record<string, ProtoResourceIdentitySchema> = {};
    for (const [name, r] of this.resources) {
      const id = r.def.identity;
      if (!id) continue;
      identity_schemas[name] = {
        version: id.version ?? 0,
        identity_attributes: Object.keys(id.attributes)
          .sort()
          .map((n) => {
            const a = id.attributes[n];
            return {
              name: n,
              type: utf8Encoder.encode(marshalType(a?.type ?? DynamicPseudoType)),
              required_for_import: a?.requiredForImport ?? false,
              optional_for_import: a?.optionalForImport ?? false,
              description: a?.description ?? "",
            };
          }),
      };
    }
    return { identity_schemas, diagnostics: [] };
  }

  // -------------------------------------------------------------------------------------------
  // Provider configuration

  private async runValidate(
    schema: Schema,
    type: Type,
    config: ProtoDynamicValue | null | undefined,
    custom: ((req: { config: Value; attrs: NativeObject }) => unknown) | undefined,
  ): Promise<ProtoDiagnosticsResponse> {
    const d = decodeDynamic(config, type);
    if (!d.ok) return { diagnostics: diags([errorDiagnostic("Invalid configuration", d.error)]) };
    const out = validateAttributes(schema.block, d.value);
    if (custom) {
      try {
        const r = (await custom({ config: d.value, attrs: toNativeObject(d.value) })) as readonly Diagnostic[] | undefined;
        if (r) out.push(...r);
      } catch (e) {
        out.push(...diagnosticsFromError(e, "validation"));
      }
    }
    return { diagnostics: diags(out) };
  }

  validateProviderConfig(req: ConfigRequest): Promise<ProtoDiagnosticsResponse> {
    return this.runValidate(this.def.schema, this.providerType, req.config, this.def.validate);
  }

  async configureProvider(req: ConfigureProviderRequest): Promise<ProtoDiagnosticsResponse> {
    const d = decodeDynamic(req.config, this.providerType);
    if (!d.ok) return { diagnostics: diags([errorDiagnostic("Invalid provider configuration", d.error)]) };
    if (!this.def.configure) return { diagnostics: [] };
    try {
      const r = await this.def.configure({ config: d.value, attrs: toNativeObject(d.value), terraformVersion: req.terraform_version ?? "" });
      if (r && "meta" in r) this.meta = r.meta;
      return { diagnostics: diags(r?.diagnostics ?? []) };
    } catch (e) {
      return { diagnostics: diags(diagnosticsFromError(e, "ConfigureProvider")) };
    }
  }

  async stopProvider(): Promise<ProtoStopResponse> {
    this.stopped = true;
    try {
      await this.def.stop?.();
      return { Error: "" };
    } catch (e) {
      return { Error: e instanceof Error ? e.message : String(e) };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Managed resources

  validateResourceConfig(req: ConfigRequest): Promise<ProtoDiagnosticsResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return Promise.resolve({ diagnostics: diags(this.unknownType("resource", req.type_name)) });
    return this.runValidate(r.schema, r.type, req.config, r.def.validate);
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<ProtoUpgradeResourceStateResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.type_name)) };
    const version = Number(req.version ?? 0);
    const current = r.schema.version ?? 0;
    const fail = (summary: string, detail: string): ProtoUpgradeResourceStateResponse => ({
      diagnostics: diags([errorDiagnostic(summary, detail)]),
    });
    if (version === current) {
      const d = decodeRawState(req.raw_state, r.type);
      if (!d.ok) return fail("Unable to Read Previously Saved State for UpgradeResourceState", d.error);
      return { upgraded_state: encodeDynamic(nullWriteOnly(r.schema.block, d.value), r.type), diagnostics: [] };
    }
    if (version > current) {
      return fail(
        "Unable to Upgrade Resource State",
        `The stored state for ${req.type_name} has schema version ${version}, newer than this provider's ${current}. Use a newer provider version.`,
      );
    }
    const upgrader = r.def.stateUpgraders?.[version];
    if (!upgrader) {
      return fail(
        "Unable to Upgrade Resource State",
        `This resource was implemented without an UpgradeState() method, however Terraform was expecting an implementation for version ${version} upgrade.\n\nThis is always an issue with the Terraform Provider and should be reported to the provider developer.`,
      );
    }
    const json = req.raw_state?.json && req.raw_state.json.length > 0 ? utf8Decoder.decode(req.raw_state.json) : undefined;
    let rawState: unknown;
    try {
      rawState = json !== undefined ? JSON.parse(json) : undefined;
    } catch (e) {
      return fail("Unable to Read Previously Saved State for UpgradeResourceState", e instanceof Error ? e.message : String(e));
    }
    let state: Value | undefined;
    if (upgrader.priorSchema) {
      const d = decodeRawState(req.raw_state, impliedType(upgrader.priorSchema.block));
      if (!d.ok) return fail("Unable to Read Previously Saved State for UpgradeResourceState", d.error);
      state = d.value;
    }
    try {
      const res = await upgrader.upgrade({ state, rawState, fromVersion: version });
      const v = stateFrom(res.state, nullVal(r.type), r.type);
      return { upgraded_state: encodeDynamic(v, r.type), diagnostics: diags(res.diagnostics ?? []) };
    } catch (e) {
      return { diagnostics: diags(diagnosticsFromError(e, "UpgradeResourceState")) };
    }
  }

  async readResource(req: ReadResourceRequest): Promise<ProtoReadResourceResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.type_name)) };
    const d = decodeDynamic(req.current_state, r.type);
    if (!d.ok) return { diagnostics: diags([errorDiagnostic("Invalid current state", d.error)]) };
    const priv = PrivateState.decode(req.private);
    if (d.value.kind === "null" || !r.def.read) {
      return { new_state: encodeDynamic(d.value, r.type), private: priv.encode(), diagnostics: [] };
    }
    try {
      const res = await r.def.read({ state: d.value, attrs: toNativeObject(d.value), meta: this.meta, typeName: req.type_name ?? "", private: priv });
      const next = stateFrom(res?.state, d.value, r.type);
      const out: Diagnostic[] = [...(res?.diagnostics ?? [])];
      return { new_state: encodeDynamic(next, r.type), private: priv.encode(), diagnostics: diags(out) };
    } catch (e) {
      return { new_state: encodeDynamic(d.value, r.type), private: priv.encode(), diagnostics: diags(diagnosticsFromError(e, "Read")) };
    }
  }

  async planResourceChange(req: PlanResourceChangeRequest): Promise<ProtoPlanResourceChangeResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.type_name)) };
    const prior = decodeDynamic(req.prior_state, r.type);
    const proposed = decodeDynamic(req.proposed_new_state, r.type);
    const config = decodeDynamic(req.config, r.type);
    for (const x of [prior, proposed, config]) if (!x.ok) return { diagnostics: diags([errorDiagnostic("Invalid plan request", x.error)]) };
    if (!prior.ok || !proposed.ok || !config.ok) throw new Error("unreachable");
    const priv = PrivateState.decode(req.prior_private);
    if (proposed.value.kind === "null") {
      return { planned_state: encodeDynamic(proposed.value, r.type), planned_private: priv.encode(), requires_replace: [], diagnostics: [] };
    }
    const out: Diagnostic[] = [];
    let planned: Value = proposed.value;
    let replace: readonly Path[] = [];
    const base = { prior: prior.value, proposed: proposed.value, config: config.value, meta: this.meta, typeName: req.type_name ?? "", private: priv };
    try {
      if (r.def.plan) {
        const res = await r.def.plan({ ...base, planned, requiresReplace: replace });
        planned = stateFrom(res.planned, planned, r.type);
        replace = res.requiresReplace ?? replace;
        out.push(...(res.diagnostics ?? []));
      } else {
        const o = planResourceChange(r.schema.block, prior.value, proposed.value, config.value);
        planned = o.planned;
        replace = o.requiresReplace;
        out.push(...o.diagnostics);
        if (r.def.modifyPlan && !hasErrors(out)) {
          const res = await r.def.modifyPlan({ ...base, planned, requiresReplace: replace });
          if (res) {
            planned = stateFrom(res.planned, planned, r.type);
            replace = res.requiresReplace ?? replace;
            out.push(...(res.diagnostics ?? []));
          }
        }
      }
    } catch (e) {
      out.push(...diagnosticsFromError(e, "PlanResourceChange"));
    }
    // Terraform rejects a plan that carries a value for a write-only attribute.
    planned = nullWriteOnly(r.schema.block, planned);
    return {
      planned_state: encodeDynamic(planned, r.type),
      requires_replace: replace.map(pathToProto),
      planned_private: priv.encode(),
      diagnostics: diags(out),
    };
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ProtoApplyResourceChangeResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.type_name)) };
    const prior = decodeDynamic(req.prior_state, r.type);
    const planned = decodeDynamic(req.planned_state, r.type);
    const config = decodeDynamic(req.config, r.type);
    for (const x of [prior, planned, config]) if (!x.ok) return { diagnostics: diags([errorDiagnostic("Invalid apply request", x.error)]) };
    if (!prior.ok || !planned.ok || !config.ok) throw new Error("unreachable");
    const priv = PrivateState.decode(req.planned_private);
    const typeName = req.type_name ?? "";
    const ctx = { meta: this.meta, typeName, private: priv };
    const respond = (state: Value, out: readonly Diagnostic[]): ProtoApplyResourceChangeResponse => ({
      new_state: encodeDynamic(state, r.type),
      private: priv.encode(),
      diagnostics: diags(out),
    });

    // Delete: Terraform sends a null planned state (and config).
    if (planned.value.kind === "null") {
      try {
        const res = await r.def.delete?.({ ...ctx, prior: prior.value, priorAttrs: toNativeObject(prior.value) });
        const out = res?.diagnostics ?? [];
        return respond(hasErrors(out) ? prior.value : nullVal(r.type), out);
      } catch (e) {
        return respond(prior.value, diagnosticsFromError(e, "Delete"));
      }
    }

    const isCreate = prior.value.kind === "null";
    const out: Diagnostic[] = [];
    let next: Value;
    try {
      const attrs = toNativeObject(planned.value);
      const res = isCreate
        ? await r.def.create({ ...ctx, planned: planned.value, config: config.value, attrs })
        : r.def.update
          ? await r.def.update({ ...ctx, planned: planned.value, config: config.value, attrs, prior: prior.value, priorAttrs: toNativeObject(prior.value) })
          : undefined;
      out.push(...(res?.diagnostics ?? []));
      if (hasErrors(out) && (res?.state === undefined || res.state === null)) {
        return respond(isCreate ? nullVal(r.type) : prior.value, out);
      }
      next = stateFrom(res?.state, planned.value, r.type);
    } catch (e) {
      return respond(isCreate ? nullVal(r.type) : prior.value, diagnosticsFromError(e, isCreate ? "Create" : "Update"));
    }
    next = nullWriteOnly(r.schema.block, next);
    if (next.kind === "null") {
      out.push(errorDiagnostic("Missing Resource State After " + (isCreate ? "Create" : "Update"), `The ${typeName} resource returned no state.`));
      return respond(isCreate ? nullVal(r.type) : prior.value, out);
    }
    const unknown = unknownPaths(next);
    if (unknown.length > 0) {
      out.push(
        ...unknown.map((p) =>
          errorDiagnostic(
            "Provider returned invalid result object after apply",
            `After the apply operation, the provider still indicated an unknown value for ${typeName}${formatPath(p)}. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository.`,
          ),
        ),
      );
      return respond(isCreate ? nullVal(r.type) : prior.value, out);
    }
    return respond(next, out);
  }

  async importResourceState(req: ImportResourceStateRequest): Promise<ProtoImportResourceStateResponse> {
    const r = this.resources.get(req.type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.type_name)) };
    if (!r.def.importState) {
      return {
        diagnostics: diags([
          errorDiagnostic(
            "Resource Import Not Implemented",
            `This resource does not support import. Please contact the provider developer for additional information.`,
          ),
        ]),
      };
    }
    // Import by identity: the identity decoded with the type's identity schema.
    let identity: Value | undefined;
    const identityData = req.identity?.identity_data;
    if (identityData && r.def.identity) {
      const d = decodeDynamic(identityData, identityType(r.def.identity));
      if (!d.ok) return { diagnostics: diags([errorDiagnostic("Invalid resource identity", d.error)]) };
      identity = d.value;
    }
    try {
      const res = await r.def.importState({ id: req.id ?? "", ...(identity ? { identity } : {}), meta: this.meta, typeName: req.type_name ?? "" });
      const out = res.diagnostics ?? [];
      if (hasErrors(out) || res.state === undefined) return { imported_resources: [], diagnostics: diags(out) };
      const state = stateFrom(res.state, nullVal(r.type), r.type);
      const priv = PrivateState.empty();
      for (const [k, v] of Object.entries(res.private ?? {})) priv.set(k, v);
      return {
        imported_resources: [{ type_name: req.type_name ?? "", state: encodeDynamic(state, r.type), private: priv.encode() }],
        diagnostics: diags(out),
      };
    } catch (e) {
      return { imported_resources: [], diagnostics: diags(diagnosticsFromError(e, "ImportState")) };
    }
  }

  async moveResourceState(req: MoveResourceStateRequest): Promise<ProtoMoveResourceStateResponse> {
    const r = this.resources.get(req.target_type_name ?? "");
    if (!r) return { diagnostics: diags(this.unknownType("resource", req.target_type_name)) };
    const json = req.source_state?.json && req.source_state.json.length > 0 ? utf8Decoder.decode(req.source_state.json) : "null";
    const notSupported = (): ProtoMoveResourceStateResponse => ({
      diagnostics: diags([
        errorDiagnostic(
          "Unable to Move Resource State",
          `The target resource type ${req.target_type_name} does not support moving state from ${req.source_provider_address} ${req.source_type_name}.`,
        ),
      ]),
    });
    if (!r.def.moveState) return notSupported();
    try {
      const res = await r.def.moveState({
        sourceProviderAddress: req.source_provider_address ?? "",
        sourceTypeName: req.source_type_name ?? "",
        sourceSchemaVersion: Number(req.source_schema_version ?? 0),
        rawState: JSON.parse(json) as unknown,
        rawStateJSON: json,
        sourcePrivate: req.source_private ?? new Uint8Array(),
      });
      if (!res) return notSupported();
      const target_private = req.source_private ?? new Uint8Array();
      if ("raw" in res) return { target_state: { json: utf8Encoder.encode(res.raw.json) }, target_private, diagnostics: diags(res.diagnostics ?? []) };
      const state = stateFrom(res.state, nullVal(r.type), r.type);
      return { target_state: encodeDynamic(state, r.type), target_private, diagnostics: diags(res.diagnostics ?? []) };
    } catch (e) {
      return { diagnostics: diags(diagnosticsFromError(e, "MoveResourceState")) };
    }
  }

  /** Decodes stored JSON state with a resource type's current schema (for moveState handlers). */
  decodeState(typeName: string, json: string): Value | undefined {
    const r = this.resources.get(typeName);
    if (!r) return undefined;
    const d = decodeStateJSON(json, r.type);
    return d.ok ? d.value : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Data sources

  validateDataResourceConfig(req: ConfigRequest): Promise<ProtoDiagnosticsResponse> {
    const d = this.dataSources.get(req.type_name ?? "");
    if (!d) return Promise.resolve({ diagnostics: diags(this.unknownType("data source", req.type_name)) });
    return this.runValidate(d.schema, d.type, req.config, d.def.validate);
  }

  async readDataSource(req: ConfigRequest): Promise<ProtoReadDataSourceResponse> {
    const d = this.dataSources.get(req.type_name ?? "");
    if (!d) return { diagnostics: diags(this.unknownType("data source", req.type_name)) };
    const config = decodeDynamic(req.config, d.type);
    if (!config.ok) return { diagnostics: diags([errorDiagnostic("Invalid configuration", config.error)]) };
    try {
      const res = await d.def.read({ config: config.value, attrs: toNativeObject(config.value), meta: this.meta, typeName: req.type_name ?? "" });
      const out: Diagnostic[] = [...(res.diagnostics ?? [])];
      if (hasErrors(out)) return { diagnostics: diags(out) };
      const state = stateFrom(res.state, config.value, d.type);
      for (const p of unknownPaths(state)) {
        out.push(errorDiagnostic("Provider produced invalid object", `The data source ${req.type_name} left ${formatPath(p)} unknown after reading.`));
      }
      if (hasErrors(out)) return { diagnostics: diags(out) };
      return { state: encodeDynamic(state, d.type), diagnostics: diags(out) };
    } catch (e) {
      return { diagnostics: diags(diagnosticsFromError(e, "Read")) };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Ephemeral resources

  validateEphemeralResourceConfig(req: ConfigRequest): Promise<ProtoDiagnosticsResponse> {
    const e = this.ephemerals.get(req.type_name ?? "");
    if (!e) return Promise.resolve({ diagnostics: diags(this.unknownType("ephemeral resource", req.type_name)) });
    return this.runValidate(e.schema, e.type, req.config, e.def.validate);
  }

  async openEphemeralResource(req: ConfigRequest): Promise<OpenEphemeralResourceResponse> {
    const e = this.ephemerals.get(req.type_name ?? "");
    if (!e) return { diagnostics: diags(this.unknownType("ephemeral resource", req.type_name)) };
    const config = decodeDynamic(req.config, e.type);
    if (!config.ok) return { diagnostics: diags([errorDiagnostic("Invalid configuration", config.error)]) };
    try {
      const res = await e.def.open({ config: config.value, attrs: toNativeObject(config.value), meta: this.meta, typeName: req.type_name ?? "" });
      const priv = PrivateState.empty();
      for (const [k, v] of Object.entries(res.private ?? {})) priv.set(k, v);
      const out: OpenEphemeralResourceResponse = {
        diagnostics: diags(res.diagnostics ?? []),
        result: encodeDynamic(stateFrom(res.result, config.value, e.type), e.type),
        private: priv.encode(),
      };
      if (res.renewAt) out.renew_at = toTimestamp(res.renewAt);
      return out;
    } catch (err) {
      return { diagnostics: diags(diagnosticsFromError(err, "Open")) };
    }
  }

  async renewEphemeralResource(req: EphemeralPrivateRequest): Promise<RenewEphemeralResourceResponse> {
    const e = this.ephemerals.get(req.type_name ?? "");
    if (!e) return { diagnostics: diags(this.unknownType("ephemeral resource", req.type_name)) };
    const priv = PrivateState.decode(req.private);
    try {
      const res = await e.def.renew?.({ private: priv, meta: this.meta });
      const out: RenewEphemeralResourceResponse = { diagnostics: diags(res?.diagnostics ?? []), private: priv.encode() };
      if (res?.renewAt) out.renew_at = toTimestamp(res.renewAt);
      return out;
    } catch (err) {
      return { diagnostics: diags(diagnosticsFromError(err, "Renew")) };
    }
  }

  async closeEphemeralResource(req: EphemeralPrivateRequest): Promise<ProtoDiagnosticsResponse> {
    const e = this.ephemerals.get(req.type_name ?? "");
    if (!e) return { diagnostics: diags(this.unknownType("ephemeral resource", req.type_name)) };
    try {
      const res = await e.def.close?.({ private: PrivateState.decode(req.private), meta: this.meta });
      return { diagnostics: diags(res?.diagnostics ?? []) };
    } catch (err) {
      return { diagnostics: diags(diagnosticsFromError(err, "Close")) };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Functions

  async callFunction(req: CallFunctionRequest): Promise<ProtoCallFunctionResponse> {
    const name = req.name ?? "";
    const more = this.configuredFunctions();
    const f: FunctionDefinition<M> | undefined = this.def.functions?.[name] ?? (more.ok ? more.functions[name] : undefined);
    if (!f) return { error: { text: `Function ${JSON.stringify(req.name ?? "")} not found in the provider.` } };
    const given = req.arguments ?? [];
    if (given.length < f.parameters.length || (!f.variadicParameter && given.length > f.parameters.length)) {
      return { error: { text: `Function ${req.name} expects ${f.parameters.length} argument(s), got ${given.length}.` } };
    }
    const args: Value[] = [];
    for (let i = 0; i < given.length; i++) {
      const p = (f.parameters[i] ?? f.variadicParameter) as FunctionParameter;
      const d = decodeDynamic(given[i], p.type);
      if (!d.ok) return { error: { text: `Invalid value for parameter ${p.name}: ${d.error}`, function_argument: i } };
      if (d.value.kind === "null" && !p.allowNull) return { error: { text: "argument must not be null", function_argument: i } };
      args.push(d.value);
    }
    try {
      const result = await f.run(args, this.meta);
      const v = fromNative(result, f.returnType);
      return { result: encodeDynamic(v, f.returnType.kind === "dynamic" ? DynamicPseudoType : f.returnType) };
    } catch (e) {
      if (e instanceof FunctionError) return { error: { text: e.message, ...(e.argument !== undefined ? { function_argument: e.argument } : {}) } };
      return { error: { text: e instanceof Error ? e.message : String(e) } };
    }
  }
}
