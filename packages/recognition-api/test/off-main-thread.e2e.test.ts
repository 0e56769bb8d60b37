import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import realSharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeRenderer, generateDocument, type DocType } from '@app/docgen';
import { startRecognitionService } from '../src/server.js';
import { recognizeForm } from './fixtures.js';

// Structural proof that pixel work never runs on the API's event loop: in this file every
// use of sharp on the main thread throws once the service is up. The service's worker threads load their own,
// real sharp (vi.mock does not reach into worker threads), so uploads can only be checked, preprocessed and
// recognised if that work runs in the pool. With the real Tesseract, one generated page of each type is
// recognised end to end through the high lane.
const guard = vi.hoisted(() => ({ forbidden: false, calls: 0 }));
vi.mock('sharp', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof realSharp }).default;
  const guarded = (...args: unknown[]) => {
    if (guard.forbidden) {
      guard.calls++;
      throw new Error('sharp called on the main thread');
    }
    return (real as unknown as (...a: unknown[]) => unknown)(...args);
  };
  return { default: Object.assign(guarded, real) };
});

const dir = mkdtempSync(join(tmpdir(), 'recog-offthread-'));
const pages = new Map<DocType, Awaited<ReturnType<typeof generateDocument>>>();
let bomb: Buffer;
let svc: Awaited<ReturnType<typeof startRecognitionService>>;

beforeAll(async () => {
  for (const [type, seed] of [
    ['upd', 21],
    ['torg12', 22],
    ['invoice', 23],
  ] as const)
    pages.set(type, await generateDocument({ seed, type, tier: 'scan', lines: 2 }));
  await closeRenderer();
  bomb = await realSharp({ create: { width: 7070, height: 7070, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  svc = await startRecognitionService({ dataDir: dir, port: 0, host: '127.0.0.1', workers: 0, highSlots: 2, demoApiKey: true });
  guard.forbidden = true;
}, 120_000);
afterAll(async () => {
  guard.forbidden = false;
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

const recognize = (form: FormData) => fetch(`${svc.url}/api/v1/recognize`, { method: 'POST', headers: { 'x-api-key': svc.apiKey! }, body: form });

describe('pixel work runs in the worker pool, never on the main thread', () => {
  it('a 7070×7070 one-colour PNG bomb is refused with 422, checked off the main thread', async () => {
    const res = await recognize(recognizeForm([bomb], { priority: 'high' }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^images\[0\]: .*decompression bomb/);
    const list = (await (await fetch(`${svc.url}/api/v1/documents`, { headers: { 'x-api-key': svc.apiKey! } })).json()) as { total: number };
    expect(list.total).toBe(0);
    expect(guard.calls).toBe(0);
  });

  it.each(['upd', 'torg12', 'invoice'] as DocType[])(
    'a generated %s page is recognised by the real Tesseract through the high lane',
    async (type) => {
      const doc = pages.get(type)!;
      const res = await recognize(recognizeForm(doc.images, { priority: 'high', document_type: 'auto' }));
      const body = (await res.json()) as Record<string, any>;
      expect(res.status).toBe(200);
      expect(body.document_type).toBe(type);
      expect(body.data.totals).toEqual(doc.truth.totals);
      expect(body.data.seller.inn).toBe(doc.truth.seller.inn);
      expect(body.data.items).toHaveLength(doc.truth.items.length);
      expect(typeof body.manual_check_recommended).toBe('boolean');
      expect(guard.calls).toBe(0);
    },
    90_000,
  );
});
