import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { documentIndexKey, queryDocuments, type DocumentsQuery } from '../documents.js';
import type { SimDocument } from '../model.js';
import { render as renderMessage, postMessage } from '../post-message.js';
import { documentJson } from '../render.js';
import { searchDocflows } from '../search.js';
import { appendEvent, GUID, requireOurBox, type SimContext } from './context.js';
import { DiadocError, notFound } from './diadoc-error.js';
import { ticksOf } from '../ticks.js';

const Box = { boxId: Type.String() };
const EntityQuery = Type.Object({
  ...Box,
  messageId: Type.String({ pattern: GUID }),
  entityId: Type.String({ pattern: GUID }),
  injectEntityContent: Type.Optional(Type.Boolean()),
});

function findDocument(ctx: SimContext, messageId: string, entityId: string): SimDocument {
  const d = ctx.state.documents.find((x) => x.messageId === messageId.toLowerCase() && x.entityId === entityId.toLowerCase());
  if (!d) throw notFound(`Document ${messageId}/${entityId} not found`, 'DocumentNotFound');
  return d;
}

/** GetDocuments, GetDocument, GetEntityContent, PostMessage, SearchDocflows, Delete ([D] http/*.rst). */
export function documentsRoutes(root: FastifyInstance, ctx: SimContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/V3/GetDocuments',
    {
      schema: {
        querystring: Type.Object({
          ...Box,
          filterCategory: Type.String(),
          counteragentBoxId: Type.Optional(Type.String()),
          fromDocumentDate: Type.Optional(Type.String()),
          toDocumentDate: Type.Optional(Type.String()),
          timestampFromTicks: Type.Optional(Type.String({ pattern: '^\\d+$' })),
          timestampToTicks: Type.Optional(Type.String({ pattern: '^\\d+$' })),
          documentNumber: Type.Optional(Type.String()),
          afterIndexKey: Type.Optional(Type.String()),
          sortDirection: Type.Optional(Type.Union([Type.Literal('Ascending'), Type.Literal('Descending')])),
          count: Type.Optional(Type.Integer()),
        }),
      },
    },
    async (request) => {
      requireOurBox(ctx, request.query.boxId);
      const { total, page, hasMore } = queryDocuments(ctx.state, request.query as DocumentsQuery);
      return { TotalCount: total, Documents: page.map((x) => documentJson(x.d, x.key, false)), HasMoreResults: hasMore };
    },
  );

  app.get('/V3/GetDocument', { schema: { querystring: EntityQuery } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    const d = findDocument(ctx, request.query.messageId, request.query.entityId);
    const inject = (request.query.injectEntityContent ?? true) && d.content.length <= 1_048_576;
    return documentJson(d, documentIndexKey(d), inject);
  });

  app.get('/V4/GetEntityContent', { schema: { querystring: EntityQuery } }, async (request, reply) => {
    requireOurBox(ctx, request.query.boxId);
    const { messageId, entityId } = request.query;
    const doc = ctx.state.documents.find(
      (x) => x.messageId === messageId.toLowerCase() && (x.entityId === entityId.toLowerCase() || x.signatureEntityId === entityId.toLowerCase()),
    );
    const bytes = doc && (doc.entityId === entityId.toLowerCase() ? doc.content : doc.signature);
    if (!bytes) throw notFound(`Entity ${entityId} of message ${messageId} has no content`, 'EntityNotFound');
    return reply.type('application/octet-stream').send(bytes);
  });

  app.post(
    '/V3/PostMessage',
    { schema: { querystring: Type.Object({ operationId: Type.Optional(Type.String({ maxLength: 200 })) }) } },
    async (request) => {
      const docs = await postMessage(ctx, request.body, request.query.operationId);
      return renderMessage(ctx, docs);
    },
  );

  app.post('/V3/SearchDocflows', { schema: { querystring: Type.Object(Box) } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    return searchDocflows(ctx, request.body);
  });

  app.post(
    '/Delete',
    {
      schema: {
        querystring: Type.Object({ ...Box, messageId: Type.String({ pattern: GUID }), documentId: Type.Optional(Type.String({ pattern: GUID })) }),
      },
    },
    async (request, reply) => {
      requireOurBox(ctx, request.query.boxId);
      const { messageId, documentId } = request.query;
      const docs = ctx.state.documents.filter(
        (d) => d.messageId === messageId.toLowerCase() && (!documentId || d.entityId === documentId.toLowerCase()),
      );
      if (docs.length === 0) throw notFound(`Message ${messageId}${documentId ? ` document ${documentId}` : ''} not found`, 'DocumentNotFound');
      if (docs.every((d) => d.isDeleted)) throw new DiadocError(409, 'AlreadyDeleted', 'The document is already deleted');
      const ticks = ticksOf(ctx.clock.now());
      for (const d of docs) Object.assign(d, { isDeleted: true, lastModificationTicks: ticks });
      appendEvent(ctx, {
        kind: 'patch',
        messageId: messageId.toLowerCase(),
        ticks,
        deletedEntityId: documentId?.toLowerCase(),
        messageDeleted: !documentId,
      });
      return reply.status(200).send();
    },
  );
}
