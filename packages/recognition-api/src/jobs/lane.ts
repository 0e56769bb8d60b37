import type { Clock } from '@app/shared';
import { ApiError } from '../errors.js';

/**
 * A fixed number of slots for one class of work (the `priority=high` lane). A request takes a slot at once or is
 * refused at once: high requests must never wait past their deadline in a queue (docs/decisions.md "Two lanes"). The refusal
 * is 503 HIGH_PRIORITY_BUSY with `Retry-After` = seconds until the earliest running request is expected to end
 * (its start + the mean duration of recent high requests, never past its deadline; at least 1 s).
 */
export class Lane {
  private readonly running = new Map<number, { started: number; deadline: number }>();
  private seq = 0;
  private meanMs = 5_000;

  constructor(
    readonly name: string,
    readonly slots: number,
    private readonly clock: Clock,
  ) {}

  get busy(): number {
    return this.running.size;
  }

  /**
   * Takes a slot until `deadline`; returns its release function (idempotent).
   * @throws ApiError HIGH_PRIORITY_BUSY (503, Retry-After) when every slot is taken.
   */
  enter(deadline: Date): () => void {
    const now = this.clock.now().getTime();
    if (this.running.size >= this.slots) {
      const ends = [...this.running.values()].map((r) => Math.min(r.deadline, r.started + this.meanMs));
      const seconds = Math.max(1, Math.ceil((Math.min(...ends) - now) / 1000));
      throw new ApiError('HIGH_PRIORITY_BUSY', `all ${this.slots} ${this.name} slots are busy; retry in ${seconds} s or send priority=normal`, {
        'retry-after': String(seconds),
      });
    }
    const id = ++this.seq;
    this.running.set(id, { started: now, deadline: deadline.getTime() });
    return () => {
      const r = this.running.get(id);
      if (!r) return;
      this.running.delete(id);
      // Exponential mean of recent durations (weight 1/4), for Retry-After.
      this.meanMs = Math.round(this.meanMs * 0.75 + (this.clock.now().getTime() - r.started) * 0.25);
    };
  }
}
