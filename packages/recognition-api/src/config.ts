import { isAbsolute, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { ConfigError, envFlag, envInt } from '@app/shared';

export { ConfigError };

/** The OpenAI-compatible AI vision endpoint (AI_BASE_URL, AI_API_KEY, AI_MODEL). */
export interface AiConfig {
  /** Base URL without the trailing `/chat/completions`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per-request timeout in milliseconds (AI_TIMEOUT_MS, default 30000: inside the 35 s synchronous budget). */
  timeoutMs: number;
  /** Prices for the cost estimate in the logs (AI_COST_INPUT_PER_MTOK / AI_COST_OUTPUT_PER_MTOK, per million tokens). */
  cost?: { inputPerMTok?: number; outputPerMTok?: number };
}

/**
 * The operator connection given by DIADOC_* variables; the gateway stores it as an `EdoConnectionInput`
 * (edo/edo-connection.service.ts), whose fields these are (the configuration is the lower layer, so it names them).
 */
export interface EdoSeedConfig {
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  boxId?: string;
  issuerUrl?: string;
  apiBaseUrl?: string;
  scope?: string;
}

/** Uploads in an S3-compatible object store (RECOGNITION_S3_*; storage/s3-file-store.ts). */
export interface S3Config {
  bucket: string;
  /** e.g. `https://storage.example.net`; absent: AWS's endpoint for `region`. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://host/bucket/key` addressing (MinIO, most non-AWS stores); default true when an endpoint is given. */
  forcePathStyle?: boolean;
}

/** The e-document gateway (docs/edo-gateway.md). */
export interface EdoConfig {
  /** EDO_MASTER_KEY (base64, 32 bytes): seals the connection's secrets; absent → generated in `<dataDir>/recognition/edo-master.key`. */
  masterKey?: Buffer;
  /** EDO_TIMEOUT_MS, default 15000: per call to the operator and its identity provider. */
  timeoutMs: number;
  /**
   * DIADOC_CLIENT_ID, DIADOC_CLIENT_SECRET, DIADOC_REFRESH_TOKEN, DIADOC_BOX_ID (all four or none), and optional
   * DIADOC_ISSUER_URL, DIADOC_API_BASE_URL, DIADOC_SCOPE: a connection stored at start-up (see index.ts for when).
   */
  seed?: EdoSeedConfig;
}

/** The administration panel at /admin (docs/admin-panel.md). */
export interface AdminConfig {
  /** ADMIN_USERNAME, default `admin`. */
  username: string;
  /** ADMIN_PASSWORD_HASH (production): an scrypt hash from `admin-cli hash`; the account gets it at start-up. */
  passwordHash?: string;
  /** DEMO_ADMIN_PASSWORD: the embedded default's password instead of a generated one. */
  demoPassword?: string;
  /** ADMIN_SESSION_KEY (base64, 32 bytes) encrypts the session cookie; absent → generated in `<dataDir>/recognition/admin-session.key`. */
  sessionKey?: Buffer;
  /**
   * ADMIN_COOKIE_SECURE: `auto` (default: Secure unless the request is plain http to a loopback host; https is
   * read through TRUST_PROXY), `1` always, `0` never.
   */
  cookieSecure: 'auto' | boolean;
  /** ADMIN_SESSION_IDLE_MINUTES, default 30: a session ends after this long without a request. */
  idleMinutes: number;
  /** ADMIN_SESSION_MAX_HOURS, default 12: a session ends this long after sign-in. */
  maxHours: number;
  /** ADMIN_LOGIN_MAX_ATTEMPTS (default 10) sign-in attempts per client address per ADMIN_LOGIN_WINDOW_MINUTES (default 15). */
  loginMaxAttempts: number;
  loginWindowMinutes: number;
  /** ADMIN_ACCOUNT_MAX_FAILURES (default 10) wrong passwords for one user name per window, from any address, lock the name. */
  accountMaxFailures: number;
}

/** ADMIN_* and DEMO_ADMIN_PASSWORD. @throws ConfigError naming the bad variable. */
export function loadAdminConfig(env: NodeJS.ProcessEnv): AdminConfig {
  let sessionKey: Buffer | undefined;
  if (env.ADMIN_SESSION_KEY) {
    sessionKey = Buffer.from(env.ADMIN_SESSION_KEY, 'base64');
    if (sessionKey.length !== 32) throw new ConfigError('ADMIN_SESSION_KEY must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)');
  }
  if (env.ADMIN_PASSWORD_HASH && !/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/.test(env.ADMIN_PASSWORD_HASH.trim())) {
    throw new ConfigError('ADMIN_PASSWORD_HASH must be a hash printed by `admin-cli hash` (scrypt$N$r$p$salt$hash)');
  }
  const secure = (env.ADMIN_COOKIE_SECURE ?? 'auto').trim();
  if (!['auto', '1', '0', 'true', 'false'].includes(secure)) throw new ConfigError(`ADMIN_COOKIE_SECURE must be auto, 1 or 0, got "${secure}"`);
  const username = (env.ADMIN_USERNAME || 'admin').trim();
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(username)) throw new ConfigError('ADMIN_USERNAME: 1-64 of letters, digits, . _ @ -');
  return {
    username,
    passwordHash: env.ADMIN_PASSWORD_HASH?.trim() || undefined,
    demoPassword: env.DEMO_ADMIN_PASSWORD || undefined,
    sessionKey,
    cookieSecure: secure === 'auto' ? 'auto' : secure === '1' || secure === 'true',
    idleMinutes: envInt(env, 'ADMIN_SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
    maxHours: envInt(env, 'ADMIN_SESSION_MAX_HOURS', 12, 1, 24 * 30),
    loginMaxAttempts: envInt(env, 'ADMIN_LOGIN_MAX_ATTEMPTS', 10, 1, 1000),
    loginWindowMinutes: envInt(env, 'ADMIN_LOGIN_WINDOW_MINUTES', 15, 1, 24 * 60),
    accountMaxFailures: envInt(env, 'ADMIN_ACCOUNT_MAX_FAILURES', 10, 1, 1000),
  };
}

/**
 * TRUST_PROXY: which proxies' `X-Forwarded-For` / `-Proto` / `-Host` to believe (Fastify's `trustProxy`). Unset,
 * `0` or `false`: none (the peer is the client); a number 1–10: that many hops; otherwise a comma list of addresses
 * or CIDR ranges of the proxies (`127.0.0.1,10.0.0.0/8`); `true` trusts any peer (only behind a proxy that strips
 * these headers). Used for the client address of the sign-in limit and for https detection of the admin cookie.
 * @throws ConfigError naming TRUST_PROXY.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n < 1 || n > 10) throw new ConfigError(`TRUST_PROXY: a hop count must be 1 to 10, got ${v}`);
    return n;
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const a of list) {
    const [ip, bits] = a.split('/');
    const parsed = ipaddr.isValid(ip ?? '') ? ipaddr.parse(ip!) : null;
    const maxBits = parsed?.kind() === 'ipv6' ? 128 : 32;
    if (!parsed || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits)))
      throw new ConfigError(`TRUST_PROXY: "${a}" is not an IP address or CIDR range (use hops, addresses, or true/false)`);
  }
  return list;
}

/** Fastify's `trustProxy` as TRUST_PROXY gives it. */
export type TrustProxy = boolean | number | string[];

/** Runtime configuration of the recognition API, parsed once from the environment. */
export interface RecognitionConfig {
  /** RECOGNITION_PORT, default 3100. */
  port: number;
  /** RECOGNITION_HOST, default 127.0.0.1. */
  host: string;
  /** DATABASE_URL; absent → embedded PGlite under `<dataDir>/recognition/db`. On PostgreSQL, schema `recognition`. */
  databaseUrl?: string;
  /** DATA_DIR, default ./data; uploads go to `<dataDir>/recognition/files`. */
  dataDir: string;
  /** Set when AI_BASE_URL is; the AI adapter then replaces the local OCR engine. */
  ai?: AiConfig;
  /** RECOGNITION_S3_*: uploads in an S3-compatible object store instead of `DATA_DIR` (storage/s3-file-store.ts). */
  s3?: S3Config;
  /**
   * RECOGNITION_ALLOW_LOOPBACK_CALLBACKS=1 (old name RECOGNITION_ALLOW_PRIVATE_CALLBACKS, same meaning now):
   * callback URLs may point at loopback (127.0.0.0/8, ::1), for a receiver on the same machine. Private ranges,
   * link-local and cloud metadata stay refused whatever this says.
   */
  allowLoopbackCallbacks: boolean;
  /** RECOGNITION_WORKERS, default 2: concurrent recognition workers in this process. */
  workers: number;
  /** RECOGNITION_HIGH_SLOTS, default 2: concurrent priority=high requests (each with its own pool thread). */
  highSlots: number;
  /** RECOGNITION_TASK_MEMORY_MB, default 768: V8 heap cap of each recognition pool thread. */
  taskMemoryMb: number;
  /**
   * RECOGNITION_OCR_LANGUAGES, default `rus`: Tesseract's languages for every page the local engine reads,
   * `rus`, `eng` or both joined by `+` (`rus+eng` reads Latin brands and model codes, at a cost in Cyrillic names:
   * docs/recognition-engine.md "Latin letters").
   */
  ocrLanguages: string;
  /** LOG_LEVEL, default info. */
  logLevel: string;
  /** RECOGNITION_IMAGE_RETENTION_DAYS, default 30: page images of finished documents are deleted after this age. */
  imageRetentionDays: number;
  /**
   * RECOGNITION_SHUTDOWN_GRACE_MS, default 20000 (1000–600000): on SIGTERM/SIGINT the process releases its jobs at
   * once and exits within this time even if something hangs; keep it below the orchestrator's grace period (docs/decisions.md "Shutdown releases jobs").
   */
  shutdownGraceMs: number;
  /**
   * RECOGNITION_TESSERACT_MEMORY_MB, default 1024 (0 = no limit, else 128–16384): address-space limit of each
   * Tesseract process (`prlimit --as`), so native memory of one page cannot take the worker process down (docs/decisions.md "Tesseract memory limit").
   */
  tesseractMemoryMb: number;
  /**
   * RECOGNITION_UPD_XSD: absolute path of the official FNS schema `ON_NSCHFDOPPR_1_997_01_05_03_05.xsd` (UPD 5.03
   * seller title), which formalized XML export is validated against (docs/formalized-xml.md). Not shipped with the
   * repository; absent → validation answers `validator_unavailable`.
   */
  updXsd?: string;
  edo: EdoConfig;
  admin: AdminConfig;
  /** TRUST_PROXY (see {@link parseTrustProxy}); default false. */
  trustProxy: TrustProxy;
}

const DIADOC_REQUIRED = ['DIADOC_CLIENT_ID', 'DIADOC_CLIENT_SECRET', 'DIADOC_REFRESH_TOKEN', 'DIADOC_BOX_ID'] as const;

/** EDO_* and DIADOC_* variables. @throws ConfigError naming the bad or missing variable. */
export function loadEdoConfig(env: NodeJS.ProcessEnv): EdoConfig {
  let masterKey: Buffer | undefined;
  if (env.EDO_MASTER_KEY) {
    masterKey = Buffer.from(env.EDO_MASTER_KEY, 'base64');
    if (masterKey.length !== 32) throw new ConfigError('EDO_MASTER_KEY must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)');
  }
  const given = DIADOC_REQUIRED.filter((n) => env[n]);
  if (given.length > 0 && given.length < DIADOC_REQUIRED.length) {
    throw new ConfigError(`${DIADOC_REQUIRED.filter((n) => !env[n]).join(', ')} must be set together with ${given.join(', ')}`);
  }
  const seed: EdoSeedConfig | undefined =
    given.length === 0
      ? undefined
      : {
          clientId: env.DIADOC_CLIENT_ID,
          clientSecret: env.DIADOC_CLIENT_SECRET,
          refreshToken: env.DIADOC_REFRESH_TOKEN,
          boxId: env.DIADOC_BOX_ID,
          issuerUrl: env.DIADOC_ISSUER_URL || undefined,
          apiBaseUrl: env.DIADOC_API_BASE_URL || undefined,
          scope: env.DIADOC_SCOPE || undefined,
        };
  return { masterKey, timeoutMs: envInt(env, 'EDO_TIMEOUT_MS', 15_000, 500, 120_000), seed };
}

/** A non-negative decimal price, or undefined when unset. */
function envPrice(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** Languages the engine knows (the Debian packages the system check installs). */
const OCR_LANGUAGES = ['rus', 'eng'];

/** RECOGNITION_OCR_LANGUAGES: `rus` by default; each of `rus`/`eng` at most once, joined by `+`. */
/**
 * RECOGNITION_S3_BUCKET (turns the object store on), RECOGNITION_S3_ENDPOINT (http(s) URL; absent: AWS),
 * RECOGNITION_S3_REGION (default us-east-1), RECOGNITION_S3_ACCESS_KEY_ID / RECOGNITION_S3_SECRET_ACCESS_KEY (both or
 * neither: the SDK's default chain), RECOGNITION_S3_FORCE_PATH_STYLE (1/0; default 1 with an endpoint).
 */
function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  const bucket = env.RECOGNITION_S3_BUCKET;
  const others = ['RECOGNITION_S3_ENDPOINT', 'RECOGNITION_S3_ACCESS_KEY_ID', 'RECOGNITION_S3_SECRET_ACCESS_KEY'].filter((k) => env[k]);
  if (!bucket) {
    if (others.length) throw new ConfigError(`${others[0]} is set but RECOGNITION_S3_BUCKET is not`);
    return undefined;
  }
  const endpoint = env.RECOGNITION_S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new ConfigError(`RECOGNITION_S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  const accessKeyId = env.RECOGNITION_S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.RECOGNITION_S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('RECOGNITION_S3_ACCESS_KEY_ID and RECOGNITION_S3_SECRET_ACCESS_KEY go together');
  const pathStyle = env.RECOGNITION_S3_FORCE_PATH_STYLE;
  return {
    bucket,
    endpoint,
    region: env.RECOGNITION_S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === undefined || pathStyle === '' ? undefined : pathStyle === '1',
  };
}

/** RECOGNITION_TESSERACT_MEMORY_MB: 0 turns the limit off; otherwise 128–16384 MB. */
function tesseractMemory(env: NodeJS.ProcessEnv): number {
  return env.RECOGNITION_TESSERACT_MEMORY_MB === '0' ? 0 : envInt(env, 'RECOGNITION_TESSERACT_MEMORY_MB', 1024, 128, 16_384);
}

function ocrLanguages(env: NodeJS.ProcessEnv): string {
  const raw = (env.RECOGNITION_OCR_LANGUAGES ?? '').trim();
  if (raw === '') return 'rus';
  const langs = raw.split('+');
  if (langs.some((l) => !OCR_LANGUAGES.includes(l)) || new Set(langs).size !== langs.length)
    throw new ConfigError(`RECOGNITION_OCR_LANGUAGES must be rus, eng or both joined by + (e.g. rus+eng), got "${raw}"`);
  return raw;
}

/** RECOGNITION_UPD_XSD: an absolute path or unset; whether the file exists is checked when validating. */
function updXsd(env: NodeJS.ProcessEnv): string | undefined {
  const raw = (env.RECOGNITION_UPD_XSD ?? '').trim();
  if (raw === '') return undefined;
  if (!isAbsolute(raw)) throw new ConfigError(`RECOGNITION_UPD_XSD must be an absolute path to ON_NSCHFDOPPR_1_997_01_05_03_05.xsd, got "${raw}"`);
  return raw;
}

/** Reads the configuration; throws ConfigError naming the bad variable. Nothing else reads process.env. */
export function loadRecognitionConfig(env: NodeJS.ProcessEnv = process.env): RecognitionConfig {
  let ai: AiConfig | undefined;
  if (env.AI_BASE_URL) {
    if (!/^https?:\/\//.test(env.AI_BASE_URL)) throw new ConfigError(`AI_BASE_URL must be an http(s) URL, got "${env.AI_BASE_URL}"`);
    if (!env.AI_MODEL) throw new ConfigError('AI_MODEL is required when AI_BASE_URL is set');
    ai = {
      baseUrl: env.AI_BASE_URL.replace(/\/+$/, ''),
      apiKey: env.AI_API_KEY ?? '',
      model: env.AI_MODEL,
      timeoutMs: envInt(env, 'AI_TIMEOUT_MS', 30_000, 1000, 120_000),
      cost: { inputPerMTok: envPrice(env, 'AI_COST_INPUT_PER_MTOK'), outputPerMTok: envPrice(env, 'AI_COST_OUTPUT_PER_MTOK') },
    };
  }
  return {
    port: envInt(env, 'RECOGNITION_PORT', 3100, 0, 65535),
    imageRetentionDays: envInt(env, 'RECOGNITION_IMAGE_RETENTION_DAYS', 30, 1, 3650),
    shutdownGraceMs: envInt(env, 'RECOGNITION_SHUTDOWN_GRACE_MS', 20_000, 1000, 600_000),
    tesseractMemoryMb: tesseractMemory(env),
    s3: s3Config(env),
    host: env.RECOGNITION_HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || 'data'),
    ai,
    allowLoopbackCallbacks: envFlag(env, 'RECOGNITION_ALLOW_LOOPBACK_CALLBACKS') || envFlag(env, 'RECOGNITION_ALLOW_PRIVATE_CALLBACKS'),
    workers: envInt(env, 'RECOGNITION_WORKERS', 2, 0, 32),
    highSlots: envInt(env, 'RECOGNITION_HIGH_SLOTS', 2, 1, 16),
    taskMemoryMb: envInt(env, 'RECOGNITION_TASK_MEMORY_MB', 768, 128, 8192),
    ocrLanguages: ocrLanguages(env),
    logLevel: env.LOG_LEVEL || 'info',
    updXsd: updXsd(env),
    edo: loadEdoConfig(env),
    admin: loadAdminConfig(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
