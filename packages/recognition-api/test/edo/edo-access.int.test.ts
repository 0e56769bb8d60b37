import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayRoutes, makeEdoHarness, type EdoHarness } from './edo-harness.js';

let e: EdoHarness;
beforeAll(async () => (e = await makeEdoHarness()));
afterAll(async () => e.close());

describe('gateway access control: X-API-Key and the edo scope', () => {
  it('has all 18 routes of the spec table and each answers 200 to a key with the edo scope', async () => {
    const routes = gatewayRoutes(e.sim);
    expect(routes).toHaveLength(18);
    for (const r of routes) {
      const res = await e.inject(r.method, r.url, { body: r.body });
      expect(`${r.method} ${r.url} ${res.statusCode}`).toBe(`${r.method} ${r.url} 200`);
    }
  });

  it('without X-API-Key: 401 MISSING_API_KEY, with a wrong key: 401 INVALID_API_KEY; nothing reaches the operator', async () => {
    const before = e.sim.requests.length;
    for (const r of gatewayRoutes(e.sim)) {
      const none = await e.inject(r.method, r.url, { key: '', body: r.body });
      expect([none.statusCode, none.json().error.code]).toEqual([401, 'MISSING_API_KEY']);
      const wrong = await e.inject(r.method, r.url, { key: 'rk_wrong', body: r.body });
      expect([wrong.statusCode, wrong.json().error.code]).toEqual([401, 'INVALID_API_KEY']);
    }
    expect(e.sim.requests.length).toBe(before);
  });

  it('a key without the edo scope (every key created before scopes) gets 403 FORBIDDEN on every gateway route', async () => {
    const before = e.sim.requests.length;
    for (const r of gatewayRoutes(e.sim)) {
      const res = await e.inject(r.method, r.url, { key: e.keys.recognition, body: r.body });
      expect([res.statusCode, res.json().error.code]).toEqual([403, 'FORBIDDEN']);
      expect(res.json().error.message).toContain('"edo" scope');
    }
    expect(e.sim.requests.length).toBe(before);
  });

  it('an edo-only key gets 403 FORBIDDEN on recognition routes; a key with both scopes reaches both', async () => {
    const res = await e.inject('GET', '/api/v1/documents', { key: e.keys.edo });
    expect([res.statusCode, res.json().error.code]).toEqual([403, 'FORBIDDEN']);
    expect(res.json().error.message).toContain('"recognition" scope');
    expect((await e.inject('GET', '/api/v1/documents', { key: e.keys.both })).statusCode).toBe(200);
    expect((await e.inject('GET', '/api/v1/edo/organizations', { key: e.keys.both })).statusCode).toBe(200);
  });

  it('decides the scope by the matched route, so a percent-encoded path cannot slip past it', async () => {
    const sneaky = await e.inject('GET', '/api/v1/%65do/organizations', { key: e.keys.recognition });
    expect([sneaky.statusCode, sneaky.json().error.code]).toEqual([403, 'FORBIDDEN']);
    const other = await e.inject('GET', '/api/v1/%64ocuments', { key: e.keys.edo });
    expect([other.statusCode, other.json().error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('lists the gateway in the OpenAPI document', async () => {
    const doc = (await e.inject('GET', '/openapi.json', { key: '' })).json() as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/v1/edo'))
      .flatMap(([, m]) => Object.keys(m));
    // 18 gateway routes + the import of an operator entity into a document record (issue 24)
    expect(ops).toHaveLength(19);
    expect(doc.paths['/api/v1/edo/documents']!.get).toMatchObject({ tags: ['edo'] });
  });
});
