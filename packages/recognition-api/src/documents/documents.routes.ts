import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DocumentIdParams, ErrorBody, ExportQuery, ListQuery } from './documents.schemas.js';
import type { DocumentsService } from './documents.service.js';
import { parseListBound } from './list-dates.js';
import { readUpload } from './multipart-upload.js';

const errors = { 200: Type.Unknown(), 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody };

/** Routes of the documents feature (Spec: Endpoints). Thin: parse, call one service method, reply. */
export function documentsRoutes(root: FastifyInstance, service: DocumentsService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post('/api/v1/recognize', { schema: { tags: ['documents'], consumes: ['multipart/form-data'] } }, async (request, reply) => {
    const res = await service.recognize(request.apiKeyId, await readUpload(request), request.arrivedAt);
    return reply.status(res.status).send(res.body);
  });

  app.get('/api/v1/documents', { schema: { tags: ['documents'], querystring: ListQuery, response: errors } }, async (request) => {
    const q = request.query;
    return service.list({
      apiKeyId: request.apiKeyId, status: q.status, type: q.type, from: parseListBound('from', q.from),
      to: parseListBound('to', q.to), limit: q.limit ?? 20, offset: q.offset ?? 0,
    });
  });

  app.get('/api/v1/documents/:id', { schema: { tags: ['documents'], params: DocumentIdParams, response: errors } }, async (request) =>
    service.get(request.apiKeyId, request.params.id));

  app.delete('/api/v1/documents/:id', { schema: { tags: ['documents'], params: DocumentIdParams, response: errors } }, async (request) =>
    service.delete(request.apiKeyId, request.params.id));

  app.get('/api/v1/documents/:id/export', { schema: { tags: ['documents'], params: DocumentIdParams, querystring: ExportQuery, response: errors } },
    async (request) => service.export(request.apiKeyId, request.params.id, (request.query.format ?? 'json') as 'json' | 'accounting'));
}
