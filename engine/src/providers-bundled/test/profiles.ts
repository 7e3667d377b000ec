// Per-case variants of the conformance mock provider. Several cases in
// shared/conformance/opentofu declare their own tiny schema or override one RPC of MockProvider
// (their expect.md says which). A schema must be known before ConfigureProvider, so the case
// cannot pick it through provider configuration: the harness (core/conformance.harness.ts)
// starts the plugin with TERRACE_TEST_PROVIDER_PROFILE=<profile>, and the profile names the case
// it serves. Every handler keeps MockProvider's "Configure not called before X" rule.

import { ProviderError, defineProvider, type Attribute, type ProviderDefinition, type ResourceDefinition, type Schema } from "../../sdk/index.js";
import { NumberType, StringType, attrStep, mapOf, objectVal, unknownVal, type Path, type Type, type Value } from "../../values/index.js";
import { SIMPLE_SCHEMA, attrsOf, mockApply, mockPlan, requireConfigured, testApplyFn, testDiffFn, type TestMeta } from "./mock.js";

const opt = (type: Type): Attribute => ({ type, optional: true });
const req = (type: Type): Attribute => ({ type, required: true });
const computed = (type: Type): Attribute => ({ type, computed: true });
const schemaOf = (attributes: Record<string, Attribute>, version = 0): Schema => ({ version, block: { attributes } });
const EMPTY: Schema = { block: {} };

/** A resource planned and applied with MockProvider's defaults. */
function mockResource(schema: Schema, extra: Partial<ResourceDefinition<TestMeta>> = {}): ResourceDefinition<TestMeta> {
  return {
    schema,
    plan: mockPlan(schema),
    create: mockApply,
    update: mockApply,
    delete: ({ meta, typeName }) => requireConfigured(meta, "ApplyResourceChange", typeName),
    read: ({ meta, typeName }) => requireConfigured(meta, "ReadResource", typeName),
    ...extra,
  };
}

/** A resource planned by testDiffFn and applied by testApplyFn. */
function legacyResource(schema: Schema, extra: Partial<ResourceDefinition<TestMeta>> = {}): ResourceDefinition<TestMeta> {
  return mockResource(schema, { plan: testDiffFn, create: testApplyFn, update: testApplyFn, ...extra });
}

/** PlannedState = ProposedNewState and RequiresReplace = the given attributes, always. */
function proposedWithReplace(...attrs: string[]) {
  return (r: { meta: TestMeta | undefined; typeName: string; proposed: Value }) => {
    requireConfigured(r.meta, "PlanResourceChange", r.typeName);
    return { planned: r.proposed, requiresReplace: attrs.map((a): Path => [attrStep(a)]) };
  };
}

function provider(name: string, schema: Schema, resources: Record<string, ResourceDefinition<TestMeta>>, extra: Partial<ProviderDefinition<TestMeta>> = {}): ProviderDefinition<TestMeta> {
  return defineProvider<TestMeta>({ name, schema, configure: ({ config }) => ({ meta: { config } }), resources, ...extra });
}

/**
 * MockProvider's default MoveResourceState: the source object decoded with the source type's
 * schema and returned as it is. It goes back as raw JSON (the SDK's escape hatch) because an
 * object of the source type need not fit the target type, and the host must say so (case 044 d:
 * `unsupported attribute "test_string"`).
 */
function moveAsSource(sources: Record<string, Schema>) {
  return ({ sourceTypeName, rawState }: { sourceTypeName: string; rawState: unknown }) => {
    const src = sources[sourceTypeName];
    if (!src) throw new ProviderError(`unknown source type ${sourceTypeName}`);
    const raw = typeof rawState === "object" && rawState !== null ? (rawState as Record<string, unknown>) : {};
    const attrs = src.block.attributes ?? {};
    for (const k of Object.keys(raw)) if (!attrs[k]) throw new ProviderError(`unsupported attribute ${JSON.stringify(k)}`);
    const obj: Record<string, unknown> = {};
    for (const k of Object.keys(attrs).sort()) obj[k] = raw[k] ?? null;
    return { raw: { json: JSON.stringify(obj) } };
  };
}

