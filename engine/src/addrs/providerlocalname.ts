// Provider local names: the module-specific short name of a provider (`aws` in
// `provider "aws" {}`, `required_providers { aws = ... }` and `aws_instance`). A local name must
// be a valid provider type part and already in normal form, so `AWS` is rejected with a hint
// instead of silently meaning `aws`.
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import { goQuote } from "../values/index.js";
import { parseProviderPart } from "./providerpart.js";

/** OpenTofu's checkProviderNameNormalized: "Invalid provider local name" diagnostics, or none. */
export function checkProviderLocalName(name: string, declRange?: Range): Diagnostic[] {
  const r = parseProviderPart(name);
  if (r.error !== undefined) {
    return [errorDiag("Invalid provider local name", `${name} is an invalid provider local name: ${r.error}`, declRange)];
  }
  if (r.part !== name) {
    return [
      errorDiag(
        "Invalid provider local name",
        `Provider names must be normalized. Replace ${goQuote(name)} with ${goQuote(r.part)} to fix this error.`,
        declRange,
      ),
    ];
  }
  return [];
}

/**
 * The provider local name a resource type implies: the text before the first underscore
 * (`aws_instance` → `aws`), or the whole type when there is none (OpenTofu's
 * Resource.ImpliedProvider).
 */
export function impliedProviderLocalName(resourceType: string): string {
  const under = resourceType.indexOf("_");
  return under === -1 ? resourceType : resourceType.slice(0, under);
}
