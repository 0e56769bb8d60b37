import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSignedHeaders, ManualClock, randomIds } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { buildApp, createServices } from '../src/app.js';
import { SecretBox } from '../src/auth/secret-box.js';
import { OperatorService } from '../src/operator/operator.service.js';
import { RecordingOrderEvents } from './support/recording-order-events.js';
import { MIGRATIONS, ORG, T0, TG } from './harness.js';

// one line per request; routine POS sync at debug, so the info log stays readable.
const lines: Record<string, unknown>[] = [];
const sink = new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) });
const db = await openTestDb(MIGRATIONS);
const clock = new ManualClock(T0);
const box = new SecretBox(randomBytes(32));
const deps = {
  db,
  box,
  clock,
  ids: randomIds,
  requestIdTtlSeconds: 600,
  heartbeatWindowSeconds: 90,
  masterKey: randomBytes(32),
  loyalty: null,
  events: new RecordingOrderEvents(),
  logger: { level: 'info' },
  logDestination: sink,
};
const app = await buildApp(deps, createServices(deps));
let pos: { apiKey: string; apiSecret: string };
const ops = () => new OperatorService({ db, box });
beforeAll(async () => {
  const ops = new OperatorService({ db, box });
  await ops.createTenant('t1', 'T');
  await ops.createSource('t1', 'website');
  await ops.setPoint({
    tenantId: 't1',
    pointId: '1',
    name: 'P',
    address: 'A',
    location: { lat: 55.7, lon: 37.6 },
    phone: '+74950000000',
    schedule: null,
    deliveryTypes: ['pickup'],
  });
  await ops.setRoute({
    tenantId: 't1',
    source: 'website',
    pointId: '1',
    organizationId: ORG,
    terminalGroupId: TG(1),
    orderTypeId: 'ot',
    operatorUserId: 'op',
    originName: 'website',
    active: true,
  });
  pos = await ops.issuePosCredential({ tenantId: 't1', organizationId: ORG, terminalGroupId: TG(1) });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const signed = (path: string, body: string) =>
  buildSignedHeaders({ apiKey: pos.apiKey, secret: pos.apiSecret, method: 'POST', path, body, requestId: randomIds.uuid(), now: clock.now() });

describe('request log', () => {
  it('POS heartbeats and claims are not at info; other requests are one info line without the query', async () => {
    lines.length = 0;
    await app.inject({
      method: 'POST',
      url: '/pos/v1/heartbeat',
      payload: '{}',
      headers: { 'content-type': 'application/json', ...signed('/pos/v1/heartbeat', '{}') },
    });
    await app.inject({
      method: 'POST',
      url: '/pos/v1/orders/claim',
      payload: '{}',
      headers: { 'content-type': 'application/json', ...signed('/pos/v1/orders/claim', '{}') },
    });
    await app.inject({ method: 'GET', url: '/health/ready?probe=1' });
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ level: 30, method: 'GET', path: '/health/ready', statusCode: 200 });
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });

  it('/metrics has request durations by route pattern and status', async () => {
    const m = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(m).toMatch(/delivery_http_request_duration_seconds_count\{method="POST",route="\/pos\/v1\/heartbeat",status="200"\} 1/);
    expect(m).toMatch(/delivery_http_request_duration_seconds_count\{method="GET",route="\/health\/ready",status="200"\} 1/);
    expect(m).toMatch(/delivery_loyalty_legs\{state="settle_failed"\} 0/);
  });

  it('never writes a guest phone: guest routes log their route pattern', async () => {
    await ops().sourceFeatures('t1', 'website', 'guest-api');
    const key = await ops().issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    lines.length = 0;
    for (const path of ['/v1/guests/+79991234567/orders', '/v1/guests/89991234567/addresses', '/v1/guests/+7999123456x/orders']) {
      const headers = buildSignedHeaders({
        apiKey: key.apiKey,
        secret: key.apiSecret,
        method: 'GET',
        path,
        body: '',
        requestId: randomIds.uuid(),
        now: clock.now(),
      });
      await app.inject({ method: 'GET', url: path, headers: { ...headers } });
    }
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => [l.path, l.statusCode])).toEqual([
      ['/v1/guests/:phone/orders', 200],
      ['/v1/guests/:phone/addresses', 200],
      ['/v1/guests/:phone/orders', 400],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/999123456/);
  });
});
