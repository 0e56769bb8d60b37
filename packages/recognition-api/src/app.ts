import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import type { Clock, Db, IdSource } from '@app/shared';
import { adminSettings, createAdminServices, type AdminPanelOptions } from './admin-web/admin.module.js';
import { adminPanel } from './admin-web/admin.plugin.js';
import { CallbacksRepo } from './callbacks/callbacks.repo.js';
import { callbacksRoutes } from './callbacks/callbacks.routes.js';
import { CallbacksService } from './callbacks/callbacks.service.js';
import { OrphanFileSweep } from './documents/orphan-files.js';
import { systemResolver, type Resolver } from './callbacks/callback-url.js';
import { DocumentsRepo } from './documents/documents.repo.js';
import { documentsRoutes } from './documents/documents.routes.js';
import { EdoDraftService } from './documents/edo-draft.js';
import { EdoImportService } from './documents/edo-import.js';
import { edoImportRoutes } from './documents/edo-import.routes.js';
import { createEdoServices, type EdoDeps } from './edo/edo.module.js';
import { edoRoutes } from './edo/edo.routes.js';
import { DocumentsService } from './documents/documents.service.js';
import { MULTIPART_LIMITS } from './documents/multipart-upload.js';
import type { RecognitionEngine } from './engine/engine.port.js';
import { checkHealth, SERVICE_VERSION } from './health/health.service.js';
import { healthRoutes } from './health/health.routes.js';
import { DEFAULT_IMAGE_RETENTION_DAYS, ImageRetention } from './documents/image-retention.js';
import { installErrorHandling } from './http/error-handler.js';
import { createRecognitionMetrics, installMetrics } from './http/metrics.js';
import type { Registry } from 'prom-client';
import { frameworkErrorOptions } from './http/framework-errors.js';
import { DocumentProcessor } from './jobs/document-processor.js';
import { QueueRepo } from './jobs/queue.repo.js';
import { installAuth } from './keys/auth.plugin.js';
import { KeyUsageCounter } from './keys/key-usage.js';
import { KeysRepo } from './keys/keys.repo.js';
import type { FileStore } from './storage/file-store.js';
import { checkUpload } from './engine/upload-check.js';
import type { ImageChecker } from './documents/intake.js';
import { Lane } from './jobs/lane.js';
import { realScheduler, type Scheduler } from './time/scheduler.js';
import type { TrustProxy } from './config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request arrived (injected clock): the `priority=high` deadline counts from here. */
    arrivedAt: Date;
  }
}

/** In-process upload check: for tests and tools only; the service passes the worker pool's (see index.ts). */
const inProcessCheck: ImageChecker = (bytes) => checkUpload(bytes);

/** Everything the recognition app needs, passed in (tests: in-memory PGlite, ManualClock, fake engine). */
export interface RecognitionAppDeps {
  db: Db;
  files: FileStore;
  /** The local OCR engine (health `python_worker`); used for recognition unless `aiEngine` is given. */
  localEngine: RecognitionEngine;
  /** The AI adapter when configured (health `ai_api`); then it does the recognition. */
  aiEngine?: RecognitionEngine;
  clock: Clock;
  ids: IdSource;
  allowLoopbackCallbacks: boolean;
  /** DNS for callback URL checks; default `dns.lookup`. */
  resolve?: Resolver;
  /** Budget of priority=high in ms, counted from the request's arrival (default 35 000). */
  syncBudgetMs?: number;
  /** Upload check of one image; default in-process (tests). `startRecognitionService` passes the worker pool. */
  checkImage?: ImageChecker;
  /** Engine of the high lane (its own pool threads); default the recognition engine. */
  highEngine?: RecognitionEngine;
  /** Concurrent `priority=high` requests (RECOGNITION_HIGH_SLOTS, default 2); more get 503 + Retry-After. */
  highSlots?: number;
  /** Timers (deadlines, lease renewals); default real timers, tests pass a manual scheduler. */
  scheduler?: Scheduler;
  /** Called when a document is queued (wakes workers). */
  onQueued?: () => void;
  /** The service logger (pino, http/logger.ts) for request logs; default silent. */
  logger?: Logger;
  /** Background events (failed recognitions, callback attempts); default silent. */
  log?: (msg: string, extra: object) => void;
  /** prom-client registry served at /metrics; default a new one per app. */
  metricsRegistry?: Registry;
  /** E-document gateway: master key and operator options; default a random in-memory key (tests). */
  edo?: EdoDeps;
  /** Page images of finished documents are deleted after this many days (default 30). */
  imageRetentionDays?: number;
  /** Administration panel at /admin: session key, cookie and session limits, sign-in rate limit (defaults for tests). */
  admin?: AdminPanelOptions;
  /** RECOGNITION_UPD_XSD (config.ts): absolute path of the FNS 5.03 seller-title XSD; upd-xml exports and EDO drafts are validated when set. */
  updXsd?: string;
  /** TRUST_PROXY (config.ts): whose X-Forwarded-* to believe for request.ip and request.protocol; default none. */
  trustProxy?: TrustProxy;
}

