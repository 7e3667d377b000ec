// OpenTofu's objchange.ProposedNew: the "proposed new state" handed to PlanResourceChange, made by
// merging the configuration over the prior state. Configured values win; computed attributes keep
// their prior values (optional+computed ones only where the configuration leaves them null);
// nested blocks are matched with their prior counterparts (single by position, list by index,
// map by key, set elements by equality) and merged recursively.
import type { Attribute, Block, NestedBlock, NestedObject } from "../providers/index.js";
import { attributeImpliedType, nestedBlockImpliedType } from "../providers/index.js";
import {
  isKnown,
  isNull,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  objectVal,
  rawEquals,
  setVal,
  setValEmpty,
  tupleVal,
  type Type,
  type Value,
} from "../values/index.js";

/** ProposedNew: the configuration merged over the prior state for a managed resource. */
export function proposedNew(schema: Block, prior: Value, config: Value): Value {
  // A null configuration means destroy; an unknown one cannot be merged.
  if (config.kind === "null" || config.kind === "unknown") return prior;
  const p = prior.kind === "null" ? allBlockAttributesNull(schema) : prior;
  return proposedNewBlock(schema, p, config);
}

/** A value of the block's type with every attribute null (and no nested blocks). */
export function allBlockAttributesNull(schema: Block): Value {
  const attrs = new Map<string, Value>();
  for (const [name, a] of schema.attributes) attrs.set(name, nullVal(attributeImpliedType(a)));
  for (const [name, nb] of schema.blockTypes) attrs.set(name, emptyNestedBlock(nb));
  return objectVal(attrs);
}

function emptyNestedBlock(nb: NestedBlock): Value {
  const ty = nestedBlockImpliedType(nb);
  switch (nb.nesting) {
    case "single":
    case "group":
      return nullVal(ty);
    case "list":
      return ty.kind === "list" ? listValEmpty(ty.element) : tupleVal([]);
    case "set":
      return ty.kind === "set" ? setValEmpty(ty.element) : nullVal(ty);
    case "map":
      return ty.kind === "map" ? mapValEmpty(ty.element) : objectVal({});
  }
}

function attr(v: Value, name: string, ty: Type): Value {
  if (v.kind === "object" || v.kind === "map") return v.attrs.get(name) ?? nullVal(ty);
  return nullVal(ty);
}

function proposedNewBlock(schema: Block, prior: Value, config: Value): Value {
  if (config.kind === "null" || config.kind === "unknown") return config;
  const out = new Map<string, Value>();
  for (const [name, a] of schema.attributes) {
    const ty = attributeImpliedType(a);
    out.set(name, proposedNewAttribute(a, attr(prior, name, ty), attr(config, name, ty)));
  }
  for (const [name, nb] of schema.blockTypes) {
    const ty = nestedBlockImpliedType(nb);
    out.set(name, proposedNewNestedBlock(nb, attr(prior, name, ty), attr(config, name, ty)));
  }
  return objectVal(out);
}

function proposedNewAttribute(a: Attribute, prior: Value, config: Value): Value {
  if (a.computed && !a.optional) return prior;
  if (a.computed && a.optional && config.kind === "null") return prior;
  if (a.nestedType && isKnown(config) && !isNull(config)) return proposedNewNestedAttribute(a.nestedType, prior, config);
  return config;
}

/** Protocol 6 nested attribute types, merged like blocks made of attributes. */
function proposedNewNestedAttribute(o: NestedObject, prior: Value, config: Value): Value {
  const asBlock: Block = { attributes: o.attributes, blockTypes: new Map(), description: "", descriptionKind: "plain", deprecated: false };
  const priorUsable = isKnown(prior) && !isNull(prior);
  switch (o.nesting) {
    case "single":
      return proposedNewBlock(asBlock, priorUsable ? prior : allBlockAttributesNull(asBlock), config);
    case "list":
      return mergeSequence(asBlock, priorUsable ? prior : undefined, config, config.kind === "tuple");
    case "map":
      return mergeMapping(asBlock, priorUsable ? prior : undefined, config);
    case "set":
      return mergeSet(asBlock, priorUsable ? prior : undefined, config);
  }
}

