/**
 * A poison document with real processes on PostgreSQL (collected only when DATABASE_URL is PostgreSQL): a worker
 * process with two workers holds a poison document and an innocent one; the poison one makes the process kill
 * itself (SIGKILL, as the OS would on runaway native memory). A supervisor (this test) restarts the process each
 * time it dies. The poison document is failed after 3 deaths while it ran alone; the innocent one is never
 * charged and completes.
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

const base = process.env.DATABASE_URL!;
const dbName = `recog_poison_${randomBytes(4).toString('hex')}`;
const url = (() => {
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
let admin: Db;
let db: Db;
let app: FastifyInstance;
let apiKey: string;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  admin = await openDb({ databaseUrl: base });
  await admin.query(`CREATE DATABASE ${dbName}`);
  dataDir = mkdtempSync(join(tmpdir(), 'recog-poison-'));
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
  const services = createRecognitionServices(deps);
  app = await buildRecognitionApp(deps, services);
  apiKey = (await services.keys.create('A')).key;
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app?.close();
  await db?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = async (page: Buffer) =>
  (await app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': apiKey }, payload: recognizeForm([page]) })).json()
    .id as string;
const state = async (id: string) =>
  (await db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM documents WHERE id = $1', [id]))[0]!;

describe('a poison document across process deaths', () => {
  it('kills its process 4 times, is failed; the document claimed with it completes uncharged', async () => {
    const poisonPage = await pngPage(80, 60);
    const poison = await upload(poisonPage);
    const innocent = await upload(await pngPage());
    const script = join(import.meta.dirname, 'support', 'fenced-worker-process.ts');
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, WORKER_NAME: 'W', WORKERS: '2', LEASE_MS: '1500', ENGINE_MS: '2500' };
    let deaths = 0;
    const final = (...xs: { status: string }[]) => xs.every((x) => x.status === 'completed' || x.status === 'failed');
    const end = Date.now() + 150_000;
    // The supervisor: run a worker process; when the OS kills it, start another, until both documents are final.
    while (Date.now() < end) {
      if (final(await state(poison), await state(innocent))) break;
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
        env: { ...process.env, ...env, POISON_BYTES: String(poisonPage.length), POISON_MS: '800' },
        stdio: 'ignore',
      });
      children.push(child);
      const exit = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
      // Run until it dies, or until both documents are final (then stop it; the assertions say how they ended).
      for (;;) {
        const signal = await Promise.race([exit, new Promise<'poll'>((r) => setTimeout(() => r('poll'), 100))]);
        if (signal === 'SIGKILL') {
          deaths++;
          break;
        }
        if (final(await state(poison), await state(innocent))) {
          child.kill('SIGTERM');
          await exit;
          break;
        }
      }
    }
    expect(await state(poison)).toMatchObject({ status: 'failed' });
    expect(await state(innocent)).toMatchObject({ status: 'completed', attempts: 1 });
    expect(deaths).toBe(4); // once with company, then 3 times alone
  }, 180_000);
});
