/**
 * Named recovery points of order creation, cancellation, the POS protocol and settlement: the steps after which
 * something is durable and a restarted process must be able to carry on (docs/loyalty.md "Recovery points"
 * describes what is durable at each). The services report each step to an injected {@link StepObserver}; in
 * production nobody observes them.
 */
const KINDS = ['coupon', 'bonus', 'certificate'] as const;

/** Every recovery point, by name. */
export const RECOVERY_POINTS = [
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
export type RecoveryPoint = (typeof RECOVERY_POINTS)[number];

/** Told when a service passes a recovery point (synchronously, before it goes on). */
export interface StepObserver {
  reached(point: RecoveryPoint): void;
}

/** Production default: nobody watches the steps. */
export const noStepObserver: StepObserver = { reached() {} };
