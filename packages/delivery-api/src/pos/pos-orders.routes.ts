import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import { errorResponses, PosErrorBody } from '../http/schemas.js';
import { DELIVERY_STATUSES, type CancelDetail, type DeliveryStatus } from '../orders/order-view.js';
import { OrderViewSchema } from '../orders/orders.schemas.js';
import type { PosOrdersService, PosReportedState } from './pos-orders.service.js';

const strict = { additionalProperties: false } as const;
const config = { auth: 'pos' as const };
/** Polling routes: logged at debug (http/request-log.ts). */
const polling = { ...config, routine: true };
const errors = errorResponses(
  ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'invalid_or_expired_claim', 'invalid_state_transition', 'stable_id_mismatch', 'scope_violation', 'authentication_unavailable'],
  PosErrorBody,
);
const Params = Type.Object({ id: Type.String() });

/** POS protocol: order claims, state and delivery reports, cancellations (docs/pos-protocol.md). */
export function posOrdersRoutes(root: FastifyInstance, svc: PosOrdersService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/pos/v1/orders/claim', {
    config: polling,
    schema: {
      operationId: 'posClaimOrders',
      tags: ['pos'],
      summary: 'Claim queued orders of the route with a lease (claimId, claimExpiresAt)',
      body: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) }, strict),
      response: {
        200: Type.Object({
          orders: Type.Array(Type.Object({ orderId: Type.String(), claimId: Type.String(), claimExpiresAt: Type.String(), stableId: Type.String(), order: Type.Record(Type.String(), Type.Unknown()) })),
        }),
        ...errors,
      },
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
      body: Type.Object(
        {
          claimId: Type.String(),
          stableId: Type.String(),
          state: Type.Union([Type.Literal('prepared'), Type.Literal('create_sending'), Type.Literal('created_verified'), Type.Literal('reconciliation_required'), Type.Literal('rejected_final')]),
          posOrderId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          posDeliveryId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          message: Type.Optional(Type.String({ maxLength: 1000 })),
        },
        strict,
      ),
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
      body: Type.Object({ status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))), at: Type.Optional(Type.String({ format: 'date-time' })) }, strict),
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
      response: {
        200: Type.Object({
          cancellations: Type.Array(Type.Object({ orderId: Type.String(), stableId: Type.String(), posOrderId: Type.Union([Type.String(), Type.Null()]), state: Type.String(), reason: Type.String() })),
        }),
        ...errors,
      },
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
      body: Type.Object(
        {
          result: Type.Union([Type.Literal('cancelled'), Type.Literal('rejected')]),
          detail: Type.Optional(Type.Union([Type.Literal('not_new'), Type.Literal('sdk_error'), Type.Literal('not_found'), Type.Literal('no_cancel_cause')])),
        },
        strict,
      ),
      response: { 200: OrderViewSchema, ...errors },
    },
    handler: async (req) => svc.cancelResult(credentialOf(req), req.params.id, req.body),
  });
}
