// The behaviours of OpenTofu's MockProvider and of its old test helpers (internal/tofu
// provider_mock.go, context_test.go's testDiffFn / testApplyFn), shared by the default `test`
// provider and by the per-case profiles (profiles.ts).

import { ProviderError, type Attribute, type PlanRequest, type PlanResult, type Schema } from "../../sdk/index.js";
import {
  BoolType,
  False,
  NumberType,
  StringType,
  Zero,
  attrStep,
  listOf,
  listValEmpty,
  mapOf,
  mapValEmpty,
  nullVal,
  objectVal,
  stringVal,
  unknownVal,
  type Path,
  type Type,
  type Value,
} from "../../values/index.js";

const opt = (type: Type): Attribute => ({ type, optional: true });
const computed = (type: Type): Attribute => ({ type, computed: true });
const optComputed = (type: Type): Attribute => ({ type, optional: true, computed: true });

/** simpleTestSchema(): provider config, test_object resource, data source and ephemeral resource. */
export const SIMPLE_SCHEMA: Schema = {
  block: {
    attributes: {
      test_string: opt(StringType),
      test_number: opt(NumberType),
      test_bool: opt(BoolType),
      test_list: opt(listOf(StringType)),
      test_map: opt(mapOf(StringType)),
    },
  },
};

export const LEGACY_PROVIDER_ATTRIBUTES: Readonly<Record<string, Attribute>> = {
  region: opt(StringType),
  foo: opt(StringType),
  value: opt(StringType),
  root: opt(NumberType),
};

export const LEGACY_INSTANCE_SCHEMA: Schema = {
  block: {
    attributes: {
      id: computed(StringType),
      ami: opt(StringType),
      dep: opt(StringType),
      num: opt(NumberType),
      require_new: opt(StringType),
      var: opt(StringType),
      foo: optComputed(StringType),
      bar: opt(StringType),
      compute: opt(StringType),
      compute_value: optComputed(StringType),
      value: optComputed(StringType),
      output: opt(StringType),
      write: opt(StringType),
      instance: opt(StringType),
      vpc_id: opt(StringType),
      type: computed(StringType),
      value_wo: { type: StringType, optional: true, writeOnly: true },
      unknown: computed(StringType),
    },
  },
};

export const LEGACY_DATA_SOURCE_SCHEMA: Schema = {
  block: { attributes: { id: computed(StringType), foo: optComputed(StringType) } },
};

/** What ConfigureProvider received, handed to every handler. */
export interface TestMeta {
  readonly config: Value;
}

/** MockProvider refuses every resource RPC until ConfigureProvider was called. */
export function requireConfigured(meta: TestMeta | undefined, rpc: string, typeName: string): void {
  if (!meta) throw new ProviderError(`Configure not called before ${rpc} ${JSON.stringify(typeName)}`);
}

export function attrsOf(v: Value): Map<string, Value> {
  return v.kind === "object" ? new Map(v.attrs) : new Map();
}

/** The zero value MockProvider substitutes for an unknown after apply. */
function zeroValue(t: Type): Value {
  switch (t.kind) {
    case "string":
      return stringVal("");
    case "number":
      return Zero;
    case "bool":
      return False;
    case "map":
      return mapValEmpty(t.element);
    case "list":
      return listValEmpty(t.element);
    default:
      return nullVal(t);
  }
}

/** What MockProvider's default plan reads of an attribute. */
export interface MockPlanAttribute {
  readonly type: Type;
  readonly optional?: boolean;
  readonly computed?: boolean;
}

/**
 * MockProvider's default plan of a (non-null) proposed object: computed-only nulls and dropped
 * optional+computed values unknown. Protocol-neutral, so core's in-process MockProvider
 * (core/lifecycle.testkit.ts) plans with it too.
 */
