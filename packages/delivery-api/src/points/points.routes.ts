import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PointsReply, PointStatusSchema } from '@app/delivery-contract';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses, PointIdParams } from '../http/schemas.js';
import type { PointsService } from './points.service.js';

/** Spec: GET /v1/points, GET /v1/points/{pointId}/status. */
export function pointsRoutes(root: FastifyInstance, points: PointsService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/points', {
    config: { auth: 'partner' },
    schema: {
      operationId: 'listPoints',
      tags: ['points'],
      summary: 'Points available to the key',
      response: { 200: PointsReply, ...errorResponses(AUTH_ERRORS) },
    },
    handler: async (req) => ({ points: await points.list(credentialOf(req)) }),
  });
  app.get('/v1/points/:pointId/status', {
    config: { auth: 'partner' },
    schema: {
      operationId: 'getPointStatus',
      tags: ['points'],
      summary: 'Whether the point accepts orders now (route, POS liveness, schedule)',
      params: PointIdParams,
      response: { 200: PointStatusSchema, ...errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']) },
    },
    handler: async (req) => points.status(credentialOf(req), req.params.pointId),
  });
}
