import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SequentialIds, type Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { createOutboxOrderEvents, enqueueOrderEvent, WEBHOOK_EVENT_TYPES } from '../../src/webhooks/outbox.js';
import { makeOrderView, openWebhookDb, resetOutbox, subscribeWebsite, T0 } from './webhook-world.js';

let db: Db;
let box: SecretBox;
beforeAll(async () => ({ db, box } = await openWebhookDb()));
afterAll(async () => db.close());
beforeEach(async () => resetOutbox(db));

const EVENT = '0b6f7c1e-2d3a-4b5c-9d8e-7f6a5b4c3d2e';
const input = (over: Partial<Parameters<typeof enqueueOrderEvent>[1]> = {}) => ({
  tenantId: 't1',
  source: 'website',
  type: 'order.state_changed' as const,
  order: makeOrderView(),
  occurredAt: T0,
  eventId: EVENT,
  ...over,
});
const configure = (events?: string[]) => subscribeWebsite(db, box, { events });
const count = async (table: string) => Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

describe('enqueueOrderEvent (transactional outbox)', () => {
  it('the eight working event types', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      'order.state_changed',
      'order.delivery_status_changed',
      'order.cancel_requested',
      'order.cancel_result',
      'order.payment_recorded',
      'order.loyalty_confirmed',
      'order.loyalty_released',
      'order.accrued',
    ]);
  });

  it('writes nothing when the source has no URL', async () => {
    await db.tx((q) => enqueueOrderEvent(q, input()));
    expect(await count('webhook_events')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
  });

  it('writes nothing for a type the endpoint is not subscribed to', async () => {
    await configure(['order.accrued']);
    await db.tx((q) => enqueueOrderEvent(q, input()));
    expect(await count('webhook_events')).toBe(0);
    await db.tx((q) => enqueueOrderEvent(q, input({ type: 'order.accrued' })));
    expect(await count('webhook_events')).toBe(1);
  });

  it('writes the event with its serialised body and a pending delivery due at occurredAt', async () => {
    await configure();
    await db.tx((q) => enqueueOrderEvent(q, input()));
    const [e] = await db.query<{ body: string; type: string; order_id: string }>('SELECT body, type, order_id FROM webhook_events');
    const body = JSON.parse(e!.body);
    expect(Object.keys(body)).toEqual(['eventId', 'type', 'occurredAt', 'order']);
    expect(body).toMatchObject({ eventId: EVENT, type: 'order.state_changed', occurredAt: '2026-11-23T09:00:00.000Z' });
    // Internal POS routing ids and the tenant are not sent.
    expect(body.order.route).toEqual({ source: 'website', externalPointId: '101' });
    expect(e!.body).not.toMatch(/org-secret-1|tg-secret-1|ot-1|op-1|website-origin|tenantId/);
    const [d] = await db.query<{ status: string; next_attempt_at: Date; event_id: string }>(
      'SELECT status, next_attempt_at, event_id FROM webhook_deliveries',
    );
    expect(d).toMatchObject({ status: 'pending', event_id: EVENT });
    expect(new Date(d!.next_attempt_at).toISOString()).toBe(T0.toISOString());
  });

  it('a rolled-back transaction leaves no event (same transaction as the change)', async () => {
    await configure();
    await expect(
      db.tx(async (q) => {
        await enqueueOrderEvent(q, input());
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect(await count('webhook_events')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
  });

  it('the OrderEvents adapter takes tenant and source from the order and a new id per event', async () => {
    await configure();
    const events = createOutboxOrderEvents(new SequentialIds());
    await db.tx(async (q) => {
      await events.emit(q, 'order.state_changed', makeOrderView(), T0);
      await events.emit(q, 'order.payment_recorded', makeOrderView(), T0);
    });
    const rows = await db.query<{ event_id: string; tenant_id: string; source: string }>(
      'SELECT event_id, tenant_id, source FROM webhook_events ORDER BY event_id',
    );
    expect(rows).toEqual([
      { event_id: '00000000-0000-4000-8000-000000000001', tenant_id: 't1', source: 'website' },
      { event_id: '00000000-0000-4000-8000-000000000002', tenant_id: 't1', source: 'website' },
    ]);
  });
});
