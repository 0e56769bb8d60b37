import type { ManualClock } from '@app/shared';
import type { Scheduler } from '../../src/time/scheduler.js';

/**
 * A Scheduler on a ManualClock: timers fire only when the test calls {@link advance}, in due order, with the
 * clock set to each timer's instant. Deadlines and lease renewals are thereby tested without real waiting.
 */
export class ManualScheduler implements Scheduler {
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;
  constructor(readonly clock: ManualClock) {}

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.clock.now().getTime() + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers still armed. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock by `ms`, firing every timer that falls due, each at its own instant; then lets promises run. */
  async advance(ms: number): Promise<void> {
    const end = this.clock.now().getTime() + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.clock.set(new Date(Math.max(due.at, this.clock.now().getTime())));
      due.fn();
      await flush();
    }
    this.clock.set(new Date(end));
    await flush();
  }
}

/** Lets pending promise callbacks and I/O callbacks run (several macrotask turns). */
export async function flush(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
