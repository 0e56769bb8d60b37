import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses } from '../http/schemas.js';
import { CheckoutBody, CheckoutReply } from '@app/delivery-contract';
import type { CheckoutService } from './checkout.service.js';

/** Spec: POST /v1/checkout/calculate. */
export function checkoutRoutes(root: FastifyInstance, checkout: CheckoutService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/v1/checkout/calculate', {
    config: { auth: 'partner' },
    schema: {
      operationId: 'calculateCheckout',
      tags: ['checkout'],
      summary: 'Cart calculation with loyalty discounts; no side effects; calculationId valid 15 minutes',
      body: CheckoutBody,
      response: {
        200: CheckoutReply,
        ...errorResponses([
          ...AUTH_ERRORS,
          'forbidden',
          'not_found',
          'loyalty_rejected',
          'rate_limited',
          'checkout_unavailable',
          'loyalty_unavailable',
        ]),
      },
    },
    handler: async (req) => checkout.calculate(credentialOf(req), req.body),
  });
}
