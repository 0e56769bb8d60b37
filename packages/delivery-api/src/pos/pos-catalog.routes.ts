import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { credentialOf } from '../auth/auth.plugin.js';
import { errorResponses, PosErrorBody } from '../http/schemas.js';
import type { PosCatalogService } from './pos-catalog.service.js';
import {
  HeartbeatBody,
  HeartbeatReply,
  MenuPushBody,
  ProductMappingsPushBody,
  PushReply,
  StopListPushBody,
  StreetsPushBody,
} from '@app/delivery-contract';

const config = { auth: 'pos' as const, routine: true };
const errors = errorResponses(['invalid_request', 'unauthorized', 'forbidden', 'internal_error', 'authentication_unavailable'], PosErrorBody);

/** POS protocol: heartbeat and catalog pushes. Documented in docs/pos-protocol.md and the OpenAPI document. */
export function posCatalogRoutes(root: FastifyInstance, svc: PosCatalogService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/pos/v1/heartbeat', {
    config,
    schema: {
      operationId: 'posHeartbeat',
      tags: ['pos'],
      summary: 'Terminal liveness',
      body: HeartbeatBody,
      response: { 200: HeartbeatReply, ...errors },
    },
    handler: async (req) => svc.heartbeat(credentialOf(req)),
  });
  app.post('/pos/v1/menu', {
    config,
    schema: {
      operationId: 'posPushMenu',
      tags: ['pos'],
      summary: 'Push the full menu of the terminal group',
      body: MenuPushBody,
      response: { 200: PushReply, ...errors },
    },
    handler: async (req) => svc.pushMenu(credentialOf(req), req.body),
  });
  app.post('/pos/v1/stop-list', {
    config,
    schema: {
      operationId: 'posPushStopList',
      tags: ['pos'],
      summary: 'Push the full current stop-list',
      body: StopListPushBody,
      response: { 200: PushReply, ...errors },
    },
    handler: async (req) => svc.pushStopList(credentialOf(req), req.body.items),
  });
  app.post('/pos/v1/streets', {
    config,
    schema: {
      operationId: 'posPushStreets',
      tags: ['pos'],
      summary: 'Push the street dictionary',
      body: StreetsPushBody,
      response: { 200: PushReply, ...errors },
    },
    handler: async (req) => svc.pushStreets(credentialOf(req), req.body.streets),
  });
  app.post('/pos/v1/product-mappings', {
    config,
    schema: {
      operationId: 'posPushProductMappings',
      tags: ['pos'],
      summary: 'Push legacy partner product mappings',
      body: ProductMappingsPushBody,
      response: { 200: PushReply, ...errors },
    },
    handler: async (req) => svc.pushProductMappings(credentialOf(req), req.body.products),
  });
}
