import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecognitionConfig, openRecognitionDb, startRecognitionService } from '../src/index.js';
import { serviceOptionsFromConfig } from '../src/entry-options.js';
import { runKeysCli } from '../src/keys/keys-cli.js';
import { FakeEngine, pngPage, recognizeForm } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'recog-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Polls `check` every 50 ms of real time, at most `tries` times (bounded: no test waits open-endedly). */
async function until<T>(check: () => Promise<T | undefined>, tries = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

describe('startRecognitionService over real HTTP', () => {
  it('serves, processes a queued document with its worker, sends the callback, and keeps the demo key across restarts', async () => {
    const hooks: Record<string, unknown>[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;

    const opts = {
      dataDir: dir,
      port: 0,
      host: '127.0.0.1',
      engine: new FakeEngine(),
      workers: 1,
      pollMs: 20,
      allowLoopbackCallbacks: true,
      demoApiKey: true as const,
    };
    const svc = await startRecognitionService(opts);
    let restarted: Awaited<ReturnType<typeof startRecognitionService>> | undefined;
    try {
      expect((await fetch(`${svc.url}/api/v1/health`)).status).toBe(200);
      const res = await fetch(`${svc.url}/api/v1/recognize`, {
        method: 'POST',
        headers: { 'x-api-key': svc.apiKey! },
        body: recognizeForm([await pngPage()], { callback_url: hookUrl }),
      });
      expect(res.status).toBe(202);
      const { poll_url } = (await res.json()) as { poll_url: string };
      const doc = await until(async () => {
        const d = (await (await fetch(`${svc.url}${poll_url}`, { headers: { 'x-api-key': svc.apiKey! } })).json()) as { status: string };
        return d.status === 'completed' ? d : undefined;
      });
      expect(doc).toMatchObject({ status: 'completed', confidence: 1 });
      await until(async () => (hooks.length > 0 ? true : undefined));
      expect(hooks[0]).toMatchObject({ event: 'document.completed', status: 'completed' });
      await svc.close();

      restarted = await startRecognitionService(opts);
      expect(restarted.apiKey).toBe(svc.apiKey);
      const again = await fetch(`${restarted.url}${poll_url}`, { headers: { 'x-api-key': restarted.apiKey! } });
      expect(((await again.json()) as { status: string }).status).toBe('completed');
    } finally {
      await restarted?.close();
      await new Promise((r) => receiver.close(r));
    }
  });

  it('the production options create no API key and npm start reads the same configuration', async () => {
    const config = loadRecognitionConfig({
      DATA_DIR: join(dir, 'prod'),
      RECOGNITION_PORT: '0',
      RECOGNITION_WORKERS: '0',
      RECOGNITION_HIGH_SLOTS: '3',
      AI_BASE_URL: 'http://127.0.0.1:9/v1',
      AI_MODEL: 'vision-1',
    });
    const opts = serviceOptionsFromConfig(config);
    expect(opts).toMatchObject({ workers: 0, highSlots: 3, allowLoopbackCallbacks: false, ai: { model: 'vision-1' } });
    expect(opts.demoApiKey).toBeUndefined();
    const svc = await startRecognitionService({ ...opts, engine: new FakeEngine(), ai: undefined });
    try {
      expect(svc.apiKey).toBeNull();
      const res = await fetch(`${svc.url}/api/v1/documents`, { headers: { 'x-api-key': 'rk_anything' } });
      expect(res.status).toBe(401);
    } finally {
      await svc.close();
    }
    const db = await openRecognitionDb({ dataDir: join(dir, 'prod') });
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys'))[0]!.n).toBe(0);
    await db.close();
  });

  it('keys CLI: create, list, deactivate (only hashes stored)', async () => {
    const env = { DATA_DIR: join(dir, 'cli') };
    const out: string[] = [];
    expect(await runKeysCli(['create', '--name', 'Accounting'], (l) => out.push(l), env)).toBe(0);
    const id = /created (key_[0-9a-f]+)/.exec(out[0]!)![1]!;
    const key = /X-API-Key: (rk_\S+)/.exec(out[1]!)![1]!;
    expect(out[2]).toMatch(/^Callback signing secret: whsec_/);
    out.length = 0;
    expect(await runKeysCli(['list'], (l) => out.push(l), env)).toBe(0);
    expect(out[0]).toContain(`${id}\t${key.slice(0, 8)}…\tactive`);
    expect(out.join('\n')).not.toContain(key);
    expect(out.join('\n')).not.toContain('whsec_');
    out.length = 0;
    expect(await runKeysCli(['callback-secret', id], (l) => out.push(l), env)).toBe(0);
    expect(out[0]).toMatch(/^Callback signing secret: whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await runKeysCli(['callback-secret', 'key_missing'], () => {}, env)).toBe(1);
    expect(await runKeysCli(['deactivate', id], () => {}, env)).toBe(0);
    expect(await runKeysCli(['deactivate', id], () => {}, env)).toBe(1);
    expect(await runKeysCli(['bogus'], () => {}, env)).toBe(2);
  });
});
