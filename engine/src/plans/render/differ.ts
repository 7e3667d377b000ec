// jsonformat/differ and jsondiff: structured changes to computed diffs, guided by the schema
// (blocks, attributes, cty types) or, for dynamic values and outputs, by the JSON alone.
import type { Attribute, Block, NestedObject } from "../../providers/schema/index.js";
import type { Type } from "../../values/index.js";
import type { Action } from "../action.js";
import { compareActions, transformMap, transformSlice } from "./collections.js";
import * as r from "./computed.js";
import { JNumber, deepEqual, isJObject, type J, type JObject } from "./json.js";
import {
  allKeys,
  alwaysMatcher,
  asCreate,
  asDelete,
  asMap,
  asNoOp,
  asSlice,
  calculateAction,
  checkForSensitive,
  checkForUnknown,
  defaultActionForIteration,
  explicitKeys,
  isAfterSensitive,
  isBeforeSensitive,
  isUnknown,
  mapChild,
  sliceChild,
  type Change,
} from "./structured.js";

type Diff = r.Diff;

function asDiff(c: Change, renderer: r.Renderer): Diff {
  return r.newDiff(renderer, calculateAction(c), c.replacePaths.matches());
}

function processUnknown(c: Change): Diff {
  return asDiff(c, r.unknown(undefined));
}

function withBefore(compute: (c: Change) => Diff): (c: Change, before: Change) => Diff {
  return (c, before) => asDiff(c, r.unknown(compute(before)));
}

function sensitiveWrapper(c: Change, block: boolean): (inner: Diff, b: boolean, a: boolean, action: Action) => Diff {
  return (inner, b, a, action) => r.newDiff(block ? r.sensitiveBlock(inner, b, a) : r.sensitive(inner, b, a), action, c.replacePaths.matches());
}

function trueFor(names: Iterable<string>): JObject {
  const o: JObject = Object.create(null) as JObject;
  for (const n of names) o[n] = true;
  return o;
}

// ---------------------------------------------------------------------------------------------
// Blocks

export function computeDiffForBlock(change: Change, block: Block): Diff {
  const sens = checkForSensitive(change, (c) => computeDiffForBlock(c, block), sensitiveWrapper(change, true));
  if (sens) return sens;
  const unk = checkForUnknownBlock(change, block);
  if (unk) return unk;

  let current = defaultActionForIteration(change);
  const blockValue = asMap(change);
  const attributes = new Map<string, Diff>();
  for (const [key, attr] of block.attributes) {
    let child = mapChild(blockValue, key);
    if (!child.relevantAttributes.matchesPartial()) child = asNoOp(child);
    // Empty strings in blocks count as null (legacy SDK behaviour).
    if (child.before === "") child.before = null;
    if (child.after === "") child.after = null;
    child.beforeExplicit = false;
    child.afterExplicit = false;
    const d = computeDiffForAttribute(child, attr);
    if (d.action === "NoOp" && child.before === null && child.after === null) continue;
    attributes.set(key, d);
    current = compareActions(current, d.action);
  }

  const blocks = r.newBlocks();
  for (const [key, bt] of block.blockTypes) {
    let child = mapChild(blockValue, key);
    if (!child.relevantAttributes.matchesPartial()) child = asNoOp(child);
    const bs = isBeforeSensitive(child);
    const as = isAfterSensitive(child);
    const forces = child.replacePaths.matches();
    const add = (kind: "single", d: Diff): void => {
      void kind;
      blocks.single.set(key, d);
      blocks.replace.set(key, forces);
      blocks.beforeSensitive.set(key, bs);
      blocks.afterSensitive.set(key, as);
    };
    const unknownBlock = checkForUnknownBlock(child, block);
    if (unknownBlock) {
      add("single", unknownBlock);
      continue;
    }
    const meta = (): void => {
      blocks.replace.set(key, forces);
      blocks.beforeSensitive.set(key, bs);
      blocks.afterSensitive.set(key, as);
    };
    switch (bt.nesting) {
      case "set": {
        const [diffs, action] = computeBlockDiffsAsSet(child, bt.block);
        if (action === "NoOp" && child.before === null && child.after === null) continue;
        blocks.set.set(key, diffs);
        meta();
        current = compareActions(current, action);
        break;
      }
      case "list": {
        const [diffs, action] = computeBlockDiffsAsList(child, bt.block);
        if (action === "NoOp" && child.before === null && child.after === null) continue;
        blocks.list.set(key, diffs);
        meta();
        current = compareActions(current, action);
        break;
      }
      case "map": {
        const [diffs, action] = computeBlockDiffsAsMap(child, bt.block);
        if (action === "NoOp" && child.before === null && child.after === null) continue;
        blocks.map.set(key, diffs);
        meta();
        current = compareActions(current, action);
        break;
      }
      case "single":
      case "group": {
        const d = computeDiffForBlock(child, bt.block);
        if (d.action === "NoOp" && child.before === null && child.after === null) continue;
        add("single", d);
        current = compareActions(current, d.action);
        break;
      }
    }
  }
  return r.newDiff(r.block(attributes, blocks), current, change.replacePaths.matches());
}

