import type { Clock } from '@app/shared';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/**
 * A fixed-window counter store for `@fastify/rate-limit` that reads the injected clock (the library's own store
 * reads `Date.now()`, so tests could not move past a window without sleeping). In memory, per process; entries
 * are dropped when their window ends, and at most `maxKeys` are kept (oldest first out).
 */
/** The store contract `@fastify/rate-limit` expects (it constructs the class itself). */
export interface CounterStore {
  incr(key: string, cb: Callback, timeWindow: number): void;
  child(): CounterStore;
}

export function clockStore(clock: Clock, maxKeys = 10_000): new () => CounterStore {
  return class ClockStore implements CounterStore {
    private readonly windows = new Map<string, { count: number; startMs: number }>();

    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = clock.now().getTime();
      let w = this.windows.get(key);
      if (!w || w.startMs + timeWindow <= now) {
        this.windows.delete(key);
        w = { count: 0, startMs: now };
        this.windows.set(key, w);
        if (this.windows.size > maxKeys) this.windows.delete(this.windows.keys().next().value!);
      }
      w.count += 1;
      cb(null, { current: w.count, ttl: w.startMs + timeWindow - now });
    }

    /** One store per route (the library calls this for each route with its own limit). */
    child(): ClockStore {
      return new ClockStore();
    }
  };
}
