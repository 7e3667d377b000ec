// The blocks inside `terraform` that are kept for other parts of the engine: `backend` and
// `cloud` (decoded later against the backend's schema, with static evaluation), `encryption`
// (its structure decoded here, its key providers and methods by the encryption module) and
// `provider_meta`.
import type { ContentBlock, Range } from "../hcl/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { ConfigBody } from "./body.js";
import { decodeEncryptionConfig, type EncryptionConfig as EncryptionSettings } from "../encryption/config.js";

export interface Backend {
  type: string;
  config: ConfigBody;
  typeRange: Range;
  declRange: Range;
}

export interface CloudConfig {
  config: ConfigBody;
  declRange: Range;
}

/** The `encryption` block: its body, and its parts as the encryption module reads them. */
export interface EncryptionConfig {
  config: ConfigBody;
  declRange: Range;
  settings: EncryptionSettings;
}

export interface ProviderMeta {
  provider: string;
  config: ConfigBody;
  providerRange: Range;
  declRange: Range;
}

export function decodeBackendBlock(block: ContentBlock): Backend {
  return { type: block.labels[0] ?? "", config: block.body, typeRange: block.labelRanges[0] ?? block.defRange, declRange: block.defRange };
}

export function decodeCloudBlock(block: ContentBlock): CloudConfig {
  return { config: block.body, declRange: block.defRange };
}

export function decodeEncryptionBlock(block: ContentBlock): { encryption: EncryptionConfig; diagnostics: Diagnostic[] } {
  const r = decodeEncryptionConfig(block.body, block.defRange);
  return { encryption: { config: block.body, declRange: block.defRange, settings: r.config }, diagnostics: r.diagnostics };
}

export function decodeProviderMetaBlock(block: ContentBlock): ProviderMeta {
  return { provider: block.labels[0] ?? "", config: block.body, providerRange: block.labelRanges[0] ?? block.defRange, declRange: block.defRange };
}
