import { Counter, type Registry } from 'prom-client';

/** What a retention purge removes; the `kind` label of `delivery_retention_purged_total`. */
export type PurgeKind = 'request_ids' | 'webhook_deliveries' | 'webhook_attempts' | 'webhook_events';

/** Counts purged rows per kind (served at /metrics). */
export interface RetentionMetrics {
  purged(kind: PurgeKind, rows: number): void;
}

/** prom-client implementation: the counter `delivery_retention_purged_total{kind}` (rows deleted by this instance). */
export function createRetentionMetrics(registry: Registry): RetentionMetrics {
  const purged = new Counter({
    name: 'delivery_retention_purged_total',
    help: 'Rows deleted by the retention purges, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  for (const kind of ['request_ids', 'webhook_deliveries', 'webhook_attempts', 'webhook_events'] as const) purged.inc({ kind }, 0);
  return { purged: (kind, rows) => purged.inc({ kind }, rows) };
}
