// The browser-safe surface of the states module: the state model, snapshot files (the v4 reader
// and writer, over bytes) and SyncState, with no Node API underneath, for the plan view and
// anything else that runs in a browser. `index.ts` is this plus the Node-only stores.
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
  decryptionErrorDiagnostic,
  type File,
  type StateEncryption,
  type ReadResult,
  type ReadOptions,
  type WriteOptions,
  type WriteResult,
} from "./file.js";
export { SyncState, type StateChange, type StateObserver } from "./sync.js";
