/**
 * The recognition engine port: images in, recognised document data out.
 * Implementations: the local OCR engine (sharp + Tesseract, `engine/ocr/`), the AI vision adapter
 * (OpenAI-compatible chat completions, `engine/ai/`), and fakes in tests.
 * Spec: document-recognition-api.md, "Recognised data (`data`)". Field names are the spec's (snake_case).
 */

/** Concrete document types; `auto` exists only as request input. */
export type DocumentType = 'upd' | 'torg12' | 'invoice';
export type ImageQuality = 'photo' | 'scan' | 'screenshot';

/** A counterparty as printed on the document. `inn` is digits only (10 or 12 when read correctly). */
export interface Party {
  name: string | null;
  inn: string | null;
  kpp: string | null;
  address?: string | null;
}

/**
 * One line of the item table. Amounts are in roubles as printed (numbers with kopecks as decimals, e.g. 1234.5),
 * `quantity` in the document's unit. `nds_rate` is a percent (0, 5, 7, 10, 20, 22) or null when unreadable;
 * `nds_exempt` is true when the line says "без НДС" (then `nds_rate` is null and `nds_amount` 0 or null).
 * `unit.code` is the OKEI code as printed (e.g. "796"), `unit.name` the short name (e.g. "шт").
 */
export interface LineItem {
  number: number;
  name: string;
  product_code?: string | null;
  unit: { code: string | null; name: string | null };
  quantity: number | null;
  price: number | null;
  amount_without_nds: number | null;
  nds_rate: number | null;
  nds_exempt?: boolean;
  nds_amount: number | null;
  amount_with_nds: number | null;
}

/** Recognised data exactly in the spec's shape. `document.date` is DD.MM.YYYY when read. */
export interface RecognizedData {
  document: { number: string | null; date: string | null };
  seller: Party;
  buyer: Party;
  items: LineItem[];
  totals: { amount_without_nds: number | null; nds_amount: number | null; amount_with_nds: number | null };
}

/** A remark of the engine itself (e.g. a digit repaired from the line arithmetic, a page without text). */
export interface EngineWarning {
  /** The field path the remark is about, e.g. `items[3].amount_with_nds`, `seller.inn`, `pages[1]`. */
  field: string;
  message: string;
}

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
