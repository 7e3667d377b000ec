/**
 * Counts failed sign-ins per key (email + client address) in a sliding window, in this process's
 * memory: enough to make password guessing against one account slow, without a table to clean.
 * Several web processes each keep their own count, which only loosens the limit by that factor.
 */
export class LoginLimiter {
  private failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures = 10,
    readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 50_000,
  ) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    // Delete first so the key moves to the end: the Map's order then runs from stalest to freshest.
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.maxFailures));
    if (this.failures.size > this.maxKeys) this.prune(now);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) if (times.every((t) => t <= now - this.windowMs)) this.failures.delete(key);
    for (const key of this.failures.keys()) {
      if (this.failures.size <= this.maxKeys * 0.9) break;
      this.failures.delete(key);
    }
  }
}
