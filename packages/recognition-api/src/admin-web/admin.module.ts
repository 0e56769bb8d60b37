import { AccountLockout, AdminAuditRepo, AdminAuthService, type AdminSettings, AuditLog } from '@app/admin-web';
import type { Clock, Db, IdSource } from '@app/shared';
import { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import { DocumentsRepo } from '../documents/documents.repo.js';
import type { EdoServices } from '../edo/edo.module.js';
import { nextBatchTick } from '../jobs/batch-schedule.js';
import type { KeyUsageCounter } from '../keys/key-usage.js';
import { KeysQueries } from '../keys/keys.queries.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import type { FileStore } from '../storage/file-store.js';
import { AdminDocumentsRepo } from './admin-documents.repo.js';
import { AdminDocumentsService } from './admin-documents.service.js';
import { AdminEdoService } from './admin-edo.service.js';
import { AdminKeysService } from './admin-keys.service.js';
import { ADMIN_TABLES, adminAccounts } from './admin-store.js';

export { type AdminPanelOptions, type AdminSettings, adminSettings } from '@app/admin-web';

/** The panel's services, built from the app's shared objects. */
export function createAdminServices(d: {
  db: Db;
  clock: Clock;
  ids: IdSource;
  files: FileStore;
  keys: KeysRepo;
  /** Per-key request counts; flushed before the keys page reads them. */
  keyUsage?: KeyUsageCounter;
  edo: EdoServices;
  settings: AdminSettings;
  /** The API's DELETE /documents/{id} (row, pending callback, files), reused by the panel. */
  deleteDocument: (apiKeyId: string, id: string) => Promise<unknown>;
  /**
   * The API's POST /documents/{id}/callbacks/resend (a new attempt series of the same delivery), reused by the panel.
   * @throws ApiError DOCUMENT_NOT_READY, CALLBACK_NOT_CONFIGURED, CALLBACK_IN_PROGRESS.
   */
  resendCallback: (apiKeyId: string, id: string) => Promise<unknown>;
  /** Wakes an idle worker after a document is queued (as an upload does). */
  onQueued?: () => void;
}) {
  const repo = adminAccounts(d.db);
  const keysQueries = new KeysQueries(d.db);
  /** A failed document back in the queue, its old callback dropped so the new outcome is called back. */
  const retryFailed = async (id: string): Promise<boolean> => {
    const ok = await d.db.tx(async (q) => {
      const now = d.clock.now();
      if (!(await new DocumentsRepo(q).requeueFailed(id, now, nextBatchTick(now)))) return false;
      await new CallbacksRepo(q).deleteForDocument(id);
      return true;
    });
    if (ok) d.onQueued?.();
    return ok;
  };
  return {
    repo,
    auth: new AdminAuthService({
      repo,
      clock: d.clock,
      ids: d.ids,
      limits: { idleMs: d.settings.idleMs, absoluteMs: d.settings.absoluteMs },
      lockout: new AccountLockout(d.clock, d.settings.accountMaxFailures, d.settings.loginWindowMs),
    }),
    keys: new AdminKeysService({ keys: d.keys, overview: keysQueries, usage: d.keyUsage, clock: d.clock }),
    keyNames: keysQueries,
    edo: new AdminEdoService({ connection: d.edo.connection, gateway: d.edo.gateway, session: d.edo.session }),
    audit: new AuditLog({ repo: new AdminAuditRepo(d.db, ADMIN_TABLES.audit), clock: d.clock, ids: d.ids }),
    documents: new AdminDocumentsService({ docs: new AdminDocumentsRepo(d.db), files: d.files, deleteDocument: d.deleteDocument, retryFailed }),
    /** A document's completion callback and its attempts, shown on the document page. */
    callbacks: new CallbacksRepo(d.db),
    resendCallback: d.resendCallback,
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
