import { describe, expect, it } from 'vitest';
import { cancelDecision, DELIVERY_WALK, nextCreationState, nextDeliveryStatus, type SimOrder } from '../src/index.js';

const order = (over: Partial<SimOrder> = {}): SimOrder => ({
  orderId: 'o-1',
  stableId: 'o-1',
  claimId: 'c-1',
  deliveryType: 'courier',
  outcome: 'created_verified',
  state: 'claimed',
  posOrderId: 'p-1',
  posDeliveryId: 'd-1',
  deliveryStatus: null,
  deliveryStatusAt: null,
  cancelled: false,
  ...over,
});

describe('simulated POS order rules', () => {
  it('creation walks prepared → create_sending → outcome, then stops; a cancelled order stops at once', () => {
    for (const outcome of ['created_verified', 'reconciliation_required', 'rejected_final'] as const) {
      const o = order({ outcome });
      const seen = [];
      for (let s = nextCreationState(o); s !== null; s = nextCreationState(o)) seen.push((o.state = s));
      expect(seen).toEqual(['prepared', 'create_sending', outcome]);
    }
    expect(nextCreationState(order({ cancelled: true }))).toBeNull();
  });

  it.each(Object.entries(DELIVERY_WALK))(
    '%s: Unconfirmed at creation, then one status per step on the clock, nothing after the last',
    (type, walk) => {
      const o = order({ deliveryType: type as SimOrder['deliveryType'], state: 'created_verified' });
      expect(nextDeliveryStatus(order({ state: 'create_sending' }), 0, 20_000)).toBeNull();
      let now = 0;
      const seen = [];
      for (let s = nextDeliveryStatus(o, now, 20_000); s !== null; now += 20_000, s = nextDeliveryStatus(o, now, 20_000)) {
        seen.push(s);
        Object.assign(o, { deliveryStatus: s, deliveryStatusAt: now });
        expect(nextDeliveryStatus(o, now + 19_999, 20_000)).toBeNull();
      }
      expect(seen).toEqual(walk);
      expect(walk.at(-1)).toBe('Closed');
    },
  );

  it('cancels up to New, refuses later statuses with not_new and unknown orders with not_found', () => {
    expect(cancelDecision(undefined)).toEqual({ result: 'rejected', detail: 'not_found' });
    for (const s of [null, 'Unconfirmed', 'New'] as const) expect(cancelDecision(order({ deliveryStatus: s }))).toEqual({ result: 'cancelled' });
    for (const s of ['Waiting', 'OnWay', 'Delivered', 'Closed'] as const)
      expect(cancelDecision(order({ deliveryStatus: s }))).toEqual({ result: 'rejected', detail: 'not_new' });
  });
});
