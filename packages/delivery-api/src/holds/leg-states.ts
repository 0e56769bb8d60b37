/**
 * Loyalty hold-leg states. Spec: Loyalty hold legs (`holding`, `held`, `confirmed`, `cancelled`/released —
 * `released` here —, `failed`), plus two of ours: `releasing` (a release claimed in our database before the
 * loyalty call, so a retry cannot reuse the leg meanwhile) and `settle_failed` (confirm/release gave up after
 * bounded retries: a person must look; docs/loyalty.md "Recovery points").
 */
export type LegState = 'holding' | 'held' | 'releasing' | 'confirmed' | 'released' | 'failed' | 'settle_failed';

/** Why a leg moves: the outcome of our own call, the sweeper's read-back, a retry, settlement, or support. */
export type LegCause =
  | 'hold_ok' // the loyalty service answered the hold call (with the hold's status: held, or already released/confirmed)
  | 'hold_failed' // it refused, or the outcome is unknown (timeout, 5xx, 429)
  | 'read_back' // the sweeper read a crashed `holding` leg back (getHold)
  | 'retry' // a retry of the same order body holds a failed or released leg again
  | 'claim_release' // an unlinked leg is claimed for release (sibling rejected, orphan after 30 min)
  | 'confirm' // the order was verified at the POS: spend
  | 'release' // the order will not be created/was cancelled, or a failed call was resolved: give back
  | 'give_up' // settlement failed definitively or too often
  | 'support'; // a person retries settlement or releases by hand

/** The leg state machine as data: one row per allowed move. Every change of `loyalty_legs.state` is one of these. */
export const LEG_TRANSITIONS: readonly { from: readonly LegState[]; to: LegState; causes: readonly LegCause[] }[] = [
  { from: ['holding'], to: 'held', causes: ['hold_ok', 'read_back'] },
  { from: ['holding'], to: 'failed', causes: ['hold_failed', 'read_back'] },
  // the service's answer or read-back is recorded as it is: a hold already released elsewhere ends the leg
  // `released` (a retry then holds with a new key), one already spent ends it `confirmed` (flagged for a person)
  { from: ['holding'], to: 'confirmed', causes: ['hold_ok', 'read_back'] },
  { from: ['holding'], to: 'released', causes: ['hold_ok', 'read_back'] },
  { from: ['failed', 'released'], to: 'holding', causes: ['retry'] },
  { from: ['held'], to: 'releasing', causes: ['claim_release'] },
  { from: ['held'], to: 'confirmed', causes: ['confirm', 'support'] },
  { from: ['held', 'releasing', 'failed'], to: 'released', causes: ['release'] },
  { from: ['held', 'releasing'], to: 'settle_failed', causes: ['give_up'] },
  { from: ['settle_failed'], to: 'held', causes: ['support'] },
  { from: ['settle_failed', 'held'], to: 'released', causes: ['support'] },
];

/** The states a leg may leave for `to` by `cause` (empty when the move is not a row of the table). */
export function legSources(to: LegState, cause: LegCause): LegState[] {
  const from = new Set<LegState>();
  for (const t of LEG_TRANSITIONS) if (t.to === to && t.causes.includes(cause)) for (const s of t.from) from.add(s);
  return [...from];
}

/** Whether `from → to` by `cause` is a row of {@link LEG_TRANSITIONS}. */
export function canMoveLeg(from: LegState, to: LegState, cause: LegCause): boolean {
  return legSources(to, cause).includes(from);
}

/** Legs in these states still reserve the guest's coupon, bonus or certificate in the loyalty service. */
export const RESERVING_LEG_STATES: ReadonlySet<LegState> = new Set(['holding', 'held', 'releasing', 'settle_failed']);
