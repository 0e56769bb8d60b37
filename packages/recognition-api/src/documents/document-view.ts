import type { DocumentRecordBody } from './documents.schemas.js';
import { manualCheckRecommended } from '../engine/confidence/confidence.js';
import type { DocumentRecord } from './documents.types.js';

/** Spec: Validation and confidence, "Below 0.80 a manual check is recommended". */
export const MANUAL_CHECK_BELOW = 0.8;

/**
 * `{manual_check_recommended}` of a completed document (ours, additive): confidence < 0.80, or a warning that asks
 * for a value to be checked against the page (engine/confidence/confidence.ts `manualCheckRecommended`).
 */
export function manualCheck(doc: Pick<DocumentRecord, 'confidence' | 'warnings'>): { manual_check_recommended: boolean } {
  return { manual_check_recommended: manualCheckRecommended(doc.confidence, doc.warnings) };
}

/**
 * The Document record of the API (Spec: Resources, "Document record"). While `queued`/`processing` only the
 * short form `{id, status, document_type, created_at, client_ref}`. Completed adds `source` (ours, docs/formalized-upload.md), `completed_at, data,
 * confidence, warnings, processing_time_ms` and `manual_check_recommended` (ours); failed adds `source`, `completed_at, processing_time_ms` and `error: {code,
 * message}` (ours). Timestamps are ISO 8601 UTC with `Z`.
 */
export function documentView(doc: DocumentRecord): DocumentRecordBody {
  const short = {
    id: doc.id,
    document_type: doc.documentType,
    created_at: doc.createdAt.toISOString(),
    client_ref: doc.clientRef,
  };
  // Not in the short form: the spec lists its fields exactly.
  const source = doc.source ?? { kind: 'upload' as const, content: 'pages' as const };
  if (doc.status === 'completed') {
    return {
      ...short,
      status: doc.status,
      source,
      completed_at: doc.completedAt!.toISOString(),
      data: doc.data!,
      confidence: doc.confidence!,
      warnings: doc.warnings ?? [],
      processing_time_ms: doc.processingTimeMs ?? 0,
      ...manualCheck(doc),
    };
  }
  if (doc.status === 'failed') {
    return {
      ...short,
      status: doc.status,
      source,
      completed_at: doc.completedAt!.toISOString(),
      processing_time_ms: doc.processingTimeMs ?? 0,
      error: { code: doc.errorCode ?? 'RECOGNITION_FAILED', message: doc.errorMessage ?? 'recognition failed' },
    };
  }
  return { ...short, status: doc.status };
}
