import { describe, expect, it } from 'vitest';
import { ManualClock, SequentialIds, signRequest } from '@app/shared';
import { PosClient, PosRequestError, type FetchLike } from '../src/index.js';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

function client(answer: (s: Sent) => Response | Promise<Response>, baseUrl = 'http://pos.test/api/') {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    const s = { url, headers: init.headers, body: init.body };
    sent.push(s);
    return answer(s);
  };
  const c = new PosClient({
    baseUrl,
    apiKey: 'pos-key-1',
    apiSecret: 'a-secret-of-at-least-32-characters!!',
    fetch,
    clock: new ManualClock('2026-11-23T09:00:00Z'),
    ids: new SequentialIds(),
  });
  return { c, sent };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const pushOk = () => json(200, { revision: 'r1', syncedAt: '2026-11-23T09:00:00Z', changed: true });

describe('PosClient', () => {
  it('signs exactly the bytes it sends, over the full request path, with a new request id each time', async () => {
    const { c, sent } = client(pushOk);
    await c.pushStopList([{ id: '0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f', balance: 0 }]);
    await c.pushStreets([{ name: 'Тверская улица', city: 'Москва' }]);
    expect(sent.map((s) => s.url)).toEqual(['http://pos.test/api/pos/v1/stop-list', 'http://pos.test/api/pos/v1/streets']);
    for (const s of sent) {
      const expected = signRequest('a-secret-of-at-least-32-characters!!', {
        timestamp: '1795424400',
        requestId: s.headers['X-Request-ID'],
        method: 'POST',
        path: new URL(s.url).pathname,
        body: s.body,
      });
      expect(s.headers).toMatchObject({
        'X-API-Key': 'pos-key-1',
        'X-Timestamp': '1795424400',
        'X-Signature': expected,
        'Content-Type': 'application/json',
      });
    }
    expect(sent[0].headers['X-Request-ID']).not.toBe(sent[1].headers['X-Request-ID']);
    // UTF-8 bytes of the compact JSON: the Cyrillic street name is sent and signed as UTF-8.
    expect(Buffer.from(sent[1].body).toString('utf8')).toBe('{"streets":[{"name":"Тверская улица","city":"Москва"}]}');
  });

  it('sends {} to the heartbeat and returns the server answer', async () => {
    const { c, sent } = client(() => json(200, { serverTime: '2026-11-23T09:00:00Z', aliveWindowSeconds: 90 }));
    await expect(c.heartbeat()).resolves.toEqual({ serverTime: '2026-11-23T09:00:00Z', aliveWindowSeconds: 90 });
    expect(Buffer.from(sent[0].body).toString()).toBe('{}');
  });

  it('turns an error answer into PosRequestError with the status, code and message', async () => {
    const { c } = client(() => json(400, { error: 'invalid_request', message: 'items/0/id must be a UUID' }));
    const err = await c.pushMenu({ categories: [], items: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PosRequestError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_request', path: '/pos/v1/menu' });
    expect((err as Error).message).toContain('items/0/id must be a UUID');
  });

  it('names non-JSON failures by status and network failures by status 0', async () => {
    const plain = client(() => new Response('Bad Gateway', { status: 502 }));
    await expect(plain.c.heartbeat()).rejects.toMatchObject({ status: 502, code: 'http_502', message: expect.stringContaining('Bad Gateway') });
    const down = client(() => Promise.reject(new TypeError('fetch failed')));
    await expect(down.c.pushProductMappings([])).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('rejects a 200 answer that is not a push reply', async () => {
    const { c } = client(() => json(200, { ok: true }));
    await expect(c.pushStopList([])).rejects.toMatchObject({ status: 200, code: 'invalid_response' });
  });
  it('order calls: paths (order id escaped), bodies, and unwrapped answers', async () => {
    const view = { id: 'o-1', state: 'prepared', posOrderId: null, deliveryStatus: null, cancelState: 'none', cancelDetail: null };
    const { c, sent } = client((s) => {
      const path = new URL(s.url).pathname;
      if (path.endsWith('/orders/claim'))
        return json(200, {
          orders: [{ orderId: 'o-1', claimId: 'c-1', claimExpiresAt: '2026-11-23T09:02:00Z', stableId: 'o-1', order: { orderId: 'o-1' } }],
        });
      if (path.endsWith('/cancellations/claim'))
        return json(200, { cancellations: [{ orderId: 'o-1', stableId: 'o-1', posOrderId: null, state: 'claimed', reason: 'client refusal' }] });
      return json(200, view);
    });
    expect((await c.claimOrders(5)).map((o) => o.claimId)).toEqual(['c-1']);
    await expect(c.reportState('o-1', { claimId: 'c-1', stableId: 'o-1', state: 'prepared' })).resolves.toEqual(view);
    await c.reportDeliveryStatus('o/1', { status: 'New', at: '2026-11-23T09:00:00.000Z' });
    expect((await c.claimCancellations())[0].reason).toBe('client refusal');
    await c.reportCancelResult('o-1', { result: 'rejected', detail: 'not_new' });
    expect(sent.map((s) => [new URL(s.url).pathname, Buffer.from(s.body).toString()])).toEqual([
      ['/api/pos/v1/orders/claim', '{"limit":5}'],
      ['/api/pos/v1/orders/o-1/state', '{"claimId":"c-1","stableId":"o-1","state":"prepared"}'],
      ['/api/pos/v1/orders/o%2F1/delivery-status', '{"status":"New","at":"2026-11-23T09:00:00.000Z"}'],
      ['/api/pos/v1/cancellations/claim', '{}'],
      ['/api/pos/v1/orders/o-1/cancel-result', '{"result":"rejected","detail":"not_new"}'],
    ]);
  });

  it('maps a 409 of a report to PosRequestError and rejects a claim answer without orders', async () => {
    const conflict = client(() => json(409, { error: 'invalid_or_expired_claim', message: 'claim is not current' }));
    await expect(conflict.c.reportState('o-1', { claimId: 'c-0', stableId: 'o-1', state: 'create_sending' })).rejects.toMatchObject({
      status: 409,
      code: 'invalid_or_expired_claim',
      path: '/pos/v1/orders/o-1/state',
    });
    const odd = client(() => json(200, { revision: 'r1' }));
    await expect(odd.c.claimOrders(1)).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
