// Public surface of the bundled providers: their definitions (to serve in-process or inspect)
// and where their plugin executables are (to launch them like any other provider). See README.md.

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ProviderDefinition } from "../sdk/index.js";
import { nullProvider } from "./null/provider.js";
import { randomProvider } from "./random/provider.js";
import { simProvider } from "./sim/provider.js";
import { testProvider } from "./test/provider.js";

export { nullProvider } from "./null/provider.js";
export { createRandomString, randomProvider, requiresReplaceIfValuesNotNull, type StringParams } from "./random/provider.js";
export { simProvider, type SimMeta } from "./sim/provider.js";
export {
  SIM_ACCOUNT,
  SIM_IMAGE_NAMES,
  SIM_REGIONS,
  SimCloud,
  SimError,
  simDataDir,
  simImage,
  type SimControl,
  type SimFailure,
  type SimImage,
  type SimObject,
  type SimOperation,
} from "./sim/cloud.js";
export {
  LEGACY_DATA_SOURCE_SCHEMA,
  LEGACY_INSTANCE_SCHEMA,
  LEGACY_PROVIDER_ATTRIBUTES,
  SIMPLE_SCHEMA,
  SIMPLE_TYPE,
  mockAppliedState,
  mockPlannedState,
  testAppliedState,
  testDiffPlanned,
  testProvider,
  type MockPlanAttribute,
  type TestMeta,
} from "./test/provider.js";

export interface BundledProvider {
  /** The provider's type name ("random"). */
  readonly name: string;
  /** Its source address without hostname ("hashicorp/random"). */
  readonly source: string;
  /** The version the executables report in a filesystem mirror. */
  readonly version: string;
  readonly definition: () => ProviderDefinition<unknown>;
}

export const BUNDLED_PROVIDERS: readonly BundledProvider[] = [
  { name: "sim", source: "terrace/sim", version: "0.1.0", definition: () => simProvider as ProviderDefinition<unknown> },
  { name: "random", source: "hashicorp/random", version: "3.6.3", definition: () => randomProvider as ProviderDefinition<unknown> },
  { name: "null", source: "hashicorp/null", version: "3.2.3", definition: () => nullProvider as ProviderDefinition<unknown> },
  { name: "test", source: "hashicorp/test", version: "0.0.1", definition: () => testProvider("test") as ProviderDefinition<unknown> },
];

/** The directory holding the `terraform-provider-<name>` executables (always under src/). */
export function bundledProviderBinDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [path.join(here, "bin"), path.resolve(here, "../../src/providers-bundled/bin")]) {
    if (existsSync(path.join(dir, "launch.cjs"))) return dir;
  }
  throw new Error("bundled provider executables not found");
}

/** The executable for one bundled provider ("aws" is the conformance LEGACY-AWS mock). */
export function bundledProviderExecutable(name: string): string {
  const dir = bundledProviderBinDir();
  if (name === "aws") return path.join(dir, "mock-aws", "terraform-provider-aws");
  if (!BUNDLED_PROVIDERS.some((p) => p.name === name)) throw new Error(`no bundled provider named ${name}`);
  return path.join(dir, `terraform-provider-${name}`);
}
