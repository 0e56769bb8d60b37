import type { Clock } from '@app/shared';
import type { KeysRepo } from './keys.repo.js';

const HOUR_MS = 3_600_000;

/**
 * Per-key request and error counts (the panel's keys page), kept cheap on the request path: each answer adds one
 * to an in-memory counter per key and hour; {@link flush} adds the counters to `api_key_usage` with one UPSERT per
 * key and hour (the app flushes once a minute, before the keys page is shown, and on close). An instance that dies
 * loses at most its last minute of counts. Errors are answers with status >= 400.
 */
export class KeyUsageCounter {
  private pending = new Map<string, { keyId: string; hour: Date; requests: number; errors: number }>();

  constructor(
    private readonly keys: Pick<KeysRepo, 'addUsage'>,
    private readonly clock: Clock,
  ) {}

  /** Counts one answer to a request made with the key. */
  count(keyId: string, status: number): void {
    const t = this.clock.now().getTime();
    const hour = new Date(t - (t % HOUR_MS));
    const k = `${keyId}|${hour.getTime()}`;
    let c = this.pending.get(k);
    if (!c) {
      c = { keyId, hour, requests: 0, errors: 0 };
      this.pending.set(k, c);
    }
    c.requests += 1;
    if (status >= 400) c.errors += 1;
  }

  /** Writes what was counted since the last flush; on a failure the counts are kept for the next one. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const c of batch.values()) await this.keys.addUsage(c.keyId, c.hour, c.requests, c.errors);
    } catch (err) {
      for (const [k, c] of batch) {
        const now = this.pending.get(k);
        if (now) {
          now.requests += c.requests;
          now.errors += c.errors;
        } else this.pending.set(k, c);
      }
      throw err;
    }
  }
}
