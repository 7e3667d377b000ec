// The public surface of the states module (OpenTofu's internal/states, states/statefile and
// states/remote): the state model, snapshot files, and state stores. See README.md.
export {
  ObjectReady,
  ObjectTainted,
  ObjectPlanned,
  NotDeposed,
  newDeposedKey,
  newObjectSrc,
  deepCopyObjectSrc,
  decodeObject,
  encodeObject,
  type ObjectStatus,
  type DeposedKey,
  type ResourceInstanceObjectSrc,
  type ResourceInstanceObject,
  type DecodeResult,
} from "./objects.js";
export {
  State,
  Module,
  Resource,
  ResourceInstance,
  newState,
  statesEqual,
  objectSrcEqual,
  type OutputValue,
  type CheckResults,
  type CheckResultAggregate,
  type CheckResultObject,
  type CheckStatus,
  type CheckableKind,
} from "./state.js";
export {
  DEFAULT_TOFU_VERSION,
  newFile,
  deepCopyFile,
  newLineage,
  readStateFile,
  writeStateFile,
  statesMarshalEqual,
  type File,
  type ReadResult,
  type ReadOptions,
  type WriteOptions,
  type WriteResult,
} from "./file.js";
export { SyncState, type StateChange, type StateObserver } from "./sync.js";
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
export { LocalStore, lockInfoPath, writeFileAtomic, DEFAULT_STATE_FILENAME, DEFAULT_BACKUP_EXTENSION, type LocalStoreOptions } from "./local.js";
export {
  HttpClient,
  newHttpStore,
  newTerraceStore,
  terraceHttpConfig,
  type HttpBackendConfig,
  type TerraceServerConfig,
} from "./http.js";
export { saveErroredState, persistOrSaveErrored, ERRORED_STATE_FILENAME, type ErroredResult, type ErroredStateOptions } from "./errored.js";
