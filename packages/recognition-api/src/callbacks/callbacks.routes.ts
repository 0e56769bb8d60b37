import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { DocumentIdParams, ErrorBody } from '../documents/documents.schemas.js';
import { CallbackListSchema, CallbackViewSchema } from './callbacks.schemas.js';
import type { CallbacksService } from './callbacks.service.js';

const tags = ['documents'];
const common = {
  401: { ...ErrorBody, description: 'MISSING_API_KEY or INVALID_API_KEY' },
  403: { ...ErrorBody, description: 'FORBIDDEN: the key lacks the `recognition` scope' },
  404: { ...ErrorBody, description: 'NOT_FOUND: no such document, or it belongs to another key' },
  500: { ...ErrorBody, description: 'INTERNAL_ERROR' },
};

/** Routes of a document's completion callback (ours; docs/recognition.md "Callbacks"). Thin. */
export function callbacksRoutes(root: FastifyInstance, service: CallbacksService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/v1/documents/:id/callbacks',
    {
      schema: {
        tags,
        operationId: 'listDocumentCallbacks',
        summary: "The document's completion callback: status, every POST with its HTTP status and error",
        params: DocumentIdParams,
        response: { 200: { ...CallbackListSchema, description: 'empty when the document has no callback_url or is not finished' }, ...common },
      },
    },
    async (request) => service.list(request.apiKeyId, request.params.id),
  );

  app.post(
    '/api/v1/documents/:id/callbacks/resend',
    {
      schema: {
        tags,
        operationId: 'resendDocumentCallback',
        summary: 'Send the completion callback again: a new attempt series, first POST at once',
        params: DocumentIdParams,
        response: {
          202: { ...CallbackViewSchema, description: 'the new series is scheduled (status pending)' },
          ...common,
          409: {
            ...ErrorBody,
            description:
              'DOCUMENT_NOT_READY (not finished), CALLBACK_NOT_CONFIGURED (uploaded without callback_url) or CALLBACK_IN_PROGRESS (the current series is pending)',
          },
        },
      },
    },
    async (request, reply) => reply.status(202).send(await service.resend(request.apiKeyId, request.params.id)),
  );
}
