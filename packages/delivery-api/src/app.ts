import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import { Registry } from 'prom-client';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { type Clock, type Db, type IdSource, installMetricsEndpoint } from '@app/shared';
import { installAuth, BODY_LIMIT } from './auth/auth.plugin.js';
import { Authenticator } from './auth/authenticator.js';
import { CredentialsRepo } from './auth/credentials.repo.js';
import { RequestIdsRepo } from './auth/request-ids.repo.js';
import type { SecretBox } from './auth/secret-box.js';
import { CatalogService } from './catalog/catalog.service.js';
import { CatalogRevisionCache } from './catalog/catalog-revision-cache.js';
import { catalogRoutes } from './catalog/catalog.routes.js';
import { TerminalGroupsRepo } from './catalog/terminal-groups.repo.js';
import { healthRoutes } from './health/health.routes.js';
import { installErrorHandling } from './http/error-handler.js';
import { installRequestLog } from './http/request-log.js';
import { installTextGuard } from './http/text-guard.js';
import { PointsRepo } from './points/points.repo.js';
import { PointsService } from './points/points.service.js';
import { pointsRoutes } from './points/points.routes.js';
import { PosCatalogService } from './pos/pos-catalog.service.js';
import { posCatalogRoutes } from './pos/pos-catalog.routes.js';
import { ZonesRepo } from './zones/zones.repo.js';
import { ZoneIndexCache } from './zones/zone-index-cache.js';
import { ZonesService } from './zones/zones.service.js';
import { zonesRoutes } from './zones/zones.routes.js';
import { CalculationTokens } from './checkout/calculation-token.js';
import { CheckoutCalculator } from './checkout/calculator.js';
import { CatalogSnapshots } from './catalog/catalog-snapshots.js';
import { CheckoutService } from './checkout/checkout.service.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { PhoneRateLimit } from './checkout/phone-rate-limit.js';
import type { RedisDeps } from './redis/redis-client.js';
import type { RequestIdStore } from './auth/request-id-store.port.js';
import { RedisRequestIds } from './auth/request-ids.redis.js';
import { timedRequestIdStore } from './auth/request-id-metrics.js';
import type { LoyaltyPort } from './loyalty/loyalty.port.js';
import { CancelService } from './orders/cancel.service.js';
import { noStepObserver, type StepObserver } from './common/recovery-points.js';
import { HoldSweeper } from './orders/hold-sweeper.js';
import { createLegMetrics } from './holds/leg-metrics.js';
import { createOrderMetrics } from './orders/order-metrics.js';
import { createRetentionMetrics } from './retention/retention-metrics.js';
import { DEFAULT_WEBHOOK_RETENTION_DAYS, Retention } from './retention/retention.js';
import { LegsRepo } from './holds/legs.repo.js';
import { OrdersRepo } from './orders/orders.repo.js';
import { createLogger } from './http/logger.js';
import { LoyaltyHolds } from './holds/loyalty-holds.js';
import { orderSettlementEvents } from './orders/settlement-events.js';
import type { OrderEvents } from './orders/order-events.js';
import { OrdersService } from './orders/orders.service.js';
import { OrderSupportService } from './orders/order-support.js';
import { ordersRoutes } from './orders/orders.routes.js';
import { PosOrdersService } from './pos/pos-orders.service.js';
import { posOrdersRoutes } from './pos/pos-orders.routes.js';
import { StatusService } from './status/status.service.js';
import { statusRoutes } from './status/status.routes.js';
import { PartnerRateLimit, type PartnerLimits } from './rate-limit/partner-rate-limit.js';
import { installPartnerRateLimit } from './rate-limit/rate-limit.hook.js';
import { GuestHistoryRepo } from './guests/guest-history.repo.js';
import { GuestLoyaltyService } from './guests/guest-loyalty.service.js';
import { GuestsService } from './guests/guests.service.js';
import { guestsRoutes } from './guests/guests.routes.js';
import { PhoneHasher } from './guests/phone.js';
import { TenantsRepo } from './tenants/tenants.repo.js';
import { CatalogEvents } from './catalog-events/catalog-events.js';
import { catalogEventsOnPush } from './catalog-events/on-push.js';
import { PointStatusWatcher } from './catalog-events/point-status-watcher.js';
import { type AdminPanelOptions, adminSettings } from '@app/admin-web';
import { createConsoleCore } from './console/console.module.js';
import { CONSOLE_PREFIX, consolePlugin } from './console/console.plugin.js';
import { consoleSections } from './console/sections.js';
import { consoleSessionKey } from './console/session-key.js';

