// jsonformat/structured: a change between two generic JSON values with their unknown and
// sensitive shadows, and the path matchers for replace paths and relevant attributes.
import type { Action } from "../action.js";
import { JNumber, deepEqual, isJObject, type J, type JObject } from "./json.js";

export interface Matcher {
  matches(): boolean;
  matchesPartial(): boolean;
  childWithKey(key: string): Matcher;
  childWithIndex(index: number): Matcher;
}

class PathMatcher implements Matcher {
  constructor(
    readonly paths: J[][],
    readonly propagate: boolean,
  ) {}
  matches(): boolean {
    return this.paths.some((p) => p.length === 0);
  }
  matchesPartial(): boolean {
    return this.paths.length > 0;
  }
  childWithKey(key: string): Matcher {
    const out: J[][] = [];
    for (const p of this.paths) {
      if (p.length === 0) {
        if (this.propagate) out.push(p);
        continue;
      }
      if (p[0] === key) out.push(p.slice(1));
    }
    return new PathMatcher(out, this.propagate);
  }
  childWithIndex(index: number): Matcher {
    const out: J[][] = [];
    for (const p of this.paths) {
      if (p.length === 0) {
        if (this.propagate) out.push(p);
        continue;
      }
      const s = p[0];
      const n = s instanceof JNumber ? Math.trunc(Number(s.text)) : typeof s === "string" ? Math.trunc(Number(s)) : NaN;
      if (n === index) out.push(p.slice(1));
    }
    return new PathMatcher(out, this.propagate);
  }
}

const ALWAYS: Matcher = {
  matches: () => true,
  matchesPartial: () => true,
  childWithKey: () => ALWAYS,
  childWithIndex: () => ALWAYS,
};

export function alwaysMatcher(): Matcher {
  return ALWAYS;
}

export function emptyMatcher(propagate: boolean): Matcher {
  return new PathMatcher([], propagate);
}

/** attribute_path.Parse: a JSON array of paths (null matches nothing). */
export function parseMatcher(paths: J | undefined, propagate: boolean): Matcher {
  if (!Array.isArray(paths)) return new PathMatcher([], propagate);
  return new PathMatcher(paths.filter((p): p is J[] => Array.isArray(p)), propagate);
}

export function matcherFromPaths(paths: J[][], propagate: boolean): Matcher {
  return new PathMatcher(paths, propagate);
}

export interface Change {
  beforeExplicit: boolean;
  afterExplicit: boolean;
  before: J;
  after: J;
  unknown: J;
  beforeSensitive: J;
  afterSensitive: J;
  replacePaths: Matcher;
  relevantAttributes: Matcher;
}

export function isBeforeSensitive(c: Change): boolean {
  return c.beforeSensitive === true;
}
export function isAfterSensitive(c: Change): boolean {
  return c.afterSensitive === true;
}
export function isUnknown(c: Change): boolean {
  return c.unknown === true;
}

export function calculateAction(c: Change): Action {
  if (c.before === null && !c.beforeExplicit && (c.after !== null || c.afterExplicit)) return "Create";
  if (c.after === null && !c.afterExplicit && (c.before !== null || c.beforeExplicit)) return "Delete";
  if (deepEqual(c.before, c.after) && c.afterExplicit === c.beforeExplicit && isAfterSensitive(c) === isBeforeSensitive(c)) return "NoOp";
  return "Update";
}

export function defaultActionForIteration(c: Change): Action {
  if (c.before === null && c.after === null) return "NoOp";
  if (c.before === null) return "Create";
  if (c.after === null) return "Delete";
  return "NoOp";
}

export function asNoOp(c: Change): Change {
  return { ...c, afterExplicit: c.beforeExplicit, after: c.before, unknown: false, afterSensitive: c.beforeSensitive };
}

export function asDelete(c: Change): Change {
  return { ...c, afterExplicit: false, after: null, unknown: null, afterSensitive: null };
}

export function asCreate(c: Change): Change {
  return { ...c, beforeExplicit: false, before: null, beforeSensitive: null };
}

