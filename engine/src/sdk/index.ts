// Public surface of the provider SDK. See README.md.

export { generatePluginCertificate, type PluginCertificate } from "./cert.js";
export { conform, decodeDynamic, decodeFlatmap, decodeRawState, decodeStateJSON, encodeDynamic, type Decoded } from "./codec.js";
export {
  ProviderError,
  diagnosticToProto,
  diagnosticsFromError,
  errorDiagnostic,
  hasErrors,
  pathToProto,
  warningDiagnostic,
  type Diagnostic,
  type Severity,
} from "./diagnostics.js";
export {
  providerSchemaJSON,
  providerSchemaResponseJSON,
  schemaToJSON,
  type AttributeJSON,
  type BlockJSON,
  type FunctionJSON,
  type FunctionParameterJSON,
  type NestedBlockJSON,
  type NestedTypeJSON,
  type ProviderSchemaJSON,
  type SchemaJSON,
} from "./export.js";
export { NativeTypeError, UNKNOWN, fromNative, inferType, toNative, toNativeObject, type Native, type NativeList, type NativeObject } from "./native.js";
export { requiresReplace, requiresReplaceIf, useStateForUnknown, type AttributePlanRequest, type AttributePlanResponse, type PlanModifier } from "./planmodifiers.js";
export { planResourceChange, validateAttributes, type PlanOutcome } from "./planning.js";
export { PrivateState, type JSONValue } from "./private.js";
export { providerLogger, requestLogger } from "./log.js";
export type { Logger, LogValue } from "../logging/index.js";
export {
  FunctionError,
  defineProvider,
  importPassthrough,
  type ApplyResult,
  type ConfigureRequest,
  type ConfigureResult,
  type CreateRequest,
  type DataReadRequest,
  type DataSourceDefinition,
  type DeleteRequest,
  type EphemeralOpenResult,
  type EphemeralResourceDefinition,
  type FunctionDefinition,
  type FunctionParameter,
  type IdentityAttribute,
  type IdentitySchema,
  type ImportRequest,
  type ImportResult,
  type MaybePromise,
  type MoveRequest,
  type MoveResult,
  type PlanRequest,
  type PlanResult,
  type ProviderDefinition,
  type ReadRequest,
  type ReadResult,
  type ResourceDefinition,
  type StateData,
  type StateUpgrader,
  type UpdateRequest,
  type UpgradeRequest,
  type ValidateRequest,
} from "./provider.js";
export {
  attributeType,
  configBlock,
  configSchema,
  functionDecl,
  impliedType,
  validateSchema,
  type Attribute,
  type AttributeNesting,
  type Block,
  type BlockNesting,
  type DescriptionKind,
  type NestedAttributes,
  type NestedBlock,
  type Schema,
} from "./schema.js";
export {
  CORE_PROTOCOL_VERSION,
  MAGIC_COOKIE_KEY,
  MAGIC_COOKIE_VALUE,
  NOT_A_PLUGIN_MESSAGE,
  PROTOCOL_VERSION,
  negotiateProtocol,
  reattachAssignment,
  servePlugin,
  startPlugin,
  type RunningPlugin,
  type ServeOptions,
  type ServePluginOptions,
} from "./serve.js";
export { ProviderServer, stateFrom } from "./server.js";
export {
  atLeast,
  atMost,
  attributePathString,
  between,
  lengthBetween,
  matches,
  oneOf,
  type ValidateContext,
  type Validator,
} from "./validators.js";
