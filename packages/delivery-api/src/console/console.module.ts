import { AccountLockout, AdminAccountsRepo, AdminAuditRepo, AdminAuthService, type AdminSettings, AuditLog } from '@app/admin-web';
import type { Clock, Db, IdSource, Queryable } from '@app/shared';

/** The console's roles, most privileged first: `admin` everything, `support` orders and webhooks. */
export const CONSOLE_ROLES = ['admin', 'support'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** The roles' names in the console. */
export const CONSOLE_ROLE_LABELS: Record<string, string> = { admin: 'Администратор', support: 'Поддержка' };

/** The console's account, session and audit tables (migration 010); new accounts are `support` unless named. */
export const CONSOLE_TABLES = { users: 'console_users', sessions: 'console_sessions', audit: 'console_audit', defaultRole: 'support' } as const;

/** The one owner of `console_users` and `console_sessions`: the shared panel store on the console's tables. */
export const consoleAccounts = (db: Queryable): AdminAccountsRepo => new AdminAccountsRepo(db, CONSOLE_TABLES);

/** Builds the console's account, session and audit services (the pages' own services are added by their folders). */
export function createConsoleCore(d: { db: Db; clock: Clock; ids: IdSource; settings: AdminSettings }) {
  const accounts = consoleAccounts(d.db);
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
    audit: new AuditLog({ repo: new AdminAuditRepo(d.db, CONSOLE_TABLES.audit), clock: d.clock, ids: d.ids }),
  };
}

export type ConsoleCore = ReturnType<typeof createConsoleCore>;
