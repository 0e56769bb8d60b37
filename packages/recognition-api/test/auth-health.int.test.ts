import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHealth, RecognitionEngine } from '../src/engine/engine.port.js';
import { makeHarness, type Harness } from './harness.js';
import { FakeEngine } from './fixtures.js';
import { checkHealth } from '../src/health/health.service.js';
import { QueueRepo } from '../src/jobs/queue.repo.js';

let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());

describe('API key authentication (Spec: Authentication)', () => {
  const routes = [
    ['GET', '/api/v1/documents'],
    ['GET', '/api/v1/documents/doc_x'],
    ['DELETE', '/api/v1/documents/doc_x'],
    ['GET', '/api/v1/documents/doc_x/export'],
    ['POST', '/api/v1/recognize'],
  ] as const;

  for (const [method, url] of routes) {
    it(`${method} ${url}: 401 MISSING_API_KEY without the header, INVALID_API_KEY with a wrong one`, async () => {
      const missing = await h.app.inject({ method, url });
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error.code).toBe('MISSING_API_KEY');
      const wrong = await h.app.inject({ method, url, headers: { 'x-api-key': 'rk_nope' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe('INVALID_API_KEY');
    });
  }

  it('a valid key passes', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { 'x-api-key': h.keyA } })).statusCode).toBe(200);
  });

  it('a deactivated key is INVALID_API_KEY', async () => {
    const { key, record } = await h.services.keys.create('temp');
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { 'x-api-key': key } })).statusCode).toBe(200);
    expect(await h.services.keys.deactivate(record.id)).toBe(true);
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { 'x-api-key': key } });
    expect(res.json().error.code).toBe('INVALID_API_KEY');
  });

  for (const param of ['api_key', 'apiKey', 'key']) {
    it(`a key in the URL (?${param}=) is refused with 401 INVALID_API_KEY, even with a valid header`, async () => {
      const alone = await h.app.inject({ method: 'GET', url: `/api/v1/documents?${param}=${h.keyA}` });
      expect(alone.statusCode).toBe(401);
      expect(alone.json().error.code).toBe('INVALID_API_KEY');
      const both = await h.app.inject({ method: 'GET', url: `/api/v1/documents?${param}=${h.keyA}`, headers: { 'x-api-key': h.keyA } });
      expect(both.statusCode).toBe(401);
    });
  }

  it('keys are stored only as SHA-256 hashes', async () => {
    const rows = await h.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
    const dump = JSON.stringify(await h.db.query('SELECT * FROM api_keys'));
    expect(dump).not.toContain(h.keyA);
  });

  it('GET /openapi.json is public and lists the endpoints', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining(['/api/v1/recognize', '/api/v1/documents', '/api/v1/documents/{id}/export', '/api/v1/health']),
    );
  });

  it('unknown routes are 404 NOT_FOUND in the error envelope', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/nope', headers: { 'x-api-key': h.keyA } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no such route' } });
  });
});

describe('GET /api/v1/health', () => {
  it('needs no key and has exactly the spec fields', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      version: '1.0.0',
      python_worker: 'ok',
      ai_api: 'not_configured',
      database: 'connected',
      queue_store: 'connected',
      queue_size: expect.any(Number),
      avg_processing_time_ms: expect.any(Number),
    });
  });

  it('503 when the local engine is unavailable', async () => {
    h.engine.healthState = 'unavailable';
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/health' });
    h.engine.healthState = 'ok';
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', python_worker: 'unavailable' });
  });

  it('with an AI engine: ai_api reports it and decides the status', async () => {
    const ai = new FakeEngine();
    const h2 = await makeHarness({
      aiEngine: ai,
      localEngine: {
        name: 'x',
        recognize: async () => {
          throw new Error('unused');
        },
        health: async (): Promise<EngineHealth> => 'unavailable',
      } satisfies RecognitionEngine,
    });
    try {
      expect((await h2.app.inject({ method: 'GET', url: '/api/v1/health' })).json()).toMatchObject({
        status: 'ok',
        ai_api: 'ok',
        python_worker: 'unavailable',
      });
      ai.healthState = 'unavailable';
      const res = await h2.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json().ai_api).toBe('unavailable');
    } finally {
      await h2.close();
    }
  });

  it('503 with database disconnected when the database fails', async () => {
    const refused = async () => {
      throw new Error('connection refused');
    };
    const broken = { ...h.db, query: refused, ping: refused };
    const report = await checkHealth({ db: broken, queue: new QueueRepo(broken), localEngine: h.engine });
    expect(report).toMatchObject({ status: 'degraded', database: 'disconnected', queue_store: 'disconnected' });
  });
});
