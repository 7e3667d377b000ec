// The provider contract checks of OpenTofu's plans/objchange: AssertPlanValid (a planned value
// keeps every non-null configuration value, or the prior value; only computed attributes may be
// chosen by the provider; nested block counts follow the configuration) and
// AssertObjectCompatible (every known planned value is unchanged in the final plan and in the
// applied result). Both return path errors whose messages are upstream's, word for word;
// diagnostics.ts wraps them in the diagnostics OpenTofu shows. Attributes are visited in name
// order (Go visits maps randomly), so the order of several errors is stable.

import {
  NumberType,
  attrStep,
  conforms,
  equals,
  goQuote,
  indexStep,
  mismatchMessage,
  nullVal,
  numberIntVal,
  pathError,
  rawEquals,
  stringVal,
  unknownVal,
  unmarkDeep,
  unmarkDeepWithPaths,
  type Path,
  type PathError,
  type Type,
  type Value,
} from "../../values/index.js";
import {
  impliedType,
  objectImpliedType,
  type Attribute,
  type Block,
  type NestedBlock,
  type NestedObject,
} from "../schema/index.js";
import { valueGoString } from "./gostring.js";

const gs = valueGoString;

// ---------------------------------------------------------------------------------------------
// Small cty helpers

function getAttr(v: Value, name: string, type?: Type): Value {
  if (v.kind === "object") {
    const a = v.attrs.get(name);
    if (a) return a;
  }
  const t = type ?? (v.type.kind === "object" ? v.type.attributes.get(name) : undefined);
  if (v.kind === "unknown") return unknownVal(t ?? NumberType);
  return nullVal(t ?? NumberType);
}

function attrType(t: Type, name: string): Type | undefined {
  return t.kind === "object" ? t.attributes.get(name) : undefined;
}

/** The value with every refinement dropped (objchange.unrefinedValue). */
function unrefined(v: Value): Value {
  switch (v.kind) {
    case "unknown":
      return unknownVal(v.type);
    case "list":
    case "set":
    case "tuple":
      return { ...v, elements: v.elements.map(unrefined) };
    case "map":
    case "object":
      return { ...v, attrs: new Map([...v.attrs].map(([k, e]) => [k, unrefined(e)])) };
    default:
      return v;
  }
}

/** Element pairs of a known collection or structural value: [key, element]. */
function elements(v: Value): Array<[Value, Value]> {
  switch (v.kind) {
    case "list":
    case "tuple":
      return v.elements.map((e, i) => [numberIntVal(i), e]);
    case "set":
      return v.elements.map((e) => [e, e]);
    case "map":
    case "object":
      return [...v.attrs].map(([k, e]) => [stringVal(k), e]);
    default:
      return [];
  }
}

function lengthInt(v: Value): number {
  switch (v.kind) {
    case "list":
    case "set":
    case "tuple":
      return v.elements.length;
    case "map":
    case "object":
      return v.attrs.size;
    default:
      return 0;
  }
}

/** cty's Value.Length as a value: unknown (refined by known bounds) when the value is unknown. */
function lengthValue(v: Value): Value {
  if (v.kind === "unknown") {
    const r = v.refinement;
    const refinement: { notNull: boolean; numberLower?: { value: ReturnType<typeof numberIntVal>["value"]; inclusive: boolean }; numberUpper?: { value: ReturnType<typeof numberIntVal>["value"]; inclusive: boolean } } = { notNull: true };
    refinement.numberLower = { value: numberIntVal(r.lengthLower ?? 0).value, inclusive: true };
    if (r.lengthUpper !== undefined) refinement.numberUpper = { value: numberIntVal(r.lengthUpper).value, inclusive: true };
    return unknownVal(NumberType, refinement);
  }
  return numberIntVal(lengthInt(v));
}

/** Index a known collection by key (list index or map key); undefined if absent. */
function indexOf(v: Value, key: Value): Value | undefined {
  if ((v.kind === "list" || v.kind === "tuple") && key.kind === "number") {
    const i = Number(key.value.toBigInt() ?? -1n);
    return v.elements[i];
  }
  if ((v.kind === "map" || v.kind === "object") && key.kind === "string") return v.attrs.get(key.value);
  return undefined;
}

