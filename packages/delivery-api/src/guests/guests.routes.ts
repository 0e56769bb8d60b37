import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import { invalid } from '../errors.js';
import { AUTH_ERRORS, errorResponses } from '../http/schemas.js';
import { GuestAddressesSchema, GuestLoyaltySchema, GuestOrdersPageSchema } from '@app/delivery-contract';
import type { GuestLoyaltyService } from './guest-loyalty.service.js';
import { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, type GuestsService } from './guests.service.js';

/** The phone is checked by the service (400 invalid_phone), not by the schema (which would say invalid_request). */
const PhoneParams = Type.Object({
  phone: Type.String({ maxLength: 40, description: 'E.164 +7 and 10 digits (URL-escape + as %2B or send it as is)' }),
});

const GUEST_ERRORS = [...AUTH_ERRORS, 'invalid_phone', 'not_found'] as const;

/** GET /v1/guests/{phone}/loyalty|orders|addresses (spec: In development; switch `guest-api`, docs/planned-features.md). */
export function guestsRoutes(root: FastifyInstance, guests: GuestsService, loyalty: GuestLoyaltyService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  // the phone is in the path: never logged (request-log.ts writes the route pattern)
  const config = { auth: 'partner', feature: 'guest-api', personalPath: true } as const;
  app.get('/v1/guests/:phone/loyalty', {
    config,
    schema: {
      operationId: 'getGuestLoyalty',
      tags: ['guests'],
      summary: 'Loyalty balances per program, level and usable coupons of the guest (the partner asserts the phone)',
      'x-feature': 'guest-api',
      params: PhoneParams,
      querystring: Type.Object({ pointId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
      response: { 200: GuestLoyaltySchema, ...errorResponses([...GUEST_ERRORS, 'forbidden', 'rate_limited', 'loyalty_unavailable']) },
    } as Record<string, unknown>,
    handler: async (req) => {
      const q = req.query as { pointId?: string };
      return loyalty.loyalty(credentialOf(req), (req.params as { phone: string }).phone, q.pointId);
    },
  });
  app.get('/v1/guests/:phone/orders', {
    config,
    schema: {
      operationId: 'listGuestOrders',
      tags: ['guests'],
      summary: 'Orders of the guest at this source, newest first, cursor paging',
      'x-feature': 'guest-api',
      params: PhoneParams,
      querystring: Type.Object(
        {
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: `1..${HISTORY_MAX_LIMIT}, default ${HISTORY_DEFAULT_LIMIT}` })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page (opaque)' })),
        },
        { additionalProperties: false },
      ),
      response: {
        200: GuestOrdersPageSchema,
        ...errorResponses([...GUEST_ERRORS]),
      },
    } as Record<string, unknown>,
    handler: async (req) => {
      const q = req.query as { limit?: string; cursor?: string };
      const limit = q.limit === undefined ? HISTORY_DEFAULT_LIMIT : Number(q.limit);
      if (limit < 1 || limit > HISTORY_MAX_LIMIT) throw invalid(`limit must be 1..${HISTORY_MAX_LIMIT}`);
      return guests.orders(credentialOf(req), (req.params as { phone: string }).phone, limit, q.cursor);
    },
  });
  app.get('/v1/guests/:phone/addresses', {
    config,
    schema: {
      operationId: 'listGuestAddresses',
      tags: ['guests'],
      summary: 'Distinct delivery addresses of the guest’s orders at this source, newest first, with today’s zone',
      'x-feature': 'guest-api',
      params: PhoneParams,
      response: { 200: GuestAddressesSchema, ...errorResponses([...GUEST_ERRORS]) },
    } as Record<string, unknown>,
    handler: async (req) => guests.addresses(credentialOf(req), (req.params as { phone: string }).phone),
  });
}
