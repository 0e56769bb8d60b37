import { randomBytes } from 'node:crypto';
import type { Clock, Db, IdSource } from '@app/shared';
import { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import { checkCallbackUrl, type Resolver } from '../callbacks/callback-url.js';
import { ApiError, invalid, notFound } from '../errors.js';
import { buildAccountingExport } from '../export/accounting-export.js';
import type { Lane } from '../jobs/lane.js';
import { JOB_LEASE_MS } from '../jobs/lease.js';
import { deadlineSignal, type Scheduler } from '../time/scheduler.js';
import type { FileStore } from '../storage/file-store.js';
import { documentView } from './document-view.js';
import { sellerOptions, sellerTitleType, writeSellerTitle, type UpdSellerInput } from './upd-export.js';
import type { WrittenUpd } from '../formalized/index.js';
import { formalizedRecord, insertCompleted, isFormalizedXml, readFormalizedFile, withSourceFile } from './formalized-intake.js';
import { DocumentsRepo, type ListFilter } from './documents.repo.js';
import type { DocumentListBody, DocumentRecordBody, ExportBody } from './documents.schemas.js';
import { DOCUMENT_ID_RE, type DocumentRecord } from './documents.types.js';
import { completedBody, recognizeHigh, type HighLaneDeps } from './high-lane.js';
import { IdempotencyRepo } from './idempotency.repo.js';
import { newRecord } from './new-record.js';
import { IDEMPOTENCY_TTL_MS, keyInUse, keyReused, requestHash } from './idempotency.js';
import type { CheckedImage } from '../engine/image-check.js';
import { checkUploadedImages, DeadlineBeforeStore, type ImageChecker } from './intake.js';
import type { RawUpload } from './multipart-upload.js';
import { parseRecognizeFields, type RecognizeRequest } from './recognize-request.js';

/** Budget of a `priority=high` recognition, counted from the request's arrival (Spec: "timeout about 35 seconds"). */
export const SYNC_BUDGET_MS = 35_000;

/** Dependencies of {@link DocumentsService}; `resolve` is DNS for callback URL checks. */
export interface DocumentsDeps {
  /** For DELETE's transaction (row, callback and its attempts together). */
  db: Db;
  docs: DocumentsRepo;
  files: FileStore;
  clock: Clock;
  /** Callback row ids of formalized documents (completed at upload). */
  ids: IdSource;
  scheduler: Scheduler;
  allowLoopbackCallbacks: boolean;
  resolve: Resolver;
  syncBudgetMs?: number;
  /** Upload check of one image (the worker pool in production). */
  checkImage: ImageChecker;
  /** Slots of the high lane: a high request takes one or gets 503 at once. */
  highLane: Lane;
  high: HighLaneDeps;
  /** Called after a document is queued so an idle worker wakes at once. */
  onQueued?: () => void;
  /** RECOGNITION_UPD_XSD: `export?format=upd-xml` is validated against it when set. */
  updXsd?: string;
}

/** What POST /recognize answers: HTTP status and body. */
export type RecognizeResponse = { status: 200 | 202 | 422; body: Record<string, unknown> };

/** `doc_` + 24 random base32-ish characters (Spec: "prefix doc_ followed by a random string"). */
export const newDocumentId = (): string => `doc_${randomBytes(15).toString('base64url').toLowerCase().replace(/[-_]/g, 'x')}`;

/** 404 NOT_FOUND for an id that cannot exist (fuzz finding: a NUL in the id reached PostgreSQL and gave 500). */
function checkDocumentId(id: string): void {
  if (!DOCUMENT_ID_RE.test(id)) throw notFound();
}

/** A concurrent request with the same Idempotency-Key committed first: this one's row is rolled back. */
class KeyTaken extends Error {}

const timeoutBody = (message: string) => ({ error: { code: 'RECOGNITION_TIMEOUT', message } });

/** The documents feature: upload, synchronous recognition, queries, deletion, export. Never imports Fastify. */
export class DocumentsService {
  constructor(private readonly deps: DocumentsDeps) {}

  /**
   * Spec: POST /api/v1/recognize. Checks every field and image before anything is stored (422 VALIDATION_ERROR
   * naming the problem), stores the pages, inserts the row. `normal`/`batch`: 202 `{id, status: 'queued',
   * poll_url}`, batch rows waiting for the next quarter-hour tick. `high`: takes a high-lane slot (503
   * HIGH_PRIORITY_BUSY + Retry-After at once when none is free, nothing stored), then checks and recognises on
   * the lane's own threads before `arrivedAt + 35 s`: 200 with the result, or 422 RECOGNITION_FAILED /
   * RECOGNITION_TIMEOUT (document `failed`; a deadline that passes during the upload check stores nothing).
   */
  async recognize(
    apiKeyId: string,
    upload: RawUpload,
    arrivedAt: Date = this.deps.clock.now(),
    opts: {
      /** Aborts when the client's connection closes before the answer: a high request stops (docs/decisions.md "A high request stops with its client"). */
      disconnected?: AbortSignal;
      /** The `Idempotency-Key` header, already checked by {@link parseIdempotencyKey}. */
      idempotencyKey?: string;
    } = {},
  ): Promise<RecognizeResponse> {
    const { disconnected } = opts;
    const req = parseRecognizeFields(upload.fields);
    if (upload.files.length === 0) throw invalid('images[]', 'at least one image is required (1 to 5)');
    const idem = opts.idempotencyKey ? { key: opts.idempotencyKey, hash: requestHash(upload) } : undefined;
    // A repeated request is answered from its document before any slot is taken or anything is checked again.
    const replayed = idem && (await this.replay(apiKeyId, idem));
    if (replayed) return replayed;
    if (upload.files.some((f) => isFormalizedXml(f.bytes, f.type))) return this.recognizeFormalized(apiKeyId, req, upload, idem);
    if (req.priority !== 'high') {
      const checked = await checkUploadedImages(upload.files, this.deps.checkImage, 'background');
      const doc = await this.store(apiKeyId, req, checked, idem);
      if (!doc) return (await this.replay(apiKeyId, idem!))!;
      this.deps.onQueued?.();
      return { status: 202, body: { id: doc.id, status: 'queued', poll_url: `/api/v1/documents/${doc.id}` } };
    }
    const deadline = new Date(arrivedAt.getTime() + (this.deps.syncBudgetMs ?? SYNC_BUDGET_MS));
    const release = this.deps.highLane.enter(deadline);
    const timer = deadlineSignal(this.deps.scheduler, this.deps.clock, deadline);
    try {
      let checked: CheckedImage[];
      try {
        checked = await checkUploadedImages(
          upload.files,
          this.deps.checkImage,
          'high',
          disconnected ? AbortSignal.any([timer.signal, disconnected]) : timer.signal,
        );
      } catch (err) {
        if (err instanceof DeadlineBeforeStore)
          return { status: 422, body: timeoutBody('timeout: the deadline passed while the images were checked; nothing was stored') };
        throw err;
      }
      const doc = await this.store(apiKeyId, req, checked, idem);
      if (!doc) return (await this.replay(apiKeyId, idem!))!;
      return await recognizeHigh({ ...this.deps.high, onQueued: this.deps.onQueued }, doc, timer.signal, disconnected);
    } finally {
      timer.cancel();
      release();
    }
  }

  /**
   * POST /recognize with one formalized XML file (docs/formalized-upload.md): read exactly, stored
   * completed with confidence 1.00 and `source: {kind: 'upload', content: 'formalized_xml'}`, answered 200 with the
   * result whatever the priority (nothing is left to wait for); the callback, if asked for, is scheduled with the row.
   * The file is kept as received (`<id>/source.xml`) for the panel's download of the original.
   * @throws ApiError 422 VALIDATION_ERROR for XML together with other files, or a file the reader refuses
   *   (formalized-intake.ts); nothing is stored then.
   */
  private async recognizeFormalized(
    apiKeyId: string,
    req: RecognizeRequest,
    upload: RawUpload,
    idem?: { key: string; hash: string },
  ): Promise<RecognizeResponse> {
    if (upload.files.length !== 1) throw invalid('images[]', 'a formalized XML file is sent alone: one file per request, without page images');
    const file = upload.files[0]!;
    const read = readFormalizedFile(file.bytes, file.name, 'images[0]', req.documentType);
    if (req.callbackUrl) await checkCallbackUrl(req.callbackUrl, { allowLoopback: this.deps.allowLoopbackCallbacks, resolve: this.deps.resolve });
    const now = this.deps.clock.now();
    const doc = formalizedRecord({ id: newDocumentId(), apiKeyId, request: req, read, source: { kind: 'upload', content: 'formalized_xml' }, now });
    try {
      await withSourceFile(this.deps.files, doc.id, file.bytes, () =>
        this.deps.db.tx(async (q) => {
          await insertCompleted(q, this.deps.ids, this.deps.clock, doc);
          const since = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
          if (idem && !(await new IdempotencyRepo(q).bind(apiKeyId, idem.key, { requestHash: idem.hash, documentId: doc.id }, now, since)))
            throw new KeyTaken();
          return true;
        }),
      );
    } catch (err) {
      if (err instanceof KeyTaken) return (await this.replay(apiKeyId, idem!))!;
      throw err;
    }
    return { status: 200, body: completedBody(doc) };
  }

  /**
   * The answer to a request whose Idempotency-Key is bound (within 24 h) to a document: the first request's
   * answer (202 for normal/batch; for high 200 or 422 once finished). Null when the key is not bound.
   * @throws ApiError IDEMPOTENCY_KEY_REUSED (422: other files or parameters), IDEMPOTENCY_KEY_IN_USE (409: the
   *   first high request is still running).
   */
  private async replay(apiKeyId: string, idem: { key: string; hash: string }): Promise<RecognizeResponse | null> {
    const since = new Date(this.deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS);
    const bound = await new IdempotencyRepo(this.deps.db).find(apiKeyId, idem.key, since);
    if (!bound) return null;
    if (bound.requestHash !== idem.hash) throw keyReused();
    const doc = await this.deps.docs.get(bound.documentId, apiKeyId);
    if (!doc) return null;
    if (doc.source?.content === 'formalized_xml') return { status: 200, body: completedBody(doc) };
    if (doc.priority !== 'high') return { status: 202, body: { id: doc.id, status: 'queued', poll_url: `/api/v1/documents/${doc.id}` } };
    if (doc.status === 'completed') return { status: 200, body: completedBody(doc) };
    if (doc.status === 'failed')
      return { status: 422, body: { error: { code: doc.errorCode ?? 'RECOGNITION_FAILED', message: doc.errorMessage ?? '' }, id: doc.id } };
    throw keyInUse(doc.id);
  }

  /**
   * Checks the callback URL, stores the pages and inserts the row with its Idempotency-Key binding in one
   * transaction; on a failure removes what was written. Null when a concurrent request bound the key first.
   */
  private async store(
    apiKeyId: string,
    req: RecognizeRequest,
    checked: CheckedImage[],
    idem?: { key: string; hash: string },
  ): Promise<DocumentRecord | null> {
    if (req.callbackUrl) await checkCallbackUrl(req.callbackUrl, { allowLoopback: this.deps.allowLoopbackCallbacks, resolve: this.deps.resolve });
    const now = this.deps.clock.now();
    const id = newDocumentId();
    const keys = checked.map((c, i) => `${id}/page-${i + 1}.${c.ext}`);
    const high = req.priority === 'high';
    const doc = newRecord({
      id,
      apiKeyId,
      request: req,
      files: keys,
      source: { kind: 'upload', content: 'pages' },
      now,
      heldUntil: high ? new Date(now.getTime() + JOB_LEASE_MS) : undefined,
    });
    const since = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
    try {
      for (const [i, c] of checked.entries()) await this.deps.files.put(keys[i]!, c.bytes);
      await this.deps.db.tx(async (q) => {
        await new DocumentsRepo(q).insert(doc);
        if (idem && !(await new IdempotencyRepo(q).bind(apiKeyId, idem.key, { requestHash: idem.hash, documentId: id }, now, since))) {
          throw new KeyTaken();
        }
      });
    } catch (err) {
      await this.deps.files.removeDocument(id).catch(() => {});
      if (err instanceof KeyTaken) return null;
      throw err;
    }
    return doc;
  }

  /** Spec: GET /api/v1/documents/{id}; 404 NOT_FOUND when missing or owned by another key. */
  async get(apiKeyId: string, id: string): Promise<DocumentRecordBody> {
    checkDocumentId(id);
    const doc = await this.deps.docs.get(id, apiKeyId);
    if (!doc) throw notFound();
    return documentView(doc);
  }

  /** Spec: GET /api/v1/documents — the key's documents, newest first. */
  async list(f: ListFilter): Promise<DocumentListBody> {
    const { rows, total } = await this.deps.docs.list(f);
    return { data: rows.map(documentView), total, limit: f.limit, offset: f.offset };
  }

  /**
   * Spec: DELETE /api/v1/documents/{id} — the row, its callback and the callback's attempts in one transaction,
   * then its files. A crash after the commit leaves only files without a row, which the orphan sweep removes
   * (documents/orphan-files.ts); a failure before it changes nothing.
   */
  async delete(apiKeyId: string, id: string): Promise<{ deleted: true }> {
    checkDocumentId(id);
    const doc = await this.deps.db.tx(async (q) => {
      const deleted = await new DocumentsRepo(q).delete(id, apiKeyId);
      if (deleted) {
        await new CallbacksRepo(q).deleteForDocument(id);
        await new IdempotencyRepo(q).deleteForDocument(id);
      }
      return deleted;
    });
    if (!doc) throw notFound();
    await this.deps.files.removeDocument(id);
    return { deleted: true };
  }

  /**
   * GET /api/v1/documents/{id}/export?format=upd-xml (ours, docs/formalized-upload.md): the completed document as the 5.03 seller
   * title (windows-1251), XSD-validated when RECOGNITION_UPD_XSD is set. The EDO participant ids and the signer
   * come from the query; fields the document does not carry are left out (documents/upd-export.ts).
   * @throws ApiError NOT_FOUND, DOCUMENT_NOT_READY, VALIDATION_ERROR (query, a ТОРГ-12, data the format needs,
   *   XSD findings), SERVICE_UNAVAILABLE (the configured XSD cannot be run).
   */
  async exportUpd(
    apiKeyId: string,
    id: string,
    q: UpdSellerInput & { sender_id?: string; recipient_id?: string },
  ): Promise<WrittenUpd & { validated: boolean }> {
    checkDocumentId(id);
    const doc = await this.deps.docs.get(id, apiKeyId);
    if (!doc) throw notFound();
    if (doc.status !== 'completed') throw new ApiError('DOCUMENT_NOT_READY', `document is ${doc.status}; export needs completed`);
    const options = sellerOptions(q, sellerTitleType(doc));
    if (!q.sender_id) throw invalid('sender_id', "is required for upd-xml: the seller's EDO participant id");
    if (!q.recipient_id) throw invalid('recipient_id', "is required for upd-xml: the buyer's EDO participant id");
    return writeSellerTitle(
      doc,
      { ...options, senderId: q.sender_id, recipientId: q.recipient_id, now: () => this.deps.clock.now(), uuid: () => this.deps.ids.uuid() },
      this.deps.updXsd,
    );
  }

  /** Spec: GET /api/v1/documents/{id}/export — `json`: the `data` object; `accounting`: the export document. */
  async export(apiKeyId: string, id: string, format: 'json' | 'accounting'): Promise<ExportBody> {
    checkDocumentId(id);
    const doc = await this.deps.docs.get(id, apiKeyId);
    if (!doc) throw notFound();
    if (doc.status !== 'completed') throw new ApiError('DOCUMENT_NOT_READY', `document is ${doc.status}; export needs completed`);
    return format === 'accounting' ? buildAccountingExport(doc) : doc.data!;
  }
}
