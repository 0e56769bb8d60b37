import { randomIds } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxOrderEvents } from '../../src/webhooks/outbox.js';
import { MARGHERITA, makeWorld, sampleMenu, type World } from '../harness.js';
import { checkoutOrder, createOrder } from '../order-factory.js';
import { ADMIN, addConsoleAccounts, ConsoleClient, SUPPORT } from './console-client.js';

let w: World;
beforeAll(async () => {
  // the real outbox adapter, so the order's history (order_event_log) is written as in production
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000, orderEvents: createOutboxOrderEvents(randomIds) });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await addConsoleAccounts(w);
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

/** An order with coupon WELCOME200 that the POS reported `reconciliation_required`; returns its id and externalOrderId. */
async function reconciling(): Promise<{ id: string; ext: string }> {
  const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
  const o = (await createOrder(w, order)).json();
  const c = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }))
    .json()
    .orders.find((x: { orderId: string }) => x.orderId === o.id);
  await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/state`, { claimId: c.claimId, stableId: o.id, state: 'reconciliation_required' });
  return { id: o.id, ext: o.externalOrderId };
}

describe('console orders: queue, search, order page, actions (issue 26 item 2)', () => {
  it('shows a reconciliation_required order in the queue and its page with legs, payload and actions', async () => {
    const { id, ext } = await reconciling();
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    const list = await c.get('/console/orders');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/console/orders/${id}"`);
    expect(list.body).toContain('касса не уверена в результате');
    expect(list.body).toContain('data-live="/console/orders/queue"');
    const fragment = await c.get('/console/orders/queue');
    expect(fragment.body).toContain(ext);
    expect(fragment.body).not.toContain('<html');
    const page = await c.get(`/console/orders/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('reconciliation_required');
    expect(page.body).toContain('WELCOME200');
    expect(page.body).toContain(`/console/orders/${id}/manual-review`);
    expect(page.body).toContain(`/console/orders/${id}/reject`);
    expect(page.body).toContain('&quot;items&quot;'); // the POS payload, escaped
    const phone = (await w.db.query<{ guest_phone: string }>('SELECT guest_phone FROM orders WHERE id = $1', [id]))[0]!.guest_phone;
    expect(page.body).not.toContain(phone); // masked in the facts and in the payload
    // the timeline has the POS's report from the order's own history, with or without a webhook subscription
    expect(page.body).toContain('Состояние: reconciliation_required');
    const logged = await w.db.query<{ type: string; state: string }>(
      'SELECT type, state FROM order_event_log WHERE order_id = $1 ORDER BY occurred_at',
      [id],
    );
    expect(logged).toContainEqual({ type: 'order.state_changed', state: 'reconciliation_required' });
    // the clock stands still here, so every event shares its instant: the page keeps the order they were made in
    const shown = [...page.body.matchAll(/Состояние: ([a-z_]+)/g)].map((m) => m[1]);
    expect(shown[0]).toBe('queued');
    expect(shown.at(-1)).toBe('reconciliation_required');
  });

  it('finds orders by externalOrderId and by phone (shown masked), refuses a bad phone with 422', async () => {
    const { id, ext } = await reconciling();
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    const byExt = await c.get(`/console/orders?externalOrderId=${encodeURIComponent(ext)}`);
    expect(byExt.body).toContain('Найдено: 1');
    expect(byExt.body).toContain(id);
    const phone = (await w.db.query<{ guest_phone: string }>('SELECT guest_phone FROM orders WHERE id = $1', [id]))[0]!.guest_phone;
    const byPhone = await c.get(`/console/orders?phone=${encodeURIComponent(`8${phone.slice(2)}`)}`);
    expect(byPhone.statusCode).toBe(200);
    expect(byPhone.body).toContain(id);
    expect(byPhone.body).toContain(`+7 ${phone.slice(2, 5)} ***-**-${phone.slice(10)}`);
    expect(byPhone.body).not.toContain(phone);
    const bad = await c.get('/console/orders?phone=12345');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Телефон: +7 и 10 цифр.');
    const badDate = await c.get('/console/orders?date=yesterday');
    expect(badDate.statusCode).toBe(422);
    expect((await c.get('/console/orders?state=rejected_final&pointId=1')).statusCode).toBe(200);
  });

  it('confirms, then sends to manual review (holds kept), releases the holds and closes the review with a note — all audited', async () => {
    const { id } = await reconciling();
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    const confirm = await c.get(`/console/orders/${id}/manual-review`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Купон WELCOME200 остаётся удержанным');
    expect((await c.post(`/console/orders/${id}/manual-review`)).headers.location).toBe(`/console/orders/${id}?done=manual-review`);
    expect((await w.services.support.show(id)).order.state).toBe('manual_review');
    expect((await w.services.support.show(id)).legs[0]!.state).toBe('held');
    const log = await w.db.query<{ type: string; state: string }>('SELECT type, state FROM order_event_log WHERE order_id = $1', [id]);
    expect(log).toContainEqual({ type: 'order.state_changed', state: 'manual_review' });

    const release = await c.get(`/console/orders/${id}/release-holds`);
    expect(release.body).toContain('Купон WELCOME200 снова станет доступен гостю');
    await c.post(`/console/orders/${id}/release-holds`);
    expect((await w.services.support.show(id)).legs[0]!.state).toBe('released');

    const empty = await c.post(`/console/orders/${id}/close-review`, { note: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Напишите, чем закончился разбор.');
    await c.get(`/console/orders/${id}/close-review`);
    expect((await c.post(`/console/orders/${id}/close-review`, { note: 'Гость отказался, купон возвращён' })).statusCode).toBe(303);
    expect((await c.get('/console/orders/queue')).body).not.toContain(id);
    const page = await c.get(`/console/orders/${id}`);
    expect(page.body).toContain('Гость отказался, купон возвращён');
    expect(page.body).toContain('В состоянии manual_review действий поддержки нет.');

    const audit = (await w.services.consoleCore.audit.latest(100, id)).map((a) => [a.username, a.action]);
    expect(audit).toEqual(
      expect.arrayContaining([
        [SUPPORT.username, 'order.manual-review'],
        [SUPPORT.username, 'order.release-holds'],
        [SUPPORT.username, 'order.close-review'],
      ]),
    );
  });

  it('rejects with the coupon returned, and refuses an action the state no longer allows or a POST without CSRF', async () => {
    const { id } = await reconciling();
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    await c.get(`/console/orders/${id}/reject`);
    const noToken = await c.post(`/console/orders/${id}/reject`, {}, { csrf: false });
    expect(noToken.statusCode).toBe(403);
    expect((await w.services.support.show(id)).order.state).toBe('reconciliation_required');
    await c.post(`/console/orders/${id}/reject`);
    const shown = await w.services.support.show(id);
    expect(shown.order.state).toBe('rejected_final');
    expect(shown.legs[0]!.state).toBe('released');
    const again = await c.post(`/console/orders/${id}/manual-review`);
    expect(again.statusCode).toBe(422);
    expect((await w.services.support.show(id)).order.state).toBe('rejected_final');
    expect((await c.get(`/console/orders/${id}/manual-review`)).statusCode).toBe(422);
  });

  it('answers 404 for an unknown or malformed order id and an unknown action', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    expect((await c.get('/console/orders/not-a-uuid')).statusCode).toBe(404);
    expect((await c.get('/console/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const { id } = await reconciling();
    expect((await c.get(`/console/orders/${id}/delete`)).statusCode).toBe(404);
    expect((await c.post(`/console/orders/${id}/delete`)).statusCode).toBe(404);
  });
});
