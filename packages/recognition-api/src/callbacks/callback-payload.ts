import type { DocumentRecord } from '../documents/documents.types.js';
import { manualCheck } from '../documents/document-view.js';
import { buildAccountingExport } from '../export/accounting-export.js';

/**
 * The body POSTed to `callback_url` when processing ends (Spec: Events).
 * Completed: `{event: 'document.completed', document_id, status, document_type, confidence, data, warnings,
 * completed_at}` plus `client_ref`, `manual_check_recommended` (confidence < 0.80) and, for `output_format=accounting`, `export` (the accounting document).
 * Failed (our decision; the spec leaves it open): `{event: 'document.failed', document_id, status: 'failed',
 * document_type, error: {code: 'RECOGNITION_FAILED' | 'RECOGNITION_TIMEOUT', message}, completed_at, client_ref}`.
 */
export function buildCallbackPayload(doc: DocumentRecord): Record<string, unknown> {
  const common = {
    document_id: doc.id,
    status: doc.status,
    document_type: doc.documentType,
    client_ref: doc.clientRef,
    completed_at: doc.completedAt?.toISOString() ?? null,
  };
  if (doc.status === 'failed') {
    return {
      event: 'document.failed',
      ...common,
      error: { code: doc.errorCode ?? 'RECOGNITION_FAILED', message: doc.errorMessage ?? 'recognition failed' },
    };
  }
  return {
    event: 'document.completed',
    ...common,
    confidence: doc.confidence,
    data: doc.data,
    warnings: doc.warnings ?? [],
    ...manualCheck(doc),
    ...(doc.outputFormat === 'accounting' ? { export: buildAccountingExport(doc) } : {}),
  };
}
