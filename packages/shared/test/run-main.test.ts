import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../src/env.js';
import { runMain } from '../src/run-main.js';

describe('runMain', () => {
  let exits: number[];
  let before: { term: NodeJS.SignalsListener[]; int: NodeJS.SignalsListener[] };

  beforeEach(() => {
    exits = [];
    vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      exits.push(code ?? 0);
    }) as never);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    before = { term: process.listeners('SIGTERM'), int: process.listeners('SIGINT') };
  });

  afterEach(() => {
    for (const l of process.listeners('SIGTERM')) if (!before.term.includes(l)) process.off('SIGTERM', l);
    for (const l of process.listeners('SIGINT')) if (!before.int.includes(l)) process.off('SIGINT', l);
    vi.restoreAllMocks();
  });

  const quiet = { graceMs: 60_000, log: () => {} };

  it('exits 2 on a configuration error, with the message', async () => {
    await runMain(async () => {
      throw new ConfigError('PORT must be an integer');
    });
    expect(exits).toEqual([2]);
    expect(console.error).toHaveBeenCalledWith('configuration error: PORT must be an integer');
  });

  it('rethrows any other start failure', async () => {
    await expect(runMain(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(exits).toEqual([]);
  });

  it('closes on SIGTERM and exits 0; exits 1 when closing fails', async () => {
    const close = vi.fn(async () => {});
    await runMain(async () => ({ service: { close }, options: quiet }));
    process.emit('SIGTERM');
    await vi.waitFor(() => expect(exits).toEqual([0]));
    expect(close).toHaveBeenCalledOnce();

    for (const l of process.listeners('SIGTERM')) if (!before.term.includes(l)) process.off('SIGTERM', l);
    await runMain(async () => ({ service: { close: async () => Promise.reject(new Error('stuck')) }, options: quiet }));
    process.emit('SIGTERM');
    await vi.waitFor(() => expect(exits).toEqual([0, 1]));
  });

  it('a second signal exits 1 at once; past the grace period it exits 1', async () => {
    vi.useFakeTimers();
    try {
      await runMain(async () => ({ service: { close: () => new Promise<void>(() => {}) }, options: { graceMs: 5000, log: () => {} } }));
      process.emit('SIGINT');
      expect(exits).toEqual([]);
      vi.advanceTimersByTime(5000);
      expect(exits).toEqual([1]);
      process.emit('SIGINT');
      expect(exits).toEqual([1, 1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
