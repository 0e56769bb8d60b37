/**
 * A recognition-worker process for the soak (bench/recognition-soak.ts): the real worker-only service (workers,
 * callback sender, retention, orphan sweep) with an engine that takes 20–80 ms of real time per document and
 * honours its abort signal (no OCR: the soak tests the job machinery). DATABASE_URL, DATA_DIR, WORKERS, LEASE_MS.
 */
import { RecognitionFailedError, type RecognitionEngine } from '../../packages/recognition-api/src/engine/engine.port.js';
import { startRecognitionWorkers } from '../../packages/recognition-api/src/worker-service.js';
import { exitOnStopSignals } from '@app/shared';

const engine: RecognitionEngine = {
  name: 'soak',
  async recognize(input) {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, 20 + Math.random() * 60);
      input.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new RecognitionFailedError('timeout', 'aborted'));
      });
    });
    const data = {
      document: { number: 'S-1', date: '01.11.2026' },
      seller: { name: 'ООО «Поставщик»', inn: '7707083893', kpp: '770701001' },
      buyer: { name: 'ООО «Покупатель»', inn: '7736207543', kpp: '773601001' },
      items: [],
      totals: { amount_without_nds: 0, nds_amount: 0, amount_with_nds: 0 },
    };
    return { documentType: 'upd', data: data as never, warnings: [], pages: input.images.length };
  },
  async health() {
    return 'ok';
  },
};
const workers = await startRecognitionWorkers({
  dataDir: process.env.DATA_DIR!,
  databaseUrl: process.env.DATABASE_URL!,
  workers: Number(process.env.WORKERS ?? 2),
  engine,
  pollMs: 20,
  leaseMs: Number(process.env.LEASE_MS ?? 3000),
  allowLoopbackCallbacks: true,
});
process.stdout.write('ready\n');
exitOnStopSignals(() => workers.close(), { graceMs: 10_000, log: () => {} });
