import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { stringifyJson } from './operator-json.js';
import { edoDirectoryRoutes } from './edo-directory.routes.js';
import { gatewaySchema, passRoute } from './gateway-route.js';
import { pass } from './pass-through.js';
import * as S from './edo.schemas.js';
import type { EdoService } from './edo.service.js';

const tags = ['edo'];
/** Response header with the operation id of a send (every answer, errors included). */
export const OPERATION_HEADER = 'x-operation-id';

/** An error body of the send gets `error.operation_id` (additive), so a client that reads only bodies can retry safely. */
function withOperationId(status: number, payload: unknown, operationId: string): unknown {
  if (status < 400 || typeof payload !== 'string' || !operationId) return payload;
  try {
    const body = JSON.parse(payload) as { error?: Record<string, unknown> };
    if (!body.error) return payload;
    body.error.operation_id = operationId;
    return JSON.stringify(body);
  } catch {
    return payload;
  }
}

/** `attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The e-document operator gateway, /api/v1/edo/* (Spec: E-document operator gateway; 18 routes; X-API-Key with
 * the `edo` scope, checked by the auth hook). Replies are written with a lossless JSON serializer so 64-bit ticks
 * keep every digit. Thin: schema, one service call, reply.
 */
export async function edoRoutes(root: FastifyInstance, service: EdoService): Promise<void> {
  await root.register(async (scope) => {
    scope.setSerializerCompiler(() => (data) => stringifyJson(data));
    scope.setReplySerializer((data) => stringifyJson(data));
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/api/v1/edo/health',
      {
        schema: {
          tags,
          operationId: 'getEdoHealth',
          summary: 'Operator connection check',
          response: { 200: S.EdoHealthBody, 401: S.ErrorBody, 403: S.ErrorBody, 503: S.EdoHealthBody },
        },
      },
      async (_request, reply) => {
        const { ok, body } = await service.health();
        return reply.status(ok ? 200 : 503).send(body);
      },
    );

    passRoute(
      app,
      'GET',
      '/api/v1/edo/documents',
      gatewaySchema('listEdoDocuments', 'List operator documents (V3/GetDocuments)', S.DocumentList, { querystring: S.DocumentsQuery }),
      (request) => service.listDocuments(request.query),
    );
    passRoute(
      app,
      'GET',
      '/api/v1/edo/documents/:messageId/:entityId',
      gatewaySchema('getEdoDocument', 'One document (V3/GetDocument)', S.DiadocDocument, { params: S.EntityParams }),
      (request) => service.getDocument(request.params.messageId, request.params.entityId),
    );

    app.get(
      '/api/v1/edo/documents/:messageId/:entityId/content',
      {
        schema: gatewaySchema(
          'getEdoDocumentContent',
          'Binary content (V4/GetEntityContent), with the document file name',
          Type.String({ format: 'binary' }),
          {
            params: S.EntityParams,
            produces: ['application/octet-stream'],
          },
        ),
      },
      async (request, reply) => {
        const c = await service.getContent(request.params.messageId, request.params.entityId);
        reply.header('content-type', c.contentType).header('content-disposition', contentDisposition(c.fileName));
        if (c.length !== undefined) reply.header('content-length', c.length);
        return reply.send(c.body as never); // a byte stream; the 200 schema documents it as binary
      },
    );

    app.post(
      '/api/v1/edo/documents/send',
      {
        bodyLimit: 75 * 1024 * 1024,
        // The operation id is fixed before validation so every answer, errors included, can carry it.
        onRequest: async (request, reply) => {
          const q = request.query as { operationId?: unknown };
          const header = request.headers['idempotency-key'];
          reply.header(
            OPERATION_HEADER,
            service.operationId(typeof q.operationId === 'string' ? q.operationId : undefined, header as string | undefined),
          );
        },
        onSend: async (_request, reply, payload) => withOperationId(reply.statusCode, payload, String(reply.getHeader(OPERATION_HEADER) ?? '')),
        schema: gatewaySchema('sendEdoDocument', 'Send a document (V3/PostMessage)', S.DiadocMessage, { querystring: S.SendQuery, body: S.SendBody }),
      },
      async (request, reply) => pass(service.send(request.body, String(reply.getHeader(OPERATION_HEADER)))),
    );

    passRoute(
      app,
      'POST',
      '/api/v1/edo/documents/search',
      gatewaySchema('searchEdoDocuments', 'Full-text search (V3/SearchDocflows)', S.SearchResult, { body: S.SearchBody }),
      (request) => service.search(request.body),
    );
    passRoute(
      app,
      'DELETE',
      '/api/v1/edo/documents/:messageId',
      gatewaySchema('deleteEdoDocument', 'Delete a message or one document of it (POST /Delete)', S.Deleted, {
        params: S.MessageParams,
        querystring: S.DeleteQuery,
      }),
      (request) => service.deleteDocument(request.params.messageId, request.query.documentId),
    );
    passRoute(
      app,
      'GET',
      '/api/v1/edo/events',
      gatewaySchema('listEdoEvents', 'Event feed (V8/GetNewEvents); afterEventId takes an EventId (GUID) or an IndexKey', S.EventList, {
        querystring: S.EventsQuery,
      }),
      (request) => service.events(request.query),
    );

    edoDirectoryRoutes(app, service);
  });
}
