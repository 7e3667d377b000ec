// State history, read side: list versions, show one (instances grouped by module, per-instance
// provider addresses, masked outputs and attributes), diff two, download raw. See README.md.
export { hclQuote, formatKey, formatPath, instanceAddress, resourceAddress, compareKeys, type InstanceKey, type PathStep } from "./addresses";
export { readSensitivePaths, maskValue, SENSITIVE_TEXT, type SensitiveNode, type SensitiveInfo } from "./sensitive";
export { indexState, StateFormatError, type StateIndex, type StateObject, type InstanceRow, type ModuleSummary } from "./state-index";
export { versionOverview, instancePage, instanceDetail, type InstanceDetail, type OutputView } from "./views";
export { diffStates, diffPage, objectChanges, MAX_CHANGES_PER_OBJECT, type StateDiff, type DiffRow, type AttributeChange, type OutputChange } from "./diff";
export {
  parseSerial,
  findVersion,
  listVersions,
  toDto,
  toDtos,
  storedContent,
  loadIndex,
  loadDiff,
  clearStateViewCaches,
  isIndexCached,
  type StateVersionDto,
  type VersionRow,
} from "./service";
export { readStateContent } from "./content";
