import { describe, expect, it } from 'vitest';
import { canTransition, FINAL_STATES, holdEffectOf, ORDER_TRANSITIONS, type TransitionCause } from '../../src/orders/order-states.js';
import { ORDER_STATES, type OrderState } from '@app/delivery-contract';

/** Every server state, from the contract (the spec's list). */
const STATES: readonly OrderState[] = ORDER_STATES;
const CAUSES: TransitionCause[] = ['pos', 'partner_cancel', 'pos_cancel', 'hold_timeout', 'claim_expired', 'support'];
const IN_POS: OrderState[] = ['claimed', 'prepared', 'create_sending', 'reconciliation_required'];

/**
 * The spec's "Transitions that are shown" table (delivery-partner-api.md, States and transitions), one row per
 * state-changing row with our cause names, and the POS protocol's normal path (ours: docs/pos-protocol). Rows that
 * leave the state unchanged (cancel requests in creation, the 30-minute request) are not order transitions.
 * "any state" is read as the states the POS holds an order in: a final state never moves (spec: final states).
 */
const EXPECTED: { spec: string; from: OrderState[]; to: OrderState; causes: TransitionCause[] }[] = [
  { spec: 'queued | POST /cancel | not yet picked up → cancelled', from: ['queued'], to: 'cancelled', causes: ['partner_cancel'] },
  { spec: 'any state | POS reports creation verified → created_verified', from: IN_POS, to: 'created_verified', causes: ['pos'] },
  { spec: 'any state | POS refuses → rejected_final (support may record it)', from: IN_POS, to: 'rejected_final', causes: ['pos', 'support'] },
  { spec: 'any state | order is cancelled (at the POS) → cancelled', from: [...IN_POS, 'created_verified'], to: 'cancelled', causes: ['pos_cancel'] },
  { spec: 'any state | order goes to manual review → manual_review', from: ['queued', ...IN_POS], to: 'manual_review', causes: ['support'] },
  {
    spec: 'ours: the POS cancelled a verified order whose loyalty spend is confirmed → manual_review, a person decides the refund',
    from: ['created_verified'],
    to: 'manual_review',
    causes: ['pos_cancel'],
  },
  { spec: 'queued | hold not confirmed within 30 minutes → cancelled', from: ['queued'], to: 'cancelled', causes: ['hold_timeout'] },
  { spec: 'POS protocol: claim', from: ['queued'], to: 'claimed', causes: ['pos'] },
  { spec: 'POS protocol: claim lease expired', from: ['claimed'], to: 'queued', causes: ['claim_expired'] },
  { spec: 'POS protocol: prepared', from: ['claimed'], to: 'prepared', causes: ['pos'] },
  { spec: 'POS protocol: create sending', from: ['prepared'], to: 'create_sending', causes: ['pos'] },
  {
    spec: 'POS protocol: unsure of the result → reconciliation_required',
    from: ['claimed', 'prepared', 'create_sending'],
    to: 'reconciliation_required',
    causes: ['pos'],
  },
];

const key = (from: OrderState, to: OrderState, cause: TransitionCause) => `${from} → ${to} by ${cause}`;
const expand = (rows: { from: readonly OrderState[]; to: OrderState; causes: readonly TransitionCause[] }[]) =>
  new Set(rows.flatMap((r) => r.from.flatMap((f) => r.causes.map((c) => key(f, r.to, c)))));

describe('ORDER_TRANSITIONS against the spec (States and transitions)', () => {
  it.each(EXPECTED)('allows: $spec', (row) => {
    for (const from of row.from) for (const cause of row.causes) expect(canTransition(from, row.to, cause), key(from, row.to, cause)).toBe(true);
  });

  it('has no move beyond the spec table and the POS protocol path', () => {
    expect([...expand(ORDER_TRANSITIONS)].sort()).toEqual([...expand(EXPECTED)].sort());
  });

  it('refuses every move that is not a row (all states × states × causes)', () => {
    const allowed = expand(EXPECTED);
    for (const from of STATES)
      for (const to of STATES)
        for (const cause of CAUSES) {
          expect(canTransition(from, to, cause), key(from, to, cause)).toBe(allowed.has(key(from, to, cause)));
        }
  });

  it('nothing leaves a final state', () => {
    for (const from of FINAL_STATES) for (const to of STATES) for (const cause of CAUSES) expect(canTransition(from, to, cause)).toBe(false);
  });

  it.each([
    ['created_verified', 'confirm'],
    ['rejected_final', 'release'],
    ['cancelled', 'release'],
    ['manual_review', 'keep'],
    ['reconciliation_required', 'keep'],
  ] as const)('side effect on holds of reaching %s: %s', (to, effect) => {
    expect(holdEffectOf(to)).toBe(effect);
  });
});
