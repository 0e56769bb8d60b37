import type { Clock } from '@app/shared';
import type { FileStore } from '../storage/file-store.js';
import type { DocumentsRepo } from './documents.repo.js';

/**
 * Files younger than this are never swept: an upload writes its files before it commits its row (a 10 MB × 5
 * upload plus its checks takes seconds), so a fresh folder without a row is most likely an upload in progress.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Makes storage agree with the rows (docs/decisions.md "Storage agrees with the rows"): removes the files of documents that have no row, once
 * they are older than {@link ORPHAN_GRACE_MS} on the injected clock. Such files come from an upload that crashed
 * between writing its files and committing its row, or a DELETE that committed and crashed before removing them;
 * image retention never sees them because it starts from rows. Checks rows in batches of 500; safe in several
 * processes (removal is idempotent). Resolves with the number of documents whose files were removed.
 */
export class OrphanFileSweep {
  constructor(private readonly deps: { files: FileStore; docs: DocumentsRepo; clock: Clock; log?: (msg: string, extra: object) => void }) {}

  async runOnce(): Promise<number> {
    const before = this.deps.clock.now().getTime() - ORPHAN_GRACE_MS;
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const kept = await this.deps.docs.existing(batch);
      for (const id of batch) {
        if (kept.has(id)) continue;
        await this.deps.files.removeDocument(id);
        removed++;
      }
      batch = [];
    };
    for await (const f of this.deps.files.listDocuments()) {
      if (f.modifiedAt.getTime() >= before) continue;
      batch.push(f.documentId);
      if (batch.length === 500) await flush();
    }
    if (batch.length) await flush();
    if (removed > 0) this.deps.log?.('orphan files removed', { documents: removed });
    return removed;
  }
}
