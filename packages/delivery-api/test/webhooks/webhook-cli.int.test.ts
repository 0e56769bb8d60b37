import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { runWebhookCommand } from '../../src/webhooks/webhook-cli.js';
import { API_SECRET, makeOrderView, driveToDead, newClock, openWebhookBench, T0, WEBHOOK_SECRET, type TestReceiver } from './webhook-world.js';

let bench: Awaited<ReturnType<typeof openWebhookBench>>;
let db: Db;
let box: SecretBox;
let receiver: TestReceiver;
beforeAll(async () => {
  bench = await openWebhookBench();
  ({ db, box, receiver } = bench);
});
afterAll(() => bench.close());
beforeEach(() => bench.reset());

const clock = newClock();
function cli(argv: string[], env: Record<string, string> = {}, allowInsecure = true) {
  const out: string[] = [];
  const err: string[] = [];
  const run = runWebhookCommand(argv, {
    db,
    box,
    config: { webhooksAllowInsecureLoopback: allowInsecure },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    clock,
    env,
  });
  return run.then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}
const setHook = () => cli(['set', '--tenant', 't1', '--source', 'website', '--url', receiver.url, '--secret-env', 'WH'], { WH: WEBHOOK_SECRET });

const deadDelivery = async (eventId: string, occurredAt = T0) =>
  (await driveToDead({ db, box, clock }, { eventId, occurredAt, type: 'order.cancel_result' })).dispatcher;

describe('webhook CLI', () => {
  it('set with --secret-file (trailing newline dropped) and --events; show never prints the secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wh-'));
    writeFileSync(join(dir, 'secret'), `${WEBHOOK_SECRET}\n`);
    const r = await cli([
      'set',
      '--tenant',
      't1',
      '--source',
      'website',
      '--url',
      receiver.url,
      '--secret-file',
      join(dir, 'secret'),
      '--events',
      'order.state_changed,order.accrued',
    ]);
    expect(r).toMatchObject({ code: 0, err: '' });
    const [row] = await db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints');
    expect(box.open(row!.secret_enc)).toBe(WEBHOOK_SECRET);
    const show = await cli(['show']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.out)[0]).toMatchObject({ source: 'website', url: receiver.url, events: ['order.state_changed', 'order.accrued'] });
    expect(show.out).not.toContain(WEBHOOK_SECRET);
  });

  it('refusals exit 1 with the reason: http loopback without the flag, secret equal to the API secret, missing secret', async () => {
    const a = await cli(['set', '--tenant', 't1', '--source', 'website', '--url', receiver.url, '--secret-env', 'WH'], { WH: WEBHOOK_SECRET }, false);
    expect(a.code).toBe(1);
    expect(a.err).toContain('WEBHOOKS_ALLOW_INSECURE_LOOPBACK=1');
    const b = await cli(['set', '--tenant', 't1', '--source', 'website', '--url', receiver.url, '--secret-env', 'WH'], {
      WH: `${API_SECRET}-website`,
    });
    expect(b.code).toBe(1);
    expect(b.err).toContain('must differ from the API HMAC secret');
    const c = await cli(['set', '--tenant', 't1', '--source', 'website', '--url', receiver.url]);
    expect(c).toMatchObject({ code: 1, err: 'error: --secret-file F or --secret-env VAR is required' });
    expect(await db.query('SELECT 1 FROM webhook_endpoints')).toHaveLength(0);
    expect((await cli(['set', '--bogus'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('deliveries --order shows the attempt log; dead lists it; replay keeps the eventId and delivers', async () => {
    await setHook();
    const eventId = '7e57a11d-0000-4000-8000-000000000001';
    const d = await deadDelivery(eventId);
    const byOrder = JSON.parse((await cli(['deliveries', '--order', makeOrderView().id])).out);
    expect(byOrder).toHaveLength(1);
    expect(byOrder[0]).toMatchObject({ eventId, status: 'dead', attempts: 7, lastStatus: 500 });
    expect(byOrder[0].attemptLog).toHaveLength(7);
    const dead = JSON.parse((await cli(['dead', '--source', 'website'])).out);
    expect(dead.map((x: { eventId: string }) => x.eventId)).toEqual([eventId]);
    bench.control.failing = false;
    const r = await cli(['replay', '--delivery', dead[0].deliveryId]);
    expect(r.code).toBe(0);
    expect(await d.runOnce()).toBe(1);
    expect(receiver.requests.at(-1)!.headers['x-service-event-id']).toBe(eventId);
    expect(new Set(receiver.requests.map((x) => x.body)).size).toBe(1);
    const bySource = JSON.parse((await cli(['deliveries', '--source', 'website'])).out);
    expect(bySource[0]).toMatchObject({ status: 'delivered', attempts: 8 });
    expect((await cli(['replay', '--delivery', '00000000-0000-4000-8000-0000000000ff'])).code).toBe(1);
  });

  it('replay-dead --since queues only dead deliveries of events at or after the time', async () => {
    await setHook();
    await deadDelivery('7e57a11d-0000-4000-8000-000000000002', new Date('2026-11-20T10:00:00Z'));
    const d = await deadDelivery('7e57a11d-0000-4000-8000-000000000003', new Date('2026-11-22T10:00:00Z'));
    bench.control.failing = false;
    receiver.requests.length = 0;
    const r = await cli(['replay-dead', '--source', 'website', '--since', '2026-11-21T00:00:00Z']);
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain('1 dead deliveries');
    expect(await d.runOnce()).toBe(1);
    expect(receiver.requests.map((x) => x.headers['x-service-event-id'])).toEqual(['7e57a11d-0000-4000-8000-000000000003']);
    expect((await cli(['replay-dead', '--source', 'website', '--since', 'yesterday'])).code).toBe(1);
  });

  it('purge-dead deletes dead deliveries that died before the time, with attempts and event; keeps the rest', async () => {
    await setHook();
    await deadDelivery('7e57a11d-0000-4000-8000-000000000004', new Date('2026-11-20T10:00:00Z'));
    const diedAt = clock.now();
    await deadDelivery('7e57a11d-0000-4000-8000-000000000005', new Date('2026-11-22T10:00:00Z'));
    const r = await cli(['purge-dead', '--source', 'website', '--before', new Date(diedAt.getTime() + 1).toISOString()]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain('1 dead deliveries');
    const left = await db.query<{ event_id: string }>(`SELECT event_id FROM webhook_deliveries`);
    expect(left).toEqual([{ event_id: '7e57a11d-0000-4000-8000-000000000005' }]);
    expect(await db.query(`SELECT event_id FROM webhook_events`)).toEqual([{ event_id: '7e57a11d-0000-4000-8000-000000000005' }]);
    expect(Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_attempts`))[0].n)).toBe(7);
    expect((await cli(['purge-dead', '--source', 'website', '--before', 'soon'])).code).toBe(1);
    expect((await cli(['purge-dead', '--source', 'website'])).code).toBe(1);
  });
});
