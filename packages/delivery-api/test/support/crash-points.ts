import type { StepObserver } from '../../src/common/recovery-points.js';

/** In-process tests: arriving at `point` throws {@link SimulatedCrash} (the request dies there; nothing after it runs). */
export class SimulatedCrash extends Error {
  constructor(readonly point: string) {
    super(`simulated crash at ${point}`);
  }
}

/** A step observer that throws {@link SimulatedCrash} at the first arrival at each armed point (then disarms it). */
export function throwAt(points: string[]): StepObserver & { armed: Set<string> } {
  const armed = new Set(points);
  return {
    armed,
    reached(p) {
      if (armed.delete(p)) throw new SimulatedCrash(p);
    },
  };
}

/**
 * Child-process harness: the process dies at once at the first arrival at `point`, as a power cut would: SIGKILL,
 * no handlers, no flush, no rollback other than PostgreSQL's own for an open transaction.
 */
export function killAt(point: string, kill: () => void = () => process.kill(process.pid, 'SIGKILL')): StepObserver {
  return {
    reached(p) {
      if (p === point) kill();
    },
  };
}