/** The services built from the deps (shared by the app, the workers and tests). */
export function createRecognitionServices(deps: RecognitionAppDeps) {
  const keys = new KeysRepo(deps.db, deps.clock);
  const keyUsage = new KeyUsageCounter(keys, deps.clock);
  const docs = new DocumentsRepo(deps.db);
  const callbacks = new CallbacksRepo(deps.db);
  const queue = new QueueRepo(deps.db);
  const engine = deps.aiEngine ?? deps.localEngine;
  const metrics = createRecognitionMetrics(() => queue.depthByPriority(), deps.metricsRegistry);
  const processor = new DocumentProcessor({ db: deps.db, files: deps.files, engine, clock: deps.clock, ids: deps.ids, log: deps.log, metrics });
  const scheduler = deps.scheduler ?? realScheduler;
  const highLane = new Lane('priority=high', deps.highSlots ?? 2, deps.clock);
  const documents = new DocumentsService({
    db: deps.db,
    docs,
    files: deps.files,
    clock: deps.clock,
    ids: deps.ids,
    scheduler,
    allowLoopbackCallbacks: deps.allowLoopbackCallbacks,
    resolve: deps.resolve ?? systemResolver,
    syncBudgetMs: deps.syncBudgetMs,
    onQueued: deps.onQueued,
    checkImage: deps.checkImage ?? inProcessCheck,
    updXsd: deps.updXsd,
    highLane,
    high: { processor, queue, clock: deps.clock, scheduler, engine: deps.highEngine ?? engine, log: deps.log },
  });
  const health = () => checkHealth({ db: deps.db, queue, localEngine: deps.localEngine, aiEngine: deps.aiEngine });
  const edo = createEdoServices(deps.db, deps.clock, deps.ids, deps.edo);
  const edoImport = new EdoImportService({
    db: deps.db,
    files: deps.files,
    clock: deps.clock,
    ids: deps.ids,
    edo: edo.gateway,
    checkImage: deps.checkImage ?? inProcessCheck,
    allowLoopbackCallbacks: deps.allowLoopbackCallbacks,
    resolve: deps.resolve ?? systemResolver,
    onQueued: deps.onQueued,
  });
  const edoDraft = new EdoDraftService({ db: deps.db, clock: deps.clock, ids: deps.ids, edo: edo.gateway, updXsd: deps.updXsd });
  const callbackService = new CallbacksService({ docs, callbacks, clock: deps.clock, ids: deps.ids });
  const adminConfig = adminSettings(deps.admin);
  const admin = createAdminServices({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    files: deps.files,
    keys,
    keyUsage,
    edo,
    settings: adminConfig,
    deleteDocument: (apiKeyId, id) => documents.delete(apiKeyId, id),
    resendCallback: (apiKeyId, id) => callbackService.resend(apiKeyId, id),
    onQueued: deps.onQueued,
  });
  const imageRetention = new ImageRetention({
    docs,
    files: deps.files,
    clock: deps.clock,
    registry: metrics.registry,
    days: deps.imageRetentionDays ?? DEFAULT_IMAGE_RETENTION_DAYS,
    log: deps.log,
  });
  const orphanFiles = new OrphanFileSweep({ files: deps.files, docs, clock: deps.clock, log: deps.log });
  return {
    keys,
    keyUsage,
    docs,
    callbacks,
    callbackService,
    queue,
    processor,
    documents,
    health,
    edo,
    edoImport,
    edoDraft,
    highLane,
    scheduler,
    admin,
    adminConfig,
    metrics,
    imageRetention,
    orphanFiles,
  };
}

