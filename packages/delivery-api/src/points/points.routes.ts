import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses, PointIdParams } from '../http/schemas.js';
import type { PointsService } from './points.service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const PointSchema = Type.Object({
  externalPointId: Type.String(),
  active: Type.Boolean(),
  streetsSyncedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  name: Nullable(Type.String()),
  address: Nullable(Type.String()),
  location: Type.Union([Type.Object({ lat: Type.Number(), lon: Type.Number() }), Type.Null()]),
  phone: Nullable(Type.String()),
  timezone: Type.String(),
  schedule: Type.Union([Type.Array(Type.Object({ weekday: Type.Integer(), open: Type.String(), close: Type.String() })), Type.Null()]),
  isOpenNow: Type.Boolean(),
  acceptsOrders: Type.Boolean(),
  deliveryTypes: Type.Union([Type.Array(Type.String()), Type.Null()]),
});

const StatusSchema = Type.Object({
  acceptsOrders: Type.Boolean(),
  terminalAlive: Type.Boolean(),
  isOpenNow: Type.Boolean(),
  reason: Type.Union([Type.Literal('terminal_offline'), Type.Literal('closed'), Type.Null()]),
});

/** Spec: GET /v1/points, GET /v1/points/{pointId}/status. */
export function pointsRoutes(root: FastifyInstance, points: PointsService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/points', {
    config: { auth: 'partner' },
    schema: {
      operationId: 'listPoints',
      tags: ['points'],
      summary: 'Points available to the key',
      response: { 200: Type.Object({ points: Type.Array(PointSchema) }), ...errorResponses(AUTH_ERRORS) },
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
      response: { 200: StatusSchema, ...errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']) },
    },
    handler: async (req) => points.status(credentialOf(req), req.params.pointId),
  });
}
