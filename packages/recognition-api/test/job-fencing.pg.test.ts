/**
 * Job fencing with real processes on one PostgreSQL queue (collected only when DATABASE_URL is PostgreSQL):
 * - defect 1: a worker process paused (SIGSTOP) past its lease while a second process claims the document; when it
 *   resumes, its renewal finds the document taken over, its engine is aborted and it writes nothing;
 * - defect 2: the production worker entry (src/worker.ts) on SIGTERM releases its job at once, uncharged, kills the
 *   Tesseract process it started (a stand-in on PATH that hangs) and exits within the grace period.
 * Real processes run in real time: the test polls the database (bounded) instead of sleeping fixed times.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, randomIds, systemClock, type Db } from '@app/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildRecognitionApp, createRecognitionServices } from '../src/app.js';
import { openRecognitionDb } from '../src/db.js';
import { LocalFileStore } from '../src/storage/file-store.js';
import { FakeEngine, pngPage, recognizeForm } from './fixtures.js';

const base = process.env.DATABASE_URL!;
const dbName = `recog_fencing_${randomBytes(4).toString('hex')}`;
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
  dataDir = mkdtempSync(join(tmpdir(), 'recog-fencing-'));
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
beforeEach(async () => {
  await db.query('DELETE FROM documents');
});
// A test that failed half-way must not leave its workers claiming the next test's document.
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app?.close();
  await db?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** Starts a tsx child on `script` with `env`; collects its JSON stdout lines. */
function startProcess(script: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  const onData = (b: Buffer) => {
    buf += b.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p));
      } catch {
        lines.push({ text: p });
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, lines, exited };
}

/** Polls `cond` every 50 ms of real time for at most `ms` (real processes); fails with `what` when it never holds. */
async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

const upload = async (): Promise<string> => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': apiKey },
    payload: recognizeForm([await pngPage()], { priority: 'normal' }),
  });
  expect(res.statusCode).toBe(202);
  return res.json().id;
};
type Row = { status: string; attempts: number; lease_token: number; expired: boolean; number: string | null };
const row = async (id: string): Promise<Row> =>
  (
    await db.query<Row>(
      `SELECT status, attempts, lease_token, coalesce(lease_until < now(), false) AS expired, data->'document'->>'number' AS number
     FROM documents WHERE id = $1`,
      [id],
    )
  )[0]!;

const FENCED_WORKER = join(import.meta.dirname, 'support', 'fenced-worker-process.ts');

describe('a stalled worker process cannot write over the one that took its document', () => {
  it('W1 is paused past its lease, W2 claims and completes; W1 resumes, loses its lease, aborts its engine, writes nothing', async () => {
    const id = await upload();
    const w1 = startProcess(FENCED_WORKER, { WORKER_NAME: 'W1', LEASE_MS: '1500', ENGINE_MS: '30000' });
    await until('W1 claims the document', async () => (await row(id)).lease_token === 1);
    await until('W1 engine started', () => w1.lines.some((l) => l.engine === 'started'));
    w1.child.kill('SIGSTOP');
    await until('W1 lease expired', async () => (await row(id)).expired);
    const w2 = startProcess(FENCED_WORKER, { WORKER_NAME: 'W2', LEASE_MS: '1500', ENGINE_MS: '2000' });
    await until('W2 claims the document', async () => (await row(id)).lease_token === 2);
    w1.child.kill('SIGCONT');
    await until('W1 notices it lost the lease', () => w1.lines.some((l) => l.log === 'job aborted: lease lost'), 20_000);
    expect(w1.lines.filter((l) => 'engine' in l).map((l) => l.engine)).toEqual(['started', 'aborted']);
    await until('W2 completes the document', async () => (await row(id)).status === 'completed');
    // W1 died (as far as W2 knows) while not running alone: no attempt charged, W2 re-ran it alone.
    expect(await row(id)).toMatchObject({ status: 'completed', number: 'W2', lease_token: 2, attempts: 1 });
    expect(w2.lines.filter((l) => 'engine' in l).map((l) => l.engine)).toEqual(['started', 'recognized']);
    w1.child.kill('SIGTERM');
    w2.child.kill('SIGTERM');
    expect(await w1.exited).toBe(0);
    expect(await w2.exited).toBe(0);
  });
});

describe('SIGTERM releases the job at once', () => {
  it('the worker entry puts the document back uncharged, kills its Tesseract and exits within the grace period', async () => {
    const pids = join(dataDir, 'tesseract-pids');
    const id = await upload();
    const w = startProcess(join(import.meta.dirname, '..', 'src', 'worker.ts'), {
      PATH: `${join(import.meta.dirname, 'support', 'fake-tesseract')}:${process.env.PATH}`,
      FAKE_TESSERACT_PIDS: pids,
      RECOGNITION_WORKERS: '1',
      RECOGNITION_SHUTDOWN_GRACE_MS: '8000',
      LOG_LEVEL: 'info',
    });
    const tesseractPid = async () => {
      try {
        return Number(readFileSync(pids, 'utf8').trim().split('\n')[0]) || null;
      } catch {
        return null;
      }
    };
    await until('Tesseract runs for the document', async () => (await tesseractPid()) !== null, 120_000);
    const pid = (await tesseractPid())!;
    expect(await row(id)).toMatchObject({ status: 'processing', attempts: 1 });
    const sent = Date.now();
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const ms = Date.now() - sent;
    expect(ms).toBeLessThan(8000);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0, lease_token: 1 });
    // Signal delivery and reaping are asynchronous: allow a moment, but a Tesseract left running fails (it hangs 600 s).
    const alive = () => {
      try {
        process.kill(pid, 0);
        return !/^\d+ \(\S+\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is dead, only not yet reaped
      } catch {
        return false;
      }
    };
    await until('the Tesseract process is gone', () => !alive(), 5000);
    console.log(`SIGTERM to exit: ${ms} ms`);
  }, 180_000);
});
