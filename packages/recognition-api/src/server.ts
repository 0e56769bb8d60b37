import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, type Clock, type Poller } from '@app/shared';
import { buildRecognitionApp, createRecognitionServices, type RecognitionAppDeps } from './app.js';
import { ensureAdminAccount } from './admin-web/admin-account.js';
import { loadSessionKey } from './admin-web/session-key.js';
import type { AdminConfig, AiConfig, EdoConfig, TrustProxy } from './config.js';
import type { EdoConnectionAdmin } from './edo/edo-connection.service.js';
import { seedEdoConnection } from './edo/edo-seed.js';
import { openRecognitionDb } from './db.js';
import type { RecognitionEngine } from './engine/engine.port.js';
import { cachedProbe, pooledOcrEngine, tesseractProbe } from './engine/pool/pooled-engine.js';
import { defaultThreads, RecognitionPool } from './engine/pool/recognition-pool.js';
import type { ImageChecker } from './documents/intake.js';
import { backgroundLog } from './http/logger.js';
import { startBackgroundLoops } from './jobs/background-loops.js';
import { aiEngineOn, backgroundPool, commonAppDeps } from './process-deps.js';
import type { S3Config } from './storage/s3-file-store.js';

/** Options of {@link startRecognitionService}; everything but `dataDir`/`port`/`host` is optional. */
export interface StartRecognitionOptions {
  /** Root data folder: PGlite in `<dataDir>/recognition/db`, uploads in `<dataDir>/recognition/files`. */
  dataDir: string;
  port: number;
  host: string;
  /** PostgreSQL URL; the service then uses schema `recognition`. */
  databaseUrl?: string;
  /** Recognition engine (tests); default the local OCR engine on the worker pools (`engine/pool`). */
  engine?: RecognitionEngine;
  /** Concurrent priority=high requests (RECOGNITION_HIGH_SLOTS, default 2), each with its own pool thread. */
  highSlots?: number;
  /** Tesseract languages of the local engine (RECOGNITION_OCR_LANGUAGES: `rus`, `eng` or `rus+eng`; default `rus`). */
  ocrLanguages?: string;
  /** V8 heap cap per pool thread, MB (RECOGNITION_TASK_MEMORY_MB, default 768). */
  taskMemoryMb?: number;
  /** Address-space limit of each Tesseract process, MB (RECOGNITION_TESSERACT_MEMORY_MB; 0 or absent: none). */
  tesseractMemoryMb?: number;
  /** Uploads in an S3-compatible object store (RECOGNITION_S3_*); absent: `<dataDir>/recognition/files`. */
  s3?: S3Config;
  /** AI adapter configuration (AI_*); when given, the AI engine does the recognition. */
  ai?: AiConfig;
  /** Background events; default the logger's warn level (http/logger.ts `backgroundLog`), or silent without one. */
  log?: (msg: string, extra: object) => void;
  /** The service logger (pino) for request logs and background events; default silent. */
  logger?: RecognitionAppDeps['logger'];
  clock?: Clock;
  /**
   * Demo key, for `npm start` only: a string is ensured as a key; `true` reads or creates
   * `<dataDir>/recognition/demo-api-key`. Default: none (production creates no key and prints no secret;
   * keys come from the keys CLI).
   */
  demoApiKey?: string | true;
  /** Recognition workers in this process (RECOGNITION_WORKERS, default 2; 0 = API only). */
  workers?: number;
  allowLoopbackCallbacks?: boolean;
  /** Real-time pause of an idle worker or callback poller, ms (default 1000). */
  pollMs?: number;
  /** E-document gateway configuration (EDO_*, DIADOC_*); default: generated master key, no seed. */
  edo?: Partial<EdoConfig>;
  /** Page images of finished documents are deleted after this many days (RECOGNITION_IMAGE_RETENTION_DAYS, 30). */
  imageRetentionDays?: number;
  /** Administration panel (ADMIN_*, DEMO_ADMIN_PASSWORD); default: account `admin` with a generated password. */
  admin?: Partial<AdminConfig>;
  /** RECOGNITION_UPD_XSD: the FNS 5.03 seller-title schema (absolute path); default none (exports not validated). */
  updXsd?: string;
  /** TRUST_PROXY: proxies whose X-Forwarded-* headers are believed (config.ts parseTrustProxy); default none. */
  trustProxy?: TrustProxy;
}

/** A running service. */
export interface RunningRecognitionService {
  url: string;
  /** The demo API key (plain; scopes recognition and edo) when `demoApiKey` was given, else null. */
  apiKey: string | null;
  /** The operator connection (what recognition-admin edo and the admin panel use). */
  edo: EdoConnectionAdmin;
  /** The administration panel: its URL, user name and the password when known (the demo; null with ADMIN_PASSWORD_HASH). */
  admin: { url: string; username: string; password: string | null };
  close(): Promise<void>;
}

/** `<dataDir>/recognition/demo-admin-password`: the demo administrator's password, shown at every start while it is current. */
function demoAdminPasswordFile(dataDir: string): string {
  return join(dataDir, 'recognition', 'demo-admin-password');
}

function demoKeyFile(dataDir: string): string {
  const dir = join(dataDir, 'recognition');
  mkdirSync(dir, { recursive: true });
  return join(dir, 'demo-api-key');
}

