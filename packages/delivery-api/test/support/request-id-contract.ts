import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { RequestIdStore } from '../../src/auth/request-id-store.port.js';

/** A store under test: `fresh()` gives a store with its own key space (a new key prefix or table state). */
export interface ContractSubject {
  fresh(): Promise<RequestIdStore>;
  /** A store whose backend does not answer (connection refused or timeout): consume must throw. */
  unavailable(): Promise<RequestIdStore>;
}

const T0 = new Date('2026-11-23T09:00:00Z');
const in10min = new Date(T0.getTime() + 600_000);

/**
 * The single-use X-Request-ID contract (spec: Authentication), run against every RequestIdStore: the database
 * store in request-ids.int.test.ts, Redis in request-ids.redis.int.test.ts.
 */
export function requestIdContract(subject: ContractSubject): void {
  it('a fresh id is accepted once; the same id again is refused', async () => {
    const s = await subject.fresh();
    const id = randomUUID();
    expect(await s.consume('key-aaaa', id, T0, in10min)).toBe(true);
    expect(await s.consume('key-aaaa', id, T0, in10min)).toBe(false);
  });

  it('ids are per key: another key may use the same id', async () => {
    const s = await subject.fresh();
    const id = randomUUID();
    expect(await s.consume('key-aaaa', id, T0, in10min)).toBe(true);
    expect(await s.consume('key-bbbb', id, T0, in10min)).toBe(true);
  });

  it('a UUID is one id whatever its letter case', async () => {
    const s = await subject.fresh();
    const id = randomUUID();
    expect(await s.consume('key-aaaa', id, T0, in10min)).toBe(true);
    expect(await s.consume('key-aaaa', id.toUpperCase(), T0, in10min)).toBe(false);
    const upper = randomUUID().toUpperCase();
    expect(await s.consume('key-aaaa', upper, T0, in10min)).toBe(true);
    expect(await s.consume('key-aaaa', upper.toLowerCase(), T0, in10min)).toBe(false);
  });

  it('of 20 concurrent uses of one id exactly one wins', async () => {
    const s = await subject.fresh();
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => s.consume('key-aaaa', id, T0, in10min)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('throws when the store does not answer, and the id is not consumed', async () => {
    const down = await subject.unavailable();
    const id = randomUUID();
    await expect(down.consume('key-aaaa', id, T0, in10min)).rejects.toThrow();
    const s = await subject.fresh();
    expect(await s.consume('key-aaaa', id, T0, in10min)).toBe(true);
  });
}
