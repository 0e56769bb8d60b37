import type { DocumentRecord } from './documents.types.js';

/**
 * The Document record of the API (Spec: Resources, "Document record"). While `queued`/`processing` only the
 * short form `{id, status, document_type, created_at, client_ref}`. Completed adds `completed_at, data,
 * confidence, warnings, processing_time_ms`; failed adds `completed_at, processing_time_ms` and `error: {code,
 * message}` (ours). Timestamps are ISO 8601 UTC with `Z`.
 */
export function documentView(doc: DocumentRecord): Record<string, unknown> {
  const short = {
    id: doc.id,
    status: doc.status,
    document_type: doc.documentType,
    created_at: doc.createdAt.toISOString(),
    client_ref: doc.clientRef,
  };
  if (doc.status === 'completed') {
    return {
      ...short,
      completed_at: doc.completedAt!.toISOString(),
      data: doc.data,
      confidence: doc.confidence,
      warnings: doc.warnings ?? [],
      processing_time_ms: doc.processingTimeMs ?? 0,
    };
  }
  if (doc.status === 'failed') {
    return {
      ...short,
      completed_at: doc.completedAt!.toISOString(),
      processing_time_ms: doc.processingTimeMs ?? 0,
      error: { code: doc.errorCode ?? 'RECOGNITION_FAILED', message: doc.errorMessage ?? 'recognition failed' },
    };
  }
  return short;
}
