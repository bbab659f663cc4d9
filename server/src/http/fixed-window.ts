/**
 * Counts events per key in fixed windows, in this process only: enough to keep one client
 * from filling a table, not an account-level limit (logins use the database for that).
 */
export class FixedWindowLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one event for `key`; false when the key is over its limit in this window. */
  allow(key: string): boolean {
    const now = this.now();
    // A new window forgets every key, so the map never grows past one window's clients.
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count <= this.max;
  }
}
