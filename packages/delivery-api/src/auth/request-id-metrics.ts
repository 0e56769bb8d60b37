import { Histogram, type Registry } from 'prom-client';
import type { RequestIdStore } from './request-id-store.port.js';

/**
 * The single-use store with its latency at /metrics: `delivery_request_id_store_seconds{store,outcome}`, seconds
 * per `consume` call, `outcome` = `fresh` (id recorded), `reused` (401) or `error` (store unreachable → 503).
 * `store` is `database` or `redis`. Every signed request pays this call, so it bounds the signed 304 path.
 */
export function timedRequestIdStore(inner: RequestIdStore, store: 'database' | 'redis', registry: Registry): RequestIdStore {
  const seconds = new Histogram({
    name: 'delivery_request_id_store_seconds',
    help: 'X-Request-ID single-use store latency by store and outcome',
    labelNames: ['store', 'outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  return {
    async consume(apiKey, requestId, now, expiresAt) {
      const end = seconds.startTimer({ store });
      try {
        const fresh = await inner.consume(apiKey, requestId, now, expiresAt);
        end({ outcome: fresh ? 'fresh' : 'reused' });
        return fresh;
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    },
  };
}
