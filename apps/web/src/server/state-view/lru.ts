// A bounded least-recently-used cache for immutable things (parsed state versions, diffs between
// two versions). Bounded by entry count and by an estimate of bytes held; concurrent loads of the
// same key share one promise, so ten people opening the same 50 MB version parse it once.

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (v: V) => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    const bytes = this.sizeOf(value);
    this.delete(key);
    // Something larger than the whole budget is served but not kept (it would evict everything).
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  /** The cached value, or the result of `load` (cached on success; a failure is not remembered). */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const p = load().then(
      (v) => {
        this.loading.delete(key);
        this.set(key, v);
        return v;
      },
      (err: unknown) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, p);
    return p;
  }

  /** Whether the key is cached or being loaded (without touching its recency). */
  holds(key: string): boolean {
    return this.entries.has(key) || this.loading.has(key);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }
}
