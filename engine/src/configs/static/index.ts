// Static evaluation (OpenTofu's static evaluator, scope and identifiers, and their uses in
// configs): variables, locals, path.*, terraform.workspace and built-in functions evaluated at
// load time for module sources and versions, backend configuration and provider for_each.
// Re-exported by configs/index.ts. See README.md.
export { staticIdentifierString, type StaticIdentifier } from "./identifier.js";
export { newStaticModuleCall, rootModuleCallForTesting, type StaticModuleCall, type StaticModuleVariables } from "./call.js";
export { StaticEvaluator } from "./evaluator.js";
export type { ScopeResult } from "./scope.js";
export { referencesInExpr } from "./references.js";
export { staticFunctionTable, defaultStaticFunctions } from "./functions.js";
export { evaluateForEachExpression, type ForEachContextFunc } from "./foreach.js";
export {
  decodeStaticBlock,
  impliedType,
  noneRequired,
  type StaticAttributeSchema,
  type StaticBlockSchema,
  type StaticNestedBlockSchema,
} from "./blockspec.js";
export { decodeBackendConfig, checkBackendReferences } from "./backend.js";
export { decodeModuleCallStaticFields, moduleCallVariables, childModuleCall } from "./modulecall.js";
export { decodeProviderStaticFields, eachObject } from "./provider.js";
export { applyStaticModuleCall } from "./module.js";
export { staticModuleWalker } from "./walker.js";
export {
  inputVariableDeclaration,
  inputVariableDeclarations,
  RootModuleInputs,
  rootModuleCall,
  loadConfigWithRootInputs,
  withRootInputs,
} from "./variables.js";
