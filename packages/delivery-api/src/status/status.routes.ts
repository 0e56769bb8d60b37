import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { SyncStatusSchema } from '@app/delivery-contract';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses } from '../http/schemas.js';
import type { StatusService } from './status.service.js';

/** GET /v1/status (spec: In development; switch `guest-api`, docs/planned-features.md). */
export function statusRoutes(root: FastifyInstance, status: StatusService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/status', {
    config: { auth: 'partner', feature: 'guest-api' },
    schema: {
      operationId: 'getSyncStatus',
      tags: ['status'],
      summary: 'Sync freshness of the points of the key: menu and stop-list revisions, POS heartbeat',
      'x-feature': 'guest-api',
      response: { 200: SyncStatusSchema, ...errorResponses([...AUTH_ERRORS, 'not_found']) },
    } as Record<string, unknown>,
    handler: async (req) => status.status(credentialOf(req)),
  });
}