/** The services of one app instance (keys, documents, queue, callbacks, health). */
export type RecognitionServices = ReturnType<typeof createRecognitionServices>;

/** Trust the nearest `n` proxies: proxy-addr calls this with each address and its hop index (0 = the peer). */
const trustHops = (n: number) => (_address: string, hop: number) => hop < n;

/** Builds the Fastify application of the recognition API (app builds, `startRecognitionService` listens). */
export async function buildRecognitionApp(
  deps: RecognitionAppDeps,
  services: RecognitionServices = createRecognitionServices(deps),
): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger is Fastify's logger; the cast keeps FastifyInstance's default logger type for the route modules
    loggerInstance: (deps.logger ?? pino({ level: 'silent' })) as FastifyBaseLogger,
    genReqId: () => deps.ids.uuid(),
    // A hop count as proxy-addr's function form (`hop < n`), which Fastify's types take where a number is refused.
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : (deps.trustProxy ?? false),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, useDefaults: false } },
    ...frameworkErrorOptions,
  });
  installErrorHandling(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Document Recognition API',
        version: SERVICE_VERSION,
        license: { name: 'Proprietary: for the chain and its partners', identifier: 'LicenseRef-Proprietary' },
        description:
          'Spec: document-recognition-api.md; decisions: docs/recognition.md and docs/edo-gateway.md. Every operation except GET /api/v1/health needs X-API-Key.',
      },
      servers: [{ url: '/', description: 'this server (npm start: the RECOGNITION_PORT of the service)' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description:
              'an API key from the administration panel; /api/v1/edo/* needs a key with the `edo` scope, the rest the `recognition` scope (else 403 FORBIDDEN)',
          },
        },
      },
      security: [{ apiKey: [] }],
      tags: [
        { name: 'documents', description: 'Recognition of accounting documents, the stored documents and their export (Spec: Endpoints)' },
        {
          name: 'edo',
          description:
            'E-document operator gateway under /api/v1/edo (Spec: E-document operator gateway; docs/edo-gateway.md); needs the `edo` scope',
        },
        { name: 'health', description: 'Service health (no authentication)' },
      ],
    },
    // The administration panel is HTML for people with its own sign-in, not part of the API: kept out of the document.
    transform: ({ schema, url }) => ({ schema: url === '/admin' || url.startsWith('/admin/') ? { ...schema, hide: true } : schema, url }),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.decorateRequest('arrivedAt', null as unknown as Date);
  app.addHook('onRequest', async (request) => {
    request.arrivedAt = deps.clock.now();
  });
  installMetrics(app, services.metrics);
  installAuth(app, services.keys, services.keyUsage);
  // Per-key counts reach the table about once a minute (and on close); the keys page flushes before reading.
  const usageFlush = setInterval(() => services.keyUsage.flush().catch((err) => app.log.warn({ err }, 'key usage flush failed')), 60_000);
  usageFlush.unref();
  healthRoutes(app, services.health);
  documentsRoutes(app, services.documents, services.edoDraft);
  callbacksRoutes(app, services.callbackService);
  await edoRoutes(app, services.edo.gateway);
  edoImportRoutes(app, services.edoImport);
  await app.register(adminPanel, { prefix: '/admin', services: services.admin, settings: services.adminConfig, clock: deps.clock });
  app.addHook('onClose', async () => {
    clearInterval(usageFlush);
    await services.keyUsage.flush().catch(() => {});
    await services.edo.session.reset();
  });
  return app;
}
