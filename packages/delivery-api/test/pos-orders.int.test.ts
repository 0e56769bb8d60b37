import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';

let w: World;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000 });
  for (const p of ['1', '2']) {
    await w.call(w.pos[p], 'POST', '/pos/v1/menu', sampleMenu());
    await w.call(w.pos[p], 'POST', '/pos/v1/heartbeat', {});
  }
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

const pos = (path: string, body: unknown = {}, key = w.pos['1']) => w.call(key, 'POST', path, body);
const legStates = async (orderId: string) =>
  (await w.db.query<{ kind: string; state: string }>(`SELECT kind, state FROM loyalty_legs WHERE order_id = $1 ORDER BY kind`, [orderId])).map(
    (l) => `${l.kind}:${l.state}`,
  );
const eventsOf = (orderId: string) => w.events.events.filter((e) => e.order.id === orderId).map((e) => e.type);

async function placed(over: Parameters<typeof checkoutOrder>[1] = {}) {
  const { order } = await checkoutOrder(w, over);
  const r = await createOrder(w, order);
  expect(r.statusCode).toBe(201);
  return r.json() as { id: string };
}

async function claimOne(id: string) {
  const r = await pos('/pos/v1/orders/claim', { limit: 50 });
  expect(r.statusCode).toBe(200);
  const c = r.json().orders.find((o: { orderId: string }) => o.orderId === id);
  expect(c, 'claimed').toBeDefined();
  return c as { orderId: string; claimId: string; stableId: string; claimExpiresAt: string; order: Record<string, unknown> };
}

const report = (id: string, body: Record<string, unknown>, key = w.pos['1']) => pos(`/pos/v1/orders/${id}/state`, body, key);

describe('POS order flow', () => {
  it('claim → prepared → create_sending → created_verified confirms the holds; every change emits its event', async () => {
    const o = await placed({ coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '1' }] });
    const c = await claimOne(o.id);
    expect(c.order).toMatchObject({ orderId: o.id, stableId: o.id, organizationId: expect.any(String), orderTypeId: 'ot-1', confirmed: false });
    expect(c.claimExpiresAt).toBe(new Date(w.clock.now().getTime() + 120_000).toISOString());
    for (const state of ['prepared', 'create_sending'])
      expect((await report(o.id, { claimId: c.claimId, stableId: o.id, state })).statusCode).toBe(200);
    const done = await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'created_verified', posOrderId: 'pos-1', posDeliveryId: 'del-1' });
    expect(done.json()).toMatchObject({ state: 'created_verified', posOrderId: 'pos-1', posDeliveryId: 'del-1' });
    expect(await legStates(o.id)).toEqual(['coupon:confirmed']);
    expect(eventsOf(o.id)).toEqual([
      'order.state_changed',
      'order.payment_recorded',
      'order.state_changed',
      'order.state_changed',
      'order.state_changed',
      'order.state_changed',
      'order.loyalty_confirmed',
    ]);
  });

  it('delivery statuses up to Delivered; Delivered accrues bonus once through the sweeper', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'created_verified', posOrderId: 'pos-2' });
    for (const status of ['Unconfirmed', 'New', 'Waiting', 'OnWay', 'Delivered']) {
      const r = await pos(`/pos/v1/orders/${o.id}/delivery-status`, { status });
      expect(r.statusCode).toBe(200);
      expect(r.json().deliveryStatus).toBe(status);
    }
    const accrues = w.loyalty.count('accrue');
    await w.services.sweeper.runOnce();
    expect(w.loyalty.count('accrue')).toBe(accrues + 1);
    await w.services.sweeper.runOnce();
    expect(w.loyalty.count('accrue')).toBe(accrues + 1);
    expect(eventsOf(o.id).filter((t) => t === 'order.delivery_status_changed')).toHaveLength(5);
    expect(eventsOf(o.id)).toContain('order.accrued');
  });

  it('POS refusal releases the holds', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'rejected_final' });
    expect(await legStates(o.id)).toEqual(['coupon:released']);
    expect(eventsOf(o.id)).toContain('order.loyalty_released');
  });

  it('reconciliation_required keeps holds; 409 invalid_or_expired_claim, stable_id_mismatch, invalid_state_transition', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    const c = await claimOne(o.id);
    const wrongClaim = await report(o.id, { claimId: '00000000-0000-4000-8000-000000000000', stableId: o.id, state: 'prepared' });
    expect(wrongClaim.statusCode).toBe(409);
    expect(wrongClaim.json().error).toBe('invalid_or_expired_claim');
    const wrongStable = await report(o.id, { claimId: c.claimId, stableId: 'other', state: 'prepared' });
    expect(wrongStable.json().error).toBe('stable_id_mismatch');
    const skip = await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'create_sending' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error).toBe('invalid_state_transition');
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'reconciliation_required' });
    expect(await legStates(o.id)).toEqual(['coupon:held']);
  });

  it('404 not_found when a POS touches an order of another route (outside its scope); 403 for a partner key', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    const r = await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'prepared' }, w.pos['2']);
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe('not_found');
    expect((await w.call(w.partner, 'POST', '/pos/v1/orders/claim', {})).statusCode).toBe(403);
  });

  it('an expired claim returns the order to the queue; the old claim is refused', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    w.clock.advance(121_000);
    await pos('/pos/v1/heartbeat', {});
    expect((await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'prepared' })).json().error).toBe('invalid_or_expired_claim');
    const again = await claimOne(o.id);
    expect(again.claimId).not.toBe(c.claimId);
    expect(eventsOf(o.id).filter((t) => t === 'order.state_changed')).toHaveLength(4); // queued, claimed, queued, claimed
  });
});

