// A binary min-heap of integers under a caller's comparison, for name-ordered topological sorts.
export class MinHeap {
  readonly #items: number[] = [];
  readonly #compare: (a: number, b: number) => number;

  constructor(compare: (a: number, b: number) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#items.length;
  }

  push(x: number): void {
    const a = this.#items;
    let i = a.length;
    a.push(x);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent] as number;
      if (this.#compare(x, p) >= 0) break;
      a[i] = p;
      i = parent;
    }
    a[i] = x;
  }

  /** Removes and returns the smallest item; the heap must not be empty. */
  pop(): number {
    const a = this.#items;
    const top = a[0] as number;
    const last = a.pop() as number;
    const n = a.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && this.#compare(a[r] as number, a[l] as number) < 0) c = r;
      if (this.#compare(a[c] as number, last) >= 0) break;
      a[i] = a[c] as number;
      i = c;
    }
    a[i] = last;
    return top;
  }
}