function toMap(v: J): JObject | undefined {
  return isJObject(v) ? v : undefined;
}
function toSlice(v: J): J[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

export interface ChangeMap {
  before: JObject | undefined;
  after: JObject | undefined;
  unknown: JObject | undefined;
  beforeSensitive: JObject | undefined;
  afterSensitive: JObject | undefined;
  replacePaths: Matcher;
  relevantAttributes: Matcher;
}

export function asMap(c: Change): ChangeMap {
  return {
    before: toMap(c.before),
    after: toMap(c.after),
    unknown: toMap(c.unknown),
    beforeSensitive: toMap(c.beforeSensitive),
    afterSensitive: toMap(c.afterSensitive),
    replacePaths: c.replacePaths,
    relevantAttributes: c.relevantAttributes,
  };
}

function fromMap(m: JObject | undefined, key: string): [J, boolean] {
  if (m === undefined || !Object.prototype.hasOwnProperty.call(m, key)) return [null, false];
  return [m[key] as J, true];
}

export function mapChild(m: ChangeMap, key: string): Change {
  const [before, beforeExplicit] = fromMap(m.before, key);
  const [after, afterExplicit] = fromMap(m.after, key);
  return {
    beforeExplicit,
    afterExplicit,
    before,
    after,
    unknown: fromMap(m.unknown, key)[0],
    beforeSensitive: fromMap(m.beforeSensitive, key)[0],
    afterSensitive: fromMap(m.afterSensitive, key)[0],
    replacePaths: m.replacePaths.childWithKey(key),
    relevantAttributes: m.relevantAttributes.childWithKey(key),
  };
}

function keysOf(...objs: Array<JObject | undefined>): string[] {
  const seen = new Set<string>();
  for (const o of objs) if (o) for (const k of Object.keys(o)) seen.add(k);
  return [...seen];
}

export function explicitKeys(m: ChangeMap): string[] {
  return keysOf(m.before, m.after);
}

export function allKeys(m: ChangeMap): string[] {
  return keysOf(m.before, m.after, m.unknown, m.afterSensitive, m.beforeSensitive);
}

export interface ChangeSlice {
  before: J[] | undefined;
  after: J[] | undefined;
  unknown: J[] | undefined;
  beforeSensitive: J[] | undefined;
  afterSensitive: J[] | undefined;
  replacePaths: Matcher;
  relevantAttributes: Matcher;
}

export function asSlice(c: Change): ChangeSlice {
  return {
    before: toSlice(c.before),
    after: toSlice(c.after),
    unknown: toSlice(c.unknown),
    beforeSensitive: toSlice(c.beforeSensitive),
    afterSensitive: toSlice(c.afterSensitive),
    replacePaths: c.replacePaths,
    relevantAttributes: c.relevantAttributes,
  };
}

function fromSlice(s: J[] | undefined, i: number): [J, boolean] {
  if (s === undefined || i < 0 || i >= s.length) return [null, false];
  return [s[i] as J, true];
}

export function sliceChild(s: ChangeSlice, beforeIx: number, afterIx: number): Change {
  const [before, beforeExplicit] = fromSlice(s.before, beforeIx);
  const [after, afterExplicit] = fromSlice(s.after, afterIx);
  const mostRelevant = beforeIx < 0 || beforeIx >= (s.before?.length ?? 0) ? afterIx : beforeIx;
  return {
    beforeExplicit,
    afterExplicit,
    before,
    after,
    unknown: fromSlice(s.unknown, afterIx)[0],
    beforeSensitive: fromSlice(s.beforeSensitive, beforeIx)[0],
    afterSensitive: fromSlice(s.afterSensitive, afterIx)[0],
    replacePaths: s.replacePaths.childWithIndex(mostRelevant),
    relevantAttributes: s.relevantAttributes.childWithIndex(mostRelevant),
  };
}

export type DiffOf<D> = D;

/** Change.CheckForSensitive. */
export function checkForSensitive<D extends { action: Action }>(
  c: Change,
  processInner: (c: Change) => D,
  createDiff: (inner: D, before: boolean, after: boolean, action: Action) => D,
): D | undefined {
  const b = isBeforeSensitive(c);
  const a = isAfterSensitive(c);
  if (!b && !a) return undefined;
  const inner = processInner({ ...c, beforeSensitive: false, afterSensitive: false });
  let action = inner.action;
  const nullNoOp = c.before === null && !c.beforeExplicit && c.after === null && !c.afterExplicit;
  if (action === "NoOp" && b !== a && !nullNoOp) action = "Update";
  return createDiff(inner, b, a, action);
}

/** Change.CheckForUnknown. */
export function checkForUnknown<D>(c0: Change, childUnknown: J, process: (c: Change) => D, processBefore: (c: Change, before: Change) => D): D | undefined {
  if (!isUnknown(c0)) return undefined;
  const c = { ...c0, afterExplicit: true };
  if (c.before === null) return process(c);
  const before = asDelete(c);
  before.unknown = childUnknown;
  return processBefore(c, before);
}
