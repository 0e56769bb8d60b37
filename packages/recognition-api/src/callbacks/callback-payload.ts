import type { CallbackPayload, RecognizedData } from '@app/recognition-contract';
import type { DocumentRecord } from '../documents/documents.types.js';
import { manualCheck } from '../documents/document-view.js';
import { buildAccountingExport } from '../export/accounting-export.js';

/**
 * The body POSTed to `callback_url` when processing ends (Spec: Events; shape: the contract's `CallbackPayload`).
 * Completed: `{event: 'document.completed', document_id, status, document_type, confidence, data, warnings,
 * completed_at}` plus `client_ref`, `manual_check_recommended` (confidence < 0.80) and, for `output_format=accounting`, `export` (the accounting document).
 * Failed (our decision; the spec leaves it open): `{event: 'document.failed', document_id, status: 'failed',
 * document_type, error: {code: 'RECOGNITION_FAILED' | 'RECOGNITION_TIMEOUT', message}, completed_at, client_ref}`.
 */
export function buildCallbackPayload(doc: DocumentRecord): CallbackPayload {
  // Key order as sent since the first release: event, document_id, status, document_type, client_ref, completed_at.
  const tail = { document_type: doc.documentType, client_ref: doc.clientRef, completed_at: doc.completedAt?.toISOString() ?? null };
  if (doc.status === 'failed') {
    return {
      event: 'document.failed',
      document_id: doc.id,
      status: 'failed',
      ...tail,
      error: { code: doc.errorCode ?? 'RECOGNITION_FAILED', message: doc.errorMessage ?? 'recognition failed' },
    };
  }
  // Only finished documents get a callback; a completed row carries data and confidence (written together).
  return {
    event: 'document.completed',
    document_id: doc.id,
    status: 'completed',
    ...tail,
    confidence: doc.confidence as number,
    data: doc.data as RecognizedData,
    warnings: doc.warnings ?? [],
    ...manualCheck(doc),
    ...(doc.outputFormat === 'accounting' ? { export: buildAccountingExport(doc) } : {}),
  };
}
