import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import type { World } from '../harness.js';
import type { TestReceiver } from '../webhooks/webhook-world.js';
import { ADMIN, ConsoleClient, SUPPORT } from './console-client.js';
import { makeConsoleWebhooksWorld } from './console-webhooks-world.js';

let cw: Awaited<ReturnType<typeof makeConsoleWebhooksWorld>>;
let w: World;
let receiver: TestReceiver;
beforeAll(async () => {
  cw = await makeConsoleWebhooksWorld();
  ({ w, receiver } = cw);
});
afterAll(() => cw.close());

const audit = async (action: string) => (await w.services.consoleCore.audit.latest(200)).filter((a) => a.action === action);
const dispatcher = () => cw.dispatcher();

/** An event of `website` sent through the whole retry schedule to the failing receiver: a dead delivery. */
async function deadDelivery(): Promise<string> {
  const d = await cw.deadDelivery();
  expect(d.status).toBe('dead');
  return d.id;
}

describe('console: webhooks pages (issue 26 item 3)', () => {
  it('admin sets the URL of a source; the new secret is shown on the next page only; audited', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    expect((await c.get('/console/webhooks/t1/website')).statusCode).toBe(200);
    const bad = await c.post('/console/webhooks/t1/website/url', { url: 'http://partner.example/hook' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('https://');
    expect(await w.db.query('SELECT 1 FROM webhook_endpoints')).toHaveLength(0);
    const res = await c.post('/console/webhooks/t1/website/url', { url: receiver.url });
    expect(res.statusCode).toBe(303);
    const [row] = await w.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints');
    const secret = w.box.open(row!.secret_enc);
    const once = await c.get(res.headers.location as string);
    expect(once.body).toContain(secret);
    expect((await c.get('/console/webhooks/t1/website')).body).not.toContain(secret);
    expect(await audit('webhook.url')).toContainEqual(expect.objectContaining({ username: ADMIN.username, target: 't1/website', ip: '127.0.0.1' }));
    expect(JSON.stringify(await w.services.consoleCore.audit.latest(200))).not.toContain(secret);
  });

  it('support sees endpoints and a dead delivery with its attempts, and replays it to the recovered receiver', async () => {
    const id = await deadDelivery();
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    const list = await c.get('/console/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(receiver.url);
    const page = await c.get('/console/webhooks/t1/website');
    expect(page.body).toContain(`value="${id}"`);
    const delivery = await c.get(`/console/webhooks/deliveries/${id}`);
    expect(delivery.statusCode).toBe(200);
    expect(delivery.body.match(/HTTP 503/g)?.length).toBe(RETRY_DELAYS_SECONDS.length + 1);
    // without the form's token nothing is queued
    expect((await c.post('/console/webhooks/t1/website/replay', { ids: id }, { csrf: false })).statusCode).toBe(403);
    expect((await w.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [id]))[0]?.status).toBe('dead');
    cw.control.failing = false;
    const res = await c.post('/console/webhooks/t1/website/replay', { ids: id });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toContain('replayed=1');
    await dispatcher().runOnce();
    expect((await w.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [id]))[0]?.status).toBe('delivered');
    expect(await audit('webhook.replay')).toContainEqual(expect.objectContaining({ username: SUPPORT.username, detail: id }));
    cw.control.failing = true;
  });

  it('replays a selection and everything dead since a time; a bad time is a 422 and queues nothing', async () => {
    const a = await deadDelivery();
    const b = await deadDelivery();
    const c = new ConsoleClient(w.app);
    await c.signIn(SUPPORT);
    await c.get('/console/webhooks/t1/website');
    expect((await c.post('/console/webhooks/t1/website/replay', { ids: [a, 'not-a-uuid'] })).statusCode).toBe(422);
    expect((await c.post('/console/webhooks/t1/website/replay-since', { since: 'yesterday' })).statusCode).toBe(422);
    expect(await w.db.query(`SELECT 1 FROM webhook_deliveries WHERE status = 'dead'`)).toHaveLength(2);
    expect((await c.post('/console/webhooks/t1/website/replay', { ids: [a] })).statusCode).toBe(303);
    const since = await c.post('/console/webhooks/t1/website/replay-since', { since: '2020-01-01T00:00' });
    expect(since.headers.location).toContain('replayed=1');
    expect(await w.db.query(`SELECT 1 FROM webhook_deliveries WHERE status = 'dead'`)).toHaveLength(0);
    expect((await w.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [b]))[0]?.status).toBe('pending');
  });

  it('support may not change the URL or rotate the secret (403, nothing changes); admin rotates behind a confirmation', async () => {
    const before = (await w.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints'))[0]!.secret_enc;
    const s = new ConsoleClient(w.app);
    await s.signIn(SUPPORT);
    const page = await s.get('/console/webhooks/t1/website');
    expect(page.body).not.toContain('/rotate');
    expect((await s.get('/console/webhooks/t1/website/rotate')).statusCode).toBe(403);
    expect((await s.post('/console/webhooks/t1/website/rotate')).statusCode).toBe(403);
    expect((await s.post('/console/webhooks/t1/website/url', { url: 'https://evil.example/' })).statusCode).toBe(403);
    expect((await w.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints'))[0]!.secret_enc).toBe(before);
    const a = new ConsoleClient(w.app);
    await a.signIn(ADMIN);
    const confirm = await a.get('/console/webhooks/t1/website/rotate');
    expect(confirm.body).toContain('старый перестанет подходить');
    const res = await a.post('/console/webhooks/t1/website/rotate');
    expect(res.statusCode).toBe(303);
    const secret = w.box.open((await w.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints'))[0]!.secret_enc);
    expect(secret).not.toBe(w.box.open(before));
    expect((await a.get(res.headers.location as string)).body).toContain(secret);
    expect(await audit('webhook.rotate-secret')).toHaveLength(1);
  });
});

describe('console: chain pages (issue 26 item 4)', () => {
  it('are admin only: support gets 403 on every chain page and action', async () => {
    const s = new ConsoleClient(w.app);
    await s.signIn(SUPPORT);
    expect((await s.get('/console/home')).body).not.toContain('href="/console/chain"');
    for (const url of [
      '/console/chain',
      '/console/chain/points/1',
      '/console/chain/points/1/sync',
      '/console/chain/zones',
      '/console/chain/credentials',
    ])
      expect((await s.get(url)).statusCode).toBe(403);
    expect((await s.post('/console/chain/routes', { tenant: 't1', source: 'website', point: '1', active: 'false' })).statusCode).toBe(403);
    expect((await s.post('/console/chain/credentials/partner', { tenant: 't1', source: 'website', points: '1' })).statusCode).toBe(403);
  });

  it('shows points with sync state, refreshes the state as a fragment, turns a route off and on (audited)', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    const page = await c.get('/console/chain');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('на связи');
    const point = await c.get('/console/chain/points/1?tenant=t1');
    expect(point.body).toContain('data-sync-url="/console/chain/points/1/sync?tenant=t1"');
    expect(point.body).toContain('http-equiv="refresh"');
    w.clock.advance(120_000);
    const frag = await c.get('/console/chain/points/1/sync?tenant=t1');
    expect(frag.statusCode).toBe(200);
    expect(frag.body).not.toContain('<html');
    expect(frag.body).toContain('молчит');
    expect(frag.body).toContain('data-seconds="120">2 мин<');
    await c.get('/console/chain');
    const off = await c.post('/console/chain/routes', { tenant: 't1', source: 'website', point: '2', active: 'false' });
    expect(off.statusCode).toBe(303);
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(404);
    await c.post('/console/chain/routes', { tenant: 't1', source: 'website', point: '2', active: 'true' });
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(200);
    expect((await audit('route.disable')).map((a) => a.target)).toEqual(['t1/website/2']);
    expect((await c.post('/console/chain/routes', { tenant: 't1', source: 'website', point: '4', active: 'true' })).statusCode).toBe(404);
  });

  it('draws the zones as SVG and tries resolve at a location (GET form); bad coordinates are 422', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    const map = await c.get('/console/chain/zones?tenant=t1');
    expect(map.body).toContain('<svg id="zone-map"');
    expect(map.body).toMatch(/<path d="M[\d.]+,[\d.]+L/);
    const hit = await c.get('/console/chain/zones?tenant=t1&source=website&deliveryType=courier&lat=55.76&lon=37.61');
    expect(hit.body).toContain('обслуживается');
    expect(hit.body).toContain('зона z1');
    expect(hit.body).toMatch(/1\s000,00 ₽/); // the zone's minimum order, 100000 kopecks
    expect(hit.body).not.toContain('[object');
    expect(hit.body).toContain('id="resolve-marker"');
    const miss = await c.get('/console/chain/zones?tenant=t1&source=website&lat=10&lon=10');
    expect(miss.body).toContain('outside_zones');
    expect((await c.get('/console/chain/zones?tenant=t1&source=website&lat=abc&lon=10')).statusCode).toBe(422);
  });

  it('issues a partner credential (secret shown once), revokes it behind a confirmation, and the partner gets 401', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    await c.get('/console/chain/credentials?tenant=t1');
    expect((await c.post('/console/chain/credentials/partner', { tenant: 't1', source: 'website', points: '1, 99' })).statusCode).toBe(422);
    const res = await c.post('/console/chain/credentials/partner', { tenant: 't1', source: 'website', points: '1, 2' });
    expect(res.statusCode).toBe(303);
    const shown = await c.get(res.headers.location as string);
    const apiKey = /id="issued-key" class="mono" readonly value="([^"]+)"/.exec(shown.body)![1]!;
    const apiSecret = /id="issued-secret" class="mono" readonly value="([^"]+)"/.exec(shown.body)![1]!;
    expect((await c.get('/console/chain/credentials?tenant=t1')).body).not.toContain(apiSecret);
    const key = { apiKey, apiSecret };
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(200);
    const confirm = await c.get(`/console/chain/credentials/${apiKey}/revoke?tenant=t1`);
    expect(confirm.body).toContain('401');
    expect((await c.post(`/console/chain/credentials/${apiKey}/revoke`, { tenant: 't1' })).statusCode).toBe(303);
    w.clock.advance(6_000);
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(401);
    expect(await audit('credential.issue')).toContainEqual(expect.objectContaining({ target: apiKey }));
    expect(await audit('credential.revoke')).toContainEqual(expect.objectContaining({ target: apiKey }));
    expect(JSON.stringify(await w.services.consoleCore.audit.latest(200))).not.toContain(apiSecret);
  });

  it('switches a source feature on; the partner sees it within the credential cache time', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    await c.get('/console/chain');
    expect((await w.call(w.partner, 'GET', '/v1/status')).statusCode).toBe(404);
    expect((await c.post('/console/chain/switches', { tenant: 't1', source: 'website', feature: 'guest-api', on: 'true' })).statusCode).toBe(303);
    w.clock.advance(6_000);
    expect((await w.call(w.partner, 'GET', '/v1/status')).statusCode).toBe(200);
    expect((await c.post('/console/chain/switches', { tenant: 't1', source: 'website', feature: 'teleport', on: 'true' })).statusCode).toBe(422);
    expect(await audit('source.feature-on')).toHaveLength(1);
  });
});
