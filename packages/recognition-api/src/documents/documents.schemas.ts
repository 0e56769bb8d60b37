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

const Text = (description: string, maxLength = 200) => Type.Optional(Type.String({ minLength: 1, maxLength, description }));
/** What the seller title needs beyond the recognised data (documents/upd-export.ts); `export?format=upd-xml` and `edo-draft`. */
const SellerFields = {
  signer: Text('upd-xml: "Фамилия Имя [Отчество]" of the signer (Подписант), required'),
  signer_position: Text("upd-xml: the signer's position (Должн)"),
  signer_authority: Type.Optional(Type.Enum(['1', '2', '3', '4', '5', '6'], { description: 'upd-xml: СпосПодтПолном, default 1' })),
  operation: Text('upd-xml, a UPD: the transfer content (СодОпер), e.g. "Товары переданы", required', 255),
};
const ParticipantId = (description: string) => Type.Optional(Type.String({ pattern: '^[0-9A-Za-z-]{4,46}$', description }));

/**
 * Query of GET /api/v1/documents/{id}/export: `format` json (default), accounting, or upd-xml (ours, docs/formalized-upload.md: the
 * 5.03 seller title, with the sender/recipient EDO participant ids and the signer the paper does not carry).
 */
export const ExportQuery = Type.Object({
  format: Type.Optional(Type.Enum(['json', 'accounting', 'upd-xml'])),
  sender_id: ParticipantId('upd-xml: EDO participant id of the sender (seller), e.g. 2BM-7707083893-770701001-…; required'),
  recipient_id: ParticipantId('upd-xml: EDO participant id of the recipient (buyer); required'),
  ...SellerFields,
});

/** Body of POST /api/v1/documents/{id}/edo-draft (ours, docs/formalized-upload.md). */
export const EdoDraftBodySchema = Type.Object(
  {
    ...SellerFields,
    checked: Type.Optional(Type.Boolean({ description: 'a person checked the data: required when confidence is below 0.80' })),
    mode: Type.Optional(Type.Enum(['draft', 'delaySend'], { description: 'draft (default) or delaySend (outbound, to be signed and sent)' })),
  },
  { additionalProperties: false },
);

/** Answer of POST /api/v1/documents/{id}/edo-draft: the operator's message and entity of the draft. */
export const EdoDraftResultSchema = Type.Object({
  document_id: Type.String(),
  message_id: Type.String({ description: "the operator's MessageId" }),
  entity_id: Type.String({ description: "the operator's EntityId of the UPD" }),
  to_box_id: Type.String({ description: "the buyer's box, found by its INN/KPP" }),
  mode: Type.Enum(['draft', 'delaySend']),
  file_id: Type.String({ description: 'ИдФайл of the written XML' }),
  schema_validated: Type.Boolean({ description: 'true when checked against RECOGNITION_UPD_XSD' }),
});

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
