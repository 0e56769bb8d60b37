import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { credentialOf } from '../auth/auth.plugin.js';
import { AUTH_ERRORS, errorResponses, PointIdParams } from '../http/schemas.js';
import type { ZonesService } from './zones.service.js';
import { AddressCheckBody, AddressCheckReply, ResolveBody, ResolveReply, ZonesReply } from '@app/delivery-contract';

const config = { auth: 'partner' as const };

/** Spec: GET /v1/points/{pointId}/delivery-zones, POST /v1/delivery/resolve, POST /v1/addresses/check. */
export function zonesRoutes(root: FastifyInstance, zones: ZonesService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/points/:pointId/delivery-zones', {
    config,
    schema: {
      operationId: 'listDeliveryZones',
      tags: ['delivery'],
      summary: 'Zone polygons of a point ([latitude, longitude] vertices)',
      params: PointIdParams,
      response: { 200: ZonesReply, ...errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']) },
    },
    handler: async (req) => ({ zones: await zones.zonesOf(credentialOf(req), req.params.pointId) }),
  });
  app.post('/v1/delivery/resolve', {
    config,
    schema: {
      operationId: 'resolveDelivery',
      tags: ['delivery'],
      summary: 'Point, zone, fee and ETA by coordinates (no geocoding)',
      body: ResolveBody,
      response: { 200: ResolveReply, ...errorResponses([...AUTH_ERRORS, 'forbidden']) },
    },
    handler: async (req) => zones.resolve(credentialOf(req), req.body),
  });
  app.post('/v1/addresses/check', {
    config,
    schema: {
      operationId: 'checkAddress',
      tags: ['delivery'],
      summary: 'Street check against the POS street dictionary of the point',
      body: AddressCheckBody,
      response: { 200: AddressCheckReply, ...errorResponses([...AUTH_ERRORS, 'forbidden', 'not_found']) },
    },
    handler: async (req) => zones.checkAddress(credentialOf(req), req.body),
  });
}
