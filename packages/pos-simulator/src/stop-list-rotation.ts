import type { StopListEntry } from './chain.js';

/** Source of uniform random numbers in [0, 1), like `Math.random`. Injected so rotation is deterministic in tests. */
export type RandomSource = () => number;

/** Deterministic RandomSource (mulberry32) for tests and reproducible demos. */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One rotation step: `entered` = the item went out of stock (joined the stop-list), `left` = back on sale. */
export interface StopListChange {
  id: string;
  change: 'entered' | 'left';
}

/**
 * Moves one item of `pool` into or out of the stop-list; the rest is kept in order. Items enter with
 * balance 0 (out of stock). Uses `random` once for the direction (when both are possible) and once for the item.
 * @returns the new full stop-list and the change, or `change: null` when the pool is empty.
 */
export function rotateStopList(
  current: readonly StopListEntry[],
  pool: readonly string[],
  random: RandomSource,
): { next: StopListEntry[]; change: StopListChange | null } {
  const inList = new Set(current.map((e) => e.id));
  const canEnter = pool.filter((id) => !inList.has(id));
  const canLeave = current.map((e) => e.id);
  if (canEnter.length === 0 && canLeave.length === 0) return { next: [...current], change: null };
  const enter = canLeave.length === 0 || (canEnter.length > 0 && random() < 0.5);
  const from = enter ? canEnter : canLeave;
  const id = from[Math.min(from.length - 1, Math.floor(random() * from.length))];
  if (enter) return { next: [...current, { id, balance: 0 }], change: { id, change: 'entered' } };
  return { next: current.filter((e) => e.id !== id), change: { id, change: 'left' } };
}
