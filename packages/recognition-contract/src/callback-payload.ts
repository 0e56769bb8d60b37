/**
 * The body POSTed to a document's `callback_url` when processing ends (Spec: document-recognition-api.md, Events).
 * Completed: the spec's fields plus `client_ref`, `manual_check_recommended` (ours) and, for
 * `output_format=accounting`, `export`. Failed is ours (the spec leaves it open): the short fields plus `error`.
 */
import { literals, Nullable } from '@app/shared/typebox';
import { Type, type Static } from 'typebox';
import { AccountingExportSchema } from './document-record.js';
import { RecognizedDataSchema, WarningSchema } from './recognized-data.js';

const common = {
  document_id: Type.String({ description: '`doc_` + a random string' }),
  document_type: literals(['upd', 'torg12', 'invoice', 'auto']),
  client_ref: Nullable(Type.String()),
  completed_at: Nullable(Type.String({ format: 'date-time', description: 'ISO 8601 UTC with `Z`' })),
};

/** `document.completed`: the result, as in the completed Document record. */
export const CallbackCompletedSchema = Type.Object({
  event: Type.Literal('document.completed'),
  ...common,
  status: Type.Literal('completed'),
  confidence: Type.Number({ minimum: 0.1, maximum: 1 }),
  data: RecognizedDataSchema,
  warnings: Type.Array(WarningSchema),
  manual_check_recommended: Type.Boolean(),
  export: Type.Optional(AccountingExportSchema),
});

/** `document.failed`: why processing failed (`RECOGNITION_FAILED` or `RECOGNITION_TIMEOUT`). */
export const CallbackFailedSchema = Type.Object({
  event: Type.Literal('document.failed'),
  ...common,
  status: Type.Literal('failed'),
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});

/** Either callback body, told apart by `event`. */
export const CallbackPayloadSchema = Type.Union([CallbackCompletedSchema, CallbackFailedSchema]);
export type CallbackPayload = Static<typeof CallbackPayloadSchema>;
