// The conformance suite's mock providers (shared/conformance/opentofu/PROVIDERS.md) as a real
// plugin: SIMPLE (`test_object` resource, data source and ephemeral resource, every attribute
// optional) and LEGACY-TEST / LEGACY-AWS (`<name>_instance` planned by testDiffFn and applied by
// testApplyFn, `<name>_data_source`), with OpenTofu's MockProvider defaults — including
// "Configure not called before X" for calls made before ConfigureProvider.

import { defineProvider, impliedType, type ProviderDefinition, type ResourceDefinition } from "../../sdk/index.js";
import { objectVal, type Type } from "../../values/index.js";
import {
  LEGACY_DATA_SOURCE_SCHEMA,
  LEGACY_INSTANCE_SCHEMA,
  LEGACY_PROVIDER_ATTRIBUTES,
  SIMPLE_SCHEMA,
  attrsOf,
  mockApply,
  mockPlan,
  requireConfigured,
  testApplyFn,
  testDiffFn,
  type TestMeta,
} from "./mock.js";
import { profileProvider } from "./profiles.js";

export {
  LEGACY_DATA_SOURCE_SCHEMA,
  LEGACY_INSTANCE_SCHEMA,
  LEGACY_PROVIDER_ATTRIBUTES,
  SIMPLE_SCHEMA,
  mockAppliedState,
  mockPlannedState,
  testAppliedState,
  testDiffPlanned,
  type MockPlanAttribute,
  type TestMeta,
} from "./mock.js";

function simpleObject(): ResourceDefinition<TestMeta> {
  return {
    schema: SIMPLE_SCHEMA,
    plan: mockPlan(SIMPLE_SCHEMA),
    create: mockApply,
    update: mockApply,
    delete: ({ meta, typeName }) => requireConfigured(meta, "ApplyResourceChange", typeName),
    read: ({ meta, typeName }) => requireConfigured(meta, "ReadResource", typeName),
  };
}

function legacyInstance(): ResourceDefinition<TestMeta> {
  return {
    schema: LEGACY_INSTANCE_SCHEMA,
    plan: testDiffFn,
    create: testApplyFn,
    update: testApplyFn,
    delete: ({ meta, typeName }) => requireConfigured(meta, "ApplyResourceChange", typeName),
    read: ({ meta, typeName }) => requireConfigured(meta, "ReadResource", typeName),
    importState: ({ id, meta, typeName }) => {
      requireConfigured(meta, "ImportResourceState", typeName);
      return { state: { id } };
    },
  };
}

/**
 * The mock provider serving `<name>_*` types ("test" adds SIMPLE's types and provider
 * attributes); a non-empty `profile` selects one case's own schema and behaviours (profiles.ts).
 */
export function testProvider(name = "test", profile = ""): ProviderDefinition<TestMeta> {
  if (profile !== "") return profileProvider(name, profile);
  const simple = name === "test";
  const providerAttributes = { ...LEGACY_PROVIDER_ATTRIBUTES, ...(simple ? SIMPLE_SCHEMA.block.attributes : {}) };
  return defineProvider<TestMeta>({
    name,
    schema: { block: { attributes: providerAttributes } },
    configure: ({ config }) => ({ meta: { config } }),
    resources: {
      [`${name}_instance`]: legacyInstance(),
      ...(simple ? { test_object: simpleObject() } : {}),
    },
    dataSources: {
      [`${name}_data_source`]: {
        schema: LEGACY_DATA_SOURCE_SCHEMA,
        read: ({ meta, typeName, attrs }) => {
          requireConfigured(meta, "ReadDataSource", typeName);
          return { state: { id: typeof attrs.id === "string" ? attrs.id : "data_source", foo: typeof attrs.foo === "string" ? attrs.foo : "" } };
        },
      },
      ...(simple
        ? {
            test_object: {
              schema: SIMPLE_SCHEMA,
              read: ({ meta, typeName }) => {
                requireConfigured(meta, "ReadDataSource", typeName);
                return {};
              },
            },
          }
        : {}),
    },
    ephemeralResources: simple
      ? {
          test_object: {
            schema: SIMPLE_SCHEMA,
            open: ({ config }) => ({ result: objectVal(attrsOf(config)) }),
          },
        }
      : {},
  });
}

/** The implied type of SIMPLE's block, handy for tests that build values. */
export const SIMPLE_TYPE: Type = impliedType(SIMPLE_SCHEMA.block);
