// jsonformat/collections and objchange.LongestCommonSubsequence: how lists are lined up.
import type { Action } from "../action.js";

export function compareActions(current: Action, next: Action): Action {
  if (next === "NoOp") return current;
  return current !== next ? "Update" : current;
}

export function longestCommonSubsequence<V>(xs: readonly V[], ys: readonly V[], equals: (x: V, y: V) => boolean): V[] {
  if (xs.length === 0 || ys.length === 0) return [];
  const w = xs.length;
  const c = new Array<number>(xs.length * ys.length).fill(0);
  const eqs = new Array<boolean>(xs.length * ys.length).fill(false);
  for (let y = 0; y < ys.length; y++) {
    for (let x = 0; x < xs.length; x++) {
      if (equals(xs[x] as V, ys[y] as V)) {
        eqs[w * y + x] = true;
        c[w * y + x] = x === 0 || y === 0 ? 1 : (c[w * (y - 1) + (x - 1)] as number) + 1;
      } else {
        const l = x > 0 ? (c[w * y + (x - 1)] as number) : 0;
        const u = y > 0 ? (c[w * (y - 1) + x] as number) : 0;
        c[w * y + x] = l > u ? l : u;
      }
    }
  }
  const seq = new Array<V>(c[c.length - 1] as number);
  let x = xs.length - 1;
  let y = ys.length - 1;
  let i = seq.length - 1;
  while (x > -1 && y > -1) {
    if (eqs[w * y + x]) {
      seq[i] = xs[x] as V;
      x--;
      y--;
      i--;
    } else {
      const l = x > 0 ? (c[w * y + (x - 1)] as number) : 0;
      const u = y > 0 ? (c[w * (y - 1) + x] as number) : 0;
      if (l > u) x--;
      else y--;
    }
  }
  return seq;
}

/** collections.ProcessSlice: walks both slices along their LCS, calling process(beforeIx, afterIx). */
export function processSlice<V>(
  before: readonly V[],
  after: readonly V[],
  process: (b: number, a: number) => void,
  shouldDiffElement: (a: V, b: V) => boolean,
  equals: (a: V, b: V) => boolean,
): void {
  const lcs = longestCommonSubsequence(before, after, equals);
  let bi = 0;
  let ai = 0;
  let li = 0;
  while (bi < before.length || ai < after.length || li < lcs.length) {
    while (bi < before.length && (li >= lcs.length || !equals(before[bi] as V, lcs[li] as V))) {
      const diffEls = ai < after.length && shouldDiffElement(before[bi] as V, after[ai] as V);
      const afterInLCS = li < lcs.length && ai < after.length && equals(after[ai] as V, lcs[li] as V);
      if (diffEls && !afterInLCS) {
        process(bi, ai);
        bi++;
        ai++;
        continue;
      }
      process(bi, after.length);
      bi++;
    }
    while (ai < after.length && (li >= lcs.length || !equals(after[ai] as V, lcs[li] as V))) {
      const diffEls = bi < before.length && shouldDiffElement(before[bi] as V, after[ai] as V);
      if (diffEls) {
        process(bi, ai);
        bi++;
        ai++;
        continue;
      }
      process(before.length, ai);
      ai++;
    }
    if (li < lcs.length) {
      process(bi, ai);
      bi++;
      ai++;
      li++;
    }
  }
}

export function transformSlice<V, D extends { action: Action }>(
  before: readonly V[] | undefined,
  after: readonly V[] | undefined,
  process: (b: number, a: number) => D,
  shouldDiffElement: (a: V, b: V) => boolean,
  equals: (a: V, b: V) => boolean,
): [D[], Action] {
  let current: Action = "NoOp";
  if (before !== undefined && after === undefined) current = "Delete";
  if (before === undefined && after !== undefined) current = "Create";
  const elements: D[] = [];
  processSlice(
    before ?? [],
    after ?? [],
    (b, a) => {
      const el = process(b, a);
      elements.push(el);
      current = compareActions(current, el.action);
    },
    shouldDiffElement,
    equals,
  );
  return [elements, current];
}

export function transformMap<D extends { action: Action }>(
  beforeIsNil: boolean,
  afterIsNil: boolean,
  keys: readonly string[],
  process: (key: string) => D,
): [Map<string, D>, Action] {
  let current: Action = "NoOp";
  if (!beforeIsNil && afterIsNil) current = "Delete";
  if (beforeIsNil && !afterIsNil) current = "Create";
  const elements = new Map<string, D>();
  for (const k of keys) {
    const el = process(k);
    elements.set(k, el);
    current = compareActions(current, el.action);
  }
  return [elements, current];
}
