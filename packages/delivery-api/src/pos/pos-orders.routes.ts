import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import { errorResponses, PosErrorBody } from '../http/schemas.js';
import { OrderViewSchema } from '@app/delivery-contract';
import type { PosOrdersService } from './pos-orders.service.js';
import { CancellationsReply, CancelResultBody, ClaimBody, ClaimReply, DeliveryStatusReportBody, StateReportBody } from '@app/delivery-contract';

const strict = { additionalProperties: false } as const;
const config = { auth: 'pos' as const };
/** Polling routes: logged at debug (http/request-log.ts). */
const polling = { ...config, routine: true };
const errors = errorResponses(
  [
    'invalid_request',
    'unauthorized',
    'forbidden',
    'not_found',
    'invalid_or_expired_claim',
    'invalid_state_transition',
    'stable_id_mismatch',
    'scope_violation',
    'authentication_unavailable',
  ],
  PosErrorBody,
);
/** The order id in POS paths: a UUID in its canonical form, checked before anything reaches the database. */
const Params = Type.Object({ id: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }) });

/** POS protocol: order claims, state and delivery reports, cancellations (docs/pos-protocol.md). */
export function posOrdersRoutes(root: FastifyInstance, svc: PosOrdersService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/pos/v1/orders/claim', {
    config: polling,
    schema: {
      operationId: 'posClaimOrders',
      tags: ['pos'],
      summary: 'Claim queued orders of the route with a lease (claimId, claimExpiresAt)',
      body: ClaimBody,
      response: { 200: ClaimReply, ...errors },
    },
    handler: async (req) => ({ orders: await svc.claim(credentialOf(req), req.body.limit ?? 10) }),
  });

  app.post('/pos/v1/orders/:id/state', {
    config,
    schema: {
      operationId: 'posReportState',
      tags: ['pos'],
      summary: 'Report the creation state of a claimed order',
      params: Params,
      body: StateReportBody,
      response: { 200: OrderViewSchema, ...errors },
    },
    handler: async (req) => {
      const b = req.body;
      return svc.report(credentialOf(req), req.params.id, b);
    },
  });

  app.post('/pos/v1/orders/:id/delivery-status', {
    config,
    schema: {
      operationId: 'posReportDeliveryStatus',
      tags: ['pos'],
      summary: 'Report a delivery status (iiko deliveryStatus)',
      params: Params,
      body: DeliveryStatusReportBody,
      response: { 200: OrderViewSchema, ...errors },
    },
    handler: async (req) => svc.deliveryStatus(credentialOf(req), req.params.id, req.body),
  });

  app.post('/pos/v1/cancellations/claim', {
    config: polling,
    schema: {
      operationId: 'posClaimCancellations',
      tags: ['pos'],
      summary: 'Requested cancellations of the route (reason: client refusal)',
      body: Type.Object({}, strict),
      response: { 200: CancellationsReply, ...errors },
    },
    handler: async (req) => ({ cancellations: await svc.claimCancellations(credentialOf(req)) }),
  });

  app.post('/pos/v1/orders/:id/cancel-result', {
    config,
    schema: {
      operationId: 'posReportCancelResult',
      tags: ['pos'],
      summary: 'Outcome of a cancellation at the POS',
      params: Params,
      body: CancelResultBody,
      response: { 200: OrderViewSchema, ...errors },
    },
    handler: async (req) => svc.cancelResult(credentialOf(req), req.params.id, req.body),
  });
}
