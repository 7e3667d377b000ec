// Public surface of providers/builtin. See README.md.
export {
  BUILTIN_PROVIDER_ADDR,
  BuiltinTerraformProvider,
  generateUUID,
  terraformDataSchema,
  terraformRemoteStateSchema,
  type BuiltinProviderOptions,
} from "./provider.js";
export {
  coerceBackendConfig,
  localRemoteStateBackend,
  outputsFromStateJSON,
  type RemoteStateBackend,
  type RemoteStateBackends,
  type RemoteStateOutputsResult,
  type RemoteStateStore,
  type StateFileReader,
} from "./remote_state.js";
export {
  httpRemoteStateBackend,
  standardRemoteStateBackends,
  terraceRemoteStateBackend,
  type HttpRemoteStateOptions,
  type TerraceRemoteStateOptions,
} from "./remote_state_http.js";
