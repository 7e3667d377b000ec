import { describe, expect, it } from "vitest";
import { LruCache } from "./lru";

describe("LruCache", () => {
  it("evicts the least recently used entry beyond the entry or byte budget", () => {
    const c = new LruCache<string>(2, 100, (v) => v.length);
    c.set("a", "x".repeat(10));
    c.set("b", "y".repeat(10));
    expect(c.get("a")).toBeDefined(); // a is now the most recent
    c.set("c", "z".repeat(10));
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBeDefined();
    c.set("d", "w".repeat(85)); // 10 + 10 + 85 > 100: the oldest goes
    expect(c.get("c")).toBeUndefined();
    expect(c.size).toBe(2);
    expect(c.heldBytes).toBe(95);
  });

  it("serves but does not keep a value larger than the whole budget", () => {
    const c = new LruCache<string>(4, 10, (v) => v.length);
    c.set("small", "abc");
    c.set("huge", "x".repeat(11));
    expect(c.get("huge")).toBeUndefined();
    expect(c.get("small")).toBe("abc");
  });

  it("loads a key once for concurrent callers and does not remember failures", async () => {
    const c = new LruCache<number>(4, 1000, () => 1);
    let loads = 0;
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 10));
    const [x, y] = await Promise.all([c.getOrLoad("k", load), c.getOrLoad("k", load)]);
    expect([x, y, loads]).toEqual([1, 1, 1]);
    expect(await c.getOrLoad("k", load)).toBe(1);

    await expect(c.getOrLoad("bad", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await c.getOrLoad("bad", async () => 7)).toBe(7);
  });
});
