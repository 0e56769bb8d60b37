import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../errors.js';
import { EntityParams } from '../edo/edo.schemas.js';
import { DocumentRecordSchema, ErrorBody } from './documents.schemas.js';
import type { EdoImportService } from './edo-import.js';
import { FIELD_VALUES } from './recognize-request.js';

/** JSON body of the import (all optional): the recognition fields, for a scanned entity and the callback. */
const ImportBody = Type.Union([
  Type.Null(),
  Type.Object(
    {
      document_type: Type.Optional(Type.Enum([...FIELD_VALUES.document_type], { description: 'default auto; a formalized file must match' })),
      image_quality: Type.Optional(Type.Enum([...FIELD_VALUES.image_quality], { description: 'for a scanned entity; default scan' })),
      output_format: Type.Optional(Type.Enum([...FIELD_VALUES.output_format])),
      priority: Type.Optional(Type.Enum(['normal', 'batch'], { description: 'for a scanned entity; default normal' })),
      callback_url: Type.Optional(Type.String({ maxLength: 500 })),
      client_ref: Type.Optional(Type.String({ maxLength: 255 })),
    },
    { additionalProperties: false },
  ),
]);

const err = (description: string) => ({ ...ErrorBody, description });

/**
 * POST /api/v1/edo/documents/{messageId}/{entityId}/import (ours; docs/formalized-upload.md): an operator entity into a document
 * record of the calling key. Needs both scopes: `edo` (checked by the auth hook for the path) and `recognition`
 * (the record is a recognition document), checked here.
 */
export function edoImportRoutes(root: FastifyInstance, service: EdoImportService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/edo/documents/:messageId/:entityId/import',
    {
      schema: {
        tags: ['edo', 'documents'],
        operationId: 'importEdoDocument',
        summary: 'Import an operator document as a document record (formalized XML read exactly, scans recognised)',
        params: EntityParams,
        body: ImportBody,
        response: {
          200: { ...DocumentRecordSchema, description: 'already imported by this key: the same document' },
          201: { ...DocumentRecordSchema, description: 'a formalized UPD / invoice: completed, confidence 1.00' },
          202: { ...DocumentRecordSchema, description: 'a scan (PDF or image): queued for recognition; poll GET /api/v1/documents/{id}' },
          401: err('MISSING_API_KEY or INVALID_API_KEY'),
          403: err('FORBIDDEN: the key needs both the edo and the recognition scope'),
          404: err('EDO_NOT_FOUND: no such message or entity at the operator'),
          422: err('VALIDATION_ERROR: a body field, or content that is over 10 MB, an unreadable formalized file or an unsupported image'),
          502: err('EDO_UNAUTHORIZED'),
          503: err('EDO_NOT_CONFIGURED or EDO_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      if (!request.apiKeyScopes.includes('recognition'))
        throw new ApiError(
          'FORBIDDEN',
          'this API key lacks the "recognition" scope, which an import needs besides "edo" (recognition-admin keys set-scopes)',
        );
      const res = await service.import(request.apiKeyId, request.params.messageId, request.params.entityId, request.body ?? {});
      return reply.status(res.status).send(res.body);
    },
  );
}
