import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import { LOYALTY_ORG } from '../support/loyalty.fixtures.js';
import type { LoyaltyError } from '../../src/loyalty/loyalty.port.js';

/** A hand-rolled server for answers the simulator never gives: redirects, huge or malformed bodies. */
let server: Server;
let hits: string[];

async function serve(answer: (path: string) => { status: number; headers?: Record<string, string>; body: string }): Promise<string> {
  hits = [];
  server = createServer((req, res) => {
    hits.push(req.url!);
    const a = req.url === '/api/1/access_token' ? { status: 200, body: '{"token":"t"}' } : answer(req.url!);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(() => new Promise<void>((r) => server.close(() => r())));

const calc = (url: string) =>
  new HttpLoyalty({ baseUrl: url, apiLogin: 'x' }).calculate({ organizationId: LOYALTY_ORG, lines: [] }).then(
    () => expect.unreachable('expected a LoyaltyError'),
    (e: LoyaltyError) => [e.code, e.reason],
  );

describe('HttpLoyalty against misbehaving answers', () => {
  it('does not follow a redirect', async () => {
    const url = await serve(() => ({ status: 302, headers: { location: '/elsewhere' }, body: '' }));
    expect(await calc(url)).toEqual(['unavailable', 'bad_response']);
    expect(hits).not.toContain('/elsewhere');
  });

  it('refuses an answer over 1 MiB without reading it', async () => {
    const url = await serve(() => ({ status: 200, body: `{"pad":"${'x'.repeat(1024 * 1024 + 10)}"}` }));
    expect(await calc(url)).toEqual(['unavailable', 'bad_response']);
  });

  it('treats non-JSON and wrongly shaped answers as unavailable, never as a price', async () => {
    let url = await serve(() => ({ status: 200, body: '<html>' }));
    expect(await calc(url)).toEqual(['unavailable', 'bad_response']);
    await new Promise<void>((r) => server.close(() => r()));
    url = await serve(() => ({ status: 200, body: '{"loyaltyProgramResults":"nope"}' }));
    expect(await calc(url)).toEqual(['unavailable', 'bad_response']);
  });

  it('uses the Retry-After of a 429 and defaults to 60 s without one', async () => {
    let url = await serve(() => ({ status: 429, headers: { 'retry-after': '17' }, body: '{"error":"WRITE_LIMIT"}' }));
    const e = await new HttpLoyalty({ baseUrl: url, apiLogin: 'x' })
      .accrue({ idempotencyKey: 'k', organizationId: 'o', phone: '+79990000001', orderRef: 'r', paidMinor: 1 })
      .then(
        () => expect.unreachable('expected a LoyaltyError'),
        (x: LoyaltyError) => x,
      );
    expect([e.code, e.retryAfterSeconds]).toEqual(['rate_limited', 17]);
    await new Promise<void>((r) => server.close(() => r()));
    url = await serve(() => ({ status: 429, body: '' }));
    expect(await new HttpLoyalty({ baseUrl: url, apiLogin: 'x' }).getAccrual('k').catch((x: LoyaltyError) => x.retryAfterSeconds)).toBe(60);
  });
});
