/**
 * The S3-compatible object-store adapter of the FileStore port, against a real S3-compatible
 * server the test starts (s3rver, in process, on a free port). The port's contract, then the service on it:
 * upload, DELETE, image retention and the orphan sweep work the same as on local disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecognitionConfig } from '../src/config.js';
import { ORPHAN_GRACE_MS } from '../src/documents/orphan-files.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { S3FileStore } from '../src/storage/s3-file-store.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

const BUCKET = 'recognition-files';
let server: S3rver;
let dir: string;
let store: S3FileStore;
let h: Harness;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  store = new S3FileStore({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
  h = await makeHarness({ files: store });
});
afterAll(async () => {
  await h?.close();
  store?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const keysOf = async (documentId: string) => {
  const out: string[] = [];
  for await (const d of store.listDocuments()) if (d.documentId === documentId) out.push(d.documentId);
  return out;
};

describe('S3FileStore (the FileStore port on an object store)', () => {
  it('puts, gets, lists by document and removes a document; a missing object is ENOENT', async () => {
    await store.put('doc_s3a/page-1.png', Buffer.from('one'));
    await store.put('doc_s3a/page-2.png', Buffer.from('two'));
    await store.put('doc_s3b/page-1.png', Buffer.from('other'));
    expect((await store.get('doc_s3a/page-2.png')).toString()).toBe('two');
    const listed = [];
    for await (const d of store.listDocuments()) listed.push(d);
    expect(listed.map((d) => d.documentId)).toEqual(expect.arrayContaining(['doc_s3a', 'doc_s3b']));
    expect(listed.find((d) => d.documentId === 'doc_s3a')!.modifiedAt.getTime()).toBeGreaterThan(0);
    await store.removeDocument('doc_s3a');
    await store.removeDocument('doc_none'); // nothing there: no error
    await expect(store.get('doc_s3a/page-1.png')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await keysOf('doc_s3a')).toEqual([]);
    expect((await store.get('doc_s3b/page-1.png')).toString()).toBe('other');
    await store.removeDocument('doc_s3b');
  });

  it('the service stores uploads there, recognises from there, and DELETE removes them', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()]),
    });
    const id = res.json().id as string;
    expect((await store.get(`${id}/page-1.png`)).subarray(1, 4).toString()).toBe('PNG');
    expect(await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock })).toBe(true);
    expect(h.engine.calls.at(-1)!.images[0]!.subarray(1, 4).toString()).toBe('PNG');
    expect((await h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${id}`, headers: { 'x-api-key': h.keyA } })).json()).toEqual({
      deleted: true,
    });
    await expect(store.get(`${id}/page-1.png`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('image retention and the orphan sweep remove objects as they remove files', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()]),
    });
    const id = res.json().id as string;
    await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
    h.clock.advance(31 * 86_400_000);
    expect(await h.services.imageRetention.runOnce()).toBe(1);
    await expect(store.get(`${id}/page-1.png`)).rejects.toMatchObject({ code: 'ENOENT' });
    // An object without a row (a crashed upload), older than the grace period on the service clock.
    await store.put('doc_s3orphan/page-1.png', Buffer.from('x'));
    h.clock.set(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000));
    expect(await h.services.orphanFiles.runOnce()).toBe(1);
    expect(await keysOf('doc_s3orphan')).toEqual([]);
  });

  it('is chosen by RECOGNITION_S3_BUCKET; half a configuration is refused naming the variable', () => {
    expect(loadRecognitionConfig({ RECOGNITION_S3_BUCKET: 'b1', RECOGNITION_S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toEqual({
      bucket: 'b1',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: undefined,
    });
    expect(loadRecognitionConfig({}).s3).toBeUndefined();
    expect(() => loadRecognitionConfig({ RECOGNITION_S3_ENDPOINT: 'http://x' })).toThrow(
      /RECOGNITION_S3_ENDPOINT is set but RECOGNITION_S3_BUCKET is not/,
    );
    expect(() => loadRecognitionConfig({ RECOGNITION_S3_BUCKET: 'b', RECOGNITION_S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
  });
});
