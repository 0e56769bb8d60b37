import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  DeletedSchema,
  DocumentIdParams,
  DocumentListSchema,
  DocumentRecordSchema,
  EdoDraftBodySchema,
  EdoDraftResultSchema,
  ErrorBody,
  ExportQuery,
  ExportSchema,
  ListQuery,
  RecognizeCompletedSchema,
  RecognizeFailedSchema,
  RecognizeFormSchema,
  RecognizeQueuedSchema,
} from './documents.schemas.js';
import type { DocumentsService } from './documents.service.js';
import type { EdoDraftService } from './edo-draft.js';
import { parseIdempotencyKey } from './idempotency.js';
import { parseListBound } from './list-dates.js';
import { readUpload } from './multipart-upload.js';
import { ApiError } from '../errors.js';

const tags = ['documents'];
/** Documented here, checked by parseIdempotencyKey (a clear 422 naming the header rather than a schema error). */
const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        "ours (docs/recognition.md, Idempotency-Key): 1–255 visible ASCII characters, e.g. a UUID. The same key with the same files and parameters within 24 h returns the first request's document and answer instead of creating another",
    }),
  ),
});
/** Failures every documents route can answer (Spec: Errors; 403 FORBIDDEN for a key without the `recognition` scope, 500 ours). */
const common = {
  401: { ...ErrorBody, description: 'MISSING_API_KEY or INVALID_API_KEY' },
  403: { ...ErrorBody, description: 'FORBIDDEN: the key lacks the `recognition` scope' },
  422: { ...ErrorBody, description: 'VALIDATION_ERROR naming the bad parameter' },
  500: { ...ErrorBody, description: 'INTERNAL_ERROR' },
};
const notFound = { 404: { ...ErrorBody, description: 'NOT_FOUND: no such document, or it belongs to another key' } };

/**
 * The 200 answer of `export`, one media type per format: JSON for `json`/`accounting` (Spec: GET
 * /api/v1/documents/{id}/export), the FNS seller title as windows-1251 bytes for `upd-xml` (ours, docs/formalized-upload.md). Fastify
 * picks the serializer by the reply's media type; the XML is a Buffer and is sent as it is.
 */
const ExportResponse = {
  description: 'format=json: the Recognised data; format=accounting: the accounting export document; format=upd-xml: the 5.03 seller title',
  headers: {
    'content-disposition': Type.String({
      description: 'format=upd-xml only: `attachment; filename="<ИдФайл>.xml"`, the file id the FNS format names the file by',
    }),
    'x-schema-validated': Type.Enum(['true', 'false'], {
      description: 'format=upd-xml only: true when the file was checked against the official XSD (RECOGNITION_UPD_XSD)',
    }),
  },
  content: {
    'application/json': { schema: ExportSchema },
    'application/xml': {
      schema: Type.String({
        format: 'binary',
        description: 'format=upd-xml: the seller title `ON_NSCHFDOPPR`, format 5.03, encoded windows-1251 (`charset=windows-1251`)',
      }),
    },
  },
};