export function mockPlannedState(attributes: Iterable<readonly [string, MockPlanAttribute]>, proposed: Value, prior: Value, config: Value): Value {
  const planned = attrsOf(proposed);
  const priorAttrs = attrsOf(prior);
  const configAttrs = attrsOf(config);
  for (const [name, a] of attributes) {
    const v = planned.get(name);
    if (a.computed && !a.optional && (!v || v.kind === "null")) planned.set(name, unknownVal(a.type));
    if (a.computed && a.optional && priorAttrs.get(name)?.kind !== "null" && priorAttrs.has(name) && configAttrs.get(name)?.kind === "null") {
      planned.set(name, unknownVal(a.type));
    }
  }
  return objectVal(planned);
}

/** MockProvider's default apply of a (non-null) planned object: unknowns become zero values. */
export function mockAppliedState(planned: Value): Value {
  const out = attrsOf(planned);
  for (const [k, v] of out) if (v.kind === "unknown") out.set(k, zeroValue(v.type));
  return objectVal(out);
}

/** testDiffFn (internal/tofu/context_test.go) on a (non-null) proposed object. */
export function testDiffPlanned(proposed: Value): { planned: Value; requiresReplace: Path[] } {
  const planned = attrsOf(proposed);
  const replace: Path[] = [];
  const id = planned.get("id");
  if (id && id.kind === "null") planned.set("id", unknownVal(StringType));
  // "the old tests have require_new replace on every plan"
  if (planned.has("require_new")) replace.push([attrStep("require_new")]);
  for (const k of [...planned.keys()]) {
    const key = `__${k}_requires_new`;
    if (planned.has(key)) replace.push([attrStep(key)]);
  }
  const compute = planned.get("compute");
  if (compute && compute.kind === "string") {
    let k = compute.value;
    let t: Type = StringType;
    if (k.endsWith(".#")) {
      k = k.slice(0, -2);
      t = listOf(StringType);
    }
    if (planned.has(k)) planned.set(k, unknownVal(t));
  }
  const ty = planned.get("type");
  if (ty && ty.kind === "null") planned.set("type", unknownVal(StringType));
  return { planned: objectVal(planned), requiresReplace: replace };
}

/** testApplyFn on a (non-null) planned object: id "foo", type = the type name, compute target "computed_value", other unknowns null. */
export function testAppliedState(planned: Value, typeName: string): Value {
  const out = attrsOf(planned);
  const id = out.get("id");
  if (!id || id.kind === "null" || id.kind === "unknown") out.set("id", stringVal("foo"));
  const ty = out.get("type");
  if (ty && ty.kind !== "null") out.set("type", stringVal(typeName));
  const compute = out.get("compute");
  if (compute && compute.kind === "string") {
    const target = out.get(compute.value);
    if (target && target.kind === "unknown") out.set(compute.value, stringVal("computed_value"));
  }
  for (const [k, v] of out) if (v.kind === "unknown") out.set(k, nullVal(v.type));
  return objectVal(out);
}

/** MockProvider's default PlanResourceChange. */
export function mockPlan(schema: Schema) {
  const attributes = Object.entries(schema.block.attributes ?? {}).map(([name, a]): [string, MockPlanAttribute] => [name, { ...a, type: a.type ?? StringType }]);
  return (req: PlanRequest<TestMeta>): PlanResult => {
    requireConfigured(req.meta, "PlanResourceChange", req.typeName);
    return { planned: mockPlannedState(attributes, req.proposed, req.prior, req.config), requiresReplace: [] };
  };
}

/** MockProvider's default ApplyResourceChange: unknowns become zero values. */
export function mockApply(req: { planned: Value; meta: TestMeta | undefined; typeName: string }): { state: Value } {
  requireConfigured(req.meta, "ApplyResourceChange", req.typeName);
  return { state: mockAppliedState(req.planned) };
}

/** testDiffFn (internal/tofu/context_test.go). */
export function testDiffFn(req: PlanRequest<TestMeta>): PlanResult {
  requireConfigured(req.meta, "PlanResourceChange", req.typeName);
  return testDiffPlanned(req.proposed);
}

/** testApplyFn: id "foo", type = the type name, compute target "computed_value", other unknowns null. */
export function testApplyFn(req: { planned: Value; meta: TestMeta | undefined; typeName: string }): { state: Value } {
  requireConfigured(req.meta, "ApplyResourceChange", req.typeName);
  return { state: testAppliedState(req.planned, req.typeName) };
}