function proposedNewNestedBlock(nb: NestedBlock, prior: Value, config: Value): Value {
  if (config.kind === "unknown") return config;
  const priorUsable = isKnown(prior) && !isNull(prior);
  switch (nb.nesting) {
    case "single":
    case "group":
      if (config.kind === "null") return config;
      return proposedNewBlock(nb.block, priorUsable ? prior : allBlockAttributesNull(nb.block), config);
    case "list":
      if (config.kind === "null") return config;
      return mergeSequence(nb.block, priorUsable ? prior : undefined, config, config.kind === "tuple");
    case "map":
      if (config.kind === "null") return config;
      return mergeMapping(nb.block, priorUsable ? prior : undefined, config);
    case "set":
      if (config.kind === "null") return config;
      return mergeSet(nb.block, priorUsable ? prior : undefined, config);
  }
}

function elements(v: Value | undefined): readonly Value[] {
  return v && (v.kind === "list" || v.kind === "tuple" || v.kind === "set") ? v.elements : [];
}

function mergeSequence(block: Block, prior: Value | undefined, config: Value, tuple: boolean): Value {
  if (config.kind !== "list" && config.kind !== "tuple") return config;
  const priorEls = elements(prior);
  const out = config.elements.map((c, i) => {
    const p = priorEls[i];
    return proposedNewBlock(block, p && isKnown(p) && !isNull(p) ? p : allBlockAttributesNull(block), c);
  });
  if (out.length === 0) return config;
  return tuple ? tupleVal(out) : listVal(out);
}

function mergeMapping(block: Block, prior: Value | undefined, config: Value): Value {
  if (config.kind !== "map" && config.kind !== "object") return config;
  const priorAttrs = prior && (prior.kind === "map" || prior.kind === "object") ? prior.attrs : new Map<string, Value>();
  const out = new Map<string, Value>();
  for (const [k, c] of config.attrs) {
    const p = priorAttrs.get(k);
    out.set(k, proposedNewBlock(block, p && isKnown(p) && !isNull(p) ? p : allBlockAttributesNull(block), c));
  }
  if (out.size === 0) return config;
  return config.kind === "map" ? mapVal(out) : objectVal(out);
}

/**
 * Set elements have no identity: a configured element takes a prior element's computed values
 * when the two agree on every non-computed attribute (OpenTofu's setElementCompareValue).
 */
function mergeSet(block: Block, prior: Value | undefined, config: Value): Value {
  if (config.kind !== "set") return config;
  const priorEls = [...elements(prior)];
  const used = new Set<number>();
  const out = config.elements.map((c) => {
    const idx = priorEls.findIndex((p, i) => !used.has(i) && isKnown(p) && rawEquals(configurableOnly(block, p), configurableOnly(block, c)));
    if (idx < 0) return proposedNewBlock(block, allBlockAttributesNull(block), c);
    used.add(idx);
    return proposedNewBlock(block, priorEls[idx] as Value, c);
  });
  if (out.length === 0) return config;
  return setVal(out);
}

/** The value with computed-only attributes nulled, for comparing set elements. */
function configurableOnly(block: Block, v: Value): Value {
  if (v.kind !== "object") return v;
  const out = new Map<string, Value>();
  for (const [name, a] of block.attributes) {
    const x = v.attrs.get(name) ?? nullVal(attributeImpliedType(a));
    out.set(name, a.computed && !a.optional ? nullVal(attributeImpliedType(a)) : x);
  }
  for (const [name, nb] of block.blockTypes) out.set(name, v.attrs.get(name) ?? nullVal(nestedBlockImpliedType(nb)));
  return objectVal(out);
}
