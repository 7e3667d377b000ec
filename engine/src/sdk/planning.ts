// The SDK's default PlanResourceChange, as terraform-plugin-framework plans: start from
// Terraform's proposed new state, apply attribute defaults where the configuration is null, mark
// computed attributes the configuration leaves null as unknown when anything changes (always on
// create), then run attribute plan modifiers (requires-replace, use-state-for-unknown, custom).
// Also the walk that runs attribute validators over a configuration.

import {
  attrStep,
  indexStep,
  listVal,
  mapVal,
  nullVal,
  numberIntVal,
  objectVal,
  rawEquals,
  setVal,
  stringVal,
  unknownVal,
  type Path,
  type Type,
  type Value,
} from "../values/index.js";
import { diagnosticsFromError, type Diagnostic } from "./diagnostics.js";
import { attributeType, impliedType, sortedEntries, type Attribute, type Block, type NestedAttributes } from "./schema.js";

interface AttrContext {
  readonly plan: Value;
  readonly config: Value;
  readonly prior: Value;
  readonly path: Path;
}

type Visitor = (a: Attribute, ctx: AttrContext) => Value;

function attrOf(v: Value, name: string, t: Type): Value {
  if (v.kind === "object") return v.attrs.get(name) ?? nullVal(t);
  if (v.kind === "unknown") return unknownVal(t);
  return nullVal(t);
}

function elementAt(v: Value, i: number, t: Type): Value {
  if (v.kind === "list" || v.kind === "tuple" || v.kind === "set") return v.elements[i] ?? nullVal(t);
  if (v.kind === "unknown") return unknownVal(t);
  return nullVal(t);
}

function mapEntry(v: Value, k: string, t: Type): Value {
  if (v.kind === "map" || v.kind === "object") return v.attrs.get(k) ?? nullVal(t);
  if (v.kind === "unknown") return unknownVal(t);
  return nullVal(t);
}

/**
 * Rebuilds `plan` (an object of `block`'s type) with `visit` applied to every attribute at every
 * depth: attributes of nested blocks and nested attribute objects are visited after their parent.
 * Elements pair with configuration and prior state by index (lists), key (maps); set elements
 * pair with configuration by position and have no prior. An object whose attributes all come back
 * unchanged is returned as it was, not rebuilt: planning walks every resource several times per
 * call, and most walks change little.
 */
function walkBlock(block: Block, plan: Value, config: Value, prior: Value, path: Path, visit: Visitor): Value {
  if (plan.kind !== "object") return plan;
  let attrs: Map<string, Value> | undefined;
  for (const [name, a] of sortedOnce(block.attributes)) {
    const t = attributeType(a);
    const p = [...path, attrStep(name)];
    const ctx: AttrContext = { plan: attrOf(plan, name, t), config: attrOf(config, name, t), prior: attrOf(prior, name, t), path: p };
    let next = visit(a, ctx);
    if (a.nested) next = walkNesting(a.nested.nesting, nestedAsBlock(a.nested), next, ctx.config, ctx.prior, p, visit);
    if (next !== plan.attrs.get(name)) (attrs ??= new Map(plan.attrs)).set(name, next);
  }
  for (const [name, nb] of sortedOnce(block.blocks)) {
    const t = impliedType(nb.block);
    const p = [...path, attrStep(name)];
    const cur = plan.attrs.get(name) ?? nullVal(t);
    const next = walkNesting(nb.nesting, nb.block, cur, attrOf(config, name, t), attrOf(prior, name, t), p, visit);
    if (next !== plan.attrs.get(name)) (attrs ??= new Map(plan.attrs)).set(name, next);
  }
  return attrs ? objectVal(attrs) : plan;
}

const sortedRecords = new WeakMap<object, ReadonlyArray<[string, unknown]>>();

/** A schema record's entries in name order, sorted once per record (schemas do not change). */
function sortedOnce<T>(rec: Readonly<Record<string, T>> | undefined): ReadonlyArray<[string, T]> {
  if (!rec) return [];
  let entries = sortedRecords.get(rec);
  if (!entries) sortedRecords.set(rec, (entries = sortedEntries(rec)));
  return entries as ReadonlyArray<[string, T]>;
}

const nestedBlocks = new WeakMap<NestedAttributes, Block>();

/** Nested attributes walk like a block of those attributes (kept, so its implied type is cached). */
function nestedAsBlock(n: NestedAttributes): Block {
  let b = nestedBlocks.get(n);
  if (!b) nestedBlocks.set(n, (b = { attributes: n.attributes }));
  return b;
}

