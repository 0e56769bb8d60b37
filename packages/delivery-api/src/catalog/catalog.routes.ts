import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses, PointIdParams } from '../http/schemas.js';
import type { CatalogService } from './catalog.service.js';
import { CatalogRevisionSchema, MenuSchema, ProductsSchema, StopListSchema } from '@app/delivery-contract';

const POINT_ERRORS = errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']);
const auth = { auth: 'partner' as const };

/** `If-None-Match` matches the current revision (quotes and weak prefix tolerated). */
function matches(header: string | string[] | undefined, revision: string): boolean {
  const v = Array.isArray(header) ? header.join(',') : header;
  if (!v) return false;
  return v.split(',').some((t) => t.trim().replace(/^W\//, '').replace(/^"|"$/g, '') === revision);
}

/**
 * 304 Not Modified with no body and no Content-Length/Content-Type: `send(null)` would declare the 4 bytes of
 * "null" that Node then drops for a 304, and a client that trusts Content-Length waits for them (autocannon hangs).
 */
function notModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).removeHeader('content-type').send();
}

/** Spec: GET /v1/points/{pointId}/menu, /stop-list, /products, GET /v1/catalog/revision. */
export function catalogRoutes(root: FastifyInstance, catalog: CatalogService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/points/:pointId/menu', {
    config: auth,
    schema: {
      operationId: 'getMenu',
      tags: ['catalog'],
      summary: 'Menu with the stop-list applied; ETag = revision; If-None-Match → 304 unless stale',
      params: PointIdParams,
      response: { 200: MenuSchema, 304: Type.Null({ description: 'not modified' }), ...POINT_ERRORS },
    },
    handler: async (req, reply) => {
      const menu = await catalog.menuBody(credentialOf(req), req.params.pointId);
      reply.header('ETag', menu.revision); // spec: "ETag carries the revision" (sent as is)
      if (!menu.stale && matches(req.headers['if-none-match'], menu.revision)) return notModified(reply);
      // already serialised per revision (same shape as MenuSchema): a string body skips the serializer, so it is
      // sent through the untyped reply
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(menu.json);
    },
  });

  app.get('/v1/points/:pointId/stop-list', {
    config: auth,
    schema: {
      operationId: 'getStopList',
      tags: ['catalog'],
      summary: 'Stop-list only; same ETag and stale rules as the menu',
      params: PointIdParams,
      response: { 200: StopListSchema, 304: Type.Null({ description: 'not modified' }), ...POINT_ERRORS },
    },
    handler: async (req, reply) => {
      const list = await catalog.stopList(credentialOf(req), req.params.pointId);
      reply.header('ETag', list.revision);
      if (!list.stale && matches(req.headers['if-none-match'], list.revision)) return notModified(reply);
      return list;
    },
  });

  app.get('/v1/catalog/revision', {
    config: auth,
    schema: {
      operationId: 'getCatalogRevision',
      tags: ['catalog'],
      summary: 'Menu and stop-list revisions of all points of the key',
      response: { 200: CatalogRevisionSchema, ...errorResponses(AUTH_ERRORS) },
    },
    handler: async (req) => ({ points: await catalog.revisions(credentialOf(req)) }),
  });

  app.get('/v1/points/:pointId/products', {
    config: auth,
    schema: {
      operationId: 'getLegacyProducts',
      tags: ['catalog'],
      summary: 'Legacy product mappings (orders without payment)',
      params: PointIdParams,
      response: { 200: ProductsSchema, ...POINT_ERRORS },
    },
    handler: async (req) => catalog.products(credentialOf(req), req.params.pointId),
  });
}
