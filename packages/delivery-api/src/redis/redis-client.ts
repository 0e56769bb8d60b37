import { Redis } from 'ioredis';

/** Redis connection settings of the delivery API (config: REDIS_URL, REDIS_COMMAND_TIMEOUT_MS, REDIS_KEY_PREFIX). */
export interface RedisSettings {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** A command not answered within this many milliseconds fails (the caller answers 503). */
  commandTimeoutMs: number;
  /** Prefix of every key this service writes, e.g. `delivery:`; tests use one per test. */
  keyPrefix: string;
}

/** A connected Redis client and the key prefix to write under. */
export interface RedisDeps {
  client: Redis;
  keyPrefix: string;
}

/**
 * Opens a Redis client that fails fast instead of waiting: commands time out after `commandTimeoutMs`, are never
 * queued while disconnected (connection refused → the command fails at once) and are not retried on another
 * connection. The client reconnects in the background (back-off up to 2 s), so the service recovers by itself
 * when Redis is back. Nothing is awaited here: callers see failures per command.
 */
export function openRedis(settings: RedisSettings): RedisDeps {
  const client = new Redis(settings.url, {
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: Math.max(1000, settings.commandTimeoutMs),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  client.on('error', () => {}); // failures surface per command (503); without a listener ioredis logs each retry
  return { client, keyPrefix: settings.keyPrefix };
}

/** Resolves once the client is ready (tests and start-up checks); rejects after `timeoutMs`. */
export async function redisReady(client: Redis, timeoutMs = 5000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error(`Redis not ready within ${timeoutMs} ms (status ${client.status})`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', onReady);
  });
}
