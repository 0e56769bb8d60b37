import type { Clock } from '@app/shared';

/**
 * Sliding one-minute window of write calls per API login, like the real loyalty service's per-key limit
 * (spec: Limits, "Loyalty write throughput"). Hand-written because the window must follow the injected clock;
 * rate-limiter-flexible reads the system time. Refused calls are not counted.
 */
export class WriteLimiter {
  private readonly log = new Map<string, number[]>();

  /** @param limit current writes allowed per 60 s; 0 = unlimited (read on every call so faults can change it). */
  constructor(
    private readonly clock: Clock,
    private readonly limit: () => number,
  ) {}

  /** Counts one write for `key`; returns null when allowed, else the seconds until a slot frees (≥ 1). */
  take(key: string): number | null {
    const max = this.limit();
    if (max <= 0) return null;
    const now = this.clock.now().getTime();
    const recent = (this.log.get(key) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= max) {
      this.log.set(key, recent);
      return Math.max(1, Math.ceil((recent[0] + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.log.set(key, recent);
    return null;
  }
}