/** Routes of the documents feature (Spec: Endpoints). Thin: parse, call one service method, reply. */
export function documentsRoutes(root: FastifyInstance, service: DocumentsService, drafts: EdoDraftService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/api/v1/recognize',
    {
      // The form is documented but not validated by Fastify: the handler streams the parts (readUpload) and checks them.
      config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: RecognizeFormSchema }, url }) },
      schema: {
        tags,
        operationId: 'recognizeDocument',
        summary: 'Upload 1–5 page images for recognition',
        description:
          'multipart/form-data: images[], document_type, image_quality, output_format, priority, callback_url, client_ref (Spec: POST /api/v1/recognize).',
        consumes: ['multipart/form-data'],
        headers: IdempotencyHeaders,
        response: {
          200: { ...RecognizeCompletedSchema, description: 'priority=high: recognised in the same response' },
          202: { ...RecognizeQueuedSchema, description: 'priority normal or batch: queued; poll poll_url or wait for the callback' },
          ...common,
          422: {
            ...RecognizeFailedSchema,
            description:
              'VALIDATION_ERROR, IDEMPOTENCY_KEY_REUSED (the key came with other files or parameters within 24 h), or a failed (RECOGNITION_FAILED) or timed-out (RECOGNITION_TIMEOUT) priority=high recognition',
          },
          409: { ...ErrorBody, description: 'IDEMPOTENCY_KEY_IN_USE: the first priority=high request with this Idempotency-Key is still running' },
          503: { ...ErrorBody, description: 'HIGH_PRIORITY_BUSY (with Retry-After): every priority=high slot is taken, nothing stored' },
        },
      },
    },
    async (request, reply) => {
      // The response closing before it was sent means the client went away (docs/decisions.md "A high request stops with its client").
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) gone.abort();
      });
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);
      const res = await service.recognize(request.apiKeyId, await readUpload(request), request.arrivedAt, {
        disconnected: gone.signal,
        idempotencyKey,
      });
      // The body is built by the service as a plain record; its shape is the 200/202/422 schema above, which the
      // serialiser applies and the recognize tests compare field by field.
      return reply.status(res.status).send(res.body as never);
    },
  );

  app.get(
    '/api/v1/documents',
    {
      schema: {
        tags,
        operationId: 'listDocuments',
        summary: "List the key's documents, newest first",
        querystring: ListQuery,
        response: { 200: { ...DocumentListSchema, description: 'List page' }, ...common },
      },
    },
    async (request) => {
      const q = request.query;
      return service.list({
        apiKeyId: request.apiKeyId,
        status: q.status,
        type: q.type,
        from: parseListBound('from', q.from),
        to: parseListBound('to', q.to),
        limit: q.limit ?? 20,
        offset: q.offset ?? 0,
      });
    },
  );

  app.get(
    '/api/v1/documents/:id',
    {
      schema: {
        tags,
        operationId: 'getDocument',
        summary: 'One document (short form while queued or processing)',
        params: DocumentIdParams,
        response: { 200: { ...DocumentRecordSchema, description: 'Document record' }, ...common, ...notFound },
      },
    },
    async (request) => service.get(request.apiKeyId, request.params.id),
  );

  app.delete(
    '/api/v1/documents/:id',
    {
      schema: {
        tags,
        operationId: 'deleteDocument',
        summary: 'Delete a document and its files',
        params: DocumentIdParams,
        response: { 200: { ...DeletedSchema, description: 'deleted' }, ...common, ...notFound },
      },
    },
    async (request) => service.delete(request.apiKeyId, request.params.id),
  );

  app.get(
    '/api/v1/documents/:id/export',
    {
      schema: {
        tags,
        operationId: 'exportDocument',
        summary: 'Export a completed document as raw JSON or for accounting import',
        params: DocumentIdParams,
        querystring: ExportQuery,
        response: {
          200: ExportResponse,
          ...common,
          ...notFound,
          409: { ...ErrorBody, description: 'DOCUMENT_NOT_READY: the document is not completed' },
        },
      },
    },
    async (request, reply) => {
      const { format = 'json', ...rest } = request.query;
      if (format !== 'upd-xml') return service.export(request.apiKeyId, request.params.id, format);
      const upd = await service.exportUpd(request.apiKeyId, request.params.id, rest);
      return (
        reply
          .type('application/xml; charset=windows-1251')
          .header('content-disposition', `attachment; filename="${upd.fileId}.xml"`)
          .header('x-schema-validated', String(upd.validated))
          // Bytes, not the JSON schema of the 200 answer: Fastify sends a Buffer as it is.
          .send(upd.xml as never)
      );
    },
  );

  app.post(
    '/api/v1/documents/:id/edo-draft',
    {
      schema: {
        tags,
        operationId: 'postDocumentEdoDraft',
        summary: "Post a completed UPD/invoice through the e-document gateway as the seller's formalized draft",
        description:
          'ours (docs/formalized-upload.md): writes the 5.03 seller title (XSD-validated when RECOGNITION_UPD_XSD is set) and posts it as a Diadoc draft (or delayed send) to the organization with the buyer INN/KPP. Confidence below 0.80 needs `checked: true`.',
        params: DocumentIdParams,
        body: EdoDraftBodySchema,
        response: {
          200: { ...EdoDraftResultSchema, description: 'posted; a repeat returns the same draft' },
          ...common,
          ...notFound,
          409: { ...ErrorBody, description: 'DOCUMENT_NOT_READY' },
          422: { ...ErrorBody, description: 'VALIDATION_ERROR, or MANUAL_CHECK_REQUIRED (confidence below 0.80 without checked: true)' },
          502: { ...ErrorBody, description: 'EDO_UNAUTHORIZED' },
          503: { ...ErrorBody, description: 'EDO_NOT_CONFIGURED, EDO_UNAVAILABLE or the schema check could not run' },
        },
      },
    },
    async (request) => {
      // The route posts to the operator: besides `recognition` (checked by the auth hook) it needs `edo`.
      if (!request.apiKeyScopes.includes('edo'))
        throw new ApiError(
          'FORBIDDEN',
          'this API key lacks the "edo" scope, which a draft needs besides "recognition" (recognition-admin keys set-scopes)',
        );
      return drafts.post(request.apiKeyId, request.params.id, request.body);
    },
  );
}
