import { nextBatchTick } from '../jobs/batch-schedule.js';
import type { DocumentRecord, DocumentSource } from './documents.types.js';
import type { RecognizeRequest } from './recognize-request.js';

/** The request fields a new record keeps (an upload's form, or an import's JSON body). */
export type RecordRequest = Pick<RecognizeRequest, 'documentType' | 'imageQuality' | 'outputFormat' | 'priority' | 'callbackUrl' | 'clientRef'>;

/** What a new document record of stored pages is built from. */
export interface NewRecordInput {
  id: string;
  apiKeyId: string;
  request: RecordRequest;
  /** Storage keys of the pages, in page order (`[]` for a formalized file, which stores none). */
  files: string[];
  source: DocumentSource;
  now: Date;
  /**
   * Set for a `priority=high` upload: the row is held by the request (`processing`, claim 1) until this instant;
   * if the process dies, a worker takes it over when the lease ends (token 2).
   */
  heldUntil?: Date;
}

/**
 * The one constructor of a new document record, used by every intake (upload, EDO import, formalized file), so a
 * record field added later cannot be missed on one path. The record is `queued` and due now (`batch`: at the next
 * quarter-hour tick, Spec: priority), or `processing` held by the request when `heldUntil` is given; it has no
 * result yet (a formalized record overrides the result fields, formalized-intake.ts).
 */
export function newRecord(input: NewRecordInput): DocumentRecord {
  const { request: req, now, heldUntil } = input;
  const held = heldUntil !== undefined;
  return {
    id: input.id,
    apiKeyId: input.apiKeyId,
    requestedType: req.documentType,
    documentType: req.documentType,
    imageQuality: req.imageQuality,
    outputFormat: req.outputFormat,
    priority: req.priority,
    callbackUrl: req.callbackUrl,
    clientRef: req.clientRef,
    files: input.files,
    createdAt: now,
    availableAt: req.priority === 'batch' ? nextBatchTick(now) : now,
    status: held ? 'processing' : 'queued',
    leaseUntil: heldUntil ?? null,
    attempts: held ? 1 : 0,
    leaseToken: held ? 1 : 0,
    completedAt: null,
    data: null,
    confidence: null,
    warnings: null,
    processingTimeMs: null,
    errorCode: null,
    errorMessage: null,
    source: input.source,
  };
}
