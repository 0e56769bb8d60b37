import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ManualClock, SequentialIds, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { buildRecognitionApp, createRecognitionServices, type RecognitionAppDeps, type RecognitionServices } from '../src/app.js';
import { MIGRATIONS_DIR } from '../src/db.js';
import { LocalFileStore } from '../src/storage/file-store.js';
import { FakeEngine } from './fixtures.js';

/** One app over one test database (open per test file: PGlite start costs ~2 s). */
export interface Harness {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  engine: FakeEngine;
  files: LocalFileStore;
  dir: string;
  services: RecognitionServices;
  deps: RecognitionAppDeps;
  keyA: string;
  keyB: string;
  close(): Promise<void>;
}

export async function makeHarness(over: Partial<RecognitionAppDeps> = {}): Promise<Harness> {
  const db = await openTestDb(MIGRATIONS_DIR);
  const dir = mkdtempSync(join(tmpdir(), 'recog-test-'));
  const files = new LocalFileStore(join(dir, 'files'));
  const clock = over.clock instanceof ManualClock ? over.clock : new ManualClock('2026-11-23T09:05:00Z');
  const engine = new FakeEngine();
  const deps: RecognitionAppDeps = {
    db,
    files,
    localEngine: engine,
    clock,
    ids: new SequentialIds(),
    allowLoopbackCallbacks: true,
    resolve: async () => ['93.184.216.34'],
    ...over,
  };
  const services = createRecognitionServices(deps);
  const app = await buildRecognitionApp(deps, services);
  const keyA = (await services.keys.create('A')).key;
  const keyB = (await services.keys.create('B')).key;
  return {
    app,
    db,
    clock,
    engine,
    files,
    dir,
    services,
    deps,
    keyA,
    keyB,
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
