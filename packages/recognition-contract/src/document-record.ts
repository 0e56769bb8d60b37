/**
 * The Document record and the bodies built around it (Spec: document-recognition-api.md, Resources, "Document
 * record", "List page", "Accounting export document"; POST /api/v1/recognize responses; Errors). Times are ISO 8601
 * UTC strings with `Z`; amounts are roubles as JSON numbers with kopecks as decimals.
 *
 * Fastify serialises replies with fast-json-stringify from these schemas, which drops properties a schema does not
 * name and refuses missing required ones: each schema is exactly what the service sends (fields that are sometimes
 * absent are Optional, fields that can be null are `X | null`).
 */
import { literals, Nullable } from '@app/shared/typebox';
import { Type, type Static } from 'typebox';
import { RecognizedDataSchema, Roubles, WarningSchema } from './recognized-data.js';

/** Error body of every failure (Spec: Errors). */
export const ErrorBody = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) });

/** An instant as ISO 8601 UTC with `Z` (e.g. `2026-01-31T09:15:00.000Z`). */
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description: `${description}; ISO 8601 UTC with \`Z\`` });

/** `document_type` of a record: the requested type (`auto` until recognised), then the detected one. */
const DocumentTypeOut = literals(
  ['upd', 'torg12', 'invoice', 'auto'],
  'upd | torg12 | invoice; `auto` only while a document asked to detect its type is not yet recognised',
);

/** One line of the accounting export (ours: the spec leaves the shape of `items` open). Amounts in roubles. */
export const AccountingItemSchema = Type.Object({
  line_number: Type.Integer(),
  name: Type.String(),
  product_code: Nullable(Type.String()),
  unit_code: Nullable(Type.String({ description: 'OKEI code' })),
  unit_name: Nullable(Type.String()),
  quantity: Nullable(Type.Number()),
  price: Roubles('price per unit without VAT'),
  amount_without_vat: Roubles('line amount without VAT'),
  vat_rate: Nullable(Type.String({ description: '"20%", "10%", "0%" …, "без НДС" for exempt lines, null when unreadable' })),
  vat_amount: Roubles('VAT amount of the line (0 for exempt lines)'),
  amount_with_vat: Roubles('line amount with VAT'),
});

/**
 * Accounting export document, `export?format=accounting` (Spec: Resources, "Accounting export document").
 * `document` and the extra sums of `totals` are ours; the counterparty is the seller. Amounts in roubles.
 */
export const AccountingExportSchema = Type.Object(
  {
    accounting_version: Type.String({ description: 'version of this layout, e.g. "1.0"' }),
    source_service: Type.String({ description: 'name of this service: recognition-api' }),
    document_id: Type.String(),
    recognized_at: Timestamp('when recognition finished'),
    document_type: Type.String(),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    document: Type.Object({ number: Nullable(Type.String()), date: Nullable(Type.String({ description: 'DD.MM.YYYY' })) }),
    counterparty: Type.Object({
      inn: Nullable(Type.String()),
      kpp: Nullable(Type.String()),
      name: Nullable(Type.String()),
      role: Type.Literal('seller'),
    }),
    items: Type.Array(AccountingItemSchema),
    totals: Type.Object({
      amount_without_vat: Roubles('total without VAT'),
      vat_amount: Roubles('total VAT'),
      amount_with_nds: Roubles('total with VAT'),
      currency: Type.Literal('RUB'),
    }),
    raw_data: RecognizedDataSchema,
  },
  { description: 'Spec: Resources, Accounting export document (format=accounting); amounts in roubles as numbers' },
);

const SourceContent = literals(
  ['pages', 'formalized_xml'],
  '`pages`: page images or a PDF, recognised; `formalized_xml`: an FNS formalized XML file (UPD / invoice), read exactly',
);

/**
 * Where a document came from (ours; docs/formalized-upload.md): `upload` through POST /recognize, or
 * `edo` imported from the e-document operator with the operator's message and entity ids and the box id.
 */
export const DocumentSourceSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('upload'), content: SourceContent }, { title: 'UploadSource' }),
    Type.Object(
      {
        kind: Type.Literal('edo'),
        content: SourceContent,
        messageId: Type.String({ description: "the operator's message id" }),
        entityId: Type.String({ description: "the operator's entity (document) id within the message" }),
        boxId: Type.String({ description: 'the box the document was imported from' }),
      },
      { title: 'EdoSource' },
    ),
  ],
  { description: 'ours: where the document came from (paper upload, formalized XML upload, or the e-document operator)' },
);
export type DocumentSourceBody = Static<typeof DocumentSourceSchema>;

// Property order is the spec's (id, status, document_type, …): the serialiser writes fields in schema order.
const DocumentId = Type.String({ description: '`doc_` + a random string' });
const shortFields = {
  document_type: DocumentTypeOut,
  created_at: Timestamp('when the document was accepted'),
  client_ref: Nullable(Type.String({ maxLength: 255, description: "the caller's own reference" })),
};

