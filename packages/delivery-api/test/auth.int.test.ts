import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSignedHeaders, randomIds, signRequest } from '@app/shared';
import { makeWorld, type World } from './harness.js';

let w: World;
beforeAll(async () => {
  w = await makeWorld();
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

function headersFor(overrides: Partial<Record<string, string>> = {}, method = 'GET', path = '/v1/points', body = '') {
  const h: Record<string, string> = {
    ...buildSignedHeaders({
      apiKey: w.partner.apiKey,
      secret: w.partner.apiSecret,
      method,
      path,
      body,
      requestId: randomIds.uuid(),
      now: w.clock.now(),
    }),
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  return h;
}

const get = (headers: Record<string, string>, url = '/v1/points') => w.app.inject({ method: 'GET', url, headers });

describe('Authentication (spec: Authentication)', () => {
  it('accepts a correctly signed request', async () => {
    const r = await get(headersFor());
    expect(r.statusCode).toBe(200);
  });

  for (const name of ['X-API-Key', 'X-Timestamp', 'X-Request-ID', 'X-Signature']) {
    it(`401 when ${name} is missing`, async () => {
      const r = await get(headersFor({ [name]: undefined }));
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ error: 'unauthorized' });
    });
    it(`401 when ${name} is empty`, async () => {
      const r = await get(headersFor({ [name]: '' }));
      expect(r.statusCode).toBe(401);
    });
  }

  it('401 for an unknown key', async () => {
    const r = await get(headersFor({ 'X-API-Key': 'unknown-key-123' }));
    expect(r.statusCode).toBe(401);
  });

  it('401 when X-Request-ID is not a UUID', async () => {
    const ts = String(Math.floor(w.clock.now().getTime() / 1000));
    const rid = 'not-a-uuid-but-thirty-six-characters';
    const sig = signRequest(w.partner.apiSecret, { timestamp: ts, requestId: rid, method: 'GET', path: '/v1/points', body: '' });
    const r = await get({ 'X-API-Key': w.partner.apiKey, 'X-Timestamp': ts, 'X-Request-ID': rid, 'X-Signature': sig });
    expect(r.statusCode).toBe(401);
  });

  it('keeps the request id case as sent in the canonical string', async () => {
    const ts = String(Math.floor(w.clock.now().getTime() / 1000));
    const rid = randomIds.uuid().toUpperCase();
    const sig = signRequest(w.partner.apiSecret, { timestamp: ts, requestId: rid, method: 'GET', path: '/v1/points', body: '' });
    const r = await get({ 'X-API-Key': w.partner.apiKey, 'X-Timestamp': ts, 'X-Request-ID': rid, 'X-Signature': sig });
    expect(r.statusCode).toBe(200);
  });

  it('accepts a skew of 60 s and refuses 61 s in both directions', async () => {
    for (const [delta, status] of [
      [60, 200],
      [-60, 200],
      [61, 401],
      [-61, 401],
    ] as const) {
      const now = new Date(w.clock.now().getTime() + delta * 1000);
      const h = buildSignedHeaders({
        apiKey: w.partner.apiKey,
        secret: w.partner.apiSecret,
        method: 'GET',
        path: '/v1/points',
        body: '',
        requestId: randomIds.uuid(),
        now,
      });
      expect((await get({ ...h })).statusCode, `skew ${delta}`).toBe(status);
    }
  });

  it('401 for a reused X-Request-ID, and the id stays used after a refusal', async () => {
    const h = headersFor();
    expect((await get(h)).statusCode).toBe(200);
    const again = await get(h);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'unauthorized' });
  });

  it('a reused id becomes usable again only after the retention window (≥ 2 × skew)', async () => {
    const rid = randomIds.uuid();
    const sign = () =>
      buildSignedHeaders({
        apiKey: w.partner.apiKey,
        secret: w.partner.apiSecret,
        method: 'GET',
        path: '/v1/points',
        body: '',
        requestId: rid,
        now: w.clock.now(),
      });
    expect((await get({ ...sign() })).statusCode).toBe(200);
    w.clock.advance(120_000);
    expect((await get({ ...sign() })).statusCode).toBe(401);
    w.clock.advance(600_000);
    expect((await get({ ...sign() })).statusCode).toBe(200);
  });

  it('401 when the signature covers a different body, path or method', async () => {
    const body = JSON.stringify({ deliveryType: 'pickup' });
    const otherBody = headersFor({}, 'POST', '/v1/delivery/resolve', JSON.stringify({ deliveryType: 'courier' }));
    const r1 = await w.app.inject({
      method: 'POST',
      url: '/v1/delivery/resolve',
      payload: body,
      headers: { ...otherBody, 'content-type': 'application/json' },
    });
    expect(r1.statusCode).toBe(401);
    const otherPath = headersFor({}, 'GET', '/v1/catalog/revision');
    expect((await get(otherPath)).statusCode).toBe(401);
    const otherMethod = headersFor({}, 'POST', '/v1/points');
    expect((await get(otherMethod)).statusCode).toBe(401);
  });

  it('body whitespace matters: the exact bytes are signed', async () => {
    const sent = '{"deliveryType":"pickup"}';
    const signedFor = headersFor({}, 'POST', '/v1/delivery/resolve', '{ "deliveryType": "pickup" }');
    const r = await w.app.inject({
      method: 'POST',
      url: '/v1/delivery/resolve',
      payload: sent,
      headers: { ...signedFor, 'content-type': 'application/json' },
    });
    expect(r.statusCode).toBe(401);
  });

  it('the query string is not signed', async () => {
    const r = await get(headersFor({}, 'GET', '/v1/points'), '/v1/points?ignored=1');
    expect(r.statusCode).toBe(200);
  });

  it('a failed signature does not consume the request id', async () => {
    const good = headersFor();
    expect((await get({ ...good, 'X-Signature': '0'.repeat(64) })).statusCode).toBe(401);
    expect((await get(good)).statusCode).toBe(200);
  });

  it('a revoked key is refused', async () => {
    const k = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    expect((await w.call(k, 'GET', '/v1/points')).statusCode).toBe(200);
    await w.operator.revokeCredential(k.apiKey);
    w.clock.advance(5001); // found credentials are cached for 5 s per instance
    expect((await w.call(k, 'GET', '/v1/points')).statusCode).toBe(401);
  });

  it('a used id re-sent in another letter case and re-signed is 401 (one UUID, one id)', async () => {
    const ts = String(Math.floor(w.clock.now().getTime() / 1000));
    const rid = randomIds.uuid();
    const send = (id: string) =>
      get({
        'X-API-Key': w.partner.apiKey,
        'X-Timestamp': ts,
        'X-Request-ID': id,
        'X-Signature': signRequest(w.partner.apiSecret, { timestamp: ts, requestId: id, method: 'GET', path: '/v1/points', body: '' }),
      });
    expect((await send(rid)).statusCode).toBe(200);
    const upper = await send(rid.toUpperCase());
    expect(upper.statusCode).toBe(401);
    expect(upper.json()).toEqual({ error: 'unauthorized' });
  });

  it('503 authentication_unavailable when the single-use store fails, and the id is not consumed', async () => {
    const h = headersFor();
    const repo = w.services.requestIds;
    const original = repo.consume.bind(repo);
    repo.consume = async () => {
      throw new Error('connection refused');
    };
    try {
      const r = await get(h);
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ error: 'authentication_unavailable' });
    } finally {
      repo.consume = original;
    }
    expect((await get(h)).statusCode).toBe(200);
  });

  it('a POS key on a partner endpoint and a partner key on a POS endpoint get 403', async () => {
    expect((await w.call(w.pos['1'], 'GET', '/v1/points')).statusCode).toBe(403);
    const r = await w.call(w.partner, 'POST', '/pos/v1/heartbeat', {});
    expect(r.statusCode).toBe(403);
  });

  it('health endpoints need no signature', async () => {
    for (const url of ['/health', '/health/live']) {
      const r = await w.app.inject({ method: 'GET', url });
      expect(r.json()).toEqual({ status: 'ok' });
    }
    expect((await w.app.inject({ method: 'GET', url: '/health/ready' })).json()).toEqual({ status: 'ready' });
  });
});