/** Everything the HTTP application needs, passed in (tests pass a ManualClock and an in-memory database). */
export interface AppDeps {
  db: Db;
  box: SecretBox;
  clock: Clock;
  ids: IdSource;
  requestIdTtlSeconds: number;
  heartbeatWindowSeconds: number;
  /** Master key; the calculationId signing key is derived from it. */
  masterKey: Buffer;
  /** The loyalty service; null = not connected (calculations report loyaltyUnavailable). */
  loyalty: LoyaltyPort | null;
  /** How long a found credential is cached per instance (default 5000 ms; revocation delay). */
  credentialCacheMs?: number;
  /** Loyalty requests per guest phone per minute (default 30, the spec's limit). */
  loyaltyRequestsPerMinute?: number;
  /** Order events: the webhook outbox in production (`createOutboxOrderEvents`), a recorder in tests. Required: a silent default would drop webhooks. */
  events: OrderEvents;
  /** pino options for the service logger (also Fastify's); false/absent = silent (tests). Errors are redacted. */
  logger?: boolean | LoggerOptions;
  /** Where log lines go (default stdout). */
  logDestination?: DestinationStream;
  /** Told at each recovery point (common/recovery-points.ts); default nobody. */
  steps?: StepObserver;
  /**
   * Redis (REDIS_URL): single-use request ids and the per-phone loyalty limit shared by all instances; absent =
   * request ids in the database and the phone limit in memory per instance.
   */
  redis?: RedisDeps | null;
  /** Days after which delivered webhooks are purged (default 30). */
  webhookRetentionDays?: number;
  /** General limits for sources with the `rate-limits` switch (default the spec's 600/min per key, 100/min per IP). */
  partnerLimits?: PartnerLimits;
  /** prom-client registry served at /metrics; default a new one per app. */
  metricsRegistry?: Registry;
  /**
   * The support console at /console (docs/console.md): cookie, session limits, sign-in limits. The session key
   * defaults to one derived from the master key.
   */
  console?: AdminPanelOptions;
  /** WEBHOOKS_ALLOW_INSECURE_LOOPBACK: the console accepts a plain-http loopback webhook URL (tests, demo). */
  webhooksAllowInsecureLoopback?: boolean;
}

