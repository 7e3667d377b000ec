// State hosting: versions, locks and the `backend "http"` protocol. See README.md.
export { getState, putState, lockState, unlockState, tunnelledMethod, forceUnlock, type StateParams } from "./protocol";
export { getLockStatus, deleteLock, rollback } from "./manage";
export { writeStateVersion, currentState, rollbackStateVersion, type WriteInput, type WriteOutcome, type StateWorkspace } from "./versions";
export { acquireLock, releaseLock, forceReleaseLock, currentLock, lockJson, lockStatusView } from "./locks";
export { parseSnapshot, sameSnapshot, type SnapshotSummary } from "./snapshot";
export { parseLockBody, type LockBody } from "./lock-info";
export { digests, verifyContentMd5, type Digests } from "./digest";
export { rewriteSerial } from "./serial";
export { stateVersionView, VERSION_META, type VersionMeta, type StateVersionView } from "./view";
export { StateLockedError, lockedResponse, lockConflictResponse } from "./errors";
export { maxStateBytes } from "./config";
export type * from "./types";
