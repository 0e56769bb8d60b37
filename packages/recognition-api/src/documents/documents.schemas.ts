import { Type } from 'typebox';
import { RecognizeFields } from './recognize-request.js';

/**
 * The wire bodies (Document record, Recognised data, list page, recognise responses, errors) are the contract's;
 * re-exported so the routes name every schema of the documents feature from one module.
 */
export {
  AccountingExportSchema,
  AccountingItemSchema,
  DeletedSchema,
  DocumentCompletedSchema,
  type DocumentListBody,
  DocumentListSchema,
  DocumentFailedSchema,
  DocumentPendingSchema,
  type DocumentRecordBody,
  DocumentRecordSchema,
  ErrorBody,
  type ExportBody,
  ExportSchema,
  LineItemSchema,
  PartySchema,
  RecognizeCompletedSchema,
  RecognizedDataSchema,
  RecognizeFailedSchema,
  RecognizeQueuedSchema,
  WarningSchema,
} from '@app/recognition-contract';

/** Path parameter `{id}` of the document routes (`doc_…`; anything else is simply not found). */
export const DocumentIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** Query of GET /api/v1/documents (Spec: GET /api/v1/documents). Dates: `YYYY-MM-DD` or ISO 8601 date-time. */
export const ListQuery = Type.Object({
  status: Type.Optional(Type.Enum(['queued', 'processing', 'completed', 'failed'])),
  type: Type.Optional(Type.Enum(['upd', 'torg12', 'invoice'])),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});

/** Query of GET /api/v1/documents/{id}/export: `format` json (default) or accounting. */
export const ExportQuery = Type.Object({ format: Type.Optional(Type.Enum(['json', 'accounting'])) });

/**
 * The multipart form of POST /api/v1/recognize, for the document only (Spec: POST /api/v1/recognize): the route
 * reads the stream itself (multipart-upload.ts) and checks the text fields with `RecognizeFields`, whose
 * property schemas are reused here so the two cannot disagree.
 */
export const RecognizeFormSchema = Type.Object(
  {
    'images[]': Type.Array(Type.String({ format: 'binary' }), {
      minItems: 1,
      maxItems: 5,
      description: '1 to 5 page files, at most 10 MB each (Spec: Limits); formats as in docs/recognition.md',
    }),
    ...RecognizeFields.properties,
  },
  { description: 'Spec: POST /api/v1/recognize, parameters' },
);