/** The services of the delivery API, built from the same dependencies as the app (also used by tools). */
export function createServices(deps: AppDeps) {
  const terminalGroups = new TerminalGroupsRepo(deps.db);
  const pointsRepo = new PointsRepo(deps.db);
  const points = new PointsService({ points: pointsRepo, clock: deps.clock, heartbeatWindowSeconds: deps.heartbeatWindowSeconds });
  const snapshots = new CatalogSnapshots(terminalGroups);
  // started and stopped with the app (buildApp): until then every call reads the database
  const catalogRevisions = new CatalogRevisionCache({ db: deps.db, points });
  const catalog = new CatalogService({ points, pointsRepo, terminalGroups, snapshots, revisions: catalogRevisions, clock: deps.clock });
  const zonesRepo = new ZonesRepo(deps.db);
  const zoneIndex = new ZoneIndexCache(zonesRepo);
  const zones = new ZonesService({ zones: zonesRepo, zoneIndex, points: pointsRepo, pointsService: points, terminalGroups });
  const catalogEvents = new CatalogEvents({ db: deps.db, ids: deps.ids, clock: deps.clock });
  const posCatalog = new PosCatalogService({
    terminalGroups,
    clock: deps.clock,
    heartbeatWindowSeconds: deps.heartbeatWindowSeconds,
    onChange: catalogEventsOnPush(catalogEvents, () => log),
  });
  const metricsRegistry = deps.metricsRegistry ?? new Registry();
  const requestIds: RequestIdStore = timedRequestIdStore(
    deps.redis ? new RedisRequestIds(deps.redis.client, deps.redis.keyPrefix) : new RequestIdsRepo(deps.db),
    deps.redis ? 'redis' : 'database',
    metricsRegistry,
  );
  const authenticator = new Authenticator({
    credentials: new CredentialsRepo(deps.db, deps.box, deps.credentialCacheMs ?? 5000, () => deps.clock.now().getTime()),
    requestIds,
    clock: deps.clock,
    requestIdTtlSeconds: deps.requestIdTtlSeconds,
  });
  const events = deps.events;
  const tokens = new CalculationTokens(deps.masterKey);
  // one count per phone for checkout and the guest loyalty read (spec: Limits, 30 per minute per guest phone)
  const phoneLimit = new PhoneRateLimit(deps.loyaltyRequestsPerMinute, deps.redis);
  const calculator = new CheckoutCalculator({
    points,
    snapshots,
    zones: zoneIndex,
    loyalty: deps.loyalty,
    rateLimit: phoneLimit,
    clock: deps.clock,
    db: deps.db,
  });
  const checkout = new CheckoutService({ calculator, tokens, clock: deps.clock, db: deps.db });
  const log = createLogger(deps.logger, deps.logDestination);
  const steps = deps.steps ?? noStepObserver;
  const metrics = createLegMetrics(metricsRegistry, {
    legsByState: () => new LegsRepo(deps.db).countByState(),
    pendingAccruals: () => new OrdersRepo(deps.db).pendingAccrualsByAge(deps.clock.now()),
    refundsRequired: () => new LegsRepo(deps.db).countRefundsRequired(),
  });
  const holds = new LoyaltyHolds({
    db: deps.db,
    loyalty: deps.loyalty,
    clock: deps.clock,
    ids: deps.ids,
    box: deps.box,
    settlements: orderSettlementEvents(events),
    log,
    metrics,
    steps,
  });
  const orders = new OrdersService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    calculator,
    tokens,
    holds,
    events,
    points: pointsRepo,
    zones,
    terminalGroups,
    steps,
    metrics: createOrderMetrics(metricsRegistry),
  });
  const cancel = new CancelService({ db: deps.db, clock: deps.clock, events, holds, steps });
  const posOrders = new PosOrdersService({ db: deps.db, clock: deps.clock, ids: deps.ids, events, holds, steps, log });
  const retention = new Retention({
    db: deps.db,
    clock: deps.clock,
    log,
    metrics: createRetentionMetrics(metricsRegistry),
    webhookRetentionDays: deps.webhookRetentionDays ?? DEFAULT_WEBHOOK_RETENTION_DAYS,
    requestIdsInDatabase: !deps.redis,
  });
  const sweeper = new HoldSweeper({ db: deps.db, clock: deps.clock, loyalty: deps.loyalty, holds, events, log, metrics, steps });
  const status = new StatusService({ points: pointsRepo, pointsService: points, clock: deps.clock });
  const rateLimit = new PartnerRateLimit(deps.partnerLimits, deps.redis);
  const guests = new GuestsService({ history: new GuestHistoryRepo(deps.db, new PhoneHasher(deps.masterKey)), points: pointsRepo, zoneIndex });
  const guestLoyalty = new GuestLoyaltyService({ loyalty: deps.loyalty, points, tenants: new TenantsRepo(deps.db), phoneLimit });
  const pointStatusWatcher = new PointStatusWatcher({
    terminalGroups,
    events: catalogEvents,
    clock: deps.clock,
    heartbeatWindowSeconds: deps.heartbeatWindowSeconds,
  });
  const support = new OrderSupportService({ db: deps.db, clock: deps.clock, events, holds });
  const consoleSettings = adminSettings({ sessionKey: consoleSessionKey(deps.masterKey), ...deps.console });
  const consoleCore = createConsoleCore({ db: deps.db, clock: deps.clock, ids: deps.ids, settings: consoleSettings });
  return {
    consoleSettings,
    consoleCore,
    support,
    pointStatusWatcher,
    status,
    rateLimit,
    guests,
    guestLoyalty,
    terminalGroups,
    pointsRepo,
    points,
    catalogRevisions,
    catalog,
    zones,
    posCatalog,
    requestIds,
    authenticator,
    events,
    checkout,
    orders,
    cancel,
    posOrders,
    holds,
    sweeper,
    retention,
    log,
    metricsRegistry,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Builds the Fastify application (app.ts builds, server.ts listens). Unknown fields are rejected, never
 * stripped (`removeAdditional: false`) and types are not coerced, so the contract is checked exactly.
 */
export async function buildApp(deps: AppDeps, services: Services = createServices(deps)): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }), // one line per request: http/request-log.ts
    bodyLimit: BODY_LIMIT,
    genReqId: () => deps.ids.uuid(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  });
  installErrorHandling(app);
  installRequestLog(app, services.metricsRegistry);
  // LISTEN for catalog changes while the app runs (the 304 path then reads no catalog row; catalog-revision-cache.ts)
  app.addHook('onReady', () => services.catalogRevisions.start());
  app.addHook('onClose', () => services.catalogRevisions.stop());
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Delivery Partner API',
        version: '2.0.0',
        license: { name: 'Proprietary: for the chain and its partners', identifier: 'LicenseRef-Proprietary' },
        description:
          'Partner ordering gateway (spec: delivery-partner-api.md) and the POS plugin protocol under /pos/v1. ' +
          'Every /v1 and /pos/v1 request is signed: X-API-Key, X-Timestamp, X-Request-ID, X-Signature (see README). ' +
          'Operations marked `x-feature` are planned parts of the spec served only to sources whose operator turned that ' +
          'switch on (`delivery-operator source features --tenant T --source S --enable guest-api,rate-limits`; docs/planned-features.md); ' +
          'other sources get 404 not_found. Switch `rate-limits` adds X-RateLimit-Limit/-Remaining/-Reset and 429 rate_limited.',
      },
      servers: [{ url: '/', description: 'this server (npm start: http://127.0.0.1:3000)' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'the key of the credential' },
          Timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix seconds; ±60 s of the server' },
          RequestId: { type: 'apiKey', in: 'header', name: 'X-Request-ID', description: 'a new UUID per request (single use per key)' },
          Signature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Signature',
            description: 'lowercase hex HMAC-SHA256 of `timestamp\\nrequestId\\nMETHOD\\npath\\nsha256hex(body)` under the secret',
          },
        },
      },
      // every /v1 and /pos/v1 operation needs all four headers together (health routes override with none)
      security: [{ ApiKey: [], Timestamp: [], RequestId: [], Signature: [] }],
      tags: [
        { name: 'points', description: 'Points of the key, their status and schedule' },
        { name: 'catalog', description: 'Menu, stop-list and catalog revision (ETag = revision), legacy products' },
        { name: 'delivery', description: 'Delivery zones, zone choice for an address, street check' },
        { name: 'checkout', description: 'Cart calculation with loyalty (no side effects)' },
        { name: 'orders', description: 'Order creation with loyalty holds, lookups, cancellation' },
        { name: 'guests', description: 'Guest loyalty, order history and addresses (switch guest-api: x-feature, see /docs)' },
        { name: 'status', description: 'Sync freshness (switch guest-api: x-feature, see /docs)' },
        { name: 'health', description: 'Liveness and readiness (not signed)' },
        { name: 'pos', description: 'POS plugin protocol (docs/pos-protocol.md)' },
      ],
    },
    // The support console is HTML for people with its own sign-in, not part of the API: kept out of the document.
    transform: ({ schema, url }) => ({
      schema: url === CONSOLE_PREFIX || url.startsWith(`${CONSOLE_PREFIX}/`) ? { ...schema, hide: true } : schema,
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  installMetricsEndpoint(app, services.metricsRegistry);
  installAuth(app, services.authenticator);
  installPartnerRateLimit(app, services.rateLimit);
  installTextGuard(app);

  healthRoutes(app, deps.db);
  pointsRoutes(app, services.points);
  catalogRoutes(app, services.catalog);
  zonesRoutes(app, services.zones);
  posCatalogRoutes(app, services.posCatalog);
  checkoutRoutes(app, services.checkout);
  ordersRoutes(app, services.orders, services.cancel);
  posOrdersRoutes(app, services.posOrders);
  statusRoutes(app, services.status);
  guestsRoutes(app, services.guests, services.guestLoyalty);
  await app.register(consolePlugin, {
    prefix: CONSOLE_PREFIX,
    core: services.consoleCore,
    settings: services.consoleSettings,
    clock: deps.clock,
    sections: consoleSections({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      core: services.consoleCore,
      support: services.support,
      phones: new PhoneHasher(deps.masterKey),
      box: deps.box,
      zones: services.zones,
      heartbeatWindowSeconds: deps.heartbeatWindowSeconds,
      webhooksAllowInsecureLoopback: deps.webhooksAllowInsecureLoopback ?? false,
    }),
  });
  return app;
}