/** Whether an unknown's refinements allow `actual` (cty ValueRange.Includes); undefined = can't tell. */
function rangeIncludes(planned: Value, actual: Value): boolean | undefined {
  if (planned.kind !== "unknown") return undefined;
  const r = planned.refinement;
  if (actual.kind === "unknown") return undefined;
  if (actual.kind === "null") return r.notNull ? false : true;
  if (r.stringPrefix && actual.kind === "string" && !actual.value.startsWith(r.stringPrefix)) return false;
  if (actual.kind === "number") {
    if (r.numberLower) {
      const c = actual.value.cmp(r.numberLower.value);
      if (c < 0 || (c === 0 && !r.numberLower.inclusive)) return false;
    }
    if (r.numberUpper) {
      const c = actual.value.cmp(r.numberUpper.value);
      if (c > 0 || (c === 0 && !r.numberUpper.inclusive)) return false;
    }
  }
  if (actual.kind === "list" || actual.kind === "set" || actual.kind === "map") {
    const n = lengthInt(actual);
    if (r.lengthLower !== undefined && n < r.lengthLower) return false;
    if (r.lengthUpper !== undefined && n > r.lengthUpper) return false;
  }
  return true;
}

function isTrue(v: Value): boolean {
  return v.kind === "bool" && v.value;
}

const sortedEntries = <T>(m: ReadonlyMap<string, T>): Array<[string, T]> => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

function err(path: Path, message: string): PathError {
  return pathError(path, message);
}

// ---------------------------------------------------------------------------------------------
// AssertPlanValid

/**
 * Checks that `planned` (from PlanResourceChange) is a valid plan to get from `prior` to
 * `config`. All three must conform to the block's implied type; marks are ignored.
 */
export function assertPlanValid(schema: Block, prior: Value, config: Value, planned: Value): PathError[] {
  return planValid(schema, unmarkDeep(prior)[0], unmarkDeep(config)[0], unmarkDeep(planned)[0], []);
}

