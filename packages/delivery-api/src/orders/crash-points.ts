/**
 * Named recovery points of order creation, cancellation and settlement (docs/loyalty.md "Recovery points").
 * Production code calls `crash.at(name)` at each; only the fault-injection harness makes one do anything.
 */
export type CrashPoint =
  | `hold.before_call.${'coupon' | 'bonus' | 'certificate'}`
  | `hold.after_call.${'coupon' | 'bonus' | 'certificate'}`
  | `hold.after_record.${'coupon' | 'bonus' | 'certificate'}`
  | 'order.after_insert'
  | 'claim.before_commit'
  | 'claim.after_commit'
  | 'report.after_commit'
  | 'cancel.after_commit'
  | `settle.before_call.${'confirm' | 'release'}`
  | `settle.after_call.${'confirm' | 'release'}`;

export interface CrashPoints {
  /** Called at a recovery point; does nothing unless a test armed that point. */
  at(point: CrashPoint): void;
}

/** Production: every point is a no-op. */
export const noCrashPoints: CrashPoints = { at() {} };

/**
 * Test harness only (DELIVERY_TEST_HOOKS=1 with DELIVERY_CRASH_AT=<point>, see config.ts): the process dies at
 * once at the first arrival at `point`, as a power cut would: SIGKILL, no handlers, no flush, no rollback
 * other than PostgreSQL's own for an open transaction.
 */
export function killAt(point: string, kill: () => void = () => process.kill(process.pid, 'SIGKILL')): CrashPoints {
  return {
    at(p) {
      if (p === point) kill();
    },
  };
}
