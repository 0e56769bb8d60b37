import type { OrderState } from '@app/delivery-contract';

/** Who moves an order: the POS plugin, the partner, the hold sweeper or support. */
export type TransitionCause = 'pos' | 'partner_cancel' | 'pos_cancel' | 'hold_timeout' | 'claim_expired' | 'support';
// `pos_cancel` from `created_verified`: to `cancelled` only when no loyalty spend of the order is confirmed or being
// confirmed, otherwise to `manual_review` with the legs flagged for a refund (PosOrdersService.cancelResult;
// docs/loyalty.md "Cancellation of a verified order"). A person decides a reversal; nothing reverses it automatically.

/**
 * The order state machine as data. Spec: States and transitions (the shown rows), plus the POS protocol's normal
 * path queued → claimed → prepared → create_sending → created_verified. Every allowed move is one row.
 */
export const ORDER_TRANSITIONS: { from: OrderState[]; to: OrderState; causes: TransitionCause[] }[] = [
  { from: ['queued'], to: 'claimed', causes: ['pos'] },
  { from: ['claimed'], to: 'queued', causes: ['claim_expired'] },
  { from: ['claimed'], to: 'prepared', causes: ['pos'] },
  { from: ['prepared'], to: 'create_sending', causes: ['pos'] },
  // "any state → created_verified when the POS reports creation verified" (within the POS-held states)
  { from: ['claimed', 'prepared', 'create_sending', 'reconciliation_required'], to: 'created_verified', causes: ['pos'] },
  { from: ['claimed', 'prepared', 'create_sending'], to: 'reconciliation_required', causes: ['pos'] },
  { from: ['claimed', 'prepared', 'create_sending', 'reconciliation_required'], to: 'rejected_final', causes: ['pos', 'support'] },
  { from: ['queued'], to: 'cancelled', causes: ['partner_cancel', 'hold_timeout'] },
  { from: ['claimed', 'prepared', 'create_sending', 'reconciliation_required', 'created_verified'], to: 'cancelled', causes: ['pos_cancel'] },
  { from: ['queued', 'claimed', 'prepared', 'create_sending', 'reconciliation_required'], to: 'manual_review', causes: ['support'] },
  { from: ['created_verified'], to: 'manual_review', causes: ['pos_cancel'] },
];

/** States after which nothing moves the order any more (a cancel request answers 200 without change). */
export const FINAL_STATES: ReadonlySet<OrderState> = new Set(['rejected_final', 'cancelled', 'manual_review']);

/**
 * States in which the POS holds the order: a cancellation is queued for the POS (202). The spec's 202 row names the
 * first four; `created_verified` is ours and only for orders without a loyalty spend (CancelService).
 */
export const IN_CREATION_STATES: ReadonlySet<OrderState> = new Set([
  'claimed',
  'prepared',
  'create_sending',
  'reconciliation_required',
  'created_verified',
]);

/** Whether `from → to` by `cause` is a row of the table. */
export function canTransition(from: OrderState, to: OrderState, cause: TransitionCause): boolean {
  return ORDER_TRANSITIONS.some((t) => t.to === to && t.from.includes(from) && t.causes.includes(cause));
}

/** What happens to held loyalty legs when an order enters a state. Spec: States and transitions, side effects. */
export function holdEffectOf(to: OrderState): 'confirm' | 'release' | 'keep' {
  if (to === 'created_verified') return 'confirm';
  if (to === 'rejected_final' || to === 'cancelled') return 'release';
  return 'keep';
}
