import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { afterFailure, isSuccessStatus, RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookRequest } from '../../src/webhooks/webhook-sender.port.js';
import { enqueueWebsiteEvent, memoryLog, newClock, openWebhookDb, subscribeWebsite } from './webhook-world.js';

describe('retry schedule (spec: Events, Delivery and retries)', () => {
  it('delays 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, then dead', () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([10, 60, 300, 1800, 7200, 21600]);
    const at = new Date('2026-11-23T09:00:00Z');
    expect(RETRY_DELAYS_SECONDS.map((_, i) => (afterFailure(i, at) as { at: Date }).at.getTime() - at.getTime())).toEqual([
      10e3, 60e3, 300e3, 1800e3, 7200e3, 21600e3,
    ]);
    expect(afterFailure(6, at)).toEqual({ kind: 'dead' });
  });

  it('only 2xx is success', () => {
    expect([200, 201, 204, 299].every(isSuccessStatus)).toBe(true);
    expect([100, 199, 301, 302, 304, 307, 400, 404, 410, 500, 503].some(isSuccessStatus)).toBe(false);
  });
});

describe('default request timeout', () => {
  let db: Db;
  let box: SecretBox;
  beforeAll(async () => ({ db, box } = await openWebhookDb()));
  afterAll(async () => db.close());

  it('is 5000 ms and is what the sender receives when no timeout is configured', async () => {
    expect(DEFAULT_WEBHOOK_TIMEOUT_MS).toBe(5000);
    await subscribeWebsite(db, box);
    await enqueueWebsiteEvent(db, '7e57a11d-0000-4000-8000-00000000abcd');
    const seen: WebhookRequest[] = [];
    const d = createWebhookDispatcher({ db, box, clock: newClock(), log: memoryLog(), http: { send: async (r) => (seen.push(r), { status: 204 }) } });
    expect(d.timeoutMs).toBe(5000);
    expect(await d.runOnce()).toBe(1);
    expect(seen.map((r) => [r.url, r.timeoutMs])).toEqual([['https://partner.example/h', 5000]]);
  });

  it('a box with another master key cannot open the secret: the attempt fails and is recorded, nothing is sent', async () => {
    const { SecretBox: Box } = await import('../../src/auth/secret-box.js');
    const seen: WebhookRequest[] = [];
    await enqueueWebsiteEvent(db, '7e57a11d-0000-4000-8000-00000000abce');
    const d = createWebhookDispatcher({
      db,
      box: new Box(randomBytes(32)),
      clock: newClock(),
      log: memoryLog(),
      http: { send: async (r) => (seen.push(r), { status: 204 }) },
    });
    expect(await d.runOnce()).toBe(1);
    expect(seen).toHaveLength(0);
    const [a] = await db.query<{ success: boolean; error: string }>(
      `SELECT success, error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = '7e57a11d-0000-4000-8000-00000000abce'`,
    );
    expect(a!.success).toBe(false);
    expect(a!.error).toBeTruthy();
  });
});

describe('start/stop', () => {
  let db: Db;
  let box: SecretBox;
  beforeAll(async () => ({ db, box } = await openWebhookDb()));
  afterAll(async () => db.close());

  it('start polls and sends a due delivery; stop waits for the run in progress and stops polling', async () => {
    await subscribeWebsite(db, box);
    await enqueueWebsiteEvent(db, '7e57a11d-0000-4000-8000-00000000abcf');
    let sent!: () => void;
    const delivered = new Promise<void>((resolve) => (sent = resolve));
    const lines: string[] = [];
    const d = createWebhookDispatcher({
      db,
      box,
      clock: newClock(),
      log: (l) => lines.push(l),
      http: { send: async () => (sent(), { status: 500 }) },
    });
    d.start(10);
    await delivered;
    await d.stop();
    const [row] = await db.query<{ status: string; attempt_count: number }>(
      `SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = '7e57a11d-0000-4000-8000-00000000abcf'`,
    );
    expect(row).toEqual({ status: 'pending', attempt_count: 1 });
    expect(lines[0]).toMatch(/^webhook attempt failed .*"httpStatus":500/);
  });
});
