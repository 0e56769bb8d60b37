/**
 * `Idempotency-Key` on POST /api/v1/recognize. The same key with the same files and
 * parameters within 24 h answers with the first request's document instead of creating another; the key with
 * other files is a clear 422 that changes nothing; the binding is per API key, ends after 24 h or with DELETE.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await makeHarness({ highSlots: 1 });
});
afterAll(async () => h.close());
beforeEach(async () => {
  h.engine.gate = null;
  h.engine.calls = [];
  await h.db.query('DELETE FROM idempotency_keys');
  await h.db.query('DELETE FROM documents');
});

const post = async (key: string | undefined, opts: { fields?: Record<string, string>; page?: Buffer; apiKey?: string } = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': opts.apiKey ?? h.keyA, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: recognizeForm([opts.page ?? (await pngPage())], opts.fields),
  });
const count = async () => (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents'))[0]!.n;

describe('Idempotency-Key on POST /recognize', () => {
  it('the same key with the same files and parameters returns the same document (202 replayed)', async () => {
    const first = await post('order-17-scan');
    const again = await post('order-17-scan');
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(await count()).toBe(1);
  });

  it('the same key with other files or parameters is 422 IDEMPOTENCY_KEY_REUSED and stores nothing', async () => {
    await post('k-1');
    const otherFile = await post('k-1', { page: await pngPage(80, 60) });
    expect(otherFile.statusCode).toBe(422);
    expect(otherFile.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(otherFile.json().error.message).toMatch(/^Idempotency-Key was already used with different files or parameters/);
    const otherField = await post('k-1', { fields: { client_ref: 'another' } });
    expect(otherField.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count()).toBe(1);
  });

  it('binds per API key, for 24 hours, and until the document is deleted', async () => {
    const a = (await post('shared')).json().id;
    expect((await post('shared', { apiKey: h.keyB })).json().id).not.toBe(a);
    h.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = (await post('shared')).json().id;
    expect(later).not.toBe(a);
    await h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${later}`, headers: { 'x-api-key': h.keyA } });
    expect((await post('shared')).json().id).not.toBe(later);
    expect(await count()).toBe(3); // A, B's, and the new one (the deleted one is gone)
  });

  it('two identical requests at once create one document', async () => {
    const [x, y] = await Promise.all([post('race'), post('race')]);
    expect([x.statusCode, y.statusCode]).toEqual([202, 202]);
    expect(x.json().id).toBe(y.json().id);
    expect(await count()).toBe(1);
    expect((await h.db.query('SELECT 1 FROM idempotency_keys')).length).toBe(1);
  });

  it('priority=high: a repeat gets the first answer without recognising again; 409 while the first still runs', async () => {
    const first = await post('hi-1', { fields: { priority: 'high' } });
    expect(first.statusCode).toBe(200);
    const again = await post('hi-1', { fields: { priority: 'high' } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(h.engine.calls).toHaveLength(1);

    let open!: () => void;
    h.engine.gate = new Promise((r) => {
      open = r;
    });
    const running = post('hi-2', { fields: { priority: 'high' } });
    for (let i = 0; i < 2000 && h.engine.calls.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    const busy = await post('hi-2', { fields: { priority: 'high' } });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    open();
    expect((await running).statusCode).toBe(200);
    expect((await post('hi-2', { fields: { priority: 'high' } })).statusCode).toBe(200);
  });

  it('a malformed key is 422 VALIDATION_ERROR naming the header; nothing stored', async () => {
    for (const bad of ['', 'ключ', 'x'.repeat(256)]) {
      const res = await post(bad);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Idempotency-Key: must be 1 to 255 visible ASCII characters (e.g. a UUID)',
      });
    }
    expect(await count()).toBe(0);
  });
});