function walkNesting(
  nesting: "single" | "group" | "list" | "set" | "map",
  block: Block,
  plan: Value,
  config: Value,
  prior: Value,
  path: Path,
  visit: Visitor,
): Value {
  const t = impliedType(block);
  switch (nesting) {
    case "single":
    case "group":
      return walkBlock(block, plan, config, prior, path, visit);
    case "list":
    case "set": {
      if ((plan.kind !== "list" && plan.kind !== "set") || plan.elements.length === 0) return plan;
      const els = plan.elements.map((e, i) =>
        walkBlock(
          block,
          e,
          elementAt(config, i, t),
          nesting === "list" ? elementAt(prior, i, t) : nullVal(t),
          [...path, indexStep(nesting === "list" ? numberIntVal(i) : e)],
          visit,
        ),
      );
      if (els.every((e, i) => e === plan.elements[i])) return plan;
      return nesting === "list" ? listVal(els) : setVal(els);
    }
    case "map": {
      if (plan.kind !== "map" || plan.attrs.size === 0) return plan;
      const out = new Map<string, Value>();
      let changed = false;
      for (const [k, e] of plan.attrs) {
        const next = walkBlock(block, e, mapEntry(config, k, t), mapEntry(prior, k, t), [...path, indexStep(stringVal(k))], visit);
        changed ||= next !== e;
        out.set(k, next);
      }
      return changed ? mapVal(out) : plan;
    }
  }
}

export interface PlanOutcome {
  readonly planned: Value;
  readonly requiresReplace: readonly Path[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Plans an update or create (`prior` null) from Terraform's proposed new state. Destroy never
 * reaches here: Terraform does not call PlanResourceChange for it unless the provider asks.
 */
export function planResourceChange(block: Block, prior: Value, proposed: Value, config: Value): PlanOutcome {
  const isCreate = prior.kind === "null";
  const diagnostics: Diagnostic[] = [];
  const requiresReplace: Path[] = [];

  // 1. Defaults for attributes the configuration leaves null; write-only attributes plan null.
  let planned = walkBlock(block, proposed, config, prior, [], (a, c) => {
    if (a.writeOnly) return nullVal(attributeType(a));
    if (a.default !== undefined && c.config.kind === "null") return a.default;
    return c.plan;
  });

  // 2. Anything changing: computed attributes not set in configuration become "known after apply".
  if (isCreate || !rawEquals(planned, prior)) {
    planned = walkBlock(block, planned, config, prior, [], (a, c) => {
      if (!a.computed || a.writeOnly || a.default !== undefined) return c.plan;
      if (c.config.kind !== "null") return c.plan;
      return unknownVal(attributeType(a));
    });
  }

  // 3. Attribute plan modifiers.
  const resourcePlan = planned;
  planned = walkBlock(block, planned, config, prior, [], (a, c) => {
    let plan = c.plan;
    for (const m of a.planModifiers ?? []) {
      try {
        const r = m({ path: c.path, config: c.config, state: c.prior, plan, isCreate, resourceConfig: config, resourceState: prior, resourcePlan });
        if (!r) continue;
        if (r.plan) plan = r.plan;
        if (r.requiresReplace) requiresReplace.push(c.path);
        if (r.diagnostics) diagnostics.push(...r.diagnostics);
      } catch (e) {
        diagnostics.push(...diagnosticsFromError(e, "a plan modifier"));
      }
    }
    return plan;
  });

  return { planned, requiresReplace, diagnostics };
}

/** Runs attribute validators over a configuration (known, non-null values only). */
export function validateAttributes(block: Block, config: Value): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  walkBlock(block, config, config, nullVal(config.type), [], (a, c) => {
    if (!a.validators || c.config.kind === "null" || c.config.kind === "unknown") return c.plan;
    for (const v of a.validators) {
      try {
        const r = v(c.config, { path: c.path, config });
        if (!r) continue;
        if (Array.isArray(r)) diagnostics.push(...(r as readonly Diagnostic[]));
        else diagnostics.push(r as Diagnostic);
      } catch (e) {
        diagnostics.push(...diagnosticsFromError(e, "a validator"));
      }
    }
    return c.plan;
  });
  return diagnostics;
}

/** Sets every write-only attribute to null (state never holds them). */
export function nullWriteOnly(block: Block, v: Value): Value {
  return walkBlock(block, v, v, nullVal(v.type), [], (a, c) => (a.writeOnly ? nullVal(attributeType(a)) : c.plan));
}

/** Paths of unknown values left inside `v` (a new state must have none). */
export function unknownPaths(v: Value, path: Path = []): Path[] {
  switch (v.kind) {
    case "unknown":
      return [path];
    case "list":
    case "tuple":
      return v.elements.flatMap((e, i) => unknownPaths(e, [...path, indexStep(numberIntVal(i))]));
    case "set":
      return v.elements.flatMap((e) => unknownPaths(e, [...path, indexStep(e)]));
    case "map":
      return [...v.attrs].flatMap(([k, e]) => unknownPaths(e, [...path, indexStep(stringVal(k))]));
    case "object":
      return [...v.attrs].flatMap(([k, e]) => unknownPaths(e, [...path, attrStep(k)]));
    default:
      return [];
  }
}
