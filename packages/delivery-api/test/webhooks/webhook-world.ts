import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ManualClock, type Clock, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { SecretBox } from '../../src/auth/secret-box.js';
import type { OrderView } from '@app/delivery-contract';
import { createWebhookDispatcher, type WebhookLog } from '../../src/webhooks/dispatcher.js';
import { enqueueOrderEvent, type OrderEventInput } from '../../src/webhooks/outbox.js';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.js';

export const MIGRATIONS = join(import.meta.dirname, '..', '..', 'migrations');
export const API_SECRET = 'api-secret-of-the-website-key-0123456789';
export const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';

/** One database per test file with tenant `t1`, sources `website` and `app`, a partner key per source. */
export async function openWebhookDb(): Promise<{ db: Db; box: SecretBox }> {
  const db = await openTestDb(MIGRATIONS);
  const box = new SecretBox(randomBytes(32));
  await db.query(`INSERT INTO tenants (id, name) VALUES ('t1', 'Test chain')`);
  for (const source of ['website', 'app', 'kiosk']) {
    await db.query(`INSERT INTO sources (tenant_id, source) VALUES ('t1', $1)`, [source]);
    await db.query(
      `INSERT INTO credentials (id, kind, api_key, secret_enc, tenant_id, source, point_ids) VALUES ($1, 'partner', $2, $3, 't1', $4, '["101"]')`,
      [`cred-${source}`, `key-${source}-0001`, box.seal(`${API_SECRET}-${source}`), source],
    );
  }
  return { db, box };
}

/** Removes outbox rows and endpoints between tests (the database is shared by the file). */
export async function resetOutbox(db: Db): Promise<void> {
  await db.query('DELETE FROM webhook_attempts');
  await db.query('DELETE FROM webhook_deliveries');
  await db.query('DELETE FROM webhook_events');
  await db.query('DELETE FROM webhook_endpoints');
}

/**
 * Subscribes `t1`/`website` (default: to https://partner.example/h with {@link WEBHOOK_SECRET}, every event). A
 * plain-http URL is a local test receiver, so loopback is allowed for it.
 */
export async function subscribeWebsite(
  db: Db,
  box: SecretBox,
  o: { url?: string; secret?: string; events?: string[]; clock?: Clock } = {},
): Promise<void> {
  const url = o.url ?? 'https://partner.example/h';
  await setWebhookConfig(
    db,
    box,
    { tenantId: 't1', source: 'website', url, secret: o.secret ?? WEBHOOK_SECRET, events: o.events },
    { allowInsecureLoopback: !url.startsWith('https://'), clock: o.clock ?? newClock() },
  );
}

/** Writes one event of `t1`/`website` to the outbox in its own transaction (default: `order.accrued` at T0). */
export async function enqueueWebsiteEvent(
  db: Db,
  eventId: string,
  over: Partial<Pick<OrderEventInput, 'type' | 'order' | 'occurredAt'>> = {},
): Promise<void> {
  await db.tx((q) =>
    enqueueOrderEvent(q, { tenantId: 't1', source: 'website', type: 'order.accrued', order: makeOrderView(), occurredAt: T0, ...over, eventId }),
  );
}

/** An Order view with POS routing ids, as the orders feature produces it. */
export function makeOrderView(over: Partial<OrderView> = {}): OrderView {
  return {
    id: '5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6',
    externalOrderId: 'WEB-2026-000123',
    source: 'website',
    state: 'queued',
    payloadSha256: 'a'.repeat(64),
    route: {
      tenantId: 't1',
      source: 'website',
      externalPointId: '101',
      organizationId: 'org-secret-1',
      terminalGroupId: 'tg-secret-1',
      orderTypeId: 'ot-1',
      operatorUserId: 'op-1',
      originName: 'website-origin',
    },
    posOrderId: null,
    posDeliveryId: null,
    deliveryStatus: null,
    deliveryStatusAt: null,
    cancelState: 'none',
    cancelReason: null,
    cancelDetail: null,
    createdAt: '2026-11-23T08:59:50.000Z',
    updatedAt: '2026-11-23T08:59:50.000Z',
    ...over,
  };
}

export const T0 = new Date('2026-11-23T09:00:00Z');
export const newClock = () => new ManualClock(T0);

/** A logger that keeps lines for assertions. */
export function memoryLog(): WebhookLog & { lines: string[] } {
  const lines: string[] = [];
  const put = (obj: object, msg: string) => void lines.push(`${msg} ${JSON.stringify(obj)}`);
  return { lines, info: put, warn: put, error: put };
}

/** What a scripted receiver does with request number n (1-based): answer a status, or never answer. */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang';

/** A real local HTTP receiver recording every request (raw body bytes as text) and answering by script. */
export interface TestReceiver {
  url: string;
  requests: { headers: IncomingHttpHeaders; body: string; path: string }[];
  close(): Promise<void>;
}

export async function startReceiver(script: (n: number, path: string) => Reply): Promise<TestReceiver> {
  const requests: TestReceiver['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const r = script(requests.length, req.url ?? '');
      if (r !== 'hang') res.writeHead(r.status, r.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A webhook database and a receiver that answers `failStatus` while `control.failing` (true at first and after each
 * `reset`) and 204 once a test sets it false: the bench of the webhook CLI and console webhook tests.
 */
export async function openWebhookBench(failStatus = 500) {
  const { db, box } = await openWebhookDb();
  const control = { failing: true };
  const receiver = await startReceiver(() => ({ status: control.failing ? failStatus : 204 }));
  return {
    db,
    box,
    receiver,
    control,
    /** Between tests: no outbox rows or endpoints, no recorded requests, the receiver failing again. */
    async reset(): Promise<void> {
      await resetOutbox(db);
      receiver.requests.length = 0;
      control.failing = true;
    },
    async close(): Promise<void> {
      await receiver.close();
      await db.close();
    },
  };
}

/**
 * Writes one order event of `t1`/`website` (at `occurredAt`, default now; the clock is set there) and runs a
 * dispatcher through the whole retry schedule, so against a failing receiver the delivery dies. Returns the
 * delivery's id and status and the dispatcher (to run it again after a replay).
 */
export async function driveToDead(
  deps: { db: Db; box: SecretBox; clock: ManualClock },
  o: { eventId?: string; occurredAt?: Date; type?: OrderEventInput['type'] } = {},
) {
  const eventId = o.eventId ?? randomUUID();
  const occurredAt = o.occurredAt ?? deps.clock.now();
  await deps.db.tx((q) =>
    enqueueOrderEvent(q, { tenantId: 't1', source: 'website', type: o.type ?? 'order.state_changed', order: makeOrderView(), occurredAt, eventId }),
  );
  const dispatcher = createWebhookDispatcher({ db: deps.db, box: deps.box, clock: deps.clock, log: memoryLog() });
  deps.clock.set(occurredAt);
  await dispatcher.runOnce();
  for (const s of RETRY_DELAYS_SECONDS) {
    deps.clock.advance(s * 1000);
    await dispatcher.runOnce();
  }
  const [row] = await deps.db.query<{ id: string; status: string }>('SELECT id, status FROM webhook_deliveries WHERE event_id = $1', [eventId]);
  return { id: row?.id ?? '', status: row?.status, dispatcher };
}
