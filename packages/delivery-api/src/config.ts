import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ConfigError, envFlag, envInt } from '@app/shared';
import type { RedisSettings } from './redis/redis-client.js';

export { ConfigError };

/** Runtime configuration of the delivery API, parsed once from the environment. */
export interface DeliveryConfig {
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** Listen address (HOST, default 127.0.0.1). */
  host: string;
  /** PostgreSQL URL (DATABASE_URL); absent → embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  /** Folder for PGlite, the generated master key and demo credentials (DATA_DIR, default ./data). */
  dataDir: string;
  /** 32-byte key that encrypts API and webhook secrets at rest (MASTER_KEY, base64 or hex). */
  masterKey: Buffer;
  /** Seconds a used X-Request-ID is remembered (REQUEST_ID_TTL_SECONDS, default 600, at least 120 = 2 × skew). */
  requestIdTtlSeconds: number;
  /**
   * Redis for single-use request ids and the shared per-phone loyalty limit (REDIS_URL; absent → the database and
   * per-instance memory), with a command timeout (REDIS_COMMAND_TIMEOUT_MS, default 500) and key prefix
   * (REDIS_KEY_PREFIX, default `delivery:`).
   */
  redis?: RedisSettings;
  /** Days after which delivered webhook deliveries and their attempt log are deleted (WEBHOOK_RETENTION_DAYS, default 30). */
  webhookRetentionDays: number;
  /** A terminal is alive while its last heartbeat is younger than this (POS_HEARTBEAT_WINDOW_SECONDS, default 90). */
  heartbeatWindowSeconds: number;
  /** pino level (LOG_LEVEL, default info). */
  logLevel: string;
  /** Loyalty service base URL (LOYALTY_URL); absent → loyalty not connected. */
  loyaltyUrl?: string;
  /** Loyalty API login (LOYALTY_API_LOGIN). */
  loyaltyApiLogin?: string;
  /** Per-call loyalty timeout in ms (LOYALTY_TIMEOUT_MS, default 5000). */
  loyaltyTimeoutMs: number;
  /**
   * General limits for sources with the `rate-limits` switch, requests per minute (RATE_LIMIT_PER_KEY, default the
   * spec's 600; RATE_LIMIT_PER_IP, default 100). The benchmark raises them to measure the check without refusals.
   */
  partnerLimits: { perKey: number; perIp: number };
  /** Allow plain-http webhook URLs to loopback (WEBHOOKS_ALLOW_INSECURE_LOOPBACK=1; tests and the demo only). */
  webhooksAllowInsecureLoopback: boolean;
}

function parseKey(raw: string, name: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(`${name} must be 32 bytes as 64 hex characters or base64`);
  return key;
}

/**
 * Reads the configuration. Without MASTER_KEY a key is generated once into `<dataDir>/master.key`
 * (embedded default only; production sets MASTER_KEY). Throws ConfigError naming the bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const dataDir = resolve(env.DATA_DIR || 'data');
  let masterKey: Buffer;
  if (env.MASTER_KEY) masterKey = parseKey(env.MASTER_KEY, 'MASTER_KEY');
  else {
    const file = join(dataDir, 'master.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    }
    masterKey = parseKey(readFileSync(file, 'utf8').trim(), file);
  }
  if (env.LOYALTY_URL && !env.LOYALTY_API_LOGIN) throw new ConfigError('LOYALTY_API_LOGIN is required with LOYALTY_URL');
  return {
    port: envInt(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    masterKey,
    requestIdTtlSeconds: envInt(env, 'REQUEST_ID_TTL_SECONDS', 600, 120, 86400),
    redis: env.REDIS_URL
      ? {
          url: env.REDIS_URL,
          commandTimeoutMs: envInt(env, 'REDIS_COMMAND_TIMEOUT_MS', 500, 10, 10000),
          keyPrefix: env.REDIS_KEY_PREFIX ?? 'delivery:',
        }
      : undefined,
    webhookRetentionDays: envInt(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    heartbeatWindowSeconds: envInt(env, 'POS_HEARTBEAT_WINDOW_SECONDS', 90, 5, 3600),
    logLevel: env.LOG_LEVEL || 'info',
    loyaltyUrl: env.LOYALTY_URL || undefined,
    loyaltyApiLogin: env.LOYALTY_API_LOGIN || undefined,
    loyaltyTimeoutMs: envInt(env, 'LOYALTY_TIMEOUT_MS', 5000, 100, 60000),
    webhooksAllowInsecureLoopback: envFlag(env, 'WEBHOOKS_ALLOW_INSECURE_LOOPBACK'),
    partnerLimits: {
      perKey: envInt(env, 'RATE_LIMIT_PER_KEY', 600, 1, 1_000_000_000),
      perIp: envInt(env, 'RATE_LIMIT_PER_IP', 100, 1, 1_000_000_000),
    },
  };
}
