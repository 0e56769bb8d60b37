/**
 * Two recognition-worker processes (worker-service.ts, no HTTP) on one PostgreSQL queue: every document is
 * processed exactly once. PostgreSQL only (PGlite allows one process per folder): vitest.config.ts collects
 * `*.pg.test.ts` only when DATABASE_URL is a PostgreSQL URL, as `.ci/run`'s PostgreSQL pass sets it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, randomIds, systemClock, type Db } from '@app/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecognitionApp, createRecognitionServices } from '../src/app.js';
import { openRecognitionDb } from '../src/db.js';
import { LocalFileStore } from '../src/storage/file-store.js';
import { FakeEngine, pngPage, recognizeForm } from './fixtures.js';

const DOCS = 24;
const base = process.env.DATABASE_URL!;
const dbName = `recog_workers_${randomBytes(4).toString('hex')}`;
const url = (() => {
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
let admin: Db;
let db: Db;
let app: FastifyInstance;
let services: ReturnType<typeof createRecognitionServices>;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  admin = await openDb({ databaseUrl: base });
  await admin.query(`CREATE DATABASE ${dbName}`);
  dataDir = mkdtempSync(join(tmpdir(), 'recog-workers-'));
  db = await openRecognitionDb({ databaseUrl: url, dataDir });
  const deps = {
    db,
    files: new LocalFileStore(join(dataDir, 'recognition', 'files')),
    localEngine: new FakeEngine(),
    clock: systemClock,
    ids: randomIds,
    allowLoopbackCallbacks: true,
    resolve: async () => ['93.184.216.34'],
  };
  services = createRecognitionServices(deps);
  app = await buildRecognitionApp(deps, services);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await app?.close();
  await db?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts a worker process; resolves once it printed `ready`, with a promise of its final line. */
function startWorker(): Promise<{ done: Promise<{ calls: number }> }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', join(import.meta.dirname, 'support', 'worker-process.ts')], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  return new Promise((ready, fail) => {
    child.on('exit', (code) => code !== 0 && fail(new Error(`worker exited with ${code}`)));
    const done = new Promise<{ calls: number }>((resolve) => child.on('exit', () => resolve(JSON.parse(out.trim().split('\n').pop()!))));
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.startsWith('ready\n')) ready({ done });
    });
  });
}

describe('recognition-worker processes', () => {
  it('two worker processes on one queue process every document exactly once', async () => {
    const key = (await services.keys.create('A')).key;
    for (let i = 0; i < DOCS; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/recognize',
        headers: { 'x-api-key': key },
        payload: recognizeForm([await pngPage()], { priority: 'normal' }),
      });
      expect(res.statusCode).toBe(202);
    }
    const workers = await Promise.all([startWorker(), startWorker()]);
    // Real processes: wait (bounded) until the queue is drained.
    const deadline = Date.now() + 90_000;
    let completed = 0;
    while (Date.now() < deadline) {
      completed = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE status = 'completed'`))[0]!.n;
      if (completed === DOCS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(completed).toBe(DOCS);
    for (const c of children) c.kill('SIGTERM');
    const calls = (await Promise.all(workers.map((w) => w.done))).map((r) => r.calls);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(DOCS); // each document recognised once across both processes
    const attempts = await db.query<{ attempts: number }>(`SELECT attempts FROM documents`);
    expect(attempts.every((r) => r.attempts === 1)).toBe(true); // claimed once each
  });
});