function planValid(schema: Block, prior: Value, config: Value, planned: Value, path: Path): PathError[] {
  const errs: PathError[] = [];
  if (planned.kind === "null" && config.kind !== "null") return [err(path, "planned for absence but config wants existence")];
  if (config.kind === "null" && planned.kind !== "null") return [err(path, "planned for existence but config wants absence")];
  if (planned.kind === "null") return errs;

  const impTy = impliedType(schema);
  errs.push(...plannedAttrsValid(schema.attributes, prior, config, planned, path));

  for (const [name, blockS] of sortedEntries(schema.blockTypes)) {
    const p: Path = [...path, attrStep(name)];
    const plannedV = getAttr(planned, name);
    const configV = getAttr(config, name);
    const priorV = prior.kind === "null" ? nullVal(attrType(impTy, name) ?? NumberType) : getAttr(prior, name);
    if (rawEquals(plannedV, configV)) continue;
    if (configV.kind === "unknown") {
      errs.push(err(p, `planned value ${gs(plannedV)} for unknown dynamic block`));
      continue;
    }
    if (plannedV.kind === "unknown") {
      errs.push(err(p, "attribute representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
      continue;
    }
    errs.push(...nestedBlockPlanValid(blockS, priorV, configV, plannedV, p));
  }
  return errs;
}

function nestedBlockPlanValid(blockS: NestedBlock, priorV: Value, configV: Value, plannedV: Value, p: Path): PathError[] {
  const errs: PathError[] = [];
  const blockTy = nestedBlockElementType(blockS);
  switch (blockS.nesting) {
    case "single":
    case "group":
      return planValid(blockS.block, priorV, configV, plannedV, p);
    case "list": {
      if (plannedV.kind === "null") return [err(p, "attribute representing a list of nested blocks must be empty to indicate no blocks, not null")];
      const plannedL = lengthInt(plannedV);
      const configL = configV.kind === "null" ? 0 : lengthInt(configV);
      if (plannedL !== configL) return [err(p, `block count in plan (${plannedL}) disagrees with count in config (${configL})`)];
      for (const [idx, plannedEV] of elements(plannedV)) {
        const ep: Path = [...p, indexStep(idx)];
        if (plannedEV.kind === "unknown") {
          errs.push(err(ep, "element representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
          continue;
        }
        const configEV = indexOf(configV, idx);
        if (!configEV) continue;
        const priorEV = (priorV.kind !== "null" && priorV.kind !== "unknown" ? indexOf(priorV, idx) : undefined) ?? nullVal(blockTy);
        errs.push(...planValid(blockS.block, priorEV, configEV, plannedEV, ep));
      }
      return errs;
    }
    case "map": {
      if (plannedV.kind === "null") return [err(p, "attribute representing a map of nested blocks must be empty to indicate no blocks, not null")];
      if (plannedV.kind === "object") {
        const configAttrs = configV.kind === "object" ? configV.attrs : new Map<string, Value>();
        for (const [k, plannedEV] of sortedEntries(plannedV.attrs)) {
          const configEV = configAttrs.get(k);
          if (!configEV) {
            errs.push(err(p, `block key ${goQuote(k)} from plan is not present in config`));
            continue;
          }
          const ep: Path = [...p, attrStep(k)];
          if (plannedEV.kind === "unknown") {
            errs.push(err(ep, "element representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
            continue;
          }
          const priorEV = (priorV.kind === "object" ? priorV.attrs.get(k) : undefined) ?? nullVal(blockTy);
          errs.push(...planValid(blockS.block, priorEV, configEV, plannedEV, ep));
        }
        for (const k of [...configAttrs.keys()].sort()) {
          if (!plannedV.attrs.has(k)) errs.push(err(p, `block key ${goQuote(k)} from config is not present in plan`));
        }
        return errs;
      }
      const plannedL = lengthInt(plannedV);
      const configL = configV.kind === "null" ? 0 : lengthInt(configV);
      if (plannedL !== configL) return [err(p, `block count in plan (${plannedL}) disagrees with count in config (${configL})`)];
      for (const [idx, plannedEV] of elements(plannedV)) {
        const ep: Path = [...p, indexStep(idx)];
        if (plannedEV.kind === "unknown") {
          errs.push(err(ep, "element representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
          continue;
        }
        const k = idx.kind === "string" ? idx.value : "";
        const configEV = indexOf(configV, idx);
        if (!configEV) {
          errs.push(err(p, `block key ${goQuote(k)} from plan is not present in config`));
          continue;
        }
        const priorEV = (priorV.kind === "map" ? priorV.attrs.get(k) : undefined) ?? nullVal(blockTy);
        errs.push(...planValid(blockS.block, priorEV, configEV, plannedEV, ep));
      }
      for (const [idx] of elements(configV)) {
        if (!indexOf(plannedV, idx)) errs.push(err(p, `block key ${goQuote(idx.kind === "string" ? idx.value : "")} from config is not present in plan`));
      }
      return errs;
    }
    case "set": {
      if (plannedV.kind === "null") return [err(p, "attribute representing a set of nested blocks must be empty to indicate no blocks, not null")];
      // Set elements cannot be correlated with configuration, so only their knownness is checked.
      for (const [idx, plannedEV] of elements(plannedV)) {
        if (plannedEV.kind === "unknown") {
          errs.push(err([...p, indexStep(idx)], "element representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
        }
      }
      return errs;
    }
  }
}

/** The implied type of one block of a nested block type (the element type of its collection). */
function nestedBlockElementType(nb: NestedBlock): Type {
  return impliedType(nb.block);
}

function plannedAttrsValid(attrs: ReadonlyMap<string, Attribute>, prior: Value, config: Value, planned: Value, path: Path): PathError[] {
  const errs: PathError[] = [];
  for (const [name, attrS] of sortedEntries(attrs)) {
    const plannedV = getAttr(planned, name);
    const configV = getAttr(config, name);
    const priorV = prior.kind === "null" || prior.kind === "unknown" ? nullVal(attrS.type ?? plannedV.type) : getAttr(prior, name);
    errs.push(...plannedValueValid(attrS, priorV, configV, plannedV, [...path, attrStep(name)]));
  }
  return errs;
}

function plannedValueValid(attrS: Attribute, priorV: Value, configV: Value, plannedV: Value, path: Path): PathError[] {
  if (rawEquals(unrefined(plannedV), unrefined(configV))) return [];
  if (rawEquals(unrefined(plannedV), unrefined(priorV)) && priorV.kind !== "null" && configV.kind !== "null") return [];
  // The provider may plan any value for a computed-only attribute.
  if (attrS.computed && !attrS.optional) return [];
  // …and may fill in an optional+computed attribute the configuration left null.
  if (configV.kind === "null" && attrS.computed) return [];
  if (configV.kind === "null" && plannedV.kind !== "null") {
    return [err(path, attrS.sensitive ? "sensitive planned value for a non-computed attribute" : `planned value ${gs(plannedV)} for a non-computed attribute`)];
  }
  if (attrS.nestedType) return plannedObjectValid(attrS.nestedType, priorV, configV, plannedV, path);
  if (configV.kind !== "null" && plannedV.kind === "null" && attrS.writeOnly) return [];
  if (priorV.kind === "null") {
    return [err(path, attrS.sensitive ? "sensitive planned value does not match config value" : `planned value ${gs(plannedV)} does not match config value ${gs(configV)}`)];
  }
  return [
    err(
      path,
      attrS.sensitive
        ? "sensitive planned value does not match config value nor prior value"
        : `planned value ${gs(plannedV)} does not match config value ${gs(configV)} nor prior value ${gs(priorV)}`,
    ),
  ];
}

function plannedObjectValid(schema: NestedObject, prior: Value, config: Value, planned: Value, path: Path): PathError[] {
  if (planned.kind === "null" && config.kind !== "null") return [err(path, "planned for absence but config wants existence")];
  if (config.kind === "null" && planned.kind !== "null") return [err(path, "planned for existence but config wants absence")];
  if (config.kind !== "null" && planned.kind === "unknown") return [err(path, "planned unknown for configured value")];
  if (planned.kind === "null") return [];
  const elemTy = objectElementType(schema);
  const errs: PathError[] = [];
  switch (schema.nesting) {
    case "single":
      return plannedAttrsValid(schema.attributes, prior, config, planned, path);
    case "list": {
      const plannedL = lengthValue(planned);
      const configL = lengthValue(config);
      if (plannedL.kind === "unknown" && configL.kind === "unknown") return [];
      const eq = equals(plannedL, configL);
      if (eq.kind !== "bool" || !eq.value) return [err(path, `count in plan (${gs(plannedL)}) disagrees with count in config (${gs(configL)})`)];
      for (const [idx, plannedEV] of elements(planned)) {
        const configEV = indexOf(config, idx);
        if (!configEV) continue;
        const priorEV = (prior.kind === "list" ? indexOf(prior, idx) : undefined) ?? nullVal(elemTy);
        errs.push(...plannedAttrsValid(schema.attributes, priorEV, configEV, plannedEV, [...path, indexStep(idx)]));
      }
      return errs;
    }
    case "map": {
      const plannedL = lengthValue(planned);
      const configL = lengthValue(config);
      if (plannedL.kind === "unknown" && configL.kind === "unknown") return [];
      const eq = equals(plannedL, configL);
      if (eq.kind !== "bool" || !eq.value) return [err(path, `count in plan (${gs(plannedL)}) disagrees with count in config (${gs(configL)})`)];
      const plannedVals = planned.kind === "map" || planned.kind === "object" ? planned.attrs : new Map<string, Value>();
      const configVals = config.kind === "map" || config.kind === "object" ? config.attrs : new Map<string, Value>();
      const priorVals = prior.kind === "map" || prior.kind === "object" ? prior.attrs : new Map<string, Value>();
      for (const [k, plannedEV] of sortedEntries(plannedVals)) {
        const configEV = configVals.get(k);
        if (!configEV) {
          errs.push(err(path, `map key ${goQuote(k)} from plan is not present in config`));
          continue;
        }
        errs.push(...plannedAttrsValid(schema.attributes, priorVals.get(k) ?? nullVal(elemTy), configEV, plannedEV, [...path, attrStep(k)]));
      }
      for (const k of [...configVals.keys()].sort()) {
        if (!plannedVals.has(k)) errs.push(err(path, `map key ${goQuote(k)} from config is not present in plan`));
      }
      return errs;
    }
    case "set": {
      const plannedL = lengthValue(planned);
      const configL = lengthValue(config);
      if (configL.kind !== "unknown") {
        const inc = plannedL.kind === "unknown" ? rangeIncludes(plannedL, configL) : numbersMatch(plannedL, configL);
        if (inc === false) return [err(path, `count in plan (${gs(plannedL)}) disagrees with count in config (${gs(configL)})`)];
      }
      return errs;
    }
  }
}

function numbersMatch(a: Value, b: Value): boolean {
  return isTrue(equals(a, b));
}

function objectElementType(o: NestedObject): Type {
  const t = objectImpliedType(o);
  return t.kind === "list" || t.kind === "set" || t.kind === "map" ? t.element : t;
}

// ---------------------------------------------------------------------------------------------
// AssertObjectCompatible

/**
 * Checks that `actual` (the final plan, or the state after apply) is a valid completion of
 * `planned`: every known planned value is unchanged, unknowns are filled within their
 * refinements, nested block counts agree.
 */
export function assertObjectCompatible(schema: Block, planned: Value, actual: Value): PathError[] {
  return objectCompatible(schema, planned, actual, []);
}

function objectCompatible(schema: Block, planned: Value, actual: Value, path: Path): PathError[] {
  const atRoot = path.length === 0 ? "root object " : "";
  if (planned.kind === "null" && actual.kind !== "null") return [err(path, `${atRoot}was absent, but now present`)];
  if (actual.kind === "null" && planned.kind !== "null") return [err(path, `${atRoot}was present, but now absent`)];
  if (planned.kind === "null") return [];
  const errs: PathError[] = [];
  for (const [name, attrS] of sortedEntries(schema.attributes)) {
    errs.push(...attributeCompatible(getAttr(planned, name), getAttr(actual, name), attrS, [...path, attrStep(name)]));
  }
  for (const [name, blockS] of sortedEntries(schema.blockTypes)) {
    const plannedV = unmarkDeep(getAttr(planned, name))[0];
    const actualV = unmarkDeep(getAttr(actual, name))[0];
    errs.push(...nestedBlockCompatible(plannedV, actualV, blockS, [...path, attrStep(name)]));
  }
  return errs;
}

function attributeCompatible(plannedV: Value, actualV: Value, attrS: Attribute, path: Path): PathError[] {
  const [ua, marksA] = unmarkDeepWithPaths(actualV);
  const [up, marksP] = unmarkDeepWithPaths(plannedV);
  const sensitive = attrS.sensitive || marksA.some((m) => m.marks.has("sensitive")) || marksP.some((m) => m.marks.has("sensitive"));
  const more = valueCompatible(up, ua, path);
  if (sensitive) return more.length > 0 ? [err(path, "inconsistent values for sensitive attribute")] : [];
  return more;
}

function nestedBlockCompatible(plannedV: Value, actualV: Value, blockS: NestedBlock, path: Path): PathError[] {
  switch (blockS.nesting) {
    case "single":
    case "group":
      if (plannedV.kind === "unknown" && actualV.kind === "null") return [];
      return objectCompatible(blockS.block, plannedV, actualV, path);
    case "list": {
      if (plannedV.kind === "unknown" || actualV.kind === "unknown" || plannedV.kind === "null" || actualV.kind === "null") return [];
      const pl = lengthInt(plannedV);
      const al = lengthInt(actualV);
      if (pl !== al) return [err(path, `block count changed from ${pl} to ${al}`)];
      const errs: PathError[] = [];
      for (const [idx, plannedEV] of elements(plannedV)) {
        const actualEV = indexOf(actualV, idx);
        if (!actualEV) continue;
        errs.push(...objectCompatible(blockS.block, plannedEV, actualEV, [...path, indexStep(idx)]));
      }
      return errs;
    }
    case "map": {
      if (plannedV.kind === "object" || (plannedV.kind === "unknown" && plannedV.type.kind === "object")) {
        const errs: PathError[] = [];
        const pAttrs = plannedV.type.kind === "object" ? plannedV.type.attributes : new Map<string, Type>();
        const aAttrs = actualV.type.kind === "object" ? actualV.type.attributes : new Map<string, Type>();
        for (const k of [...pAttrs.keys()].sort()) {
          if (!aAttrs.has(k)) {
            errs.push(err(path, `block key ${goQuote(k)} has vanished`));
            continue;
          }
          errs.push(...objectCompatible(blockS.block, getAttr(plannedV, k), getAttr(actualV, k), [...path, attrStep(k)]));
        }
        if (plannedV.kind !== "unknown") {
          for (const k of [...aAttrs.keys()].sort()) if (!pAttrs.has(k)) errs.push(err(path, `new block key ${goQuote(k)} has appeared`));
        }
        return errs;
      }
      if (plannedV.kind === "unknown" || plannedV.kind === "null" || actualV.kind === "null" || actualV.kind === "unknown") return [];
      const pl = lengthInt(plannedV);
      const al = lengthInt(actualV);
      if (pl !== al) return [err(path, `block count changed from ${pl} to ${al}`)];
      const errs: PathError[] = [];
      for (const [idx, plannedEV] of elements(plannedV)) {
        const actualEV = indexOf(actualV, idx);
        if (!actualEV) continue;
        errs.push(...objectCompatible(blockS.block, plannedEV, actualEV, [...path, indexStep(idx)]));
      }
      return errs;
    }
    case "set": {
      if (plannedV.kind === "unknown" || actualV.kind === "unknown" || plannedV.kind === "null" || actualV.kind === "null") return [];
      const errs = setValuesCompatible(plannedV, actualV, path, (p, a) => objectCompatible(blockS.block, p, a, [...path, indexStep(a)]).length === 0);
      const pl = lengthInt(plannedV);
      const al = lengthInt(actualV);
      if (pl < al) errs.push(err(path, `block set length changed from ${pl} to ${al}`));
      return errs;
    }
  }
}

function valueCompatible(planned: Value, actual: Value, path: Path): PathError[] {
  if (planned.type.kind === "dynamic") return [];
  if (!conforms(actual.type, planned.type)) {
    const msg = mismatchMessage(actual.type, planned.type);
    return [err(path, `wrong final value type: ${msg}`)];
  }
  if (planned.kind === "unknown") {
    if (rangeIncludes(planned, actual) === false) return [err(path, `final value ${gs(actual)} does not conform to planning placeholder ${gs(planned)}`)];
    return [];
  }
  if (actual.kind === "null") return planned.kind === "null" ? [] : [err(path, `was ${gs(planned)}, but now null`)];
  if (planned.kind === "null") return [err(path, `was null, but now ${gs(actual)}`)];
  if (actual.kind === "unknown") return [err(path, "was known, but now unknown")];

  switch (planned.kind) {
    case "string":
    case "number":
    case "bool":
      return isTrue(equals(actual, planned)) ? [] : [err(path, `was ${gs(planned)}, but now ${gs(actual)}`)];
    case "list":
    case "map":
    case "tuple": {
      const errs: PathError[] = [];
      for (const [k, plannedV] of elements(planned)) {
        const actualV = indexOf(actual, k);
        if (!actualV) {
          errs.push(err(path, `element ${indexStr(k)} has vanished`));
          continue;
        }
        errs.push(...valueCompatible(plannedV, actualV, [...path, indexStep(k)]));
      }
      for (const [k] of elements(actual)) if (!indexOf(planned, k)) errs.push(err(path, `new element ${indexStr(k)} has appeared`));
      return errs;
    }
    case "object": {
      const errs: PathError[] = [];
      for (const name of planned.type.kind === "object" ? planned.type.attributes.keys() : []) {
        errs.push(...valueCompatible(getAttr(planned, name), getAttr(actual, name), [...path, attrStep(name)]));
      }
      return errs;
    }
    case "set": {
      const errs = setValuesCompatible(planned, actual, path, (p, a) => valueCompatible(p, a, [...path, indexStep(a)]).length === 0);
      const pl = lengthInt(planned);
      const al = lengthInt(actual);
      if (pl < al) errs.push(err(path, `length changed from ${pl} to ${al}`));
      return errs;
    }
  }
}

function indexStr(k: Value): string {
  if (k.kind === "number") return k.value.text("f");
  if (k.kind === "string") return goQuote(k.value);
  return gs(k);
}

function setValuesCompatible(planned: Value, actual: Value, path: Path, f: (p: Value, a: Value) => boolean): PathError[] {
  const as = planned.kind === "set" ? planned.elements : [];
  const bs = actual.kind === "set" ? actual.elements : [];
  const aeqs = as.map(() => false);
  const beqs = bs.map(() => false);
  as.forEach((av, ai) =>
    bs.forEach((bv, bi) => {
      if (f(av, bv)) {
        aeqs[ai] = true;
        beqs[bi] = true;
      }
    }),
  );
  const errs: PathError[] = [];
  aeqs.forEach((eq, i) => {
    if (!eq) errs.push(err(path, `planned set element ${gs(as[i] as Value)} does not correlate with any element in actual`));
  });
  if (errs.length > 0) return errs;
  beqs.forEach((eq, i) => {
    if (!eq) errs.push(err(path, `actual set element ${gs(bs[i] as Value)} does not correlate with any element in plan`));
  });
  return errs;
}

