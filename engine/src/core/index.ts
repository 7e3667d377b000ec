// The public surface of core (OpenTofu's internal/tofu): graph builders and node executors for
// plan and apply, expansion of count/for_each, the evaluation scope, provider instances per run.
// See README.md.
export { Context, DEFAULT_PARALLELISM, type ApplyOptions, type ContextOptions, type PlanOptions, type PlanResult } from "./context.js";
export { ProviderManager, providersNeeded, type ProviderFactory, type ProviderFactoryResult, type ProviderInstanceAddr, type ResourceInstanceProvider } from "./providers.js";
export { proposedNew, allBlockAttributesNull } from "./objchange.js";
export { evaluateCount, evaluateExpansion, expansionKeys, repetitionFor, Expander, type Expansion, type RepetitionData } from "./expand.js";
export { buildGraph, cycleDiagnostics, planTransformers, applyTransformers, newGraph } from "./builder.js";
export { nodeName, type GraphNode } from "./nodes.js";
export type { BuildContext, Transformer } from "./transform.js";
export type { Hooks } from "./hooks.js";
export type { CommandLineImportTarget, ImportOpts } from "./import.js";
export { generatedFileText, generateResourceContents, wrapResourceContents, type GeneratedChange, type GeneratedProvider } from "./genconfig.js";
export { ModuleFunctionTable, functionProviders, type FunctionProviders } from "./provider_functions.js";
export { configExpressions } from "./config_expressions.js";
export { ReferenceChecker, type ResourceSchemaLookup } from "./validate_refs.js";
export { parseDeprecationWarningLevel, type DeprecationWarningLevel } from "./deprecation.js";
