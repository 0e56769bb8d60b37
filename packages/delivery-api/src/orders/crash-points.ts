/**
 * Named recovery points of order creation, cancellation and settlement (docs/loyalty.md "Recovery points").
 * Production code calls `crash.at(name)` at each; only the fault-injection harness makes one do anything.
 */
const KINDS = ['coupon', 'bonus', 'certificate'] as const;

/** Every recovery point, by name (docs/loyalty.md "Recovery points" describes what is durable at each). */
export const CRASH_POINTS = [
  ...KINDS.map((k) => `hold.before_call.${k}` as const),
  ...KINDS.map((k) => `hold.after_call.${k}` as const),
  ...KINDS.map((k) => `hold.after_record.${k}` as const),
  'order.after_insert',
  'claim.before_commit',
  'claim.after_commit',
  'report.after_commit',
  'cancel.after_commit',
  'cancel.dispatch.after_commit',
  'cancel_result.after_commit',
  'settle.before_call.confirm',
  'settle.before_call.release',
  'settle.after_call.confirm',
  'settle.after_call.release',
  'sweep.cancel_queued.after_commit',
  'sweep.request_cancel.after_commit',
  'sweep.confirm.after_claim',
  'sweep.release.after_claim',
  'sweep.accrue.after_call',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

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
