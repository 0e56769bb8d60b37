/**
 * A recognition-worker process for workers.pg.test.ts: the worker-only service with the fake engine (no OCR), on
 * DATABASE_URL and DATA_DIR. On SIGTERM it stops, then prints `{"calls": n}` (documents its engine recognised).
 */
import { startRecognitionWorkers } from '../../src/worker-service.js';
import { FakeEngine } from '../fixtures.js';

const engine = new FakeEngine();
const workers = await startRecognitionWorkers({
  dataDir: process.env.DATA_DIR!,
  databaseUrl: process.env.DATABASE_URL!,
  workers: 2,
  engine,
  pollMs: 20,
  allowLoopbackCallbacks: true,
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void workers.close().then(() => {
    process.stdout.write(`${JSON.stringify({ calls: engine.calls.length })}\n`);
    process.exit(0);
  });
});
