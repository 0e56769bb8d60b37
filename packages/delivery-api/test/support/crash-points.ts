import type { CrashPoints } from '../../src/orders/crash-points.js';

/** In-process tests: arriving at `point` throws {@link SimulatedCrash} (the request dies there; nothing after it runs). */
export class SimulatedCrash extends Error {
  constructor(readonly point: string) {
    super(`simulated crash at ${point}`);
  }
}

export function throwAt(points: string[]): CrashPoints & { armed: Set<string> } {
  const armed = new Set(points);
  return {
    armed,
    at(p) {
      if (armed.delete(p)) throw new SimulatedCrash(p);
    },
  };
}
