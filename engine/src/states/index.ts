// The public surface of the states module (OpenTofu's internal/states, states/statefile and
// states/remote): the state model, snapshot files, and state stores. See README.md. The model and
// files alone, without the Node-only stores, are `model.ts`, the entry for browser code.
export * from "./model.js";
export {
  newLockInfo,
  marshalLockInfo,
  parseLockInfo,
  lockInfoString,
  lockErrorString,
  lockErrorRetriable,
  lockErrorDiagnostic,
  unlockErrorDiagnostic,
  lockWithTimeout,
  acquireLock,
  formatRFC3339Nano,
  goTimeString,
  type LockInfo,
  type LockError,
  type StoreError,
  type LockResult,
  type UnlockResult,
  type Locker,
} from "./lock.js";
export { RemoteState, type StateStore, type SnapshotMeta, type RemoteClient, type Payload, type ClientResult, type RemoteStateOptions } from "./store.js";
export {
  LocalStore,
  lockInfoPath,
  writeFileAtomic,
  DEFAULT_STATE_FILENAME,
  DEFAULT_BACKUP_EXTENSION,
  DEFAULT_PERSIST_INTERVAL_MS,
  type JournalOptions,
  type LocalStoreOptions,
} from "./local.js";
export {
  HttpClient,
  newHttpStore,
  newTerraceStore,
  terraceHttpConfig,
  type HttpBackendConfig,
  type TerraceServerConfig,
} from "./http.js";
export { saveErroredState, persistOrSaveErrored, ERRORED_STATE_FILENAME, type ErroredResult, type ErroredStateOptions } from "./errored.js";
export {
  moveStateObjects,
  sourceObjectAddrs,
  validateResourceMove,
  removeResourceInstances,
  resourcesUsingProvider,
  replaceProvider,
  setTainted,
  checkValidImport,
  type MoveResult,
  type TaintResult,
} from "./mutate.js";
