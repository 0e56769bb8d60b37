import type { Clock, Db, IdSource } from '@app/shared';
import { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import { buildCallbackPayload } from '../callbacks/callback-payload.js';
import { DocumentsRepo } from '../documents/documents.repo.js';
import type { DocumentRecord, ProcessingResult } from '../documents/documents.types.js';
import { computeConfidence } from '../engine/confidence/confidence.js';
import { RecognitionFailedError, type RecognitionEngine } from '../engine/engine.port.js';
import { validateRecognizedData } from '../engine/validate/validate.js';
import type { FileStore } from '../storage/file-store.js';
import type { RecognitionMetrics } from '../http/metrics.js';

/** Caller-safe messages per engine failure reason (the engine's own text may hold internals). */
const REASON_MESSAGES: Record<RecognitionFailedError['reason'], string> = {
  undecodable_image: 'an image could not be decoded',
  no_document: 'no document was found on the images',
  timeout: 'recognition did not finish in time',
  engine_unavailable: 'the recognition engine is unavailable',
  engine_error: 'the recognition engine failed',
};

/** The failure result of a reason; `timeout` gets its own code RECOGNITION_TIMEOUT (docs/decisions.md "Two lanes"). */
export function timedOrFailed(reason: RecognitionFailedError['reason'], processingTimeMs: number, retryable = false): ProcessingResult {
  const code = reason === 'timeout' ? 'RECOGNITION_TIMEOUT' : 'RECOGNITION_FAILED';
  return { ok: false, code, message: `${reason}: ${REASON_MESSAGES[reason]}`, processingTimeMs, retryable };
}

/**
 * The recognition pipeline shared by the synchronous path and the workers: load the pages, run the engine,
 * validate, score confidence; then {@link finish} records the outcome and schedules the callback in one
 * transaction (so a crash never leaves a completed document without its callback row).
 */
export class DocumentProcessor {
  constructor(
    private readonly deps: {
      db: Db;
      files: FileStore;
      engine: RecognitionEngine;
      clock: Clock;
      ids: IdSource;
      log?: (msg: string, extra: object) => void;
      /** Documents, pages and engine time at /metrics. */
      metrics?: RecognitionMetrics;
    },
  ) {}

  /**
   * Runs the engine (default the background one; the high lane passes its own) on a document's pages; never
   * throws — failures become `{ok: false}` with a safe message; a timeout has code RECOGNITION_TIMEOUT.
   */
  async recognize(doc: DocumentRecord, signal?: AbortSignal, engine: RecognitionEngine = this.deps.engine): Promise<ProcessingResult> {
    const started = this.deps.clock.now().getTime();
    const elapsed = () => Math.max(0, this.deps.clock.now().getTime() - started);
    try {
      const images = await Promise.all(doc.files.map((k) => this.deps.files.get(k)));
      const out = await engine.recognize({ images, documentType: doc.requestedType, imageQuality: doc.imageQuality, signal });
      const v = validateRecognizedData(out.data);
      const warnings = [...out.warnings, ...v.warnings];
      const confidence = computeConfidence({ warnings: warnings.length, emptyCritical: v.emptyCritical.length, totalsMismatch: v.totalsMismatch });
      this.deps.metrics?.recognized('completed', images.length, elapsed() / 1000);
      return { ok: true, documentType: out.documentType, data: out.data, confidence, warnings, processingTimeMs: elapsed() };
    } catch (err) {
      const reason = err instanceof RecognitionFailedError ? err.reason : signal?.aborted ? 'timeout' : 'engine_error';
      this.deps.log?.('recognition failed', { documentId: doc.id, reason, err: (err as Error).message });
      this.deps.metrics?.recognized(reason === 'timeout' ? 'timeout' : 'failed', doc.files.length, elapsed() / 1000);
      return timedOrFailed(reason, elapsed(), reason === 'engine_unavailable');
    }
  }

  /**
   * Records the outcome and the callback row, fenced by `doc.leaseToken`; returns the updated record, or null when
   * the document is gone or no longer held under that token (nothing is written then).
   */
  async finish(doc: DocumentRecord, result: ProcessingResult): Promise<DocumentRecord | null> {
    const now = this.deps.clock.now();
    return this.deps.db.tx(async (q) => {
      const docs = new DocumentsRepo(q);
      if (!(await docs.finish(doc.id, doc.leaseToken, result, now))) return null;
      const done = (await docs.getById(doc.id))!;
      if (done.callbackUrl) {
        await new CallbacksRepo(q).schedule(`cb_${this.deps.ids.uuid()}`, done.id, done.apiKeyId, done.callbackUrl, buildCallbackPayload(done), now);
      }
      return done;
    });
  }
}