function checkForUnknownBlock(change: Change, block: Block): Diff | undefined {
  return checkForUnknown(change, trueFor(block.attributes.keys()), processUnknown, withBefore((c) => computeDiffForBlock(c, block)));
}

function processNestedList(change: Change, process: (c: Change) => void): void {
  const s = asSlice(change);
  const n = Math.max(s.before?.length ?? 0, s.after?.length ?? 0);
  for (let i = 0; i < n; i++) {
    let v = sliceChild(s, i, i);
    if (!v.relevantAttributes.matchesPartial()) v = asNoOp(v);
    process(v);
  }
}

function computeBlockDiffsAsList(change: Change, block: Block): [Diff[], Action] {
  const els: Diff[] = [];
  let current = defaultActionForIteration(change);
  processNestedList(change, (v) => {
    const d = computeDiffForBlock(v, block);
    els.push(d);
    current = compareActions(current, d.action);
  });
  return [els, current];
}

function processSet(change: Change, process: (c: Change) => void): void {
  const s = asSlice(change);
  const before = s.before ?? [];
  const after = s.after ?? [];
  const foundInBefore = new Map<number, number>();
  const foundInAfter = new Map<number, number>();
  for (let ix = 0; ix < before.length; ix++) {
    let matched = false;
    for (let jx = 0; jx < after.length; jx++) {
      if (foundInAfter.has(jx)) continue;
      const child = sliceChild(s, ix, jx);
      if (deepEqual(child.before, child.after) && isBeforeSensitive(child) === isAfterSensitive(child) && !isUnknown(child)) {
        matched = true;
        foundInBefore.set(ix, jx);
        foundInAfter.set(jx, ix);
      }
    }
    if (!matched) foundInBefore.set(ix, -1);
  }
  const clear = (c: Change): Change => ({ ...c, relevantAttributes: alwaysMatcher() });
  for (let ix = 0; ix < before.length; ix++) {
    const jx = foundInBefore.get(ix) ?? -1;
    process(clear(sliceChild(s, ix, jx >= 0 ? jx : after.length)));
  }
  for (let jx = 0; jx < after.length; jx++) {
    if (foundInAfter.has(jx)) continue;
    process(clear(sliceChild(s, before.length, jx)));
  }
}

function computeBlockDiffsAsSet(change: Change, block: Block): [Diff[], Action] {
  const els: Diff[] = [];
  let current = defaultActionForIteration(change);
  processSet(change, (v) => {
    const d = computeDiffForBlock(v, block);
    els.push(d);
    current = compareActions(current, d.action);
  });
  return [els, current];
}

function computeBlockDiffsAsMap(change: Change, block: Block): [Map<string, Diff>, Action] {
  const m = asMap(change);
  return transformMap(m.before === undefined, m.after === undefined, explicitKeys(m), (key) => {
    let v = mapChild(m, key);
    if (!v.relevantAttributes.matchesPartial()) v = asNoOp(v);
    return computeDiffForBlock(v, block);
  });
}

// ---------------------------------------------------------------------------------------------
// Attributes

export function computeDiffForAttribute(change: Change, attr: Attribute): Diff {
  if (attr.nestedType) return computeDiffForNestedAttribute(change, attr.nestedType);
  return computeDiffForType(change, attr.type ?? { kind: "dynamic" });
}

