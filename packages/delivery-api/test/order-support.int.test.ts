import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderSupportService } from '../src/orders/order-support.js';
import { MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';

let w: World;
let support: OrderSupportService;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000 });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  support = new OrderSupportService({ db: w.db, clock: w.clock, events: w.events, holds: w.services.holds });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

async function reconciling() {
  const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
  const o = (await createOrder(w, order)).json();
  const c = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }))
    .json()
    .orders.find((x: { orderId: string }) => x.orderId === o.id);
  await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/state`, { claimId: c.claimId, stableId: o.id, state: 'reconciliation_required' });
  return o.id as string;
}

describe('support actions (States: manual review; rule 10 manual release)', () => {
  it('manual review keeps the holds; a manual release then releases them', async () => {
    const id = await reconciling();
    expect((await support.manualReview(id)).state).toBe('manual_review');
    expect((await support.show(id)).legs).toEqual([expect.objectContaining({ kind: 'coupon', state: 'held', amountMinor: 20000, refund: null })]);
    expect(await support.releaseHolds(id)).toBe(1);
    expect((await support.show(id)).legs[0].state).toBe('released');
  });
  it('reject moves to rejected_final and releases; a final order cannot move again', async () => {
    const id = await reconciling();
    expect((await support.reject(id)).state).toBe('rejected_final');
    expect((await support.show(id)).legs[0].state).toBe('released');
    await expect(support.manualReview(id)).rejects.toMatchObject({ code: 'invalid_state_transition' });
  });
});
