import type { Clock } from '@app/shared';

/**
 * Timers as a port, so deadlines, lease renewals and job timeouts run on the injected clock in tests (a manual
 * scheduler fires them when the test moves the clock) and on real timers in production. `ms` is milliseconds
 * from now; the returned function cancels.
 */
export interface Scheduler {
  after(ms: number, fn: () => void): () => void;
}

/** Real timers, unref'd: a pending deadline never keeps the process alive on shutdown. */
export const realScheduler: Scheduler = {
  after(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return () => clearTimeout(t);
  },
};

/** Calls `fn` every `ms` until cancelled (lease heartbeats). */
export function every(scheduler: Scheduler, ms: number, fn: () => void): () => void {
  let cancel = () => {};
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    fn();
    cancel = scheduler.after(ms, tick);
  };
  cancel = scheduler.after(ms, tick);
  return () => {
    stopped = true;
    cancel();
  };
}

/** An AbortSignal that aborts (reason `deadline`) when the clock reaches `deadline`; `cancel()` disarms it. */
export function deadlineSignal(scheduler: Scheduler, clock: Clock, deadline: Date): { signal: AbortSignal; cancel: () => void } {
  const ac = new AbortController();
  const left = deadline.getTime() - clock.now().getTime();
  if (left <= 0) ac.abort('deadline');
  const cancel = left > 0 ? scheduler.after(left, () => ac.abort('deadline')) : () => {};
  return { signal: ac.signal, cancel };
}

/** A promise that rejects with `onAbort()` when the signal aborts; never settles otherwise (for hard races). */
export function whenAborted<T = never>(signal: AbortSignal, onAbort: () => Error): Promise<T> {
  return new Promise<T>((_resolve, reject) => {
    if (signal.aborted) reject(onAbort());
    else signal.addEventListener('abort', () => reject(onAbort()), { once: true });
  });
}