function computeDiffForNestedAttribute(change: Change, nested: NestedObject): Diff {
  const sens = checkForSensitive(change, (c) => computeDiffForNestedAttribute(c, nested), sensitiveWrapper(change, false));
  if (sens) return sens;
  const unk = checkForUnknown(change, trueFor(nested.attributes.keys()), processUnknown, withBefore((c) => computeDiffForNestedAttribute(c, nested)));
  if (unk) return unk;
  const single: NestedObject = { attributes: nested.attributes, nesting: "single" };
  switch (nested.nesting) {
    case "single": {
      const [attrs, action] = processObject(change, nested.attributes, computeDiffForAttribute);
      return r.newDiff(r.nestedObject(attrs), action, change.replacePaths.matches());
    }
    case "map": {
      const m = asMap(change);
      const [els, action] = transformMap(m.before === undefined, m.after === undefined, explicitKeys(m), (key) => {
        let v = mapChild(m, key);
        if (!v.relevantAttributes.matchesPartial()) v = asNoOp(v);
        return computeDiffForNestedAttribute(v, single);
      });
      return r.newDiff(r.nestedMap(els), action, change.replacePaths.matches());
    }
    case "list": {
      const els: Diff[] = [];
      let current = defaultActionForIteration(change);
      processNestedList(change, (v) => {
        const d = computeDiffForNestedAttribute(v, single);
        els.push(d);
        current = compareActions(current, d.action);
      });
      return r.newDiff(r.nestedList(els), current, change.replacePaths.matches());
    }
    case "set": {
      const els: Diff[] = [];
      let current = defaultActionForIteration(change);
      processSet(change, (v) => {
        const d = computeDiffForNestedAttribute(v, single);
        els.push(d);
        current = compareActions(current, d.action);
      });
      return r.newDiff(r.nestedSet(els), current, change.replacePaths.matches());
    }
  }
}

function processObject<T>(v: Change, attributes: ReadonlyMap<string, T>, compute: (c: Change, t: T) => Diff): [Map<string, Diff>, Action] {
  const out = new Map<string, Diff>();
  const m = asMap(v);
  let current = defaultActionForIteration(v);
  for (const [key, t] of attributes) {
    let av = mapChild(m, key);
    if (!av.relevantAttributes.matchesPartial()) av = asNoOp(av);
    av.beforeExplicit = false;
    av.afterExplicit = false;
    const d = compute(av, t);
    if (d.action === "NoOp" && av.before === null && av.after === null) continue;
    out.set(key, d);
    current = compareActions(current, d.action);
  }
  return [out, current];
}

function multilineShare(a: J, b: J): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  if (!a.includes("\n") && !b.includes("\n")) return false;
  const lb = new Set(b.split("\n"));
  return a.split("\n").some((l) => lb.has(l));
}

