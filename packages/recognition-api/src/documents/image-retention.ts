import type { Clock } from '@app/shared';
import { Counter, type Registry } from 'prom-client';
import type { FileStore } from '../storage/file-store.js';
import type { DocumentsRepo } from './documents.repo.js';

/** Default age of a finished document after which its page images are deleted (RECOGNITION_IMAGE_RETENTION_DAYS). */
export const DEFAULT_IMAGE_RETENTION_DAYS = 30;

/**
 * Deletes the uploaded page images of documents finished (`completed` or `failed`) more than `days` ago, in
 * batches, and marks them `files_purged_at`; the document row keeps its recognised data, export and status, only
 * the images go (the admin panel then says the page images were deleted). Files first, mark second: a crash in
 * between deletes the (already missing) files again on the next run. Queued and processing documents are never
 * touched. Counts `recognition_images_purged_total` (documents) and logs `image retention purge` per run that
 * removed something. Time from the injected clock; safe with several instances (file removal is idempotent).
 */
export class ImageRetention {
  private readonly purged: Counter;

  constructor(
    private readonly deps: {
      docs: Pick<DocumentsRepo, 'findPurgeable' | 'markFilesPurged'>;
      files: FileStore;
      clock: Clock;
      registry: Registry;
      /** Age in days (≥ 1). */
      days: number;
      log?: (msg: string, extra: object) => void;
      /** Documents per batch (default 100). */
      batchSize?: number;
      /** Batches per run (default 50); the rest waits for the next run. */
      maxBatches?: number;
    },
  ) {
    this.purged = new Counter({
      name: 'recognition_images_purged_total',
      help: 'Documents whose page images were deleted by retention',
      registers: [deps.registry],
    });
  }

  /** One run; resolves with the number of documents whose images were deleted. Throws database or file errors. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const before = new Date(now.getTime() - this.deps.days * 86_400_000);
    const size = this.deps.batchSize ?? 100;
    let total = 0;
    for (let i = 0; i < (this.deps.maxBatches ?? 50); i++) {
      const ids = await this.deps.docs.findPurgeable(before, size);
      for (const id of ids) await this.deps.files.removeDocument(id);
      if (ids.length) await this.deps.docs.markFilesPurged(ids, now);
      total += ids.length;
      if (ids.length < size) break;
    }
    if (total > 0) {
      this.purged.inc(total);
      this.deps.log?.('image retention purge', { documents: total, finishedBefore: before.toISOString() });
    }
    return total;
  }
}
