// Public surface of providers/contract. See README.md.
export { assertObjectCompatible, assertPlanValid } from "./objchange.js";
export { checkApplyResult, checkFinalPlan, checkPlan, formatErrorPrefixed, toleratedProblemsMessage, unknownAsNull } from "./diagnostics.js";
export { typeGoString, valueGoString } from "./gostring.js";