describe('General rules (spec: What the service does, Errors, Limits)', () => {
  it('400 invalid_request for malformed JSON', async () => {
    const r = await w.call(w.partner, 'POST', '/v1/delivery/resolve', '{"deliveryType":');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: 'invalid_request' });
  });

  it('400 invalid_request for an unknown field, also nested', async () => {
    expect((await w.call(w.partner, 'POST', '/v1/delivery/resolve', { deliveryType: 'pickup', extra: 1 })).statusCode).toBe(400);
    const nested = await w.call(w.partner, 'POST', '/v1/delivery/resolve', { deliveryType: 'courier', location: { lat: 55.7, lon: 37.6, alt: 1 } });
    expect(nested.statusCode).toBe(400);
  });

  it('400 for a wrong type; types are not coerced', async () => {
    const r = await w.call(w.partner, 'POST', '/v1/delivery/resolve', { deliveryType: 'courier', location: { lat: '55.7', lon: 37.6 } });
    expect(r.statusCode).toBe(400);
  });

  it('413 as plain text for a body of 2 MiB + 1 byte; 2 MiB exactly is read', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 1);
    const r = await w.call(w.partner, 'POST', '/v1/delivery/resolve', big);
    expect(r.statusCode).toBe(413);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    const exact = await w.call(w.partner, 'POST', '/v1/delivery/resolve', 'x'.repeat(2 * 1024 * 1024));
    expect(exact.statusCode).toBe(400); // read and refused as JSON, not as too large
  });

  it('unknown and in-development endpoints answer 404 not_found', async () => {
    for (const url of ['/v1/guests/+79990000000/loyalty', '/v1/guests/+79990000000/orders', '/v1/guests/+79990000000/addresses', '/v1/status']) {
      const r = await w.call(w.partner, 'GET', url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toEqual({ error: 'not_found' });
    }
  });

  it('500 internal_error leaks nothing', async () => {
    const svc = w.services.points;
    const original = svc.list.bind(svc);
    svc.list = async () => {
      throw new Error('secret internals: relation "x" does not exist');
    };
    try {
      const r = await w.call(w.partner, 'GET', '/v1/points');
      expect(r.statusCode).toBe(500);
      expect(r.json()).toEqual({ error: 'internal_error' });
    } finally {
      svc.list = original;
    }
  });

  it('/openapi.json documents the routes and their error responses; /docs serves the reference', async () => {
    const doc = (await w.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/points', '/v1/points/{pointId}/menu', '/pos/v1/menu', '/v1/delivery/resolve']),
    );
    expect(Object.keys(doc.paths['/v1/points/{pointId}/menu'].get.responses)).toEqual(
      expect.arrayContaining(['200', '304', '401', '403', '404', '503']),
    );
    const ui = await w.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});
