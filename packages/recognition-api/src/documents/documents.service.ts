import { randomBytes } from 'node:crypto';
import type { Clock } from '@app/shared';
import { checkCallbackUrl, type Resolver } from '../callbacks/callback-url.js';
import type { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import { ApiError, invalid, notFound } from '../errors.js';
import { buildAccountingExport } from '../export/accounting-export.js';
import { nextBatchTick } from '../jobs/batch-schedule.js';
import type { DocumentProcessor } from '../jobs/document-processor.js';
import { JOB_LEASE_MS } from '../jobs/worker.js';
import type { FileStore } from '../storage/file-store.js';
import { documentView } from './document-view.js';
import type { DocumentsRepo, ListFilter } from './documents.repo.js';
import type { DocumentRecord } from './documents.types.js';
import { checkImage, ImageRejected, type CheckedImage } from './image-check.js';
import type { RawUpload } from './multipart-upload.js';
import { parseRecognizeFields } from './recognize-request.js';

/** Budget of a `priority=high` recognition (Spec: "timeout about 35 seconds"). */
export const SYNC_BUDGET_MS = 35_000;

/** Dependencies of {@link DocumentsService}; `resolve` is DNS for callback URL checks. */
export interface DocumentsDeps {
  docs: DocumentsRepo; callbacks: CallbacksRepo; files: FileStore; processor: DocumentProcessor; clock: Clock;
  allowLoopbackCallbacks: boolean; resolve: Resolver; syncBudgetMs?: number;
  /** Called after a document is queued so an idle worker wakes at once. */
  onQueued?: () => void;
}

/** What POST /recognize answers: HTTP status and body. */
export type RecognizeResponse = { status: 200 | 202 | 422; body: Record<string, unknown> };

/** `doc_` + 24 random base32-ish characters (Spec: "prefix doc_ followed by a random string"). */
export const newDocumentId = (): string => `doc_${randomBytes(15).toString('base64url').toLowerCase().replace(/[-_]/g, 'x')}`;

/** What {@link newDocumentId} makes; anything else (a NUL, a slash, 10 KB) is not found without asking the database. */
export const DOCUMENT_ID_RE = /^doc_[a-z0-9]{1,64}$/;

/** 404 NOT_FOUND for an id that cannot exist (fuzz finding: a NUL in the id reached PostgreSQL and gave 500). */
function checkDocumentId(id: string): void {
  if (!DOCUMENT_ID_RE.test(id)) throw notFound();
}

/** The documents feature: upload, synchronous recognition, queries, deletion, export. Never imports Fastify. */
export class DocumentsService {
  constructor(private readonly deps: DocumentsDeps) {}

  /**
   * Spec: POST /api/v1/recognize. Checks every field and image before anything is stored (422 VALIDATION_ERROR
   * naming the problem), stores the pages, inserts the row. `high`: recognises inline within 35 s → 200 with the
   * result (plus `export` when output_format=accounting) or 422 RECOGNITION_FAILED; `normal`/`batch`: 202 `{id,
   * status: 'queued', poll_url}`, batch rows waiting for the next quarter-hour tick.
   */
  async recognize(apiKeyId: string, upload: RawUpload): Promise<RecognizeResponse> {
    const req = parseRecognizeFields(upload.fields);
    if (upload.files.length === 0) throw invalid('images[]', 'at least one image is required (1 to 5)');
    const checked: CheckedImage[] = [];
    for (const [i, f] of upload.files.entries()) {
      try {
        checked.push(await checkImage(f.bytes));
      } catch (err) {
        if (err instanceof ImageRejected) throw invalid(`images[${i}]`, `"${f.name}": ${err.message}`);
        throw err;
      }
    }
    if (req.callbackUrl) await checkCallbackUrl(req.callbackUrl, { allowLoopback: this.deps.allowLoopbackCallbacks, resolve: this.deps.resolve });

    const now = this.deps.clock.now();
    const id = newDocumentId();
    const keys = checked.map((c, i) => `${id}/page-${i + 1}.${c.ext}`);
    const doc: DocumentRecord = {
      id, apiKeyId, requestedType: req.documentType, documentType: req.documentType, imageQuality: req.imageQuality,
      outputFormat: req.outputFormat, priority: req.priority, callbackUrl: req.callbackUrl, clientRef: req.clientRef, files: keys,
      createdAt: now, availableAt: req.priority === 'batch' ? nextBatchTick(now) : now,
      // A high-priority row is held by this request; if the process dies, a worker takes it when the lease ends.
      status: req.priority === 'high' ? 'processing' : 'queued', leaseUntil: req.priority === 'high' ? new Date(now.getTime() + JOB_LEASE_MS) : null,
      attempts: req.priority === 'high' ? 1 : 0, completedAt: null, data: null, confidence: null, warnings: null,
      processingTimeMs: null, errorCode: null, errorMessage: null,
    };
    try {
      for (const [i, c] of checked.entries()) await this.deps.files.put(keys[i]!, c.bytes);
      await this.deps.docs.insert(doc);
    } catch (err) {
      await this.deps.files.removeDocument(id).catch(() => {});
      throw err;
    }
    if (req.priority !== 'high') {
      this.deps.onQueued?.();
      return { status: 202, body: { id, status: 'queued', poll_url: `/api/v1/documents/${id}` } };
    }
    return this.recognizeNow(doc);
  }

  private async recognizeNow(doc: DocumentRecord): Promise<RecognizeResponse> {
    const signal = AbortSignal.timeout(this.deps.syncBudgetMs ?? SYNC_BUDGET_MS);
    const result = await this.deps.processor.recognize(doc, signal);
    const done = await this.deps.processor.finish(doc, result);
    if (!done || done.status === 'failed') {
      const message = result.ok ? 'document was deleted while processing' : result.message;
      return { status: 422, body: { error: { code: 'RECOGNITION_FAILED', message }, id: doc.id } };
    }
    return {
      status: 200,
      body: {
        id: done.id, status: 'completed', document_type: done.documentType, processing_time_ms: done.processingTimeMs ?? 0,
        data: done.data, confidence: done.confidence, warnings: done.warnings ?? [],
        ...(done.outputFormat === 'accounting' ? { export: buildAccountingExport(done) } : {}),
      },
    };
  }

  /** Spec: GET /api/v1/documents/{id}; 404 NOT_FOUND when missing or owned by another key. */
  async get(apiKeyId: string, id: string): Promise<Record<string, unknown>> {
    checkDocumentId(id);
    const doc = await this.deps.docs.get(id, apiKeyId);
    if (!doc) throw notFound();
    return documentView(doc);
  }

  /** Spec: GET /api/v1/documents — the key's documents, newest first. */
  async list(f: ListFilter): Promise<Record<string, unknown>> {
    const { rows, total } = await this.deps.docs.list(f);
    return { data: rows.map(documentView), total, limit: f.limit, offset: f.offset };
  }

  /** Spec: DELETE /api/v1/documents/{id} — the row, its pending callback and its files. */
  async delete(apiKeyId: string, id: string): Promise<{ deleted: true }> {
    checkDocumentId(id);
    const doc = await this.deps.docs.delete(id, apiKeyId);
    if (!doc) throw notFound();
    await this.deps.callbacks.deleteForDocument(id);
    await this.deps.files.removeDocument(id);
    return { deleted: true };
  }

  /** Spec: GET /api/v1/documents/{id}/export — `json`: the `data` object; `accounting`: the export document. */
  async export(apiKeyId: string, id: string, format: 'json' | 'accounting'): Promise<unknown> {
    checkDocumentId(id);
    const doc = await this.deps.docs.get(id, apiKeyId);
    if (!doc) throw notFound();
    if (doc.status !== 'completed') throw new ApiError('DOCUMENT_NOT_READY', `document is ${doc.status}; export needs completed`);
    return format === 'accounting' ? buildAccountingExport(doc) : doc.data;
  }
}
