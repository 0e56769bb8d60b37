import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminError } from '@app/admin-web';
import { signWebhook, type Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { ConsoleWebhooksService, parseUtc } from '../../src/console/webhooks/console-webhooks.service.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { enqueueOrderEvent } from '../../src/webhooks/outbox.js';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import { API_SECRET, makeOrderView, driveToDead, memoryLog, newClock, openWebhookBench, T0, type TestReceiver } from '../webhooks/webhook-world.js';

let bench: Awaited<ReturnType<typeof openWebhookBench>>;
let db: Db;
let box: SecretBox;
let receiver: TestReceiver;
const clock = newClock();
let n = 0;
const secrets = () => `whsec_console_test_secret_${String(++n).padStart(4, '0')}_0123456789abcdef`;
let service: ConsoleWebhooksService;

beforeAll(async () => {
  bench = await openWebhookBench();
  ({ db, box, receiver } = bench);
  service = new ConsoleWebhooksService({ db, box, clock, allowInsecureLoopback: true, newSecret: secrets });
});
afterAll(() => bench.close());
beforeEach(async () => {
  await bench.reset();
  clock.set(T0);
});

/** Writes an event of `website`, and runs the dispatcher through the whole retry schedule so the delivery dies. */
async function deadDelivery(occurredAt = T0): Promise<string> {
  const d = await driveToDead({ db, box, clock }, { occurredAt, type: 'order.cancel_result' });
  expect(d.status).toBe('dead');
  return d.id;
}

describe('console webhooks service', () => {
  it('a source without an endpoint gets one with a new secret shown once; a URL change keeps the secret', async () => {
    const created = await service.setUrl('t1', 'website', receiver.url);
    expect(created?.secret).toMatch(/^whsec_console_test_secret_/);
    const [row] = await db.query<{ secret_enc: string; url: string }>('SELECT secret_enc, url FROM webhook_endpoints');
    expect(box.open(row!.secret_enc)).toBe(created!.secret);
    const changed = await service.setUrl('t1', 'website', `${receiver.url}/v2`);
    expect(changed).toBeNull();
    const [after] = await db.query<{ secret_enc: string; url: string }>('SELECT secret_enc, url FROM webhook_endpoints');
    expect(after!.url).toBe(`${receiver.url}/v2`);
    expect(box.open(after!.secret_enc)).toBe(created!.secret);
    const overview = await service.overview();
    expect(overview.map((s) => s.source)).toEqual(['app', 'kiosk', 'website']);
    expect(overview.find((s) => s.source === 'website')?.endpoint?.url).toBe(`${receiver.url}/v2`);
    expect(JSON.stringify(overview)).not.toContain(created!.secret);
  });

  it('refuses a URL that is not https (422 on the url field) and changes nothing', async () => {
    await service.setUrl('t1', 'website', receiver.url);
    for (const bad of ['http://partner.example/hooks', 'not a url', '']) {
      const err = await service.setUrl('t1', 'website', bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AdminError);
      expect(err).toMatchObject({ status: 422, field: 'url' });
    }
    expect((await db.query<{ url: string }>('SELECT url FROM webhook_endpoints'))[0]?.url).toBe(receiver.url);
    await expect(service.setUrl('t1', 'nope', receiver.url)).rejects.toMatchObject({ status: 404 });
  });

  it('rotation signs the next attempt with the new secret and never with the old one', async () => {
    const first = (await service.setUrl('t1', 'website', receiver.url))!.secret;
    const rotated = await service.rotateSecret('t1', 'website');
    expect(rotated.secret).not.toBe(first);
    bench.control.failing = false;
    await db.tx((q) =>
      enqueueOrderEvent(q, {
        tenantId: 't1',
        source: 'website',
        type: 'order.state_changed',
        order: makeOrderView(),
        occurredAt: T0,
        eventId: randomUUID(),
      }),
    );
    await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce();
    const req = receiver.requests[0]!;
    const ts = String(req.headers['x-service-timestamp']);
    const id = String(req.headers['x-service-event-id']);
    expect(req.headers['x-service-signature']).toBe(signWebhook(rotated.secret, ts, id, req.body));
    expect(req.headers['x-service-signature']).not.toBe(signWebhook(first, ts, id, req.body));
    await expect(service.rotateSecret('t1', 'app')).rejects.toMatchObject({ status: 404 });
  });

  it('a dead delivery shows its attempts; replay of one sends it to the receiver that recovered', async () => {
    await service.setUrl('t1', 'website', receiver.url);
    const id = await deadDelivery();
    const d = await service.delivery(id);
    expect(d.status).toBe('dead');
    expect(d.attemptLog).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    expect(d.attemptLog.every((a) => a.httpStatus === 500 && !a.success)).toBe(true);
    expect((await service.dead('t1', 'website')).map((x) => x.deliveryId)).toEqual([id]);
    bench.control.failing = false;
    expect(await service.replay([id])).toEqual({ requeued: [id], inFlight: [], missing: [] });
    await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce();
    expect((await service.delivery(id)).status).toBe('delivered');
    expect(await service.dead('t1', 'website')).toEqual([]);
  });

  it('replay of a selection reports unknown ids; non-UUIDs and an empty selection are 422 and queue nothing', async () => {
    await service.setUrl('t1', 'website', receiver.url);
    const a = await deadDelivery();
    const b = await deadDelivery();
    const ghost = randomUUID();
    await expect(service.replay([a, 'x'])).rejects.toMatchObject({ status: 422, field: 'ids' });
    await expect(service.replay([])).rejects.toMatchObject({ status: 422 });
    expect(await service.dead('t1', 'website')).toHaveLength(2);
    const r = await service.replay([a, b, ghost, a]);
    expect(r.requeued.sort()).toEqual([a, b].sort());
    expect(r.missing).toEqual([ghost]);
    expect(await service.dead('t1', 'website')).toHaveLength(0);
  });

  it('replay since a time takes only dead deliveries whose event occurred then or later', async () => {
    await service.setUrl('t1', 'website', receiver.url);
    const old = await deadDelivery(T0);
    const later = new Date(T0.getTime() + 86_400_000);
    const recent = await deadDelivery(later);
    await expect(service.replayDeadSince('t1', 'website', 'yesterday')).rejects.toMatchObject({ status: 422, field: 'since' });
    await expect(service.replayDeadSince('t1', 'website', '2099-01-01T00:00')).rejects.toMatchObject({ status: 422 });
    expect(await service.replayDeadSince('t1', 'website', later.toISOString().slice(0, 16))).toBe(1);
    expect((await service.dead('t1', 'website')).map((d) => d.deliveryId)).toEqual([old]);
    expect((await service.delivery(recent)).status).toBe('pending');
  });

  it('refuses a secret equal to the API secret only through the webhook rules (generated secrets never clash)', async () => {
    const clash = new ConsoleWebhooksService({ db, box, clock, allowInsecureLoopback: true, newSecret: () => `${API_SECRET}-website` });
    await expect(clash.setUrl('t1', 'website', receiver.url)).rejects.toMatchObject({ status: 422 });
    expect(await db.query('SELECT 1 FROM webhook_endpoints')).toHaveLength(0);
  });

  it('parseUtc reads datetime-local values as UTC and refuses other text', () => {
    expect(parseUtc('2026-11-23T10:15')?.toISOString()).toBe('2026-11-23T10:15:00.000Z');
    expect(parseUtc('2026-11-23T10:15:00+03:00')?.toISOString()).toBe('2026-11-23T07:15:00.000Z');
    expect(parseUtc('23.11.2026')).toBeNull();
    expect(parseUtc('2026-13-45T99:99')).toBeNull();
  });
});