describe('POST /v1/orders/{id}/cancel', () => {
  const cancel = (id: string, body: unknown = { reason: 'guest_request', comment: 'передумал' }) =>
    w.call(w.partner, 'POST', `/v1/orders/${id}/cancel`, body);

  it('queued → 200 cancelled at once, holds released; again → 200 without change', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    const r = await cancel(o.id);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ state: 'cancelled', cancelReason: 'guest_request' });
    expect(await legStates(o.id)).toEqual(['coupon:released']);
    const again = await cancel(o.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().updatedAt).toBe(r.json().updatedAt);
  });

  it('in creation → 202 cancelState requested; the POS cancels with "client refusal" → cancelled, cancel_result', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'prepared' });
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'create_sending' });
    const r = await cancel(o.id);
    expect(r.statusCode).toBe(202);
    expect(r.json()).toMatchObject({ state: 'create_sending', cancelState: 'requested' });
    expect(eventsOf(o.id)).toContain('order.cancel_requested');
    const list = (await pos('/pos/v1/cancellations/claim')).json().cancellations;
    expect(list).toContainEqual(expect.objectContaining({ orderId: o.id, reason: 'client refusal' }));
    expect((await pos('/pos/v1/cancellations/claim')).json().cancellations.find((x: { orderId: string }) => x.orderId === o.id)).toBeUndefined();
    const res = await pos(`/pos/v1/orders/${o.id}/cancel-result`, { result: 'cancelled' });
    expect(res.json()).toMatchObject({ state: 'cancelled', cancelState: 'done' });
    expect(eventsOf(o.id)).toContain('order.cancel_result');
  });

  it('the POS refuses → cancelState rejected with cancelDetail; the next cancel is 409 cancel_rejected', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'created_verified', posOrderId: 'p-9' });
    expect((await cancel(o.id)).statusCode).toBe(202);
    await pos('/pos/v1/cancellations/claim');
    const res = await pos(`/pos/v1/orders/${o.id}/cancel-result`, { result: 'rejected', detail: 'not_new' });
    expect(res.json()).toMatchObject({ cancelState: 'rejected', cancelDetail: 'not_new', state: 'created_verified' });
    const r = await cancel(o.id);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: 'cancel_rejected' });
  });

  it('orders with online payment or bonus are not cancelled through the API (sdk_error)', async () => {
    for (const over of [{ method: 'online' as const }, { bonus: 100 }]) {
      const o = await placed(over);
      const r = await cancel(o.id);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ error: 'cancel_rejected' });
      const v = (await w.call(w.partner, 'GET', `/v1/orders/${o.id}?source=website`)).json();
      expect(v).toMatchObject({ state: 'queued', cancelState: 'rejected', cancelDetail: 'sdk_error' });
    }
  });

  it('prepared orders get the cancellation queued but not handed to the POS', async () => {
    const o = await placed();
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'prepared' });
    expect((await cancel(o.id)).statusCode).toBe(202);
    expect((await pos('/pos/v1/cancellations/claim')).json().cancellations.find((x: { orderId: string }) => x.orderId === o.id)).toBeUndefined();
  });

  it('404 outside the key, 400 for a bad reason or a non-UUID id', async () => {
    const o = await placed();
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['2'] });
    expect((await w.call(narrow, 'POST', `/v1/orders/${o.id}/cancel`, { reason: 'other', comment: '' })).statusCode).toBe(404);
    expect((await cancel(o.id, { reason: 'bored', comment: '' })).statusCode).toBe(400);
    expect((await cancel('nope')).statusCode).toBe(400);
  });
});

