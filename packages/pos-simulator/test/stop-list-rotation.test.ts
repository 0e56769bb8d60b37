import { describe, expect, it } from 'vitest';
import { rotateStopList, seededRandom } from '../src/index.js';

const scripted =
  (...values: number[]) =>
  () =>
    values.shift() ?? 0;

describe('rotateStopList', () => {
  const pool = ['a', 'b', 'c'];

  it('adds an item of the pool with balance 0 when the draw says enter', () => {
    expect(rotateStopList([{ id: 'a', balance: 0 }], pool, scripted(0.1, 0.6))).toEqual({
      next: [
        { id: 'a', balance: 0 },
        { id: 'c', balance: 0 },
      ],
      change: { id: 'c', change: 'entered' },
    });
  });

  it('removes an item of the list when the draw says leave, keeping the order of the rest', () => {
    const current = [
      { id: 'a', balance: 0 },
      { id: 'b', balance: 2 },
      { id: 'c', balance: 0 },
    ];
    // Everything is in: the only way is out, and only one draw (the item) is used.
    expect(rotateStopList(current, pool, scripted(0.5))).toEqual({
      next: [
        { id: 'a', balance: 0 },
        { id: 'c', balance: 0 },
      ],
      change: { id: 'b', change: 'left' },
    });
  });

  it('enters when the list is empty and changes nothing when the pool is empty', () => {
    expect(rotateStopList([], pool, scripted(0.99)).change).toEqual({ id: 'c', change: 'entered' });
    expect(rotateStopList([], [], scripted())).toEqual({ next: [], change: null });
  });

  it('can take an item that was in the stop-list but not in the pool out', () => {
    expect(rotateStopList([{ id: 'z', balance: 0 }], [], scripted(0.3)).change).toEqual({ id: 'z', change: 'left' });
  });
});

describe('seededRandom', () => {
  it('repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs.map((x) => Math.floor(x * 10))).size).toBe(10);
    expect(seededRandom(43)()).not.toBe(xs[0]);
  });
});
