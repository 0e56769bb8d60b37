import { AccountLockout, AdminAuthService, type AdminSettings } from '@app/admin-web';
import type { Clock, Db, IdSource } from '@app/shared';
import { ConsoleAccountsRepo } from './console-accounts.repo.js';
import { ConsoleAudit } from './console-audit.js';
import { ConsoleAuditRepo } from './console-audit.repo.js';

/** The console's roles, most privileged first: `admin` everything, `support` orders and webhooks. */
export const CONSOLE_ROLES = ['admin', 'support'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** The roles' names in the console. */
export const CONSOLE_ROLE_LABELS: Record<string, string> = { admin: 'Администратор', support: 'Поддержка' };

/** Builds the console's account, session and audit services (the pages' own services are added by their folders). */
export function createConsoleCore(d: { db: Db; clock: Clock; ids: IdSource; settings: AdminSettings }) {
  const accounts = new ConsoleAccountsRepo(d.db);
  return {
    accounts,
    auth: new AdminAuthService({
      repo: accounts,
      clock: d.clock,
      ids: d.ids,
      limits: { idleMs: d.settings.idleMs, absoluteMs: d.settings.absoluteMs },
      lockout: new AccountLockout(d.clock, d.settings.accountMaxFailures, d.settings.loginWindowMs),
      roles: CONSOLE_ROLES,
      roleError: 'Роль: администратор или поддержка.',
    }),
    audit: new ConsoleAudit({ repo: new ConsoleAuditRepo(d.db), clock: d.clock, ids: d.ids }),
  };
}

export type ConsoleCore = ReturnType<typeof createConsoleCore>;
