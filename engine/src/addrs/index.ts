// The public surface of the addrs module (OpenTofu's internal/addrs): every address kind, parsed
// from strings and traversals, printed, compared. Browser-safe. See README.md.
export type { AddrResult } from "./result.js";
export { hostnameForComparison, type HostnameResult } from "./svchost.js";
export { parseProviderPart, mustParseProviderPart, isProviderPartNormalized, type ProviderPartResult } from "./providerpart.js";
export {
  Provider,
  DefaultProviderRegistryHost,
  TransitionalDefaultProviderRegistryHost,
  BuiltInProviderHost,
  OpenTofuBuiltInProviderHost,
  BuiltInProviderNamespace,
  UnknownProviderNamespace,
  LegacyProviderNamespace,
  DefaultProviderNamespace,
  compareProviders,
  newProvider,
  newDefaultProvider,
  newBuiltInProvider,
  newLegacyProvider,
  impliedProviderForUnqualifiedType,
  parseProviderSourceString,
  mustParseProviderSourceString,
} from "./provider.js";
export { checkProviderLocalName, impliedProviderLocalName } from "./providerlocalname.js";
export {
  NoKey,
  intKey,
  stringKey,
  parseInstanceKey,
  instanceKeyFromLiteral,
  instanceKeyString,
  instanceKeyValue,
  instanceKeyEqual,
  instanceKeyLess,
  compareInstanceKeys,
  toHCLQuotedString,
  type InstanceKey,
  type NoKeyType,
  type IntKey,
  type StringKey,
  type InstanceKeyResult,
} from "./instancekey.js";
export { parseTraversalAbs, traversalRange, traversalRootName, asRootTraversal, type Traversal } from "./traversal.js";
export { Module, RootModule, parseModule, parseModulePrefix } from "./module.js";
export {
  ModuleInstance,
  RootModuleInstance,
  moduleInstanceStepString,
  parseModuleInstance,
  parseModuleInstancePrefix,
  parseModuleInstanceStr,
  mustParseModuleInstanceStr,
  type ModuleInstanceStep,
} from "./moduleinstance.js";
export { ModuleCall, ModuleCallInstance, ModuleCallOutput, ModuleCallInstanceOutput, AbsModuleCall } from "./modulecall.js";
export { OutputValue, AbsOutputValue, ConfigOutputValue, parseAbsOutputValue, parseAbsOutputValueStr } from "./outputvalue.js";
export {
  LocalProviderConfig,
  AbsProviderConfig,
  providerConfigDefault,
  providerConfigAliased,
  parseAbsProviderConfig,
  parseAbsProviderConfigStr,
  parseAbsProviderConfigInstance,
  parseAbsProviderConfigInstanceStr,
  parseLegacyAbsProviderConfig,
  parseLegacyAbsProviderConfigStr,
  parseProviderConfigCompact,
  parseProviderConfigCompactStr,
  type ProviderConfig,
  type AbsProviderConfigInstance,
} from "./providerconfig.js";
export {
  ManagedResourceMode,
  DataResourceMode,
  EphemeralResourceMode,
  compareResourceModes,
  resourceModeLess,
  resourceModeBlockName,
  Resource,
  ResourceInstance,
  AbsResource,
  AbsResourceInstance,
  ConfigResource,
  resourceInstanceIn,
  type ResourceMode,
} from "./resource.js";
export { targetContains, targetModuleAddr, type Targetable } from "./targetable.js";
export {
  parseTarget,
  parseTargetStr,
  parseAbsResource,
  parseAbsResourceStr,
  parseAbsResourceInstance,
  parseAbsResourceInstanceStr,
  parseConfigResource,
  parseConfigResourceStr,
  parseResourceInstanceUnderModule,
  parseResourceUnderModule,
  type Target,
} from "./parsetarget.js";
export {
  InputVariable,
  AbsInputVariableInstance,
  LocalValue,
  AbsLocalValue,
  CountAttr,
  ForEachAttr,
  PathAttr,
  TerraformAttr,
  IdentTerraform,
  IdentTofu,
  SelfAddr,
  Self,
  ProviderFunction,
  FunctionName,
  FunctionNamespaceProvider,
  FunctionNamespaceCore,
  parseFunction,
  type Referenceable,
} from "./referenceable.js";
export { parseRef, parseRefStr, referenceDisplayString, type Reference } from "./parseref.js";
export { MoveEndpoint, parseMoveEndpoint, unifyMoveEndpoints, checkMovedBlockEndpoints, type ConfigMoveable } from "./moveendpoint.js";
export {
  MoveEndpointInModule,
  absMoveableEndpointKind,
  impliedMoveStatementEndpoint,
  moduleInstanceMoveDestination,
  absResourceMoveDestination,
  absResourceInstanceMoveDestination,
  type AbsMoveable,
  type MoveEndpointKind,
} from "./moveendpointmodule.js";
export { RemoveEndpoint, parseRemoveEndpoint, type ConfigRemovable } from "./removeendpoint.js";
export { uniqueKey } from "./uniquekey.js";
