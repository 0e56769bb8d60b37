import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/operator/cli.js';
import { parseFeatureList } from '../../src/features/features.js';
import { addSource, makeWorld, type Key, type World } from '../harness.js';

let w: World;
/** A key of a second source, `app`, whose switches the tests turn on. */
let app: Key;
const lines: string[] = [];
const cli = (...argv: string[]) => runOperatorCommand(argv, w.operator, (l) => lines.push(l));
/** Past the 5 s credential cache, so a changed switch is read again. */
const passCache = () => w.clock.advance(6000);

beforeAll(async () => {
  w = await makeWorld();
  app = await addSource(w, 'app', { pointIds: ['1', '2'] });
}, 120_000);
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

describe('switch names', () => {
  it('parses a comma list, de-duplicates and refuses unknown names', () => {
    expect(parseFeatureList('guest-api, rate-limits,guest-api')).toEqual(['guest-api', 'rate-limits']);
    expect(parseFeatureList('')).toEqual([]);
    expect(() => parseFeatureList('guest-api,loyalty')).toThrow(/unknown feature "loyalty"/);
  });
});

describe('delivery-operator source features', () => {
  it('lists no switches for a new source', async () => {
    expect(await cli('source', 'features', '--tenant', 't1', '--source', 'app')).toBe(0);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ tenant: 't1', source: 'app', features: [] });
  });

  it('enables and disables switches and lists the result', async () => {
    await cli('source', 'features', '--tenant', 't1', '--source', 'app', '--enable', 'rate-limits,guest-api');
    expect(JSON.parse(lines.at(-1)!).features).toEqual(['guest-api', 'rate-limits']);
    await cli('source', 'features', '--tenant', 't1', '--source', 'app', '--disable', 'rate-limits', '--enable', 'catalog-events');
    expect(JSON.parse(lines.at(-1)!).features).toEqual(['guest-api', 'catalog-events']);
    await cli('source', 'features', '--tenant', 't1', '--source', 'app', '--disable', 'catalog-events');
    expect(JSON.parse(lines.at(-1)!).features).toEqual(['guest-api']);
  });

  it('refuses an unknown switch or source', async () => {
    await expect(cli('source', 'features', '--tenant', 't1', '--source', 'app', '--enable', 'everything')).rejects.toThrow(/unknown feature/);
    await expect(cli('source', 'features', '--tenant', 't1', '--source', 'nope', '--enable', 'guest-api')).rejects.toThrow(/no source nope/);
  });
});

describe('switched routes (GET /v1/status and /v1/guests/…, switch guest-api)', () => {
  it('answers 404 not_found, exactly as an unknown route, to a source with the switch off', async () => {
    const unknown = await w.call(w.partner, 'GET', '/v1/no-such-route');
    for (const path of [
      '/v1/status',
      '/v1/guests/+79990000001/loyalty',
      '/v1/guests/+79990000001/orders',
      '/v1/guests/+79990000001/addresses',
      '/v1/guests/bad/orders',
    ]) {
      const off = await w.call(w.partner, 'GET', path);
      expect(off.statusCode, path).toBe(404);
      expect(off.body).toBe(unknown.body);
      expect(off.json()).toEqual({ error: 'not_found' });
      expect(off.headers['content-type']).toBe(unknown.headers['content-type']);
    }
  });

  it('answers 404 to unsigned requests and unknown keys, as before', async () => {
    const r = await w.app.inject({ method: 'GET', url: '/v1/status' });
    expect(r.statusCode).toBe(404);
    const stranger = await w.call({ apiKey: 'unknown-key-1', apiSecret: 'x'.repeat(40) }, 'GET', '/v1/status');
    expect(stranger.json()).toEqual({ error: 'not_found' });
  });

  it('exists for a source with the switch on (read through the credential cache)', async () => {
    await cli('source', 'features', '--tenant', 't1', '--source', 'app', '--enable', 'guest-api');
    passCache();
    const r = await w.call(app, 'GET', '/v1/status');
    expect(r.statusCode).toBe(200);
    expect(r.json().points.map((p: { pointId: string }) => p.pointId)).toEqual(['1', '2']);
  });

  it('answers 401 to a bad signature with a key whose source has the switch on', async () => {
    const r = await w.call({ apiKey: app.apiKey, apiSecret: 'y'.repeat(40) }, 'GET', '/v1/status');
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ error: 'unauthorized' });
  });

  it('goes back to 404 once the switch is off again', async () => {
    await cli('source', 'features', '--tenant', 't1', '--source', 'app', '--disable', 'guest-api');
    passCache();
    expect((await w.call(app, 'GET', '/v1/status')).statusCode).toBe(404);
  });

  it('is marked with x-feature in the OpenAPI document', async () => {
    const doc = (await w.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v1/status'].get['x-feature']).toBe('guest-api');
    expect(doc.paths['/v1/points'].get['x-feature']).toBeUndefined();
  });
});