/** Short form while in processing (Spec: Document record, "only id, status, document_type, created_at, client_ref"). */
export const DocumentPendingSchema = Type.Object(
  {
    id: DocumentId,
    status: literals(['queued', 'processing']),
    ...shortFields,
  },
  { title: 'DocumentPending' },
);

/** A completed document: the short form plus the result (Spec: Document record; `manual_check_recommended` is ours). */
export const DocumentCompletedSchema = Type.Object(
  {
    id: DocumentId,
    status: Type.Literal('completed'),
    ...shortFields,
    source: DocumentSourceSchema,
    completed_at: Timestamp('when processing finished'),
    data: RecognizedDataSchema,
    confidence: Type.Number({ minimum: 0.1, maximum: 1, description: '0.10 to 1.00 (Spec: Validation and confidence)' }),
    warnings: Type.Array(WarningSchema),
    processing_time_ms: Type.Integer({ description: 'milliseconds' }),
    manual_check_recommended: Type.Boolean({
      description: 'ours: true when confidence is below 0.80, or a warning asks to check a value against the page (a doubtful name or number)',
    }),
  },
  { title: 'DocumentCompleted' },
);

/** A failed document: the short form plus `error` (ours; the spec does not show the failed record). */
export const DocumentFailedSchema = Type.Object(
  {
    id: DocumentId,
    status: Type.Literal('failed'),
    ...shortFields,
    source: DocumentSourceSchema,
    completed_at: Timestamp('when processing finished'),
    processing_time_ms: Type.Integer({ description: 'milliseconds' }),
    error: Type.Object({ code: Type.String({ description: 'e.g. RECOGNITION_FAILED, RECOGNITION_TIMEOUT' }), message: Type.String() }),
  },
  { title: 'DocumentFailed' },
);

/** The Document record (Spec: Resources, "Document record"), one of three forms told apart by `status`. */
export const DocumentRecordSchema = Type.Union([DocumentPendingSchema, DocumentCompletedSchema, DocumentFailedSchema], {
  description: 'Spec: Resources, Document record; short form while queued/processing',
});

/** List page (Spec: Resources, "List page"): newest first. */
export const DocumentListSchema = Type.Object(
  {
    data: Type.Array(DocumentRecordSchema),
    total: Type.Integer({ description: 'documents matching the filter' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
  },
  { description: 'Spec: Resources, List page' },
);

/** 202 of POST /recognize, `normal`/`batch` (Spec: POST /api/v1/recognize, Responses). */
export const RecognizeQueuedSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('queued'),
    poll_url: Type.String({ description: 'path of GET /api/v1/documents/{id}' }),
  },
  { description: 'Spec: POST /api/v1/recognize, 202' },
);

/** 200 of POST /recognize, `priority=high`: the result in the same response (`export` when output_format=accounting). */
export const RecognizeCompletedSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('completed'),
    document_type: literals(['upd', 'torg12', 'invoice']),
    processing_time_ms: Type.Integer({ description: 'milliseconds' }),
    data: RecognizedDataSchema,
    confidence: Type.Number({ minimum: 0.1, maximum: 1 }),
    warnings: Type.Array(WarningSchema),
    manual_check_recommended: Type.Boolean({
      description: 'ours: true when confidence is below 0.80, or a warning asks to check a value against the page (a doubtful name or number)',
    }),
    export: Type.Optional(AccountingExportSchema),
  },
  { description: 'Spec: POST /api/v1/recognize, 200 (priority=high)' },
);

/** 422 of POST /recognize: the error body, with the failed document's `id` when one was stored. */
export const RecognizeFailedSchema = Type.Object(
  {
    error: Type.Object({ code: Type.String({ description: 'VALIDATION_ERROR, RECOGNITION_FAILED or RECOGNITION_TIMEOUT' }), message: Type.String() }),
    id: Type.Optional(Type.String({ description: 'the failed document (priority=high), absent when nothing was stored' })),
  },
  { description: 'Spec: Errors, 422' },
);

/** DELETE /api/v1/documents/{id} (Spec: `{deleted: true}`). */
export const DeletedSchema = Type.Object({ deleted: Type.Literal(true) });

/** Body of `export`: `format=json` the Recognised data, `format=accounting` the accounting export document. */
export const ExportSchema = Type.Union([AccountingExportSchema, RecognizedDataSchema], {
  description: 'Spec: GET /api/v1/documents/{id}/export; the shape of `data` (json) or the accounting export document',
});

/** Body types derived from the schemas, so the views that build them are checked against what is published. */
export type DocumentRecordBody = Static<typeof DocumentRecordSchema>;
export type DocumentListBody = Static<typeof DocumentListSchema>;
export type ExportBody = Static<typeof ExportSchema>;
export type AccountingItem = Static<typeof AccountingItemSchema>;
export type AccountingExport = Static<typeof AccountingExportSchema>;
