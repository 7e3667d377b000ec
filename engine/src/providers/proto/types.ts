// TypeScript shapes of the protocol messages as ./codec.ts decodes them (@grpc/proto-loader's
// shapes: snake_case fields, int64 as number, enums as names, bytes as Buffer).
// Every field is optional: a sender may leave any out, and a receiver must treat absent, null
// and default alike (proto3 does). tfplugin5 and tfplugin6 share these shapes; where protocol 5
// differs (no nested_type) the field is simply never set. Shapes cover the RPCs Terrace uses.

export type ProtoBytes = Uint8Array;

export interface ProtoDynamicValue {
  msgpack?: ProtoBytes | null;
  json?: ProtoBytes | null;
}

export type ProtoSeverity = "INVALID" | "ERROR" | "WARNING";

export interface ProtoAttributePathStep {
  attribute_name?: string | null;
  element_key_string?: string | null;
  element_key_int?: number | string | null;
  /** Which member of the oneof is set (a virtual field named after the oneof). */
  selector?: "attribute_name" | "element_key_string" | "element_key_int";
}

export interface ProtoAttributePath {
  steps?: ProtoAttributePathStep[];
}

export interface ProtoDiagnostic {
  severity?: ProtoSeverity | number;
  summary?: string;
  detail?: string;
  attribute?: ProtoAttributePath | null;
}

export interface ProtoFunctionError {
  text?: string;
  function_argument?: number | string | null;
}

export type ProtoStringKind = "PLAIN" | "MARKDOWN";

export type ProtoBlockNesting = "INVALID" | "SINGLE" | "LIST" | "SET" | "MAP" | "GROUP";
export type ProtoObjectNesting = "INVALID" | "SINGLE" | "LIST" | "SET" | "MAP";

export interface ProtoSchemaAttribute {
  name?: string;
  /** The attribute's type as cty's JSON type encoding (e.g. `"string"`, `["list","number"]`). */
  type?: ProtoBytes | null;
  nested_type?: ProtoSchemaObject | null;
  description?: string;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  description_kind?: ProtoStringKind | number;
  deprecated?: boolean;
  write_only?: boolean;
  deprecation_message?: string;
}

export interface ProtoSchemaObject {
  attributes?: ProtoSchemaAttribute[];
  nesting?: ProtoObjectNesting | number;
  min_items?: number | string;
  max_items?: number | string;
}

export interface ProtoSchemaNestedBlock {
  type_name?: string;
  block?: ProtoSchemaBlock | null;
  nesting?: ProtoBlockNesting | number;
  min_items?: number | string;
  max_items?: number | string;
}

export interface ProtoSchemaBlock {
  version?: number | string;
  attributes?: ProtoSchemaAttribute[];
  block_types?: ProtoSchemaNestedBlock[];
  description?: string;
  description_kind?: ProtoStringKind | number;
  deprecated?: boolean;
  deprecation_message?: string;
}

export interface ProtoSchema {
  version?: number | string;
  block?: ProtoSchemaBlock | null;
}

export interface ProtoFunctionParameter {
  name?: string;
  type?: ProtoBytes | null;
  allow_null_value?: boolean;
  allow_unknown_values?: boolean;
  description?: string;
  description_kind?: ProtoStringKind | number;
}

export interface ProtoFunction {
  parameters?: ProtoFunctionParameter[];
  variadic_parameter?: ProtoFunctionParameter | null;
  return?: { type?: ProtoBytes | null } | null;
  summary?: string;
  description?: string;
  description_kind?: ProtoStringKind | number;
  deprecation_message?: string;
}

export interface ProtoServerCapabilities {
  plan_destroy?: boolean;
  get_provider_schema_optional?: boolean;
  move_resource_state?: boolean;
  generate_resource_config?: boolean;
}

export interface ProtoClientCapabilities {
  deferral_allowed?: boolean;
  write_only_attributes_allowed?: boolean;
}

export type ProtoDeferredReason = "UNKNOWN" | "RESOURCE_CONFIG_UNKNOWN" | "PROVIDER_CONFIG_UNKNOWN" | "ABSENT_PREREQ";

export interface ProtoDeferred {
  reason?: ProtoDeferredReason | number;
}

export interface ProtoRawState {
  json?: ProtoBytes | null;
  flatmap?: Record<string, string>;
}

export interface ProtoResourceIdentityData {
  identity_data?: ProtoDynamicValue | null;
}