const LEGACY_INSTANCE_BASE: Record<string, Attribute> = {
  id: computed(StringType),
  require_new: opt(StringType),
  foo: { type: StringType, optional: true, computed: true },
  value: { type: StringType, optional: true, computed: true },
  type: computed(StringType),
};

/** The profile of case 044's sub-case `sub` (moves across types and providers). */
function moveProfile(name: string, sub: string): ProviderDefinition<TestMeta> {
  const number = (required: boolean) => schemaOf({ test_number: required ? req(NumberType) : opt(NumberType) });
  const fixed = (v: Record<string, number | string>) => () => ({ state: v });
  switch (sub) {
    case "a":
    case "e": {
      const s = number(false);
      const move = sub === "e" ? () => { throw new ProviderError("move failed"); } : moveAsSource({ test_object0: s, test_object: s });
      return provider(name, EMPTY, { test_object0: mockResource(s), test_object: mockResource(s, { moveState: move }) });
    }
    case "b":
    case "c": {
      const s = number(true);
      return provider(name, EMPTY, { test_object0: mockResource(s), test_object: mockResource(s, { moveState: moveAsSource({ test_object0: s }) }) });
    }
    case "d": {
      const old = schemaOf({ test_number: req(NumberType), test_string: req(StringType) });
      const s = number(true);
      return provider(name, EMPTY, { test_object0: mockResource(old), test_object: mockResource(s, { moveState: moveAsSource({ test_object0: old }) }) });
    }
    case "f":
    case "g": {
      const s = sub === "g" && name === "provider2" ? schemaOf({ test_string: req(StringType) }) : number(true);
      const move = fixed(sub === "g" ? { test_string: "1" } : { test_number: 1 });
      return provider(name, EMPTY, { [`${name}_object`]: mockResource(s, { moveState: move }) });
    }
    case "h":
      return provider(name, EMPTY, { provider_object: mockResource(number(true), { moveState: fixed({ test_number: 1 }) }) });
    case "i":
      // Version 1, so that the stored version-0 object goes through UpgradeResourceState.
      return provider(name, EMPTY, {
        provider_object: mockResource(schemaOf({ test_number: req(NumberType) }, 1), {
          stateUpgraders: {
            0: {
              upgrade: () => {
                throw new ProviderError("Showing Upgrade instead of moved", "contrived test");
              },
            },
          },
        }),
      });
    case "j": {
      const s = SIMPLE_SCHEMA;
      return provider(name, EMPTY, { test_object: mockResource(s, { moveState: moveAsSource({ test_object: s }) }) });
    }
    default:
      throw new Error(`no move profile ${sub}`);
  }
}

/** `arg`-only test_object (cases 047–049, 069): Upgrade gives "upgraded", Read gives "current". */
function refreshArgProfile(name: string): ProviderDefinition<TestMeta> {
  // Schema version 1 so the stored version-0 objects go through the upgrader (MockProvider's
  // UpgradeResourceStateFn is called for every object; the SDK calls ours only across versions).
  const s = schemaOf({ arg: opt(StringType) }, 1);
  return provider(name, SIMPLE_SCHEMA, {
    test_object: mockResource(s, {
      stateUpgraders: {
        0: {
          upgrade: ({ rawState }) => {
            const raw = JSON.stringify(rawState);
            if (!raw.includes("before") && !raw.includes("current")) throw new ProviderError("unexpected prior state", raw);
            return { state: { arg: "upgraded" } };
          },
        },
      },
      read: ({ meta, typeName }) => {
        requireConfigured(meta, "ReadResource", typeName);
        return { state: { arg: "current" } };
      },
    }),
  });
}

