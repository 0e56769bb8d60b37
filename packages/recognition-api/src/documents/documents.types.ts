import type { DocumentType, RecognizedData } from '../engine/engine.port.js';
import type { Warning } from '../engine/validate/validate.js';

/**
 * What `newDocumentId` (documents.service.ts) makes; anything else (a NUL, a slash, 10 KB) is not found without
 * asking the database.
 */
export const DOCUMENT_ID_RE = /^doc_[a-z0-9]{1,64}$/;

/** Document states (Spec: States and transitions). */
export type DocumentStatus = 'queued' | 'processing' | 'completed' | 'failed';
/** `high` synchronous, `normal` queued at once, `batch` queued until the next quarter hour. */
export type Priority = 'high' | 'normal' | 'batch';

/**
 * Where a document came from (docs/formalized-upload.md): an upload, or an e-document operator entity imported through the
 * gateway (`messageId`, `entityId` of the operator's message, `boxId` of the configured box). `content` says how
 * it was read: `pages` (images or a PDF, recognised) or `formalized_xml` (an FNS XML file, read exactly).
 */
export type DocumentSource =
  | { kind: 'upload'; content: 'pages' | 'formalized_xml' }
  | { kind: 'edo'; content: 'pages' | 'formalized_xml'; messageId: string; entityId: string; boxId: string };

/** A document row as the service sees it. Times are UTC instants. */
export interface DocumentRecord {
  id: string;
  apiKeyId: string;
  status: DocumentStatus;
  /** As requested (may be `auto`). */
  requestedType: DocumentType | 'auto';
  /** The requested type, replaced by the detected one once recognised. */
  documentType: DocumentType | 'auto';
  imageQuality: 'photo' | 'scan' | 'screenshot';
  outputFormat: 'json' | 'accounting';
  priority: Priority;
  callbackUrl: string | null;
  clientRef: string | null;
  /** Storage keys of the page images, in page order. */
  files: string[];
  createdAt: Date;
  availableAt: Date;
  leaseUntil: Date | null;
  /**
   * Fencing token of the current holder: incremented by every claim (migration 006). Writes of a holder name it,
   * so a holder whose lease was taken over changes nothing (docs/decisions.md "Job fencing").
   */
  leaseToken: number;
  /** Charged processing attempts (a release on shutdown gives its attempt back). */
  attempts: number;
  completedAt: Date | null;
  data: RecognizedData | null;
  confidence: number | null;
  warnings: Warning[] | null;
  processingTimeMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** Absent on records built before documents had a source (tests, tools): an upload of pages. */
  source?: DocumentSource;
}

/** The outcome of processing, written by {@link DocumentsRepo.finish}. */
export type ProcessingResult =
  | { ok: true; documentType: DocumentType; data: RecognizedData; confidence: number; warnings: Warning[]; processingTimeMs: number }
  | {
      ok: false;
      code: string;
      message: string;
      processingTimeMs: number;
      /** True when the engine was unavailable: a worker puts the document back in the queue instead of failing it. */
      retryable?: boolean;
    };
