import { describe, expect, it } from 'vitest';
import { Poller, type PollerTimers } from '../src/poller.js';

/** Timers that fire only when the test says so: the loop never waits for real time. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  const timers: PollerTimers = {
    setTimeout: (fn, ms) => (pending.set(++next, { fn, ms }), next),
    clearTimeout: (h) => void pending.delete(h as number),
  };
  return {
    timers,
    pending,
    /** Fires every pending timer, then lets the loop's promises settle. */
    async fire() {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, t] of due) t.fn();
      await settle();
    },
  };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('Poller', () => {
  it('runs at start, then once per interval while steps find no more work', async () => {
    const t = manualTimers();
    let runs = 0;
    const p = new Poller(async () => (runs++, false), { intervalMs: 15_000, timers: t.timers });
    p.start();
    await settle();
    expect(runs).toBe(1);
    expect([...t.pending.values()].map((x) => x.ms)).toEqual([15_000]);
    await t.fire();
    expect(runs).toBe(2);
    await p.stop();
    expect(t.pending.size).toBe(0);
  });

  it('runs again at once while a step reports more work', async () => {
    const t = manualTimers();
    const answers = [true, true, false];
    let runs = 0;
    const p = new Poller(async () => answers[runs++] ?? false, { intervalMs: 1000, timers: t.timers });
    p.start();
    await settle();
    await settle();
    await settle();
    expect(runs).toBe(3);
    expect(t.pending.size).toBe(1);
    await p.stop();
  });

  it('with runAtStart false waits one interval before the first step (like setInterval)', async () => {
    const t = manualTimers();
    let runs = 0;
    const p = new Poller(async () => void runs++, { intervalMs: 60_000, runAtStart: false, timers: t.timers });
    p.start();
    await settle();
    expect(runs).toBe(0);
    await t.fire();
    expect(runs).toBe(1);
    await p.stop();
  });

  it('reports a failing step to onError, does not throw, and keeps polling', async () => {
    const t = manualTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const p = new Poller(
      async () => {
        runs++;
        throw new Error('db down');
      },
      { intervalMs: 1000, timers: t.timers, onError: (e) => errors.push(e) },
    );
    p.start();
    await settle();
    await t.fire();
    expect(runs).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['db down', 'db down']);
    await p.stop();
  });

  it('never overlaps runs; stop waits for the step in progress; start twice starts one loop', async () => {
    const t = manualTimers();
    let active = 0;
    let maxActive = 0;
    let finish!: () => void;
    const p = new Poller(
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((r) => (finish = r));
        active--;
        return false;
      },
      { intervalMs: 10, timers: t.timers },
    );
    p.start();
    p.start();
    await settle();
    p.poke(); // a poke during a step does not start a second one
    await settle();
    expect(maxActive).toBe(1);
    let stopped = false;
    const stopping = p.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(active).toBe(0);
    expect(t.pending.size).toBe(0);
  });

  it('poke cuts the pause short', async () => {
    const t = manualTimers();
    let runs = 0;
    const p = new Poller(async () => (runs++, false), { intervalMs: 1000, timers: t.timers });
    p.start();
    await settle();
    p.poke();
    await settle();
    expect(runs).toBe(2);
    await p.stop();
  });
});
