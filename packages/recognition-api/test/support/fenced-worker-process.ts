/**
 * A recognition-worker process for job-fencing.pg.test.ts: the worker-only service (one worker, lease LEASE_MS)
 * with an engine that takes ENGINE_MS of real time, honours its abort signal and marks its result with
 * WORKER_NAME (the recognised document number); WORKERS workers (default 1). With POISON_BYTES, a page of exactly
 * that many bytes makes the process kill itself with SIGKILL after POISON_MS (the OS killing a process whose native
 * memory ran away: poison-document.pg.test.ts). Prints one JSON line per event: `{"ready":true}`, the engine's
 * `{"engine":"started"|"recognized"|"aborted"}` and every service log message `{"log": msg}`.
 */
import { RecognitionFailedError, type RecognitionEngine } from '../../src/engine/engine.port.js';
import { startRecognitionWorkers } from '../../src/worker-service.js';
import { makeData } from '../fixtures.js';

const name = process.env.WORKER_NAME!;
const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
const engine: RecognitionEngine = {
  name: 'fake-slow',
  async recognize(input) {
    print({ engine: 'started' });
    if (process.env.POISON_BYTES && input.images[0]!.length === Number(process.env.POISON_BYTES)) {
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), Number(process.env.POISON_MS ?? 0));
    }
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, Number(process.env.ENGINE_MS));
      input.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        print({ engine: 'aborted' });
        reject(new RecognitionFailedError('timeout', 'aborted'));
      });
    });
    print({ engine: 'recognized' });
    return { documentType: 'upd', data: makeData({ document: { number: name, date: '01.11.2026' } }), warnings: [], pages: input.images.length };
  },
  async health() {
    return 'ok';
  },
};
const workers = await startRecognitionWorkers({
  dataDir: process.env.DATA_DIR!,
  databaseUrl: process.env.DATABASE_URL!,
  workers: Number(process.env.WORKERS ?? 1),
  engine,
  pollMs: 20,
  leaseMs: Number(process.env.LEASE_MS),
  allowLoopbackCallbacks: true,
  log: (msg, extra) => print({ log: msg, ...extra }),
});
print({ ready: true });
process.once('SIGTERM', () => void workers.close().then(() => process.exit(0)));
