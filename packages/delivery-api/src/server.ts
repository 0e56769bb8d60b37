import { join } from 'node:path';
import { createWebhookMetrics } from './webhooks/webhook-metrics.js';
import type { FastifyInstance } from 'fastify';
import type { LoggerOptions, DestinationStream } from 'pino';
import { migrate, openDb, Poller, randomIds, systemClock, type Clock, type Db, type IdSource } from '@app/shared';
import { buildApp, createServices, type Services } from './app.js';
import { SecretBox } from './auth/secret-box.js';
import type { DeliveryConfig } from './config.js';
import { HttpLoyalty } from './loyalty/loyalty.http.js';
import type { LoyaltyPort } from './loyalty/loyalty.port.js';
import type { StepObserver } from './common/recovery-points.js';
import type { OrderEvents } from './orders/order-events.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhooks/dispatcher.js';
import { createOutboxOrderEvents } from './webhooks/outbox.js';
import { openRedis } from './redis/redis-client.js';

export const MIGRATIONS_DIR = join(import.meta.dirname, '..', 'migrations');

/** A running delivery API. */
export interface DeliveryServer {
  app: FastifyInstance;
  db: Db;
  box: SecretBox;
  services: Services;
  /** Base URL it listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  close(): Promise<void>;
}

/** Opens the configured database (PostgreSQL, or PGlite in `<dataDir>/delivery-db`) and applies the migrations. */
export async function openDeliveryDb(config: Pick<DeliveryConfig, 'databaseUrl' | 'dataDir'>): Promise<Db> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'delivery-db') });
  await migrate(db, MIGRATIONS_DIR);
  return db;
}

/**
 * Starts the delivery API: database, migrations, Redis when configured (not awaited: until it answers, signed
 * requests get 503 authentication_unavailable), HTTP listener and background jobs (retention purges every
 * minute, hold sweeper, webhook dispatcher).
 * `close()` stops the jobs, the listener and the database, in that order.
 */
export async function startDeliveryServer(opts: {
  config: DeliveryConfig;
  clock?: Clock;
  ids?: IdSource;
  logger?: boolean | LoggerOptions;
  /** Where log lines go; default stdout as JSON (npm start passes pino-pretty). */
  logDestination?: DestinationStream;
  /** Overrides the loyalty adapter built from LOYALTY_URL. */
  loyalty?: LoyaltyPort | null;
  /** Order events; default the webhook outbox. */
  events?: OrderEvents;
  /** Told at each recovery point (default nobody). */
  steps?: StepObserver;
  /** Run the webhook dispatcher in this instance (default true; poll interval 1 s). */
  dispatchWebhooks?: boolean;
}): Promise<DeliveryServer> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const db = await openDeliveryDb(config);
  const redis = config.redis ? openRedis(config.redis) : null;
  const box = new SecretBox(config.masterKey);
  const deps = {
    db,
    box,
    clock,
    ids: opts.ids ?? randomIds,
    requestIdTtlSeconds: config.requestIdTtlSeconds,
    heartbeatWindowSeconds: config.heartbeatWindowSeconds,
    webhooksAllowInsecureLoopback: config.webhooksAllowInsecureLoopback,
    masterKey: config.masterKey,
    loyalty: opts.loyalty !== undefined ? opts.loyalty : loyaltyFromConfig(config),
    events: opts.events ?? createOutboxOrderEvents(opts.ids ?? randomIds),
    logger: opts.logger ?? { level: config.logLevel },
    logDestination: opts.logDestination,
    steps: opts.steps,
    redis,
    webhookRetentionDays: config.webhookRetentionDays,
    partnerLimits: config.partnerLimits,
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  // Housekeeping loops: a first run one interval after start (as setInterval did), never overlapping, errors
  // logged; unref'd so they alone do not keep the process alive.
  // Retention (used request ids, delivered webhooks) in small batches every minute (retention/retention.ts).
  const purge = new Poller(() => services.retention.runOnce().then(() => false), {
    intervalMs: 60_000,
    runAtStart: false,
    unref: true,
    onError: (err) => app.log.warn({ err }, 'retention purge failed'),
  });
  const sweep = new Poller(() => services.sweeper.runOnce().then(() => false), {
    intervalMs: 15_000,
    runAtStart: false,
    unref: true,
    onError: (err) => app.log.warn({ err }, 'hold sweep failed'),
  });
  // point.status_changed for sources with catalog-events (catalog-events/point-status-watcher.ts)
  const pointStatus = new Poller(() => services.pointStatusWatcher.runOnce().then(() => false), {
    intervalMs: 15_000,
    runAtStart: false,
    unref: true,
    onError: (err) => app.log.warn({ err }, 'point status watch failed'),
  });
  purge.start();
  sweep.start();
  pointStatus.start();
  let dispatcher: WebhookDispatcher | null = null;
  if (opts.dispatchWebhooks !== false) {
    dispatcher = createWebhookDispatcher({ db, box, clock, ids: deps.ids, log: app.log, metrics: createWebhookMetrics(services.metricsRegistry) });
    dispatcher.start(1000);
  }
  const address = await app.listen({ port: config.port, host: config.host });
  return {
    app,
    db,
    box,
    services,
    url: address.replace('[::1]', '127.0.0.1'),
    async close() {
      await Promise.all([purge.stop(), sweep.stop(), pointStatus.stop()]);
      await dispatcher?.stop();
      await app.close();
      redis?.client.disconnect();
      await db.close();
    },
  };
}

/** The HTTP loyalty adapter when LOYALTY_URL is configured, else null (loyalty not connected). */
export function loyaltyFromConfig(config: DeliveryConfig): LoyaltyPort | null {
  if (!config.loyaltyUrl || !config.loyaltyApiLogin) return null;
  return new HttpLoyalty({ baseUrl: config.loyaltyUrl, apiLogin: config.loyaltyApiLogin, timeoutMs: config.loyaltyTimeoutMs });
}
