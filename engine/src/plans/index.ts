// The public surface of plans (OpenTofu's internal/plans, plans/planfile, command/jsonplan,
// jsonstate, jsonconfig, jsonchecks and the jsonformat human renderer). Browser-safe: the plan
// file functions take and return bytes. See README.md.
export {
  ALL_ACTIONS,
  actionStrings,
  parseActionStrings,
  isReplace,
  actionReasonJSON,
  parseActionReasonJSON,
  type Action,
  type ActionReason,
} from "./action.js";
export {
  emptyChanges,
  changesEmpty,
  isQuietNoOp,
  resourceInstanceChange,
  outputChange,
  newResourceInstanceChange,
  providerInstanceString,
  type Change,
  type Changes,
  type Importing,
  type OutputChange,
  type ResourceInstanceChange,
} from "./changes.js";
export { newPlan, planCanApply, type Plan, type PlanBackend, type ResourceAttr, type UIMode } from "./plan.js";
export { newSchemas, resourceTypeLookup, blockContainsSensitive, schemaValueMarks, type Schemas, type ResourceTypeSchema, type ProviderSchemaSet } from "./schemas.js";
export {
  STATE_FORMAT_VERSION,
  marshalStateJSON,
  marshalStateValues,
  sensitiveAsBool,
  valueJSON,
  type MarshalResult,
  type StateJSONOptions,
} from "./jsonstate.js";
export {
  PLAN_FORMAT_VERSION,
  marshalPlanJSON,
  marshalPlanForRenderer,
  marshalResourceChanges,
  marshalOutputChanges,
  omitUnknowns,
  unknownAsBool,
  encodePath,
  visibleDrift,
  type PlanJSONOptions,
} from "./jsonplan.js";
export { marshalConfigJSON, marshalSingleModuleJSON, noExpressions, type ExpressionMarshaler } from "./jsonconfig.js";
export { goMap } from "./gojson.js";
export { marshalCheckResults } from "./jsonchecks.js";
export {
  PLAN_NOTES_FILENAME,
  TFPLAN_FILENAME,
  TFSTATE_FILENAME,
  TFSTATE_PREV_FILENAME,
  DEPENDENCY_LOCKS_FILENAME,
  CONFIG_SNAPSHOT_PREFIX,
  CONFIG_SNAPSHOT_MANIFEST,
  writePlanFile,
  readPlanFile,
  type PlanFileContents,
  type PlanFileReadResult,
  type PlanFileWriteResult,
  type WritePlanFileOptions,
  type ConfigSnapshot,
  type SnapshotModule,
} from "./planfile.js";
export { TFPLAN_FORMAT_VERSION, decodeTfplan, type ResourceTypeLookup } from "./planproto.js";
export { renderHumanPlan, type BlockLookup, type HumanRenderOptions, type RenderResult } from "./render/plan.js";
export { renderHumanState, type HumanStateResult } from "./render/state.js";
export { wordWrap, wrapString, horizontalRule, diffActionSymbol, newColorize, type Colorize } from "./render/format.js";
export { parseJSON as parseGenericJSON, JNumber, type J } from "./render/json.js";
