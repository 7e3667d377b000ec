// The public surface of configs/providermap: the static provider-instance map of a module tree
// (which configurations exist, which resources and module calls use them, with which instance
// key) and the provider requirements per module. Browser-safe; plain JSON-serialisable data.
export {
  buildProviderMap,
  type ProviderMap,
  type ProviderMapOptions,
  type ProviderConfiguration,
  type ProviderConfigurationKind,
  type ProviderReference,
  type ProviderReferenceKind,
  type ProviderReferenceHow,
  type SourceExpression,
  type SourceRange,
  type SourcePos,
} from "./providermap.js";
export { providerRequirementsByModule, type ModuleRequirements, type ProviderRequirement } from "./requirements.js";
