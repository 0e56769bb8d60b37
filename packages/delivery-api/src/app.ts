import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Clock, Db, IdSource } from '@app/shared';
import { installAuth, BODY_LIMIT } from './auth/auth.plugin.js';
import { Authenticator } from './auth/authenticator.js';
import { CredentialsRepo } from './auth/credentials.repo.js';
import { RequestIdsRepo } from './auth/request-ids.repo.js';
import type { SecretBox } from './auth/secret-box.js';
import { CatalogService } from './catalog/catalog.service.js';
import { catalogRoutes } from './catalog/catalog.routes.js';
import { TerminalGroupsRepo } from './catalog/terminal-groups.repo.js';
import { healthRoutes } from './health/health.routes.js';
import { installErrorHandling } from './http/error-handler.js';
import { PointsRepo } from './points/points.repo.js';
import { PointsService } from './points/points.service.js';
import { pointsRoutes } from './points/points.routes.js';
import { PosCatalogService } from './pos/pos-catalog.service.js';
import { posCatalogRoutes } from './pos/pos-catalog.routes.js';
import { ZonesRepo } from './zones/zones.repo.js';
import { ZonesService } from './zones/zones.service.js';
import { zonesRoutes } from './zones/zones.routes.js';

/** Everything the HTTP application needs, passed in (tests pass a ManualClock and an in-memory database). */
export interface AppDeps {
  db: Db;
  box: SecretBox;
  clock: Clock;
  ids: IdSource;
  requestIdTtlSeconds: number;
  heartbeatWindowSeconds: number;
  /** Fastify logger option; false in tests. */
  logger?: FastifyServerOptions['logger'];
}

/** The services of the delivery API, built from the same dependencies as the app (also used by tools). */
export function createServices(deps: AppDeps) {
  const terminalGroups = new TerminalGroupsRepo(deps.db);
  const pointsRepo = new PointsRepo(deps.db);
  const points = new PointsService({ points: pointsRepo, clock: deps.clock, heartbeatWindowSeconds: deps.heartbeatWindowSeconds });
  const catalog = new CatalogService({ points, terminalGroups, clock: deps.clock });
  const zones = new ZonesService({ zones: new ZonesRepo(deps.db), points: pointsRepo, pointsService: points, terminalGroups });
  const posCatalog = new PosCatalogService({ terminalGroups, clock: deps.clock, heartbeatWindowSeconds: deps.heartbeatWindowSeconds });
  const requestIds = new RequestIdsRepo(deps.db);
  const authenticator = new Authenticator({
    credentials: new CredentialsRepo(deps.db, deps.box),
    requestIds,
    clock: deps.clock,
    requestIdTtlSeconds: deps.requestIdTtlSeconds,
  });
  return { terminalGroups, pointsRepo, points, catalog, zones, posCatalog, requestIds, authenticator };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Builds the Fastify application (app.ts builds, server.ts listens). Unknown fields are rejected, never
 * stripped (`removeAdditional: false`) and types are not coerced, so the contract is checked exactly.
 */
export async function buildApp(deps: AppDeps, services: Services = createServices(deps)): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT,
    genReqId: () => deps.ids.uuid(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  });
  installErrorHandling(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Delivery Partner API',
        version: '2.0.0',
        description:
          'Partner ordering gateway (spec: delivery-partner-api.md) and the POS plugin protocol under /pos/v1. ' +
          'Every /v1 and /pos/v1 request is signed: X-API-Key, X-Timestamp, X-Request-ID, X-Signature (see README).',
      },
      tags: [
        { name: 'points' }, { name: 'catalog' }, { name: 'delivery' }, { name: 'health' },
        { name: 'pos', description: 'POS plugin protocol (docs/pos-protocol.md)' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  installAuth(app, services.authenticator);

  healthRoutes(app, deps.db);
  pointsRoutes(app, services.points);
  catalogRoutes(app, services.catalog);
  zonesRoutes(app, services.zones);
  posCatalogRoutes(app, services.posCatalog);
  return app;
}
