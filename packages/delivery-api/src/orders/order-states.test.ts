import { describe, expect, it } from 'vitest';
import { canTransition, FINAL_STATES, holdEffectOf, ORDER_TRANSITIONS, type TransitionCause } from './order-states.js';
import type { OrderState } from './order-view.js';

const STATES: OrderState[] = ['queued', 'claimed', 'prepared', 'create_sending', 'created_verified', 'reconciliation_required', 'manual_review', 'rejected_final', 'cancelled'];
const CAUSES: TransitionCause[] = ['pos', 'partner_cancel', 'pos_cancel', 'hold_timeout', 'claim_expired', 'support'];

describe('order state table (spec: States and transitions)', () => {
  it('allows exactly the rows of the table', () => {
    for (const from of STATES) for (const to of STATES) for (const cause of CAUSES) {
      const inTable = ORDER_TRANSITIONS.some((t) => t.to === to && t.from.includes(from) && t.causes.includes(cause));
      expect(canTransition(from, to, cause), `${from} → ${to} by ${cause}`).toBe(inTable);
    }
  });
  it('nothing leaves a final state', () => {
    for (const from of FINAL_STATES) for (const to of STATES) for (const cause of CAUSES) expect(canTransition(from, to, cause)).toBe(false);
  });
  it('the partner cancels at once only from queued; the hold timeout cancels only queued orders', () => {
    expect(STATES.filter((s) => canTransition(s, 'cancelled', 'partner_cancel'))).toEqual(['queued']);
    expect(STATES.filter((s) => canTransition(s, 'cancelled', 'hold_timeout'))).toEqual(['queued']);
  });
  it('created_verified confirms holds, rejected_final/cancelled release them, manual_review keeps them', () => {
    expect(holdEffectOf('created_verified')).toBe('confirm');
    expect(holdEffectOf('rejected_final')).toBe('release');
    expect(holdEffectOf('cancelled')).toBe('release');
    expect(holdEffectOf('manual_review')).toBe('keep');
    expect(holdEffectOf('reconciliation_required')).toBe('keep');
  });
});
