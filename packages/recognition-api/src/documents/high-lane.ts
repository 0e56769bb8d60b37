import type { Clock } from '@app/shared';
import type { RecognitionEngine } from '../engine/engine.port.js';
import { buildAccountingExport } from '../export/accounting-export.js';
import { timedOrFailed, type DocumentProcessor } from '../jobs/document-processor.js';
import { holdLease } from '../jobs/lease.js';
import type { QueueRepo } from '../jobs/queue.repo.js';
import { whenAborted, type Scheduler } from '../time/scheduler.js';
import type { DocumentRecord, ProcessingResult } from './documents.types.js';
import { manualCheck } from './document-view.js';

/** Dependencies of {@link recognizeHigh}. */
export interface HighLaneDeps {
  processor: DocumentProcessor;
  queue: QueueRepo;
  clock: Clock;
  scheduler: Scheduler;
  /** The high lane's engine (its own pool threads, Tesseract at normal priority). */
  engine: RecognitionEngine;
  log?: (msg: string, extra: object) => void;
  /** Wakes an idle worker when a document is handed over after a client disconnect. */
  onQueued?: () => void;
}

/** What POST /recognize answers for `priority=high`. */
export type HighResponse = { status: 200 | 422; body: Record<string, unknown> };

class DeadlinePassed extends Error {}
class ClientGone extends Error {}

/**
 * Spec: POST /recognize, `priority=high` ("timeout about 35 seconds"). Recognises the stored document in a hard
 * race with `signal` (aborted at the request's deadline, counted from its arrival): at the deadline the engine
 * task is aborted (the pool kills it) and the document is finished as `failed` with RECOGNITION_TIMEOUT at once,
 * whatever the engine is doing, so the answer never comes later than the deadline and the document is never left
 * `processing`. The lease is renewed meanwhile. 200 with the result, or 422 `{error: {code, message}, id}`.
 */
export async function recognizeHigh(deps: HighLaneDeps, doc: DocumentRecord, signal: AbortSignal, disconnected?: AbortSignal): Promise<HighResponse> {
  const started = deps.clock.now().getTime();
  const lease = holdLease(deps, doc);
  const gone = disconnected ?? new AbortController().signal;
  let result: ProcessingResult;
  try {
    result = await Promise.race([
      deps.processor.recognize(doc, AbortSignal.any([signal, gone]), deps.engine),
      whenAborted<ProcessingResult>(signal, () => new DeadlinePassed()),
      whenAborted<ProcessingResult>(gone, () => new ClientGone()),
    ]);
  } catch (err) {
    if (err instanceof ClientGone) return handOver(deps, doc);
    if (!(err instanceof DeadlinePassed)) throw err;
    result = timedOrFailed('timeout', deps.clock.now().getTime() - started);
  } finally {
    lease.stop();
  }
  if (gone.aborted) return handOver(deps, doc);
  if (!result.ok && result.code === 'RECOGNITION_TIMEOUT') deps.log?.('high-priority deadline passed', { documentId: doc.id });
  const done = await deps.processor.finish(doc, result);
  if (done?.status !== 'completed') {
    const code = result.ok ? 'RECOGNITION_FAILED' : result.code;
    // finish wrote nothing: the document was deleted, or taken over by a worker after this process stalled.
    const message = result.ok ? 'document was deleted or taken over during recognition' : result.message;
    return { status: 422, body: { error: { code, message }, id: doc.id } };
  }
  return { status: 200, body: completedBody(done) };
}

/** The 200 body of a completed priority=high document (also the replay of its Idempotency-Key). */
export function completedBody(done: DocumentRecord): Record<string, unknown> {
  return {
    id: done.id,
    status: 'completed',
    document_type: done.documentType,
    processing_time_ms: done.processingTimeMs ?? 0,
    data: done.data,
    confidence: done.confidence,
    warnings: done.warnings ?? [],
    ...manualCheck(done),
    ...(done.outputFormat === 'accounting' ? { export: buildAccountingExport(done) } : {}),
  };
}

/**
 * The client disconnected (docs/decisions.md "A high request stops with its client"): the engine was aborted, which frees the lane's slot and its
 * Tesseract at once, and the document goes to the background queue, due now and uncharged. It keeps
 * `priority=high`, so workers take it before normal and batch work; the caller finds it by polling its id, by
 * its callback, or by repeating the request with the same Idempotency-Key. Nobody reads this answer.
 */
async function handOver(deps: HighLaneDeps, doc: DocumentRecord): Promise<HighResponse> {
  const queued = await deps.queue.release(doc, deps.clock.now(), { charge: false });
  deps.log?.('high-priority client disconnected: document handed to the queue', { documentId: doc.id, queued });
  if (queued) deps.onQueued?.();
  return { status: 422, body: { error: { code: 'RECOGNITION_FAILED', message: 'client disconnected; the document was queued' }, id: doc.id } };
}