/** The profile named `profile` for the provider type `name`. */
export function profileProvider(name: string, profile: string): ProviderDefinition<TestMeta> {
  if (profile.startsWith("move-")) return moveProfile(name, profile.slice("move-".length));
  switch (profile) {
    case "region-check": {
      // Cases 010/011: each provider instance must be configured with its own region.
      const inst = legacyResource(schemaOf(LEGACY_INSTANCE_BASE));
      return provider(name, schemaOf({ region: opt(StringType), foo: opt(StringType), value: opt(StringType), root: opt(NumberType) }), { [`${name}_instance`]: inst }, {
        configure: ({ config, attrs }) => {
          const region = attrs.region;
          if (region !== "eu-west-1" && region !== "eu-west-2") return { diagnostics: [{ severity: "error", summary: `incorrect config val: ${JSON.stringify(region ?? null)}` }] };
          return { meta: { config } };
        },
        dataSources: {
          [`${name}_data_source`]: {
            schema: schemaOf({ id: computed(StringType), foo: { type: StringType, optional: true, computed: true } }),
            read: ({ meta, typeName }) => {
              requireConfigured(meta, "ReadDataSource", typeName);
              return { state: { id: "data_source", foo: "ok" } };
            },
          },
        },
      });
    }
    case "empty-thing":
      return provider(name, EMPTY, { test_thing: mockResource(EMPTY) });
    case "mock":
      return provider(name, EMPTY, { mock: mockResource(EMPTY) });
    case "marker": {
      // Case 016: instances are told apart by the `marker` they were configured with.
      const markerOf = (meta: TestMeta | undefined): string => {
        const m = meta?.config.kind === "object" ? meta.config.attrs.get("marker") : undefined;
        return m?.kind === "string" ? m.value : "";
      };
      const s = schemaOf({ id: computed(StringType), import_marker: computed(StringType), refresh_marker: computed(StringType) });
      return provider(name, schemaOf({ marker: req(StringType) }), {
        test_thing: mockResource(s, {
          importState: ({ id, meta, typeName }) => {
            requireConfigured(meta, "ImportResourceState", typeName);
            return { state: { id, import_marker: markerOf(meta) } };
          },
          read: ({ meta, typeName }) => {
            requireConfigured(meta, "ReadResource", typeName);
            return { state: { refresh_marker: markerOf(meta) } };
          },
        }),
      });
    }
    case "marker-identity": {
      // Case 016's import-block-identity: test_thing imported by its identity (version 1, `name`).
      const s = schemaOf({ id: computed(StringType), name: computed(StringType) });
      return provider(name, schemaOf({ marker: req(StringType) }), {
        test_thing: mockResource(s, {
          identity: { version: 1, attributes: { name: { type: StringType, requiredForImport: true } } },
          importState: ({ meta, typeName }) => {
            requireConfigured(meta, "ImportResourceState", typeName);
            const m = meta?.config.kind === "object" ? meta.config.attrs.get("marker") : undefined;
            return { state: { id: "imported-123", name: m?.kind === "string" ? m.value : "" } };
          },
        }),
      });
    }
    case "refresh-arg":
      return refreshArgProfile(name);
    case "zoo":
      return provider(name, EMPTY, { [name]: mockResource(EMPTY) });
    case "rtb-validate":
      return provider(name, EMPTY, { test_instance: mockResource(schemaOf({ id: computed(StringType), value: opt(StringType) })) });
    case "ignore-all": {
      // Case 058: the configuration sent to PlanResourceChange is the real one.
      const s = schemaOf({ id: computed(StringType), ami: opt(StringType), instance: opt(StringType), foo: { type: StringType, optional: true, computed: true }, type: computed(StringType) });
      return provider(name, EMPTY, {
        [`${name}_instance`]: legacyResource(s, {
          plan: (r) => {
            const config = attrsOf(r.config);
            if (config.get("id")?.kind !== "null") throw new ProviderError("computed id should be null in config");
            if (config.get("foo")?.kind === "null") throw new ProviderError("foo should not be null in config");
            return testDiffFn(r);
          },
        }),
      });
    }
    case "ignore-map":
      return provider(name, EMPTY, {
        test_ignore_changes_map: mockResource(schemaOf({ tags: opt(mapOf(StringType)) }), { plan: proposedWithReplace() }),
      });
    case "taint-ignore":
      return provider(name, EMPTY, { [`${name}_instance`]: mockResource(schemaOf({ id: computed(StringType), vars: opt(StringType), type: computed(StringType) })) });
    case "cbd-matrix":
      return provider(name, EMPTY, {
        test: mockResource(schemaOf({ id: computed(StringType), parent_id: opt(StringType), forces_replace: opt(StringType) }), { plan: proposedWithReplace("forces_replace") }),
      });
    case "requires-replace":
      return provider(name, EMPTY, { test_thing: mockResource(schemaOf({ v: req(StringType) }), { plan: proposedWithReplace("v") }) });
    case "replace-number":
      return provider(name, SIMPLE_SCHEMA, { test_object: mockResource(SIMPLE_SCHEMA, { plan: proposedWithReplace("test_number") }) });
    case "read-gone":
      return provider(name, SIMPLE_SCHEMA, {
        test_object: mockResource(SIMPLE_SCHEMA, {
          read: ({ meta, typeName, state }) => {
            requireConfigured(meta, "ReadResource", typeName);
            const s = attrsOf(state).get("test_string");
            return s?.kind === "string" && s.value === "current" ? {} : { state: null };
          },
        }),
      });
    case "scale-in": {
      // Case 068: replace when require_new changes (or is unknown), with an unknown id.
      const s = schemaOf(LEGACY_INSTANCE_BASE);
      return provider(name, EMPTY, {
        [`${name}_instance`]: mockResource(s, {
          plan: ({ meta, typeName, prior, proposed }) => {
            requireConfigured(meta, "PlanResourceChange", typeName);
            const planned = attrsOf(proposed);
            if (prior.kind === "null") {
              planned.set("id", unknownVal(StringType));
              return { planned: objectVal(planned), requiresReplace: [] };
            }
            const before = attrsOf(prior).get("require_new");
            const after = planned.get("require_new");
            const changed = after?.kind === "unknown" || before?.kind !== after?.kind || (before?.kind === "string" && after?.kind === "string" && before.value !== after.value);
            if (!changed) return { planned: proposed, requiresReplace: [] };
            planned.set("id", unknownVal(StringType));
            return { planned: objectVal(planned), requiresReplace: [[attrStep("require_new")]] };
          },
        }),
      });
    }
    case "apply-fails": {
      const fail = () => {
        throw new ProviderError("placeholder error from ApplyFn");
      };
      return provider(name, EMPTY, { [`${name}_instance`]: legacyResource(schemaOf(LEGACY_INSTANCE_BASE), { create: fail, update: fail, delete: fail }) });
    }
    case "destroy-fails":
      return provider(name, EMPTY, {
        [`${name}_instance`]: legacyResource(schemaOf(LEGACY_INSTANCE_BASE), {
          delete: () => {
            throw new ProviderError("error");
          },
        }),
      });
    case "tainted-destroy-fails":
      return provider(name, EMPTY, {
        [`${name}_instance`]: legacyResource(schemaOf({ id: computed(StringType), foo: opt(StringType) }), {
          delete: () => {
            throw new ProviderError("failure");
          },
          create: (r) => {
            const foo = attrsOf(r.planned).get("foo");
            if (foo?.kind === "string" && foo.value === "c") throw new ProviderError("failure");
            return testApplyFn(r);
          },
        }),
      });
    default:
      throw new Error(`the test provider has no profile ${JSON.stringify(profile)}`);
  }
}
