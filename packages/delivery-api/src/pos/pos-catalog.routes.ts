import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import type { Credential } from '../auth/credentials.repo.js';
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
  // The four catalog pushes share one shape: POS auth, a strict body, the push answer, one service call.
  const push = <B extends TSchema>(
    url: string,
    operationId: string,
    summary: string,
    body: B,
    handle: (cred: Credential, body: Static<B>) => Promise<unknown>,
  ) =>
    root.post(url, {
      config,
      schema: { operationId, tags: ['pos'], summary, body, response: { 200: PushReply, ...errors } },
      handler: async (req) => handle(credentialOf(req), req.body as Static<B>),
    });
  push('/pos/v1/menu', 'posPushMenu', 'Push the full menu of the terminal group', MenuPushBody, (c, b) => svc.pushMenu(c, b));
  push('/pos/v1/stop-list', 'posPushStopList', 'Push the full current stop-list', StopListPushBody, (c, b) => svc.pushStopList(c, b.items));
  push('/pos/v1/streets', 'posPushStreets', 'Push the street dictionary', StreetsPushBody, (c, b) => svc.pushStreets(c, b.streets));
  push('/pos/v1/product-mappings', 'posPushProductMappings', 'Push legacy partner product mappings', ProductMappingsPushBody, (c, b) =>
    svc.pushProductMappings(c, b.products),
  );
}
