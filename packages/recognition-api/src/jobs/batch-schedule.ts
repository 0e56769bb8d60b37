/** Batch documents are processed in batches every 15 minutes (Spec: Limits, "Batch processing"). */
export const BATCH_INTERVAL_MS = 15 * 60 * 1000;

/**
 * The batch tick a `priority=batch` document waits for: the next quarter hour (UTC :00, :15, :30, :45; the same
 * instants in Moscow time, which is UTC+3 with no DST) strictly after `createdAt`. Stored as the row's
 * `available_at`, so the tick survives restarts and is never missed: workers claim the row once the clock passes it.
 */
export function nextBatchTick(createdAt: Date): Date {
  const t = createdAt.getTime();
  return new Date((Math.floor(t / BATCH_INTERVAL_MS) + 1) * BATCH_INTERVAL_MS);
}
