import type { Clock } from '@app/shared';

/**
 * Per-account sign-in lockout (docs/admin-panel.md, "Behind a proxy"): after `maxFailures` wrong passwords for
 * one user name within `windowMs`, that name cannot sign in until the oldest of those failures is `windowMs` old,
 * whatever address the attempts come from. It complements the per-address limit, which a distributed guesser
 * avoids. Counted for unknown names too, so the answer does not tell which names exist. In memory per process
 * (several instances each count their own attempts).
 */
export class AccountLockout {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  private recent(name: string): number[] {
    const key = name.trim().toLowerCase();
    const since = this.clock.now().getTime() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** True while the name is locked. */
  locked(name: string): boolean {
    return this.recent(name).length >= this.maxFailures;
  }

  /** Records a failed sign-in of the name. */
  failed(name: string): void {
    const list = this.recent(name);
    list.push(this.clock.now().getTime());
    this.failures.set(name.trim().toLowerCase(), list);
  }

  /** A successful sign-in clears the name's failures. */
  succeeded(name: string): void {
    this.failures.delete(name.trim().toLowerCase());
  }
}