/**
 * Opens and migrates the database, builds the app, starts `workers` recognition workers (batch rows become
 * claimable at their quarter-hour tick), the callback sender, and listens. `close()` stops all of it.
 */
export async function startRecognitionService(opts: StartRecognitionOptions): Promise<RunningRecognitionService> {
  const clock = opts.clock ?? systemClock;
  const db = await openRecognitionDb(opts);
  const workerCount = opts.workers ?? 2;
  const log = opts.log ?? (opts.logger ? backgroundLog(opts.logger) : undefined);
  const highSlots = opts.highSlots ?? 2;
  // Two pools (docs/decisions.md "Pixel work off the event loop", "Two lanes"): the high lane's threads are never
  // taken by queued work, and queued work's Tesseract runs niced so a high request gets the CPU first. One extra
  // background thread keeps upload checks of normal/batch requests from waiting behind the workers' recognitions.
  const pools = {
    // A high document's pages are read in parallel (latency counts there); queued work reads one page at a time.
    high: new RecognitionPool({
      name: 'high',
      threads: highSlots,
      maxHeapMb: opts.taskMemoryMb,
      pagesInParallel: Math.min(4, defaultThreads()),
      languages: opts.ocrLanguages,
      tesseractMemoryMb: opts.tesseractMemoryMb,
    }),
    background: backgroundPool(opts, Math.max(1, workerCount) + 1),
  };
  const checkImage: ImageChecker = (bytes, lane, signal) => pools[lane].checkImage(bytes, signal);
  const probe = cachedProbe(tesseractProbe(opts.ocrLanguages), clock);
  const localEngine = opts.engine ?? pooledOcrEngine(pools.background, probe);
  const highLocal = opts.engine ?? pooledOcrEngine(pools.high, probe);
  const aiEngine = aiEngineOn(pools.background, opts.ai, log);
  const allowLoopback = opts.allowLoopbackCallbacks ?? false;
  // filled by startBackgroundLoops once the services exist; the app's onQueued wakes whatever workers it holds
  const workers: Poller[] = [];
  const wakeAll = () => {
    for (const w of workers) w.poke();
  };
  const deps: RecognitionAppDeps = {
    ...commonAppDeps({ ...opts, db, localEngine, aiEngine, clock, allowLoopbackCallbacks: allowLoopback, log }),
    onQueued: wakeAll,
    logger: opts.logger,
    checkImage,
    highEngine: aiEngine ?? highLocal,
    highSlots,
    trustProxy: opts.trustProxy,
    updXsd: opts.updXsd,
    admin: {
      sessionKey: loadSessionKey(opts.admin?.sessionKey, opts.dataDir),
      cookieSecure: opts.admin?.cookieSecure,
      idleMs: opts.admin?.idleMinutes && opts.admin.idleMinutes * 60_000,
      absoluteMs: opts.admin?.maxHours && opts.admin.maxHours * 3_600_000,
      loginMaxAttempts: opts.admin?.loginMaxAttempts,
      loginWindowMs: opts.admin?.loginWindowMinutes && opts.admin.loginWindowMinutes * 60_000,
      accountMaxFailures: opts.admin?.accountMaxFailures,
    },
  };
  const services = createRecognitionServices(deps);
  const app = await buildRecognitionApp(deps, services);

  let apiKey: string | null = null;
  if (opts.demoApiKey === true) {
    const file = demoKeyFile(opts.dataDir);
    if (existsSync(file)) apiKey = readFileSync(file, 'utf8').trim();
    else {
      apiKey = (await services.keys.create('demo', undefined, ['recognition', 'edo'])).key;
      writeFileSync(file, apiKey, { mode: 0o600 });
    }
  } else if (opts.demoApiKey) apiKey = opts.demoApiKey;
  if (apiKey) {
    if (!(await services.keys.exists(apiKey))) await services.keys.create('demo', apiKey, ['recognition', 'edo']);
    await services.keys.grantScopes(apiKey, ['recognition', 'edo']);
  }
  const passwordFile = demoAdminPasswordFile(opts.dataDir);
  const admin = await ensureAdminAccount(services.admin.repo, clock, {
    username: opts.admin?.username ?? 'admin',
    passwordHash: opts.admin?.passwordHash,
    demoPassword: opts.admin?.demoPassword,
    knownPassword: existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : undefined,
  });
  if (admin.password) writeFileSync(passwordFile, admin.password, { mode: 0o600 });
  else rmSync(passwordFile, { force: true });
  if (opts.edo?.seed) await seedEdoConnection(services.edo.repo, services.edo.connection, opts.edo.seed, log);

  const loops = startBackgroundLoops({
    services,
    workers,
    workerCount,
    clock,
    log,
    pollMs: opts.pollMs ?? 1000,
    allowLoopbackCallbacks: allowLoopback,
  });

  const url = await app.listen({ port: opts.port, host: opts.host });
  return {
    url,
    apiKey,
    edo: services.edo.connection,
    admin: { url: `${url}/admin`, ...admin },
    async close() {
      // Jobs are released at once while HTTP drains (a high request in flight still finishes or times out).
      await Promise.all([app.close(), loops.stop()]);
      await Promise.all([pools.high.close(), pools.background.close()]);
      await db.close();
    },
  };
}
