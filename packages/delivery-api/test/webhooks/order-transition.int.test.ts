import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SequentialIds, signWebhook, type Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { OrdersRepo, toView, type OrderRecord } from '../../src/orders/orders.repo.js';
import { transition } from '../../src/orders/transition.js';
import { createOutboxEvents, createWebhookDispatcher, toWebhookOrder } from '../../src/webhooks/index.js';
import { outboxWrite } from '../../src/webhooks/outbox.repo.js';
import {
  makeOrderView,
  memoryLog,
  newClock,
  openWebhookDb,
  startReceiver,
  subscribeWebsite,
  T0,
  WEBHOOK_SECRET,
  type TestReceiver,
} from './webhook-world.js';

// The orders feature's real transition() writing through the outbox adapter: the webhook is the committed change.
let db: Db;
let box: SecretBox;
let receiver: TestReceiver;
beforeAll(async () => {
  ({ db, box } = await openWebhookDb());
  receiver = await startReceiver(() => ({ status: 204 }));
  await subscribeWebsite(db, box, { url: receiver.url });
});
afterAll(async () => {
  await receiver.close();
  await db.close();
});
afterEach(() => void (receiver.requests.length = 0));

function orderRecord(id: string): OrderRecord {
  const v = makeOrderView({ id });
  return {
    id,
    tenantId: 't1',
    source: 'website',
    externalOrderId: `WEB-${id.slice(-4)}`,
    pointId: '101',
    organizationId: v.route.organizationId,
    terminalGroupId: v.route.terminalGroupId,
    kind: 'checkout',
    state: 'queued',
    payloadSha256: v.payloadSha256,
    request: {},
    posPayload: {} as OrderRecord['posPayload'] /* never read by transitions */,
    route: v.route,
    guestPhone: '+79990001122',
    paymentMethod: 'cash',
    bonusSpendMinor: 0,
    paidMinor: 0,
    claimId: null,
    claimExpiresAt: null,
    posOrderId: null,
    posDeliveryId: null,
    deliveryStatus: null,
    deliveryStatusAt: null,
    cancelState: 'none',
    cancelReason: null,
    cancelDetail: null,
    cancelRequestedAt: null,
    cancelDispatchedAt: null,
    cancelRequestedBy: null,
    accrualState: 'none',
    accrualAttempts: 0,
    accrualError: null,
    createdAt: T0,
    updatedAt: T0,
  };
}

describe('order transition → outbox → signed webhook', () => {
  it('a committed state change is delivered with the webhook projection of the new order view', async () => {
    const order = orderRecord('5d0f1c2a-3b4c-4d5e-8f60-000000000001');
    expect(await new OrdersRepo(db).create(order, [], outboxWrite([]))).toBe(true);
    const events = createOutboxEvents(new SequentialIds());
    const at = new Date(T0.getTime() + 5000);
    const updated = await db.tx((q) => transition(q, events, order, 'claimed', 'pos', at));
    const clock = newClock();
    clock.set(at);
    expect(await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce()).toBe(1);
    const got = receiver.requests[0]!;
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      eventId: '00000000-0000-4000-8000-000000000001',
      type: 'order.state_changed',
      occurredAt: at.toISOString(),
      order: toWebhookOrder(toView(updated)),
    });
    expect(body.order.state).toBe('claimed');
    expect(got.body).not.toContain('+79990001122');
    expect(got.headers['x-service-signature']).toBe(signWebhook(WEBHOOK_SECRET, String(at.getTime() / 1000), body.eventId, got.body));
  });

  it('a refused transition rolls back and leaves no event', async () => {
    const order = orderRecord('5d0f1c2a-3b4c-4d5e-8f60-000000000002');
    expect(await new OrdersRepo(db).create(order, [], outboxWrite([]))).toBe(true);
    const events = createOutboxEvents(new SequentialIds());
    await expect(db.tx((q) => transition(q, events, order, 'created_verified', 'pos', T0))).rejects.toMatchObject({
      code: 'invalid_state_transition',
    });
    expect(await db.query(`SELECT 1 FROM webhook_events WHERE order_id = $1`, [order.id])).toHaveLength(0);
  });
});
