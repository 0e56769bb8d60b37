import { Poller, type Clock } from '@app/shared';
import { CallbackSender, type CallbackSecrets } from '../callbacks/callback-sender.js';
import { UndiciCallbackHttp } from '../callbacks/callback-http.js';
import type { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import type { RecognitionMetrics } from '../http/metrics.js';
import type { DocumentProcessor } from './document-processor.js';
import type { QueueRepo } from './queue.repo.js';
import { JobGate } from './job-gate.js';
import { runWorkerStep } from './worker.js';

/**
 * A periodic sweep the loops only start (documents/ image retention and orphan-file sweep): one pass per call.
 * Named by shape, so jobs/ does not import the documents feature that sits above it.
 */
export interface Sweep {
  runOnce(): Promise<unknown>;
}

/**
 * The services the loops drive: a subset of the app's services (app.ts `createRecognitionServices` returns them), named
 * here so the loops depend on the features and not on the composition root.
 */
export interface LoopServices {
  queue: QueueRepo;
  processor: DocumentProcessor;
  callbacks: CallbacksRepo;
  /** The callbacks' signing secrets (the app's KeysRepo). */
  keys: CallbackSecrets;
  metrics: RecognitionMetrics;
  imageRetention: Sweep;
  orphanFiles: Sweep;
}

/** What {@link startBackgroundLoops} needs. */
export interface BackgroundLoopsOptions {
  services: LoopServices;
  /**
   * The list the worker pollers are added to (`workerCount` of them). The API process builds its `onQueued` wake-up
   * over this list before the app exists, so the loops fill the caller's list instead of returning a new one.
   */
  workers: Poller[];
  /** Recognition workers to start in this process; 0 = none (an API-only process). */
  workerCount: number;
  clock: Clock;
  log?: (msg: string, extra: object) => void;
  /** Real-time pause of an idle worker or callback poller, ms. */
  pollMs: number;
  /** Callbacks to loopback addresses allowed (tests and the demo). */
  allowLoopbackCallbacks: boolean;
  /** Job lease, ms (default JOB_LEASE_MS, 2 min); multi-process tests shorten it. */
  leaseMs?: number;
}

/** The running loops of {@link startBackgroundLoops}. */
export interface BackgroundLoops {
  /**
   * Stops polling; the jobs in progress stop at once (engine aborted, documents back to `queued` uncharged: issue
   * 27, defect 2); waits for them and for the callback deliveries in flight, then closes the callback HTTP client.
   */
  stop(): Promise<void>;
}

/**
 * Starts the background loops every recognition process runs (the API entry and the worker-only entry): the
 * recognition workers (each claims queued documents under a lease, so several processes may run them), the
 * callback sender with its poller, the image retention every minute and the orphan file sweep every 10 minutes
 * (first runs one interval after start, unref'd). Step errors are logged as `background step failed` and the loop goes on.
 */
export function startBackgroundLoops(o: BackgroundLoopsOptions): BackgroundLoops {
  const { services, clock, log, pollMs } = o;
  const onError = (err: unknown) => log?.('background step failed', { err: (err as Error).message });
  const shutdown = new AbortController();
  // Workers turned away while the process ran one document alone look again as soon as it may share.
  const gate = new JobGate(() => {
    for (const w of workers) w.poke();
  });
  const step = () =>
    runWorkerStep({ queue: services.queue, processor: services.processor, clock, log, leaseMs: o.leaseMs, shutdown: shutdown.signal, gate });
  const workers = Array.from({ length: o.workerCount }, () => new Poller(step, { intervalMs: pollMs, onError }));
  o.workers.push(...workers);
  const http = new UndiciCallbackHttp({ allowLoopback: o.allowLoopbackCallbacks });
  // Deliveries run in parallel; when one ends, the poller looks for more at once instead of after its idle pause.
  const callbackSender: CallbackSender = new CallbackSender({
    repo: services.callbacks,
    secrets: services.keys,
    http,
    clock,
    log,
    metrics: services.metrics,
    onSlotFree: () => sender.poke(),
  });
  const sender = new Poller(() => callbackSender.runOnce(), { intervalMs: pollMs, onError });
  // Image retention (documents/image-retention.ts) every minute, never overlapping.
  const purge = new Poller(() => services.imageRetention.runOnce().then(() => false), {
    intervalMs: 60_000,
    runAtStart: false,
    unref: true,
    onError,
  });
  // Files without a row (docs/decisions.md "Storage agrees with the rows") every 10 minutes; the sweep spares files younger than an hour.
  const orphans = new Poller(() => services.orphanFiles.runOnce().then(() => false), {
    intervalMs: 10 * 60_000,
    runAtStart: false,
    unref: true,
    onError,
  });
  for (const w of workers) w.start();
  sender.start();
  purge.start();
  orphans.start();
  return {
    async stop() {
      shutdown.abort();
      await Promise.all([...workers.map((w) => w.stop()), sender.stop(), purge.stop(), orphans.stop()]);
      await callbackSender.settled();
      await http.close();
    },
  };
}
