import { AdminAccountsRepo } from '@app/admin-web';
import type { Queryable } from '@app/shared';

/** The panel's account, session and audit tables (migrations 004, 011, 012); new accounts are `admin` unless named. */
export const ADMIN_TABLES = { users: 'admin_users', sessions: 'admin_sessions', audit: 'admin_audit', defaultRole: 'admin' } as const;

/** The one owner of `admin_users` and `admin_sessions`: the shared panel store (`@app/admin-web`) on the panel's tables. */
export const adminAccounts = (db: Queryable): AdminAccountsRepo => new AdminAccountsRepo(db, ADMIN_TABLES);
