// The public surface of configs (OpenTofu's internal/configs): files → modules → the module tree,
// every block decoded with OpenTofu's rules and diagnostics; expressions are kept unevaluated.
// Browser-safe: files are read through ConfigFS. See README.md.
export { MemoryFS, cleanPath, joinPath, dirName, baseName, type ConfigFS, type DirEntry, type ReadDirResult, type ReadFileResult } from "./fs.js";
export { Parser, configFileExt, isIgnoredFile } from "./parser.js";
export { Loader, type LoaderOptions } from "./loader.js";
export { decodeConfigFile, emptyFile, type File } from "./file.js";
export { moduleResource, newModule, providerForLocalName, localNameForProvider, type Module } from "./module.js";
export {
  buildConfig,
  rootOnlyConfig,
  disabledModuleWalker,
  allConfigs,
  descendent,
  modulePathString,
  type Config,
  type ModuleRequest,
  type ModuleWalker,
  type ModuleWalkResult,
} from "./config.js";
export {
  MANIFEST_FILENAME,
  manifestDir,
  manifestPath,
  manifestKey,
  manifestForConfig,
  readManifestSnapshot,
  writeManifestSnapshot,
  readManifestForDir,
  writeManifestForDir,
  type ManifestRecord,
  type ModuleManifest,
} from "./manifest.js";
export {
  configBodyContent,
  configBodyPartialContent,
  configBodyJustAttributes,
  configBodyMissingItemRange,
  overrideBody,
  unionBody,
  exprVariables,
  validIdentifier,
  type ConfigBody,
  type OverrideBody,
  type UnionBody,
} from "./body.js";
export { decodeVariableBlock, decodeVariableType, variableRequired, type Variable, type VariableParsingMode } from "./variable.js";
export { typeConstraintForExpr, type TypeConstraint } from "./typeexpr.js";
export type { Local } from "./local.js";
export type { Output } from "./output.js";
export { type CheckRule, type Check } from "./check.js";
export {
  decodeProviderConfigRef,
  parseProviderConfigCompact,
  providerConfigRefString,
  providerKey,
  type Provider,
  type ProviderConfigRef,
  type ProviderInstanceRepetition,
  type LocalProviderConfig,
} from "./provider.js";
export {
  defaultManagedResource,
  resourceAddrString,
  resourceProviderConfigName,
  resourceBlockSchema,
  type Resource,
  type ResourceMode,
  type ManagedResource,
  type ResourceContainer,
} from "./resource.js";
export type { Provisioner, ProvisionerWhen, ProvisionerOnFailure, Connection } from "./provisioner.js";
export { moduleBlockSchema, setModuleSource, type ModuleCall, type PassedProviderConfig } from "./modulecall.js";
export {
  parseModuleSource,
  parseModuleSourceRegistry,
  moduleSourceString,
  moduleSourceEntersNewPackage,
  isLocalSourceAddr,
  DEFAULT_MODULE_REGISTRY_HOST,
  type ModuleSource,
} from "./module_source.js";
export type { Moved } from "./moved.js";
export type { Import } from "./import.js";
export type { Removed } from "./removed.js";
export type { StaticAddr, StaticResourceAddr } from "./refaddr.js";
export type { Backend, CloudConfig, EncryptionConfig, ProviderMeta } from "./backend.js";
export type { RequiredProvider, RequiredProviders } from "./required_providers.js";
export {
  decodeVersionConstraint,
  decodeVersionConstraintValue,
  parseConstraint,
  parseVersion,
  compareVersions,
  versionMeets,
  versionString,
  type VersionConstraint,
  type ConstraintTerm,
  type ConstraintOp,
  type Version,
} from "./version_constraint.js";
export { configCoreVersionDiagnostics, moduleCoreVersionDiagnostics } from "./core_version.js";
export * from "./static/index.js";
export { mayCallProviderFunctions, providerFunctionCallsIn, type ProviderFunctionCall } from "./provider_functions.js";
export { discardedAttrSuggestion, discardedObjectConstructorAttrs, type DiscardedAttr } from "./discarded_attrs.js";
export { DEFAULT_DATA_DIR, dataDir, withDataDir } from "./datadir.js";