export function computeDiffForType(change: Change, t: Type): Diff {
  const sens = checkForSensitive(change, (c) => computeDiffForType(c, t), sensitiveWrapper(change, false));
  if (sens) return sens;
  const unk = checkForUnknown(change, false, processUnknown, withBefore((c) => computeDiffForType(c, t)));
  if (unk) return unk;
  switch (t.kind) {
    case "dynamic":
      return computeDiffForOutput(change);
    case "string":
    case "number":
    case "bool":
      return asDiff(change, r.primitive(change.before, change.after, t.kind));
    case "object": {
      const [attrs, action] = processObject(change, t.attributes, computeDiffForType);
      return r.newDiff(r.object(attrs), action, change.replacePaths.matches());
    }
    case "map": {
      const m = asMap(change);
      const [els, action] = transformMap(m.before === undefined, m.after === undefined, allKeys(m), (key) => {
        let v = mapChild(m, key);
        if (!v.relevantAttributes.matchesPartial()) v = asNoOp(v);
        return computeDiffForType(v, t.element);
      });
      return r.newDiff(r.mapRenderer(els), action, change.replacePaths.matches());
    }
    case "list": {
      const s = asSlice(change);
      const [els, action] = transformSlice(
        s.before,
        s.after,
        (bi, ai) => computeDiffForType({ ...sliceChild(s, bi, ai), relevantAttributes: alwaysMatcher() }, t.element),
        (a, b) => multilineShare(a, b) || t.element.kind === "object",
        deepEqual,
      );
      return r.newDiff(r.list(els), action, change.replacePaths.matches());
    }
    case "tuple": {
      const els: Diff[] = [];
      let current = defaultActionForIteration(change);
      const s = asSlice(change);
      t.elements.forEach((et, ix) => {
        let v = sliceChild(s, ix, ix);
        if (!v.relevantAttributes.matchesPartial()) v = asNoOp(v);
        const d = computeDiffForType(v, et);
        els.push(d);
        current = compareActions(current, d.action);
      });
      return r.newDiff(r.list(els), current, change.replacePaths.matches());
    }
    case "set": {
      const els: Diff[] = [];
      let current = defaultActionForIteration(change);
      processSet(change, (v) => {
        const d = computeDiffForType(v, t.element);
        els.push(d);
        current = compareActions(current, d.action);
      });
      return r.newDiff(r.set(els), current, change.replacePaths.matches());
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Outputs and dynamic values: jsondiff with the renderers' callbacks (RendererJsonOpts)

export function computeDiffForOutput(change: Change): Diff {
  const sens = checkForSensitive(change, (c) => computeDiffForType(c, { kind: "dynamic" }), sensitiveWrapper(change, false));
  if (sens) return sens;
  const unk = checkForUnknown(change, false, processUnknown, withBefore((c) => computeDiffForType(c, { kind: "dynamic" })));
  if (unk) return unk;
  return jsonTransform(change);
}

type JType = "null" | "bool" | "string" | "number" | "object" | "array";

function jtype(v: J): JType {
  if (v === null) return "null";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "string";
  if (v instanceof JNumber) return "number";
  if (Array.isArray(v)) return "array";
  return "object";
}

/** jsondiff.JsonOpts.Transform with renderers.RendererJsonOpts. */
export function jsonTransform(change: Change): Diff {
  const sens = checkForSensitive(change, jsonTransform, (inner, b, a, action) => r.newDiff(r.sensitive(inner, b, a), action, false));
  if (sens) return sens;
  const unk = checkForUnknown(
    change,
    false,
    () => r.newDiff(r.unknown(undefined), "Create", false),
    (_c, before) => r.newDiff(r.unknown(jsonTransform(before)), "Update", false),
  );
  if (unk) return unk;
  const bt = jtype(change.before);
  const at = jtype(change.after);
  const deleted = at === "null" && !change.afterExplicit;
  const created = bt === "null" && !change.beforeExplicit;
  if (bt === at || created || deleted) return jsonUpdate(change, bt === "null" ? at : bt);
  const b = jsonUpdate(asDelete(change), bt);
  const a = jsonUpdate(asCreate(change), at);
  return r.newDiff(r.typeChange(b, a), "Update", false);
}

function jsonUpdate(change: Change, t: JType): Diff {
  switch (t) {
    case "null":
      return jsonPrimitive(change, "nil");
    case "bool":
      return jsonPrimitive(change, "bool");
    case "string":
      return jsonPrimitive(change, "string");
    case "number":
      return jsonPrimitive(change, "number");
    case "object": {
      const m = asMap(change);
      const [els, action] = transformMap(m.before === undefined, m.after === undefined, allKeys(m), (key) => {
        let child = mapChild(m, key);
        if (!child.relevantAttributes.matchesPartial()) child = asNoOp(child);
        return jsonTransform(child);
      });
      return r.newDiff(r.object(els), action, false);
    }
    case "array": {
      const s = asSlice(change);
      const [els, action] = transformSlice(
        s.before,
        s.after,
        (bi, ai) => jsonTransform(sliceChild(s, bi, ai)),
        (a, b) => multilineShare(a, b) || (isJObject(a) && isJObject(b)),
        deepEqual,
      );
      return r.newDiff(r.list(els), action, false);
    }
  }
}

function jsonPrimitive(change: Change, t: r.PrimitiveType): Diff {
  const beforeMissing = change.before === null && !change.beforeExplicit;
  const afterMissing = change.after === null && !change.afterExplicit;
  let action: Action;
  if (beforeMissing && !afterMissing) action = "Create";
  else if (!beforeMissing && afterMissing) action = "Delete";
  else if (deepEqual(change.before, change.after)) action = "NoOp";
  else action = "Update";
  return r.newDiff(r.primitive(change.before, change.after, t), action, false);
}

r.jsonTransform.fn = jsonTransform;