describe('hold sweeper: the 30-minute rules by order state', () => {
  it('queued with an unconfirmed hold → cancelled and released after 30 minutes, not before', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    w.clock.advance(29 * 60_000);
    await w.services.sweeper.runOnce();
    expect((await w.db.query<{ state: string }>('SELECT state FROM orders WHERE id = $1', [o.id]))[0].state).toBe('queued');
    w.clock.advance(60_000);
    await w.services.sweeper.runOnce();
    expect((await w.db.query<{ state: string }>('SELECT state FROM orders WHERE id = $1', [o.id]))[0].state).toBe('cancelled');
    expect(await legStates(o.id)).toEqual(['coupon:released']);
  });

  it('in creation → cancelState requested, hold kept until the order is final', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    const c = await claimOne(o.id);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'prepared' });
    w.clock.advance(31 * 60_000);
    await w.services.sweeper.runOnce();
    const [row] = await w.db.query<{ state: string; cancel_state: string }>('SELECT state, cancel_state FROM orders WHERE id = $1', [o.id]);
    expect(row).toEqual({ state: 'prepared', cancel_state: 'requested' });
    expect(await legStates(o.id)).toEqual(['coupon:held']);
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'create_sending' });
    await report(o.id, { claimId: c.claimId, stableId: o.id, state: 'created_verified', posOrderId: 'px' });
    expect(await legStates(o.id)).toEqual(['coupon:confirmed']);
  });

  it('manual_review keeps holds held', async () => {
    const o = await placed({ coupon: 'WELCOME200' });
    await w.db.query(`UPDATE orders SET state = 'manual_review' WHERE id = $1`, [o.id]);
    w.clock.advance(31 * 60_000);
    await w.services.sweeper.runOnce();
    expect(await legStates(o.id)).toEqual(['coupon:held']);
  });

  it('an orphaned hold (no order was created) is released after 30 minutes', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    // the process "dies" between the hold and the order insert: the insert step fails (its events are built
    // just before the one statement that writes order, links and events)
    const entries = w.events.inStatement.bind(w.events);
    w.events.inStatement = () => {
      throw new Error('crash before commit');
    };
    expect((await createOrder(w, order)).statusCode).toBe(500);
    w.events.inStatement = entries;
    const rows = () =>
      w.db.query<{ state: string; order_id: string | null }>('SELECT state, order_id FROM loyalty_legs WHERE external_order_id = $1', [
        order.externalOrderId,
      ]);
    expect(await rows()).toEqual([{ state: 'held', order_id: null }]);
    w.clock.advance(31 * 60_000);
    await w.services.sweeper.runOnce();
    expect(await rows()).toEqual([{ state: 'released', order_id: null }]);
  });

  it('a crash after recording the leg but before the loyalty call: read back as never held, then the retry holds once', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const hold = w.loyalty.hold.bind(w.loyalty);
    w.loyalty.hold = async () => {
      throw new Error('process killed before the call left');
    };
    expect((await createOrder(w, order)).statusCode).toBe(500);
    w.loyalty.hold = hold;
    const legRow = async () =>
      (await w.db.query<{ state: string }>('SELECT state FROM loyalty_legs WHERE external_order_id = $1', [order.externalOrderId]))[0].state;
    expect(await legRow()).toBe('holding');
    w.clock.advance(3 * 60_000);
    await w.services.sweeper.runOnce();
    expect(await legRow()).toBe('failed');
    w.clock.advance(-3 * 60_000);
    const holds = w.loyalty.count('hold');
    expect((await createOrder(w, order)).statusCode).toBe(201);
    expect(w.loyalty.count('hold')).toBe(holds + 1);
    expect(await legRow()).toBe('held');
  });

  it('a crash between the hold call and recording it: the holding leg is read back', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const move = w.db.query.bind(w.db);
    let dropped = false;
    w.db.query = (async (text: string, params?: unknown[]) => {
      if (!dropped && text.includes('UPDATE loyalty_legs SET state') && params?.[2] === 'held') {
        dropped = true;
        throw new Error('crash after the loyalty call');
      }
      return move(text, params);
    }) as typeof w.db.query;
    expect((await createOrder(w, order)).statusCode).toBe(500);
    w.db.query = move;
    const legRow = async () =>
      (await w.db.query<{ state: string }>('SELECT state FROM loyalty_legs WHERE external_order_id = $1', [order.externalOrderId]))[0].state;
    expect(await legRow()).toBe('holding');
    expect((await createOrder(w, order)).statusCode).toBe(409); // hold_in_progress while unresolved
    w.clock.advance(3 * 60_000);
    await w.services.sweeper.runOnce();
    expect(await legRow()).toBe('held');
    w.clock.advance(-3 * 60_000);
  });
});
