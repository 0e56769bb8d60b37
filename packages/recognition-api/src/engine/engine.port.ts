/**
 * The recognition engine port: images in, recognised document data out.
 * Implementations: the local OCR engine (sharp + Tesseract, `engine/ocr/`), the AI vision adapter
 * (OpenAI-compatible chat completions, `engine/ai/`), and fakes in tests.
 * Spec: document-recognition-api.md, "Recognised data (`data`)"; the shape is `@app/recognition-contract`'s.
 */

import type { DocumentType, ImageQuality, RecognizedData, Warning } from '@app/recognition-contract';

/** The recognised-data shapes are the contract's (`@app/recognition-contract`, recognized-data.ts). */
export type { DocumentType, ImageQuality, LineItem, Party, RecognizedData } from '@app/recognition-contract';

/** A remark of the engine itself (e.g. a digit repaired from the line arithmetic, a page without text). */
export type EngineWarning = Warning;

export interface RecognitionInput {
  /** Original uploaded file bytes in upload order: one page each (JPEG/PNG/WebP/TIFF/BMP), or a PDF of 1–5 pages. */
  images: Buffer[];
  documentType: DocumentType | 'auto';
  imageQuality: ImageQuality;
  /** Aborted when the caller's budget (35 s for priority=high) runs out. */
  signal?: AbortSignal;
}

export interface RecognitionOutput {
  /** The detected type when the input was `auto`, otherwise the requested one. */
  documentType: DocumentType;
  data: RecognizedData;
  warnings: EngineWarning[];
  pages: number;
}

/** Component state reported by GET /api/v1/health (`python_worker` / `ai_api`). */
export type EngineHealth = 'ok' | 'unavailable' | 'not_configured';

export interface RecognitionEngine {
  /** Short name for logs and health, e.g. `tesseract` or `ai:gpt-4o-mini`. */
  readonly name: string;
  /**
   * Recognises one document from its page images.
   * @throws RecognitionFailedError when the images cannot be decoded or hold no recognisable document.
   */
  recognize(input: RecognitionInput): Promise<RecognitionOutput>;
  health(): Promise<EngineHealth>;
}

/** The engine could not produce a document; `reason` is a stable machine-readable cause. */
export class RecognitionFailedError extends Error {
  constructor(
    readonly reason: 'undecodable_image' | 'no_document' | 'timeout' | 'engine_unavailable' | 'engine_error',
    message: string,
  ) {
    super(message);
    this.name = 'RecognitionFailedError';
  }
}
