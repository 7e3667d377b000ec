import { describe, expect, it } from "vitest";
import { LoginLimiter } from "./login-limiter";

describe("LoginLimiter", () => {
  it("blocks a key after max failures until the oldest leaves the window", () => {
    const l = new LoginLimiter(3, 60_000);
    const t = 1_000_000;
    l.fail("k", t);
    l.fail("k", t + 10_000);
    expect(l.retryAfter("k", t + 10_000)).toBe(0);
    l.fail("k", t + 20_000);
    expect(l.retryAfter("k", t + 20_000)).toBe(40);
    expect(l.retryAfter("other", t + 20_000)).toBe(0);
    expect(l.retryAfter("k", t + 60_001)).toBe(0); // the first failure has aged out
    l.succeed("k");
    expect(l.retryAfter("k", t + 20_000)).toBe(0);
  });

  it("keeps memory bounded, dropping the stalest keys first", () => {
    const l = new LoginLimiter(1, 60_000, 100);
    for (let i = 0; i < 1000; i++) l.fail(`k${i}`, 1_000 + i);
    expect(l.retryAfter("k999", 2_000)).toBeGreaterThan(0);
    expect(l.retryAfter("k0", 2_000)).toBe(0);
  });
});
