/**
 * Soak of the recognition job machinery: `DATABASE_URL=postgres://… npm run bench --
 * recognition-soak [--docs 500] [--workers 3]`. Not part of `npm test`. On a fresh PostgreSQL database it uploads
 * `--docs` documents with a `callback_url` to a local receiver (which answers 500 to one POST in ten, so retries
 * happen), starts `--workers` worker processes (bench/recognition/soak-worker.ts: the real worker-only service
 * with a 20–80 ms fake engine), SIGKILLs the first once a third of the documents is done and SIGTERMs the second
 * at two thirds, and waits until every document and callback is final. Prints: documents by status, documents
 * claimed more than once (re-runs after the kill), callbacks by status with the POSTs the receiver saw, duplicate
 * deliveries, and files without rows / rows without files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { openDb, randomIds, systemClock } from '@app/shared';
import { buildRecognitionApp, createRecognitionServices } from '../packages/recognition-api/src/app.js';
import { openRecognitionDb } from '../packages/recognition-api/src/db.js';
import type { RecognitionEngine } from '../packages/recognition-api/src/engine/engine.port.js';
import { LocalFileStore } from '../packages/recognition-api/src/storage/file-store.js';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '500' }, workers: { type: 'string', default: '3' } } });
const DOCS = Number(values.docs);
const WORKERS = Math.max(2, Number(values.workers));
const base = process.env.DATABASE_URL;
if (!base?.startsWith('postgres')) {
  console.error('recognition-soak needs DATABASE_URL=postgres://… (several processes share the queue)');
  process.exit(2);
}
const dbName = `recog_soak_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(base), { pathname: `/${dbName}` }).toString();
const admin = await openDb({ databaseUrl: base });
await admin.query(`CREATE DATABASE ${dbName}`);
const dataDir = mkdtempSync(join(tmpdir(), 'recog-soak-'));
const db = await openRecognitionDb({ databaseUrl: url, dataDir });
const noEngine: RecognitionEngine = {
  name: 'none',
  recognize: () => Promise.reject(new Error('the API process does not recognise in the soak')),
  health: async () => 'ok',
};
const deps = {
  db,
  files: new LocalFileStore(join(dataDir, 'recognition', 'files')),
  localEngine: noEngine,
  clock: systemClock,
  ids: randomIds,
  allowLoopbackCallbacks: true,
  resolve: async () => ['127.0.0.1'],
};
const services = createRecognitionServices(deps);
const app = await buildRecognitionApp(deps, services);
const key = (await services.keys.create('soak')).key;

// The callback receiver: counts POSTs per delivery id; one POST in ten gets 500.
const posts = new Map<string, number>();
let postCount = 0;
const receiver = createServer((req, res) => {
  const id = String(req.headers['webhook-id']);
  req.resume().on('end', () => {
    postCount++;
    const fail = postCount % 10 === 0;
    if (!fail) posts.set(id, (posts.get(id) ?? 0) + 1);
    res.statusCode = fail ? 500 : 200;
    res.end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const page = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#fff' } })
  .png()
  .toBuffer();
const started = Date.now();
for (let i = 0; i < DOCS; i++) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ document_type: 'upd', image_quality: 'scan', callback_url: callbackUrl, client_ref: `soak-${i}` }))
    form.append(k, v);
  form.append('images[]', new Blob([new Uint8Array(page)]), 'p.png');
  const res = await app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': key }, payload: form });
  if (res.statusCode !== 202) throw new Error(`upload ${i}: ${res.statusCode} ${res.body}`);
}
const uploadedMs = Date.now() - started;

const workerScript = join(import.meta.dirname, 'recognition', 'soak-worker.ts');
const children: ChildProcess[] = [];
for (let i = 0; i < WORKERS; i++) {
  children.push(
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', workerScript], {
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, WORKERS: '2', LEASE_MS: '3000' },
      stdio: 'ignore',
    }),
  );
}
const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]!.n;
const completed = () => count(`SELECT count(*)::int AS n FROM documents WHERE status IN ('completed', 'failed')`);
const workStart = Date.now();
let killed = false;
let terminated = false;
const deadline = Date.now() + 20 * 60_000;
while (Date.now() < deadline) {
  const done = await completed();
  if (!killed && done >= DOCS / 3) {
    children[0]!.kill('SIGKILL');
    killed = true;
    process.stderr.write(`SIGKILL worker 1 at ${done} documents\n`);
  }
  if (!terminated && done >= (2 * DOCS) / 3) {
    children[1]!.kill('SIGTERM');
    terminated = true;
    process.stderr.write(`SIGTERM worker 2 at ${done} documents\n`);
  }
  const pendingCallbacks = await count(`SELECT count(*)::int AS n FROM callbacks WHERE status = 'pending'`);
  if (done === DOCS && pendingCallbacks === 0 && (await count('SELECT count(*)::int AS n FROM callbacks')) === DOCS) break;
  await new Promise((r) => setTimeout(r, 200));
}
const workMs = Date.now() - workStart;
const byStatus = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM documents GROUP BY status ORDER BY status');
const reclaimed = await count('SELECT count(*)::int AS n FROM documents WHERE lease_token > 1');
const attempts = await db.query<{ attempts: number; n: number }>(
  'SELECT attempts, count(*)::int AS n FROM documents GROUP BY attempts ORDER BY attempts',
);
const cbStatus = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM callbacks GROUP BY status ORDER BY status');
const recordedPosts = await count('SELECT count(*)::int AS n FROM callback_attempts');
const duplicates = [...posts.values()].filter((n) => n > 1).length;
const filesDir = join(dataDir, 'recognition', 'files');
const folders = new Set(existsSync(filesDir) ? readdirSync(filesDir) : []);
const rows = new Set((await db.query<{ id: string }>('SELECT id FROM documents')).map((r) => r.id));
const filesWithoutRow = [...folders].filter((f) => !rows.has(f)).length;
const rowsWithoutFiles = [...rows].filter((r) => !folders.has(r)).length;

for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
console.log(`## Recognition soak (${DOCS} documents, ${WORKERS} worker processes × 2 workers; one SIGKILLed, one SIGTERMed)\n`);
console.log('| measure | value |\n|---|---|');
console.log(`| upload of ${DOCS} documents (in process) | ${(uploadedMs / 1000).toFixed(1)} s |`);
console.log(`| all documents final and callbacks delivered | ${(workMs / 1000).toFixed(1)} s |`);
console.log(`| documents by status | ${byStatus.map((r) => `${r.status} ${r.n}`).join(', ')} |`);
console.log(`| documents claimed more than once | ${reclaimed} |`);
console.log(`| attempts charged | ${attempts.map((r) => `${r.attempts}: ${r.n}`).join(', ')} |`);
console.log(`| callbacks by status | ${cbStatus.map((r) => `${r.status} ${r.n}`).join(', ')} |`);
console.log(
  `| POSTs received / answered 2xx / recorded attempts | ${postCount} / ${[...posts.values()].reduce((a, b) => a + b, 0)} / ${recordedPosts} |`,
);
console.log(`| deliveries confirmed more than once (same webhook-id) | ${duplicates} |`);
console.log(`| files without a row / rows without files | ${filesWithoutRow} / ${rowsWithoutFiles} |`);
await new Promise((r) => setTimeout(r, 500));
await app.close();
await db.close();
await new Promise((r) => receiver.close(r));
await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await admin.close();
rmSync(dataDir, { recursive: true, force: true });
