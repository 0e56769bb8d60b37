import type { Clock, Db } from '@app/shared';
import type { PurgeKind, RetentionMetrics } from './retention-metrics.js';
import { purgeDeliveredWebhooksBatch, purgeRequestIdsBatch } from './retention.repo.js';

/** Default age after which delivered webhook deliveries and their attempt log are deleted (WEBHOOK_RETENTION_DAYS). */
export const DEFAULT_WEBHOOK_RETENTION_DAYS = 30;

/** A pino-like logger (only `info` and `warn` are used). */
export interface RetentionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Rows deleted by one run, per kind. */
export type RetentionRun = Record<PurgeKind, number>;

/**
 * Scheduled deletion of data the service no longer needs, in small batches so no statement holds locks for long:
 * used request ids past their window (database store only; Redis expires its own keys) and webhook deliveries
 * delivered more than `webhookRetentionDays` ago with their attempt log and event. Dead deliveries are kept until
 * the operator replays or deletes them (`webhook purge-dead`); pending ones are never touched. Each kind that
 * removed rows gives one log line (`retention purge`) and adds to `delivery_retention_purged_total{kind}`.
 * Time comes from the injected clock. Safe with several instances (each batch locks with SKIP LOCKED or deletes by
 * primary key).
 */
export class Retention {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: RetentionLog;
      metrics: RetentionMetrics;
      /** Age in days after which delivered webhooks are deleted (≥ 1). */
      webhookRetentionDays: number;
      /** Purge used request ids from the database (false when they live in Redis). */
      requestIdsInDatabase: boolean;
      /** Rows per batch (default 500). */
      batchSize?: number;
      /** Batches per kind per run (default 200); the rest waits for the next run. */
      maxBatches?: number;
    },
  ) {}

  /** One run over every kind; resolves with the rows deleted. Throws the first database error. */
  async runOnce(): Promise<RetentionRun> {
    const now = this.deps.clock.now();
    const out: RetentionRun = { request_ids: 0, webhook_deliveries: 0, webhook_attempts: 0, webhook_events: 0 };
    if (this.deps.requestIdsInDatabase) {
      out.request_ids = await this.batches(() => purgeRequestIdsBatch(this.deps.db, now, this.batchSize));
      this.report('request_ids', out.request_ids, { expiredBefore: now.toISOString() });
    }
    const before = new Date(now.getTime() - this.deps.webhookRetentionDays * 86_400_000);
    const webhooks = { webhook_deliveries: 0, webhook_attempts: 0, webhook_events: 0 };
    await this.batches(async () => {
      const c = await purgeDeliveredWebhooksBatch(this.deps.db, before, this.batchSize);
      webhooks.webhook_deliveries += c.deliveries;
      webhooks.webhook_attempts += c.attempts;
      webhooks.webhook_events += c.events;
      return c.deliveries;
    });
    for (const kind of ['webhook_deliveries', 'webhook_attempts', 'webhook_events'] as const) {
      out[kind] = webhooks[kind];
      this.report(kind, webhooks[kind], { deliveredBefore: before.toISOString() });
    }
    return out;
  }

  private get batchSize(): number {
    return this.deps.batchSize ?? 500;
  }

  /** Runs `batch` until one removes fewer than a full batch or the cap is reached; returns the rows removed. */
  private async batches(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < (this.deps.maxBatches ?? 200); i++) {
      const n = await batch();
      total += n;
      if (n < this.batchSize) break;
    }
    return total;
  }

  private report(kind: PurgeKind, rows: number, window: object): void {
    if (rows === 0) return;
    this.deps.metrics.purged(kind, rows);
    this.deps.log.info({ kind, rows, ...window }, 'retention purge');
  }
}
