import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { credentialOf } from '../auth/auth.plugin.js';
import { CalculationBodySchema } from '@app/delivery-contract';
import { AUTH_ERRORS, errorResponses } from '../http/schemas.js';
import { Type } from 'typebox';
import type { CancelService } from './cancel.service.js';
import { CancelBody, LookupQuery, OrderBody, OrderIdParams, OrderViewSchema, SourceQuery } from '@app/delivery-contract';
import type { OrdersService } from './orders.service.js';

const config = { auth: 'partner' as const };
const PriceChanged = Type.Object({ error: Type.Literal('price_changed'), calculation: CalculationBodySchema });

/** Spec: POST /v1/orders, GET /v1/orders?externalOrderId, GET /v1/orders/{id}?source, POST /v1/orders/{id}/cancel. */
export function ordersRoutes(root: FastifyInstance, orders: OrdersService, cancel: CancelService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/v1/orders', {
    config,
    schema: {
      operationId: 'createOrder',
      tags: ['orders'],
      summary: 'Create an order (201), or return it for an idempotent repeat (200)',
      body: OrderBody,
      response: {
        201: OrderViewSchema,
        200: OrderViewSchema,
        ...errorResponses([
          ...AUTH_ERRORS,
          'forbidden',
          'idempotency_conflict',
          'hold_in_progress',
          'route_mapping_not_found',
          'product_mapping_not_found',
          'product_not_orderable',
          'loyalty_rejected',
          'loyalty_unmapped',
          'rate_limited',
          'loyalty_unavailable',
        ]),
        409: Type.Union([PriceChanged, Type.Object({ error: Type.String() })], {
          description: 'price_changed (with calculation), idempotency_conflict, hold_in_progress',
        }),
      },
    },
    handler: async (req, reply) => {
      const r = await orders.create(credentialOf(req), req.body);
      return reply.status(r.status).send(r.order);
    },
  });

  app.get('/v1/orders', {
    config,
    schema: {
      operationId: 'findOrderByExternalId',
      tags: ['orders'],
      summary: 'Find an order of the caller’s source by the partner’s order number (query not signed)',
      querystring: LookupQuery,
      response: { 200: OrderViewSchema, ...errorResponses([...AUTH_ERRORS, 'not_found']) },
    },
    handler: async (req) => orders.byExternalId(credentialOf(req), req.query.externalOrderId),
  });

  app.get('/v1/orders/:id', {
    config,
    schema: {
      operationId: 'getOrder',
      tags: ['orders'],
      summary: 'Order status',
      params: OrderIdParams,
      querystring: SourceQuery,
      response: { 200: OrderViewSchema, ...errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']) },
    },
    handler: async (req) => orders.byId(credentialOf(req), req.params.id, req.query.source),
  });

  app.post('/v1/orders/:id/cancel', {
    config,
    schema: {
      operationId: 'cancelOrder',
      tags: ['orders'],
      summary: 'Cancel: 200 cancelled at once or already final; 202 passed to the POS',
      params: OrderIdParams,
      body: CancelBody,
      response: { 200: OrderViewSchema, 202: OrderViewSchema, ...errorResponses([...AUTH_ERRORS, 'not_found', 'cancel_rejected']) },
    },
    handler: async (req, reply) => {
      const r = await cancel.cancel(credentialOf(req), req.params.id, req.body);
      return reply.status(r.status).send(r.order);
    },
  });
}
