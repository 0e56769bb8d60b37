import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SequentialIds } from '@app/shared';
import { PartnerApiError, PartnerClient, toPartnerApiError, type OrderRequest } from '../src/index.js';
import { startSignedServer, type Answer, type SeenRequest } from './signed-server.js';

const KEY = { apiKey: 'demo-key-0001', apiSecret: 'demo-secret-0123456789abcdef0123456789' };
const clock = new ManualClock('2026-11-23T09:00:00Z');
// One id source for all clients: the server refuses a reused X-Request-ID, as the spec says.
const ids = new SequentialIds();
let server: Awaited<ReturnType<typeof startSignedServer>>;
let route: (r: SeenRequest) => Answer = () => ({ status: 200, json: {} });
beforeAll(async () => {
  server = await startSignedServer({ ...KEY, now: () => clock.now(), route: (r) => route(r) });
});
afterAll(async () => server.close());

const client = (over: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) =>
  new PartnerClient({ baseUrl: `${server.baseUrl}/`, ...KEY, clock, ids, ...over });

describe('PartnerClient against a server that verifies signatures', () => {
  it('GET: signed with the empty-body hash, query unsigned, typed result', async () => {
    route = () => ({ status: 200, json: { points: [{ externalPointId: '101' }] } });
    expect(await client().listPoints()).toEqual([{ externalPointId: '101' }]);
    route = (r) => ({ status: 200, json: { id: 'o1', q: r.query } });
    const o = await client().getOrder('5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6', 'website');
    expect(o).toEqual({ id: 'o1', q: 'source=website' });
    expect(server.seen.at(-1)!.path).toBe('/v1/orders/5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6');
  });

  it('POST: the signed bytes are the bytes sent (non-ASCII included), Content-Type JSON', async () => {
    route = (r) => ({ status: 201, json: { echoed: JSON.parse(r.body) } });
    const body: OrderRequest = {
      schemaVersion: 1,
      source: 'website',
      externalOrderId: 'A-1',
      externalPointId: '101',
      guest: { name: 'Анна', phone: '+79990001122' },
      deliveryType: 'courier',
      address: { street: 'Тверская', house: '1' },
      items: [],
      total: { amountMinor: 0, currency: 'RUB' },
    };
    const r = await client().createOrder(body);
    expect(r.status).toBe(201);
    expect(server.seen.at(-1)!.body).toBe(JSON.stringify(body));
    expect(server.seen.at(-1)!.headers['content-type']).toBe('application/json');
  });

  it('menu with ETag: 304 gives {notModified: true}; 200 gives data and etag', async () => {
    route = (r) =>
      r.headers['if-none-match'] === 'rev-1'
        ? { status: 304, headers: { etag: 'rev-1' } }
        : { status: 200, json: { revision: 'rev-1' }, headers: { etag: 'rev-1' } };
    expect(await client().menu('101')).toEqual({ notModified: false, etag: 'rev-1', data: { revision: 'rev-1' } });
    expect(await client().menu('101', { etag: 'rev-1' })).toEqual({ notModified: true });
  });

  it('every request has a new X-Request-ID (a reused one would be refused)', async () => {
    route = () => ({ status: 200, json: { points: {} } });
    const c = client();
    await c.catalogRevision();
    await c.catalogRevision();
    const ids = server.seen.slice(-2).map((r) => r.headers['x-request-id']);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('errors map to PartnerApiError with code, status, body and the request id; a wrong secret is 401 unauthorized', async () => {
    route = () => ({ status: 409, json: { error: 'price_changed', calculation: { total: { amountMinor: 1, currency: 'RUB' } } } });
    const e = await client()
      .createOrder({} as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PartnerApiError);
    expect(e).toMatchObject({ status: 409, code: 'price_changed', requestId: server.seen.at(-1)!.headers['x-request-id'] });
    expect((e as PartnerApiError).body).toMatchObject({ calculation: { total: { amountMinor: 1 } } });
    const bad = await client({ apiSecret: 'wrong-secret-0123456789abcdef0123456' })
      .listPoints()
      .catch((x: unknown) => x);
    expect(bad).toMatchObject({ status: 401, code: 'unauthorized' });
    route = () => ({ status: 202, json: { id: 'o1', cancelState: 'requested' } });
    expect(await client().cancelOrder('5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6', { reason: 'guest_request', comment: '' })).toEqual({
      status: 202,
      order: { id: 'o1', cancelState: 'requested' },
    });
  });

  it('toPartnerApiError: 413 plain text and bodies without a code', () => {
    expect(toPartnerApiError(413, 'Request body is too large', 'r1')).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(toPartnerApiError(502, undefined, 'r2').code).toBe('http_502');
    expect(toPartnerApiError(503, { error: 'authentication_unavailable' }, 'r3').retryable).toBe(true);
    expect(toPartnerApiError(409, { error: 'idempotency_conflict' }, 'r4').retryable).toBe(false);
  });
});
