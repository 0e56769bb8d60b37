import type { Clock, IdSource } from '@app/shared';
import type { DocumentsRepo } from '../documents/documents.repo.js';
import { DOCUMENT_ID_RE, type DocumentRecord } from '../documents/documents.types.js';
import { ApiError, notFound } from '../errors.js';
import { buildCallbackPayload } from './callback-payload.js';
import { CALLBACK_MAX_ATTEMPTS } from './callback-sender.js';
import type { CallbackHistory, CallbacksRepo } from './callbacks.repo.js';
import type { CallbackListBody, CallbackViewBody } from './callbacks.schemas.js';

/** Dependencies of {@link CallbacksService}. */
export interface CallbacksServiceDeps {
  docs: DocumentsRepo;
  callbacks: CallbacksRepo;
  clock: Clock;
  ids: IdSource;
  /** Called after a re-send is scheduled, so an idle sender looks at once. */
  onScheduled?: () => void;
}

/** The API view of a callback row and its attempts (times as ISO 8601 UTC). */
export function callbackView(h: CallbackHistory): CallbackViewBody {
  return {
    id: h.id,
    url: h.url,
    status: h.status,
    series: h.series,
    attempt_count: h.attempts,
    max_attempts: CALLBACK_MAX_ATTEMPTS,
    next_attempt_at: h.status === 'pending' ? h.nextAttemptAt.toISOString() : null,
    last_error: h.lastError,
    created_at: h.createdAt.toISOString(),
    attempts: h.log.map((a) => ({
      series: a.series,
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      finished_at: a.finishedAt.toISOString(),
      outcome: a.outcome,
      http_status: a.httpStatus,
      error: a.error,
    })),
  };
}

/**
 * What a caller sees of its completion callbacks (docs/decisions.md "Callback delivery"; the spec shows delivery only from the
 * sender's side, Spec: Events): the delivery history and a re-send. Never imports Fastify.
 */
export class CallbacksService {
  constructor(private readonly deps: CallbacksServiceDeps) {}

  /**
   * GET /api/v1/documents/{id}/callbacks: the document's callback with every POST (empty list when the document
   * has no `callback_url` or is not finished yet). @throws ApiError NOT_FOUND (missing or another key's document).
   */
  async list(apiKeyId: string, documentId: string): Promise<CallbackListBody> {
    await this.owned(apiKeyId, documentId);
    const h = await this.deps.callbacks.history(documentId);
    return { data: h ? [callbackView(h)] : [] };
  }

  /**
   * POST /api/v1/documents/{id}/callbacks/resend: a new attempt series of the same delivery (same `webhook-id`,
   * the same payload), first POST due now, up to {@link CALLBACK_MAX_ATTEMPTS} POSTs like the automatic series.
   * @throws ApiError NOT_FOUND, DOCUMENT_NOT_READY (not completed or failed yet), CALLBACK_NOT_CONFIGURED (uploaded
   *   without `callback_url`), CALLBACK_IN_PROGRESS (the current series is still pending).
   */
  async resend(apiKeyId: string, documentId: string): Promise<CallbackViewBody> {
    const doc = await this.owned(apiKeyId, documentId);
    if (doc.status !== 'completed' && doc.status !== 'failed')
      throw new ApiError('DOCUMENT_NOT_READY', `document is ${doc.status}; its callback is sent when processing ends`);
    if (!doc.callbackUrl) throw new ApiError('CALLBACK_NOT_CONFIGURED', 'the document was uploaded without callback_url');
    const now = this.deps.clock.now();
    if (!(await this.deps.callbacks.resend(documentId, now))) {
      const current = await this.deps.callbacks.history(documentId);
      if (current) throw new ApiError('CALLBACK_IN_PROGRESS', 'the callback is still being delivered; see GET …/callbacks for its next attempt');
      // A finished document whose row is missing (e.g. removed by hand): schedule it as the first series.
      await this.deps.callbacks.schedule(`cb_${this.deps.ids.uuid()}`, doc.id, doc.apiKeyId, doc.callbackUrl, buildCallbackPayload(doc), now);
    }
    this.deps.onScheduled?.();
    return callbackView((await this.deps.callbacks.history(documentId))!);
  }

  private async owned(apiKeyId: string, documentId: string): Promise<DocumentRecord> {
    if (!DOCUMENT_ID_RE.test(documentId)) throw notFound();
    const doc = await this.deps.docs.get(documentId, apiKeyId);
    if (!doc) throw notFound();
    return doc;
  }
}
