import { Type } from 'typebox';

/** Error body of every failure (Spec: Errors). */
export const ErrorBody = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) });

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
