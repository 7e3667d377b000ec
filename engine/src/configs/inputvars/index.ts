// Public surface of configs/inputvars: root module input variable values from the environment,
// variables files, -var/-var-file and prompts, to final values checked by validation rules.
// Browser-safe: files are read through `VariableFileSystem`, prompts through `VariablePrompter`.
export {
  concreteType,
  isRequired,
  parseRawValue,
  parsingModeFor,
  type InputVariableDeclaration,
  type ParsedValue,
  type VariableParsingMode,
  type VariableValidation,
} from "./declaration.js";
export {
  DEFAULT_VARS_FILENAME,
  VAR_ENV_PREFIX,
  addVarsFromDir,
  addVarsFromFile,
  collectVariableValues,
  isAutoVarFile,
  parseVariablesFile,
  type CollectOptions,
  type CollectResult,
  type ParsedVariablesFile,
  type UnparsedVariableValue,
  type ValueSourceType,
  type VariableArg,
  type VariableFileSystem,
} from "./sources.js";
export {
  parseDeclaredVariableValues,
  parseUndeclaredVariableValues,
  parseVariableValue,
  parseVariableValues,
  type InputValue,
  type InputValues,
  type ParseResult,
  type ParseVariableValuesResult,
} from "./parse.js";
export { interactiveCollectVariables, type VariablePrompter, type VariablePromptRequest } from "./prompt.js";
export { markVariableValue, prepareFinalInputVariableValue, type FinalValueResult } from "./finalize.js";
export { evalVariableValidations, evalVariableValidation, type CheckStatus, type ValidationResult, type ValidationScope } from "./validate.js";
export {
  buildInputVariables,
  finalizeInputVariables,
  type Declarations,
  type FinalizeResult,
  type InputVariablesOptions,
  type InputVariablesResult,
} from "./inputvars.js";
export { evaluateWithoutContext } from "./nilcontext.js";