export interface ProtoGetResourceIdentitySchemasResponse {
  identity_schemas?: Record<string, { version?: number | string; identity_attributes?: Array<{ name?: string; type?: ProtoBytes; required_for_import?: boolean; optional_for_import?: boolean; description?: string }> }>;
  diagnostics?: ProtoDiagnostic[];
}

export interface ProtoGetProviderSchemaResponse {
  provider?: ProtoSchema | null;
  resource_schemas?: Record<string, ProtoSchema>;
  data_source_schemas?: Record<string, ProtoSchema>;
  ephemeral_resource_schemas?: Record<string, ProtoSchema>;
  diagnostics?: ProtoDiagnostic[];
  provider_meta?: ProtoSchema | null;
  server_capabilities?: ProtoServerCapabilities | null;
  functions?: Record<string, ProtoFunction>;
}

export interface ProtoDiagnosticsResponse {
  diagnostics?: ProtoDiagnostic[];
}

export interface ProtoPrepareProviderConfigResponse {
  prepared_config?: ProtoDynamicValue | null;
  diagnostics?: ProtoDiagnostic[];
}

export interface ProtoUpgradeResourceStateResponse {
  upgraded_state?: ProtoDynamicValue | null;
  diagnostics?: ProtoDiagnostic[];
}

export interface ProtoReadResourceResponse {
  new_state?: ProtoDynamicValue | null;
  diagnostics?: ProtoDiagnostic[];
  private?: ProtoBytes | null;
  deferred?: ProtoDeferred | null;
  new_identity?: ProtoResourceIdentityData | null;
}

export interface ProtoPlanResourceChangeResponse {
  planned_state?: ProtoDynamicValue | null;
  requires_replace?: ProtoAttributePath[];
  planned_private?: ProtoBytes | null;
  diagnostics?: ProtoDiagnostic[];
  legacy_type_system?: boolean;
  deferred?: ProtoDeferred | null;
  planned_identity?: ProtoResourceIdentityData | null;
}

export interface ProtoApplyResourceChangeResponse {
  new_state?: ProtoDynamicValue | null;
  private?: ProtoBytes | null;
  diagnostics?: ProtoDiagnostic[];
  legacy_type_system?: boolean;
  new_identity?: ProtoResourceIdentityData | null;
}

export interface ProtoImportedResource {
  type_name?: string;
  state?: ProtoDynamicValue | null;
  private?: ProtoBytes | null;
  identity?: ProtoResourceIdentityData | null;
}

export interface ProtoImportResourceStateResponse {
  imported_resources?: ProtoImportedResource[];
  diagnostics?: ProtoDiagnostic[];
  deferred?: ProtoDeferred | null;
}

export interface ProtoMoveResourceStateResponse {
  target_state?: ProtoDynamicValue | null;
  diagnostics?: ProtoDiagnostic[];
  target_private?: ProtoBytes | null;
  target_identity?: ProtoResourceIdentityData | null;
}

export interface ProtoReadDataSourceResponse {
  state?: ProtoDynamicValue | null;
  diagnostics?: ProtoDiagnostic[];
  deferred?: ProtoDeferred | null;
}

/** google.protobuf.Timestamp as decoded (int64 seconds as a number). */
export interface ProtoTimestamp {
  seconds?: number | string | null;
  nanos?: number | null;
}

export interface ProtoOpenEphemeralResourceResponse {
  diagnostics?: ProtoDiagnostic[];
  renew_at?: ProtoTimestamp | null;
  result?: ProtoDynamicValue | null;
  private?: Uint8Array | null;
  deferred?: ProtoDeferred | null;
}

export interface ProtoRenewEphemeralResourceResponse {
  diagnostics?: ProtoDiagnostic[];
  renew_at?: ProtoTimestamp | null;
  private?: Uint8Array | null;
}

export interface ProtoGetFunctionsResponse {
  functions?: Record<string, ProtoFunction>;
  diagnostics?: ProtoDiagnostic[];
}

export interface ProtoCallFunctionResponse {
  result?: ProtoDynamicValue | null;
  error?: ProtoFunctionError | null;
}

export interface ProtoStopResponse {
  Error?: string;
}

export type ProtoStdioChannel = "INVALID" | "STDOUT" | "STDERR";

export interface ProtoStdioData {
  channel?: ProtoStdioChannel | number;
  data?: ProtoBytes | null;
}
