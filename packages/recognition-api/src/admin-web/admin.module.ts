import { randomBytes } from 'node:crypto';
import type { Clock, Db, IdSource } from '@app/shared';
import type { EdoServices } from '../edo/edo.module.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import type { FileStore } from '../storage/file-store.js';
import { AccountLockout } from './account-lockout.js';
import { AdminAudit } from './admin-audit.js';
import { AdminAuditRepo } from './admin-audit.repo.js';
import { AdminAuthService } from './admin-auth.service.js';
import { AdminDocumentsRepo } from './admin-documents.repo.js';
import { AdminDocumentsService } from './admin-documents.service.js';
import { AdminEdoService } from './admin-edo.service.js';
import { AdminKeysRepo } from './admin-keys.repo.js';
import { AdminKeysService } from './admin-keys.service.js';
import { AdminRepo } from './admin.repo.js';
import { CallbacksRepo } from '../callbacks/callbacks.repo.js';

/** Options of the panel (config.ts `admin`, in milliseconds); every one has a default for tests. */
export interface AdminPanelOptions {
  /** 32 bytes that encrypt the session cookie; default random (sessions then end with the process). */
  sessionKey?: Buffer;
  cookieSecure?: 'auto' | boolean;
  idleMs?: number;
  absoluteMs?: number;
  loginMaxAttempts?: number;
  loginWindowMs?: number;
  /** Wrong passwords for one user name within loginWindowMs before that name is locked (any address). */
  accountMaxFailures?: number;
}

/** The panel's settings with defaults applied. */
export type AdminSettings = Required<AdminPanelOptions>;

export function adminSettings(o: AdminPanelOptions = {}): AdminSettings {
  return {
    sessionKey: o.sessionKey ?? randomBytes(32),
    cookieSecure: o.cookieSecure ?? 'auto',
    idleMs: o.idleMs ?? 30 * 60_000,
    absoluteMs: o.absoluteMs ?? 12 * 3_600_000,
    loginMaxAttempts: o.loginMaxAttempts ?? 10,
    loginWindowMs: o.loginWindowMs ?? 15 * 60_000,
    accountMaxFailures: o.accountMaxFailures ?? 10,
  };
}

/** The panel's services, built from the app's shared objects. */
export function createAdminServices(d: {
  db: Db;
  clock: Clock;
  ids: IdSource;
  files: FileStore;
  keys: KeysRepo;
  edo: EdoServices;
  settings: AdminSettings;
  /** The API's DELETE /documents/{id} (row, pending callback, files), reused by the panel. */
  deleteDocument: (apiKeyId: string, id: string) => Promise<unknown>;
}) {
  const repo = new AdminRepo(d.db);
  return {
    repo,
    auth: new AdminAuthService({
      repo,
      clock: d.clock,
      ids: d.ids,
      limits: { idleMs: d.settings.idleMs, absoluteMs: d.settings.absoluteMs },
      lockout: new AccountLockout(d.clock, d.settings.accountMaxFailures, d.settings.loginWindowMs),
    }),
    keys: new AdminKeysService({ keys: d.keys, overview: new AdminKeysRepo(d.db) }),
    keyNames: new AdminKeysRepo(d.db),
    edo: new AdminEdoService({ connection: d.edo.connection, gateway: d.edo.gateway, session: d.edo.session }),
    audit: new AdminAudit({ repo: new AdminAuditRepo(d.db), clock: d.clock, ids: d.ids }),
    documents: new AdminDocumentsService({ docs: new AdminDocumentsRepo(d.db), files: d.files, deleteDocument: d.deleteDocument }),
    /** A document's completion callback and its attempts, shown on the document page (issue 27). */
    callbacks: new CallbacksRepo(d.db),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
